/* What the files of draughts.pdn's native module (draughts.pdn._native._c)
 * share: the core's C API, read once when the module loads (module.c), and
 * the line reading of pdn_lines.h. */
#ifndef DRAUGHTS_PDN_NATIVE_H
#define DRAUGHTS_PDN_NATIVE_H

#include "core_api.h"
#include "pdn_lines.h"

/* The core's C API (draughts/_core/native/core_api.h). */
extern const CoreAPI *core_api;

#endif
