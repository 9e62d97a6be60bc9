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

#ifdef ML_PDEP
#include <immintrin.h>
/* Where the processor has AVX-512 (F and BW; e->spread 3), the changed
 * planes are written by this function, compiled for it and called from
 * any copy of the step: each cell's bit a lane of a mask register, 16
 * float cells or 64 byte cells a store, where the step's copies write 8
 * (AVX2) from a table. Valgrind does not run AVX-512 code, so callgrind
 * counts the other path; see spread_planes_512 for its measured figure.
 * DRAUGHTS_NO_AVX512 in the environment, when a VectorEnv is made, keeps
 * the other path (the tests check both against the Python step). */
#define ML_AVX512 __attribute__((target("avx512f,avx512bw,bmi2")))
#define ML_INLINE512 static inline __attribute__((always_inline)) ML_AVX512

/* The bits of cells at .. at + 63 (at a constant) of the cells' bits lo
 * (0 .. 63), hi (64 ..). */
ML_INLINE512 uint64_t bits_from(uint64_t lo, uint64_t hi, const int at) {
    if (at == 0) return lo;
    if (at >= 64) return hi >> (at - 64);
    return (lo >> at) | (hi << (64 - at));
}

/* The plane of hw cells (a constant where inlined) showing the cells of
 * bits lo, hi: the last store overlaps the one before where hw is no
 * multiple of its cells; a board of fewer cells than a store takes one
 * store masked to them. */
ML_INLINE512 void plane_512(void *plane, uint64_t lo, uint64_t hi, const int hw, const int u8) {
    if (u8) {
        const __m512i on = _mm512_set1_epi8((char)0xFF);
        uint8_t *p = (uint8_t *)plane;
        if (hw < 64) {
            _mm512_mask_storeu_epi8(p, ((uint64_t)1 << hw) - 1, _mm512_maskz_mov_epi8(lo, on));
            return;
        }
        for (int at = 0; at + 64 <= hw; at += 64)
            _mm512_storeu_si512(p + at, _mm512_maskz_mov_epi8(bits_from(lo, hi, at), on));
        if (hw % 64)
            _mm512_storeu_si512(p + hw - 64,
                                _mm512_maskz_mov_epi8(bits_from(lo, hi, hw - 64), on));
        return;
    }
    const __m512 one = _mm512_set1_ps(1.0f);
    float *p = (float *)plane;
    if (hw < 16) {
        _mm512_mask_storeu_ps(p, (__mmask16)(((uint32_t)1 << hw) - 1),
                              _mm512_maskz_mov_ps((__mmask16)lo, one));
        return;
    }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 8
#endif
    for (int at = 0; at + 16 <= hw; at += 16)
        _mm512_storeu_ps(p + at, _mm512_maskz_mov_ps((__mmask16)bits_from(lo, hi, at), one));
    if (hw % 16)
        _mm512_storeu_ps(p + hw - 16,
                         _mm512_maskz_mov_ps((__mmask16)bits_from(lo, hi, hw - 16), one));
}

ML_INLINE512 void planes_512(const VecEnvObject *e, void *obs, const uint64_t now[4],
                             const uint64_t was[4], const int hw, const int u8) {
    for (int p = 0; p < 4; p++) {
        if (now[p] == was[p]) continue; /* the kings' planes, often empty */
        uint64_t lo = _pdep_u64(now[p], e->spread_lo);
        uint64_t hi = _pdep_u64(now[p] >> e->spread_split, e->spread_hi);
        plane_512((char *)obs + (size_t)p * (size_t)hw * (u8 ? 1 : sizeof(float)), lo, hi, hw, u8);
    }
}

/* spread_planes where e->spread is 3: one call a step that writes planes,
 * hw a constant for the 10x10 and 8x8 boards. By its instructions (its
 * disassembly) some 30 a 10x10 float plane, against some 68 on the AVX2
 * path. Timed, two environments of 256 games in one process, one with
 * DRAUGHTS_NO_AVX512, sample_step() in alternating slices of 20 calls (one
 * thread, load average 2.9 from the machine's other work, 2026-12-06):
 * the AVX-512 path faster in the median slice by 1.028 (International
 * float32, 600 slices; English 1.028, 400; International uint8 1.036,
 * 200), the middle half of the slices 0.98 to 1.08. */
static __attribute__((noinline)) ML_AVX512 void spread_planes_512(const VecEnvObject *e, void *obs,
                                                                const uint64_t now[4],
                                                                const uint64_t was[4], int u8) {
    switch (e->hw * 2 + u8) {
    case 200: planes_512(e, obs, now, was, 100, 0); return;
    case 201: planes_512(e, obs, now, was, 100, 1); return;
    case 128: planes_512(e, obs, now, was, 64, 0); return;
    case 129: planes_512(e, obs, now, was, 64, 1); return;
    default:
        if (u8) planes_512(e, obs, now, was, e->hw, 1);
        else planes_512(e, obs, now, was, e->hw, 0);
        return;
    }
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
    if (e->spread == 3) {
        spread_planes_512(e, obs, now, was, u8);
        return;
    }
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
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
        getenv("DRAUGHTS_NO_AVX512") == NULL)
        e->spread = 3;
#endif
}

#endif
