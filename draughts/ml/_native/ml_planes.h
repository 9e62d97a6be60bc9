/* Whole piece planes of an observation, written with no branch on the
 * pieces (ml_step.c's redraw_pieces, where the view turns at every ply).
 *
 * With the observation seen by the side to move (perspective), the board
 * turns half a turn at every ply: some 19 cells of International random
 * self-play's 24 pieces change a step, each written in a loop over the
 * bits that changed, whose end the processor cannot foresee (callgrind's
 * branch simulation: 5.0 of a step's 12.4 mispredicted branches there).
 * Here a plane is written whole instead, eight cells a store, each eight
 * from the byte of their bits (by BMI2's pdep, or from a table per eight
 * cells: the bits of the square numbers whose cells are among them, at
 * most eight numbers in a row, to the byte) and a table of the eight
 * cells' values per byte: 1,236 instructions and 12.4 mispredicted
 * branches a step before (callgrind's simulation), 1,330 and 8.0 so with
 * the tables, 1.06 times the steps per CPU second (medians of three
 * alternated runs; International random self-play with sample_step(),
 * 256 games, one thread; 2026-12-06, load 2.7).
 *
 * Where some eight cells hold numbers further apart, the loops over the
 * bits that changed (VecEnvObject.spread 0). */
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

/* Eight cells from at to the bits of byte. */
ML_INLINE void put_cells(void *plane, int at, unsigned byte, int u8) {
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

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(DRAUGHTS_PORTABLE_BITS)
/* BMI2's pdep (the bits of src to the places of mask's, in order), in
 * assembly: the step's copy for any x86-64 has it too, run only where the
 * processor has it (e->spread 2). */
#define ML_PDEP 1
ML_INLINE uint64_t pdep(uint64_t src, uint64_t mask) {
    uint64_t out;
    __asm__("pdepq %2, %1, %0" : "=r"(out) : "r"(src), "rm"(mask));
    return out;
}

/* The byte of cells at .. at + 7 (at a constant) of the cells' bits lo (0 .. 63), hi (64 ..). */
ML_INLINE unsigned byte_at(uint64_t lo, uint64_t hi, const int at) {
    if (at + 8 <= 64) return (unsigned)(lo >> at) & 0xFF;
    if (at >= 64) return (unsigned)(hi >> (at - 64)) & 0xFF;
    return (unsigned)((lo >> at) | (hi << (64 - at))) & 0xFF;
}
#endif

/* The plane of hw cells (hw >= 8; a constant where inlined, its stores
 * unrolled) showing the pieces on the bits of numbers b: the cells' bits
 * by pdep where by_pdep (e->spread 2), else from the tables (1,330
 * instructions a step with the tables, 1,299 so: callgrind, International
 * random self-play with sample_step(), 256 games, one thread, 450 calls,
 * 2026-12-06). Eight cells from at: the last eight overlap the ones before
 * where hw is no multiple of eight. */
ML_INLINE void spread_plane(const VecEnvObject *e, void *plane, uint64_t b, const int hw, int u8,
                            const int by_pdep) {
#ifdef ML_PDEP
    if (by_pdep) {
        uint64_t lo = pdep(b, e->spread_lo), hi = pdep(b >> e->spread_split, e->spread_hi);
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 16
#endif
        for (int k = 0; k < hw / 8; k++) put_cells(plane, 8 * k, byte_at(lo, hi, 8 * k), u8);
        if (hw % 8) put_cells(plane, hw - 8, byte_at(lo, hi, hw - 8), u8);
        return;
    }
#else
    (void)by_pdep;
#endif
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 16
#endif
    for (int k = 0; k < hw / 8; k++) {
        unsigned byte = e->spread_byte[k][(b >> e->spread_from[k]) & 0xFF];
        put_cells(plane, 8 * k, byte, u8);
    }
    if (hw % 8) put_cells(plane, hw - 8, e->spread_byte[hw / 8][(b >> e->spread_from[hw / 8]) & 0xFF], u8);
}

/* The planes of obs (bytes where u8) of hw cells whose bits of numbers
 * differ from was, written whole. */
ML_INLINE void spread_planes_as(const VecEnvObject *e, void *obs, const uint64_t now[4],
                                const uint64_t was[4], const int hw, int u8, const int by_pdep) {
    size_t cell = u8 ? 1 : sizeof(float);
    /* unrolled: 1,299 instructions and 6.2 mispredicted branches an
     * International step before, 1,259 and 5.8 after (English 1,252 and
     * 9.0, 1,211 and 7.9; callgrind, as in spread_plane) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 4
#endif
    for (int p = 0; p < 4; p++) {
        if (now[p] == was[p]) continue; /* the kings' planes, often empty */
        spread_plane(e, (char *)obs + (size_t)p * (size_t)hw * cell, now[p], hw, u8, by_pdep);
    }
}

/* spread_planes_as, hw a constant for the 10x10 and 8x8 boards, and the
 * way the cells' bits are made, each chosen once for the four planes
 * rather than for each plane: 1,215 instructions an International step
 * against 1,233 (English 1,179 and 1,199; callgrind, as in spread_plane;
 * its simulated mispredicted branches, which move with the code's layout,
 * 5.6 against 5.9, English 8.1 against 7.4). */
ML_INLINE void spread_planes(const VecEnvObject *e, void *obs, const uint64_t now[4],
                             const uint64_t was[4], int u8) {
#ifdef ML_PDEP
    if (e->spread == 2) {
        switch (e->hw) {
        case 100: spread_planes_as(e, obs, now, was, 100, u8, 1); return;
        case 64: spread_planes_as(e, obs, now, was, 64, u8, 1); return;
        default: spread_planes_as(e, obs, now, was, e->hw, u8, 1); return;
        }
    }
#endif
    switch (e->hw) {
    case 100: spread_planes_as(e, obs, now, was, 100, u8, 0); return;
    case 64: spread_planes_as(e, obs, now, was, 64, u8, 0); return;
    default: spread_planes_as(e, obs, now, was, e->hw, u8, 0); return;
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
#ifdef ML_PDEP
    /* pdep is slow on AMD's Zen 1 and 2 (microcoded) */
    if (!__builtin_cpu_supports("bmi2") || __builtin_cpu_is("znver1") || __builtin_cpu_is("znver2"))
        return;
    uint64_t lo = 0, hi = 0;
    int split = 0;
    for (int n = 0; n < e->nsq; n++) { /* the cells in the numbers' order */
        int cell = e->num_cell[n];
        if (n > 0 && cell <= e->num_cell[n - 1]) return;
        if (cell < 64) lo |= (uint64_t)1 << cell, split++;
        else hi |= (uint64_t)1 << (cell - 64);
    }
    /* where no number is above the split, hi is 0 (and its spread, whatever the shift) */
    e->spread_lo = lo, e->spread_hi = hi, e->spread_split = hi ? split : 0;
    e->spread = 2;
#endif
}

#endif
