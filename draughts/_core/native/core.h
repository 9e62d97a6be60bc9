/* The native move generator: types shared by movegen.c (pure C, no Python)
 * and module.c (the Python entry points).
 *
 * Squares are "compact" indices 0..n-1: the playing squares of the padded
 * grid of draughts/_core/geometry.py in ascending order of their padded
 * index. The order is kept, so "highest bit first" visits squares in the
 * same order as the pure generator and every list comes out in the same
 * order. A board of at most 128 playing squares fits one unsigned __int128
 * (every preset, and every dark-square board up to 16x16); the Python side
 * falls back to the pure generator beyond that. */
#ifndef DRAUGHTS_NATIVE_CORE_H
#define DRAUGHTS_NATIVE_CORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

/* A bitboard is one 128-bit unsigned integer: GCC and Clang have one
 * (clang-cl too, on Windows), MSVC has none. Rather than a slower two-word
 * bitboard for one compiler, the build stops here with the reason; setup.py
 * then installs the package without the extension and the pure core runs
 * (DRAUGHTS_REQUIRE_NATIVE=1 makes that an error instead). */
#if !defined(__SIZEOF_INT128__)
#error "draughts: the native core needs a C compiler with unsigned __int128 (GCC, Clang or clang-cl), which this one lacks; the package installs without it and runs the pure-Python core."
#endif
typedef unsigned __int128 bb_t;

#define MAX_SQUARES 128
#define NDIRS 8
#define MAX_RULES 8
#define BIT(i) (((bb_t)1) << (i))
/* A square's bit, read from a table rather than shifted: a 128-bit shift
 * by a variable amount is some ten instructions, a read one (the search to
 * depth 9 on the 50 positions of benchmarks/native_speed.py: 3,739 M
 * instructions for 3,825 M with BIT in the core; callgrind, the same trees).
 * BIT stays for constants. */
#define BITS_4_(i) BIT(i), BIT((i) + 1), BIT((i) + 2), BIT((i) + 3)
#define BITS_16_(i) BITS_4_(i), BITS_4_((i) + 4), BITS_4_((i) + 8), BITS_4_((i) + 12)
static const bb_t square_bit[MAX_SQUARES] = {BITS_16_(0),  BITS_16_(16), BITS_16_(32),
                                             BITS_16_(48), BITS_16_(64), BITS_16_(80),
                                             BITS_16_(96), BITS_16_(112)};
#undef BITS_4_
#undef BITS_16_
#define SQUARE_BIT(i) (square_bit[i])

/* The capture precedence criteria, in the order of draughts._options.CaptureRule. */
enum { RULE_MOST_PIECES, RULE_MOST_VALUE, RULE_WITH_KING, RULE_MOST_KINGS, RULE_KINGS_FIRST };

typedef struct {
    int n;                                /* playing squares */
    uint16_t ray_off[MAX_SQUARES][NDIRS]; /* where each ray starts in ray_data */
    uint8_t ray_len[MAX_SQUARES][NDIRS];
    uint8_t *ray_data;                    /* every ray's squares, nearest first */
    int ray_total;
    int man_move_dirs[2][NDIRS], n_man_move[2];
    int man_cap_dirs[2][NDIRS], n_man_cap[2];
    int king_move_dirs[NDIRS], n_king_move;
    int king_cap_dirs[NDIRS], n_king_cap;
    int reverse[NDIRS];
    bb_t board;
    bb_t promotion[2];
    int flying, at_end, reverse_ok, crown_stop, crown_continue, men_capture_kings;
    int lands_behind, stops_behind_king, must_land, majority_only;
    /* Squares are the padded grid's own indices (a board whose padded grid
     * has at most 128 indices): one step along direction d is then always
     * shift[d], and the men of a whole board move with one shift. Else
     * squares are numbered 0..n-1 and each man is looked at in turn. */
    int padded;
    int shift[NDIRS];
    bb_t step_from[NDIRS], jump_from[NDIRS]; /* squares with 1 (2) squares along d */
    int rules[MAX_RULES], n_rules;
    long long man_value, king_value;
    /* Derived by derive_masks: per colour and square, the squares next to
     * a man there in its capture directions (with a square behind them)
     * and in its step directions. */
    bb_t man_jump_near[2][MAX_SQUARES], man_step_near[2][MAX_SQUARES];
    /* Padded layouts, per colour and direction: jump_from[d] (step_from[d])
     * where d is one of the men's capture (step) directions, else 0; and,
     * where the men go along diagonals only on a grid whose stride has
     * its shifts compiled in (8x8 and 10x10 boards), that stride, else 0
     * (see movegen.c). */
    bb_t man_jump_from[2][NDIRS], man_step_from[2][NDIRS];
    int diagonal_stride;
    uint64_t key_men[2][MAX_SQUARES], key_kings[2][MAX_SQUARES], key_black;
    /* Derived by derive_masks, for the flying kings: each ray's squares as
     * a bitboard, and whether its squares rise (1) or fall (-1) along it,
     * so that the nearest piece on it is the lowest (highest) bit of the
     * occupied squares on it; 0 where they do neither (then it is walked). */
    bb_t ray_mask[MAX_SQUARES][NDIRS];
    int8_t ray_order[MAX_SQUARES][NDIRS];
    /* Derived by derive_masks: whether the order of the pieces a route
     * takes counts in the precedence (KINGS_FIRST); then a flying king's
     * search may not merge routes (see movegen.c's RouteMemo). */
    int order_counts;
} Rules;

/* One capture route or step: origin, destination, the captured squares in
 * order and the path (origin, every landing square; ncaps + 1 squares for a
 * capture, empty for a step). */
typedef struct {
    bb_t captured;
    uint8_t origin, dest, crowned, ncaps;
    uint16_t slot; /* a step: its place in ray_data */
    uint8_t caps[MAX_SQUARES];
    uint8_t path[MAX_SQUARES + 1];
} Route;

typedef struct {
    Route *items;
    size_t len, cap;
    int failed; /* out of memory */
} RouteList;

/* A position from the mover's side. */
typedef struct {
    bb_t own_men, own_kings, opp_men, opp_kings;
} Side;

#define RAY(r, sq, d) ((r)->ray_data + (r)->ray_off[sq][d])

/* -- Bits: the one place that counts and finds them -------------------------
 *
 * Without -mpopcnt (not every x86-64 has it), __builtin_popcount is a
 * library call that took 12% of perft's time (13% of the search's): the
 * bit-parallel sum is a dozen inline operations, and portable C. */
static inline int popcount64(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

static inline int popcount(bb_t b) {
    return popcount64((uint64_t)b) + popcount64((uint64_t)(b >> 64));
}

/* The index of the lowest (highest) set bit of x, which is not 0: the
 * compiler's single instruction where it has the built-in, else a binary
 * search in portable C (CFLAGS=-DDRAUGHTS_PORTABLE_BITS builds that one
 * with GCC too, for the tests). */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(DRAUGHTS_PORTABLE_BITS)
static inline int ctz64(uint64_t x) { return __builtin_ctzll(x); }
static inline int clz64(uint64_t x) { return __builtin_clzll(x); }
#else
static inline int ctz64(uint64_t x) {
    int n = 0;
    for (int width = 32; width; width /= 2)
        if (!(x & ((1ULL << width) - 1))) x >>= width, n += width;
    return n;
}
static inline int clz64(uint64_t x) {
    int n = 0;
    for (int width = 32; width; width /= 2)
        if (!(x >> (64 - width))) x <<= width, n += width;
    return n;
}
#endif

/* The lowest and the highest square of a non-empty bitboard. */
static inline int low_bit(bb_t b) {
    uint64_t lo = (uint64_t)b;
    return lo ? ctz64(lo) : 64 + ctz64((uint64_t)(b >> 64));
}

static inline int top_bit(bb_t b) {
    uint64_t hi = (uint64_t)(b >> 64);
    return hi ? 127 - clz64(hi) : 63 - clz64((uint64_t)b);
}

/* The highest square of the non-empty *b, taken out of it: a bit scan
 * and a bit cleared in one 64-bit word, rather than a square's bit read
 * and cleared in 128 bits (International's search to depth 9 on the 50
 * positions of benchmarks/native_speed.py: 3,495 M instructions for
 * 3,500 M; callgrind, the same trees). */
static inline int pop_top(bb_t *b) {
    uint64_t hi = (uint64_t)(*b >> 64);
    if (hi) {
        int bit = 63 - clz64(hi);
        *b ^= (bb_t)(1ULL << bit) << 64;
        return 64 + bit;
    }
    int bit = 63 - clz64((uint64_t)*b);
    *b ^= (bb_t)(1ULL << bit);
    return bit;
}

/* Every square of b moved by shift (padded layouts only). */
static inline bb_t shifted(bb_t b, int shift) { return shift > 0 ? b << shift : b >> -shift; }

/* The shift of diagonal d on a padded grid of that stride: the directions
 * (row, column) (1, 1), (1, -1), (-1, 1), (-1, -1) of geometry.py. */
static inline int diagonal_shift(int stride, int d) {
    return d == 0 ? stride + 1 : d == 1 ? stride - 1 : d == 2 ? 1 - stride : -1 - stride;
}

/* A new route at the end of list, or NULL (list->failed set) out of memory. */
static inline Route *new_route(RouteList *list) {
    if (list->len == list->cap) {
        size_t cap = list->cap ? 2 * list->cap : 32;
        Route *items = realloc(list->items, cap * sizeof *items);
        if (items == NULL) {
            list->failed = 1;
            return NULL;
        }
        list->items = items;
        list->cap = cap;
    }
    return &list->items[list->len++];
}

void routes_init(RouteList *list);
void routes_free(RouteList *list);

/* The capture routes the rules allow, appended to out (nothing if none);
 * returns the number appended, or -1 out of memory. */
long gen_captures(const Rules *r, int color, const Side *s, int keep_duplicates, RouteList *out);
/* Whether color has a capture (gen_captures would append one), without
 * generating it. */
int any_capture(const Rules *r, int color, const Side *s);
/* The steps (non-capturing moves) of the men and of the kings not in frozen. */
long gen_steps(const Rules *r, int color, const Side *s, bb_t frozen, RouteList *out);
/* Whether color has a step (frozen kings are not told apart, as in pure). */
int any_step(const Rules *r, int color, const Side *s);
/* Whether origin -> dest is a step here; if so, *step is set to it. */
int is_step(const Rules *r, int color, const Side *s, int origin, int dest, bb_t frozen,
            Route *step);
/* Leaf count; 0 and *failed set when out of memory. */
uint64_t perft(const Rules *r, int depth, int color, bb_t m0, bb_t m1, bb_t k0, bb_t k1,
               int keep_duplicates, int bulk, int *failed);
/* Play route (by color) on the four bitboards, updating the key. */
void play(const Rules *r, const Route *m, int color, bb_t bb[4], uint64_t *key);
/* Take route back: bb holds the position after it, captured_kings the
 * captured squares that held kings. */
void unplay(const Rules *r, const Route *m, int color, bb_t captured_kings, bb_t bb[4],
            uint64_t *key);
uint64_t position_key(const Rules *r, int color, const bb_t bb[4]);

#endif
