/* Whole piece planes of an observation, written with no branch on the
 * pieces (ml_step.c's redraw_pieces, where the view turns at every ply).
 *
 * With the observation seen by the side to move (perspective), the board
 * turns half a turn at every ply: some 19 cells of International random
 * self-play's 24 pieces change a step, each written in a loop over the
 * bits that changed, whose end the processor cannot foresee (callgrind's
 * branch simulation: 5.0 of a step's 12.4 mispredicted branches there).
 * Here a plane is written whole instead, eight cells a store, each eight
 * from two tables: the bits of the square numbers whose cells are among
 * the eight (at most eight numbers in a row) to the byte of those cells,
 * and the byte to the eight cells' values.
 *
 * Where some eight cells hold numbers further apart (no board of the
 * variants), the loops over the bits that changed (VecEnvObject.spread 0). */
#ifndef DRAUGHTS_ML_NATIVE_ML_PLANES_H
#define DRAUGHTS_ML_NATIVE_ML_PLANES_H

#include "ml_step.h"

/* Eight cells per byte b: bit i of b is cell i, as float32 and as bytes. */
#define ML_F(b, i) ((((b) >> (i)) & 1) ? 1.0f : 0.0f)
#define ML_FROW(b) {ML_F(b, 0), ML_F(b, 1), ML_F(b, 2), ML_F(b, 3), \
                    ML_F(b, 4), ML_F(b, 5), ML_F(b, 6), ML_F(b, 7)}
#define ML_B(b, i) ((((b) >> (i)) & 1) ? 255 : 0)
#define ML_BROW(b) {ML_B(b, 0), ML_B(b, 1), ML_B(b, 2), ML_B(b, 3), \
                    ML_B(b, 4), ML_B(b, 5), ML_B(b, 6), ML_B(b, 7)}
#define ML_X4(R, b) R(b), R(b + 1), R(b + 2), R(b + 3)
#define ML_X16(R, b) ML_X4(R, b), ML_X4(R, b + 4), ML_X4(R, b + 8), ML_X4(R, b + 12)
#define ML_X64(R, b) ML_X16(R, b), ML_X16(R, b + 16), ML_X16(R, b + 32), ML_X16(R, b + 48)
#define ML_X256(R) ML_X64(R, 0), ML_X64(R, 64), ML_X64(R, 128), ML_X64(R, 192)

#if defined(__GNUC__) || defined(__clang__)
#define ML_ALIGN32 __attribute__((aligned(32)))
#else
#define ML_ALIGN32
#endif
static const float ml_cells_float[256][8] ML_ALIGN32 = {ML_X256(ML_FROW)};
static const uint8_t ml_cells_byte[256][8] = {ML_X256(ML_BROW)};

/* The plane of hw cells (hw >= 8; a constant where inlined, its stores
 * unrolled) showing the pieces on the bits of numbers b. Eight cells from
 * at: the last eight overlap the ones before where hw is no multiple of
 * eight. */
ML_INLINE void spread_cells(const VecEnvObject *e, void *plane, uint64_t b, int at, int k, int u8) {
    unsigned byte = e->spread_byte[k][(b >> e->spread_from[k]) & 0xFF];
#if defined(__GNUC__) || defined(__clang__) /* one 32-byte move where the processor has them */
    typedef float Cells8 __attribute__((vector_size(32), aligned(4), may_alias));
    if (!u8) {
        *(Cells8 *)((float *)plane + at) = *(const Cells8 *)ml_cells_float[byte];
        return;
    }
#endif
    if (u8) memcpy((uint8_t *)plane + at, ml_cells_byte[byte], 8);
    else memcpy((float *)plane + at, ml_cells_float[byte], 32);
}

ML_INLINE void spread_plane(const VecEnvObject *e, void *plane, uint64_t b, const int hw, int u8) {
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 16
#endif
    for (int k = 0; k < hw / 8; k++) spread_cells(e, plane, b, 8 * k, k, u8);
    if (hw % 8) spread_cells(e, plane, b, hw - 8, hw / 8, u8);
}

/* The planes of obs (bytes where u8) whose bits of numbers differ from
 * was, written whole; hw a constant for the 10x10 and 8x8 boards. */
ML_INLINE void spread_planes(const VecEnvObject *e, void *obs, const uint64_t now[4],
                             const uint64_t was[4], int u8) {
    size_t cell = u8 ? 1 : sizeof(float);
    for (int p = 0; p < 4; p++) {
        if (now[p] == was[p]) continue; /* the kings' planes, often empty */
        void *plane = (char *)obs + (size_t)p * (size_t)e->hw * cell;
        switch (e->hw) {
        case 100: spread_plane(e, plane, now[p], 100, u8); break;
        case 64: spread_plane(e, plane, now[p], 64, u8); break;
        default: spread_plane(e, plane, now[p], e->hw, u8); break;
        }
    }
}

/* e->spread and its tables, once e->num_cell and e->view_ok are known. */
static inline void spread_init(VecEnvObject *e) {
    e->spread = 0;
    if (!e->view_ok || e->hw < 8 || e->hw > 8 * ML_SPREAD_GROUPS) return;
    memset(e->spread_byte, 0, sizeof e->spread_byte);
    for (int j = 0, k = 0; j < e->hw; j += 8, k++) {
        int at = j + 8 <= e->hw ? j : e->hw - 8, from = -1;
        for (int n = 0; n < e->nsq; n++) {
            int cell = e->num_cell[n];
            if (cell < at || cell >= at + 8) continue;
            if (from < 0) from = n; /* the lowest number among the eight cells */
            if (n - from >= 8 || n > 63) return;
        }
        e->spread_from[k] = (uint8_t)(from < 0 ? 0 : from);
        for (int bits = 0; from >= 0 && bits < 256; bits++)
            for (int i = 0; i < 8 && from + i < e->nsq; i++) {
                int cell = e->num_cell[from + i];
                if ((bits >> i) & 1 && cell >= at && cell < at + 8)
                    e->spread_byte[k][bits] |= (uint8_t)(1 << (cell - at));
            }
    }
    e->spread = 1;
}

#endif
