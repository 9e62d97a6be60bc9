/* The games of draughts.ml.VectorEnv in C: the types ml_step.c (the games:
 * rules, moves, ends, observations; no Python calls), ml_env.c (the Python
 * type VecEnv and encode_batch's reading of boards) and ml_dataset.c (game
 * records replayed for draughts.ml.dataset) share. */
#ifndef DRAUGHTS_ML_NATIVE_ML_STEP_H
#define DRAUGHTS_ML_NATIVE_ML_STEP_H

#include "core_api.h"

#include <limits.h>
#include <stddef.h>
#ifndef _WIN32
#include <pthread.h>
#define HAVE_THREADS 1
#endif

/* The functions these files share are the module's own: hidden, so that
 * their calls go straight to them, not through the procedure linkage
 * table (the module exports PyInit__c alone, which module.c marks): 1,198
 * instructions a step before, 1,197 after (callgrind, International
 * random self-play with sample_step(), 256 games, one thread, 2026-12-06). */
#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility push(hidden)
#endif

/* The step's hot functions, compiled twice, the one to run picked as the
 * module loads (GCC's target_clones, on x86-64 Linux): for x86-64-v3
 * processors (AVX2, BMI1/2, POPCNT, LZCNT: a bit's index, a shift by a
 * variable, a bit cleared, each one instruction) and for any x86-64. A
 * step took 1,535 instructions so, 1,643 with the portable version alone
 * (callgrind, International random self-play with sample_step(), 256
 * games, one thread, 450 calls, 2026-12-05). DRAUGHTS_NO_CLONES builds the
 * portable version alone (CI tests that build: .ci/native). */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12 && defined(__x86_64__) && \
    defined(__linux__) && !defined(DRAUGHTS_NO_CLONES)
#define ML_CLONED __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define ML_CLONED
#endif
/* GCC inlines no function compiled for any x86-64 into a clone for
 * x86-64-v3 unless it must: the step's small functions, called from the
 * clones, are inlined always. A step took 1,569 instructions so, 1,632
 * with them called (callgrind, as above); 1,664 without clones. */
#if defined(__GNUC__) || defined(__clang__)
#define ML_INLINE static inline __attribute__((always_inline))
#else
#define ML_INLINE static inline
#endif

/* The native core's C API (draughts/_core/native/core_api.h), read once
 * when the module loads (module.c): the move generator and the core's
 * bitboard reading are the core's, called through it. */
extern const CoreAPI *ml_core;
extern PyTypeObject VecEnvType; /* ml_env.c */

#define MAX_DRAW_RULES 8
#define MAX_THREADS 16
#define MAX_ENDINGS 8
#define CLEARED 16 /* a step clears the mask's cells of this many moves at least (ml_step.c) */
#define ML_SPREAD_GROUPS 16 /* eight cells each: boards of 128 cells at most */
#define NOT_COUNTING INT_MIN /* a tracked rule whose material is not on the board */

/* The end codes step() writes (draughts/ml/_native_env.py names them). */
enum { END_NONE, END_BLOCKED, END_NO_PIECES, END_BREAKTHROUGH, END_RESIGNATION, END_RULE };
enum { GOAL_STANDARD, GOAL_ANTIDRAUGHTS, GOAL_BREAKTHROUGH };
enum { MODE_QUIET, MODE_PLIES, MODE_TRACKED };

typedef struct {
    /* strong kings, men, weak kings, men (low, high each), pieces (low,
     * high), the weak king on the long diagonal */
    int sk, sK, sm, sM, wk, wK, wm, wM, low, high, diagonal;
} EndingSpec;

typedef struct {
    int is_repetition, automatic, limit, mode, slot, strong_moves, n_endings;
    int claim_next; /* a repetition claimable a move ahead (DrawRule.claim_on_next_move) */
    /* Tracked rules only: what restarts the count, and the most pieces
     * (and the most the weaker side) any ending has. */
    int resets, most, weak_most;
    EndingSpec endings[MAX_ENDINGS];
} RuleSpec;

/* A legal move as a game keeps it: 8 bytes, the squares a capture takes
 * apart (Game.captured). A step writes its game's moves, reads them to
 * clear and set its mask and to sample: 2,583 instructions a step with
 * moves of 32 bytes that held their captured squares, 2,555 so (callgrind,
 * International random self-play, 256 games, 2026-12-05), and a quarter
 * of the memory. */
typedef struct {
    int32_t action;
    uint8_t origin, dest, crowned, is_capture;
} Legal;

typedef struct {
    /* What a step reads and writes first, in 208 bytes: four cache lines
     * wherever the game starts (malloc's 16 bytes aligned), one fewer
     * than the whole. Cache misses a step (as in ml_step_all's comment),
     * 256 games: first level reads 16.0 before, 15.3 so, last level 17.4
     * and 17.3; 128 games, last level 5.7 and 5.3. */
    /* Men of White, Black, kings of White, Black; where e->num.ok, kept
     * by ml_play() but not by the step, which keeps nb alone (read them
     * through ml_game_bb()). */
    bb_t bb[4];
    uint64_t nb[4]; /* the same by square numbers (bit k: square k + 1), where e->num.ok */
    uint64_t tb[4]; /* ... and by turned numbers (bit k: square n - k), where e->view_turns */
    int turn, ply, quiet_from;
    /* Bit i: tracked rule i (VecEnvObject.tracked) has a start (ml_holding),
     * so that a step tests one word where no tracked rule holds, not each
     * rule's start (most plies of random self-play). */
    unsigned holding;
    int nmoves, capmoves, nhist, caphist;
    uint64_t key;
    uint64_t *keys; /* keys[p]: the key at ply p < ply */
    size_t capkeys;
    Legal *moves;
    bb_t *captured; /* captured[k]: the squares moves[k] takes, where it is a capture */
    int32_t *hist; /* this game's actions */
    /* Read on some steps only. */
    int ply_origin, capcaptured;
    int starts[MAX_DRAW_RULES]; /* per tracked rule, NOT_COUNTING when inactive */
    int ksq[2], kn[2];          /* the king each side moved in a row (-1: none), and how often */
    int32_t *fhist; /* the last ended game's actions */
    int nfhist, capfhist; /* nfhist -1: no game ended since the reset */
} Game;
_Static_assert(offsetof(Game, ply_origin) <= 208, "a step's part of Game: four cache lines");

/* What an observation shows of a game (the layout of draughts/ml/encoding.py):
 * kept per game as last written, so that a step rewrites only what changed.
 * Clearing and filling the whole observation and mask took 41% of a step
 * (perf, International, 256 games, 2026-12-04): the pieces that moved and
 * the planes whose value changed are a few dozen stores. */
typedef struct {
    bb_t planes[4];
    /* Where e->view_ok: the four planes as bits of square numbers as White
     * sees them (bit k: the cell of number k + 1; seen by Black, the
     * numbers turned), so that two observations' pieces differ where these
     * bits do (planes[] is not filled). */
    uint64_t view[4];
    int black_view, turn, kcell[2];
    int base; /* values are e->base_values */
    float values[MAX_DRAW_RULES + 1], kval[2];
} Drawn;

/* A game's quiet moves are made on bitboards of square numbers (bit k is
 * square k + 1; Game.nb), in the order of their action indices (the
 * numbers' order, or its reverse for Black with the board turned), where
 * ok: boards of at most 64 squares numbered so that each ray's numbers go
 * one way, turned half a turn as number k to n + 1 - k (see ml_moves.h). */
typedef struct {
    int ok, ngroups[2], nup[2], king_dirs, flying, most; /* most: quiet moves of one piece at most */
    uint64_t board;
    uint8_t square[64]; /* number less one -> compact square */
    /* The men's steps per colour, grouped by how far the number goes (the
     * squares a man steps from so): a man on bit b steps to b + shift; the
     * nup groups that go up first. */
    int shift[2][16];
    uint64_t from[2][16];
    /* Where step_w (4, 5 or 6; else 0): every group's shift is w - 1, w or
     * w + 1 numbers, the same way for each colour (up: to higher numbers),
     * the squares a man steps from so in step_from[colour][shift - w + 1],
     * each shift then a constant (ml_moves.h's men_movers). */
    int step_w, step_up[2];
    uint64_t step_from[2][3];
    uint64_t king_near[64], king_rays[64][NDIRS];
    uint8_t king_up[64][NDIRS]; /* the ray's numbers go up */
    /* Per colour and square, the steps of a man there and of a king, each
     * with the bit of its destination, in action order (the colour's); a
     * man's padded to man_steps with steps to its own square (never empty). */
    int man_steps;
    uint8_t man_bit[2][64][NDIRS], king_count[2][64];
    Legal man_move[2][64][NDIRS];
    uint8_t *king_bit; /* [(colour * 64 + square) * most + i] */
    Legal *king_move;
    /* Whether the mover has a first jump, on these bitboards (ml_moves.h's
     * single_jumps), where jump_w (4, 5 or 6; else 0): boards of jump_w
     * squares a row, numbered row by row, where a man's jump goes 2w - 1
     * or 2w + 1 numbers along and the piece it takes is w - 1 or w (2w -
     * 1) or w or w + 1 (2w + 1) along, up or down: jump_from[colour][down]
     * [pattern], the squares of each of the four (jump_has: any), so that
     * every shift is a constant. The kings' capture rays (the nearest
     * square alone where they do not fly), which way their numbers go, and
     * per square and direction the next square's bit. */
    int jump_w, men_take_kings, jump_has[2][2], cap_dirs;
    uint64_t crown[2]; /* the squares where a man of each colour is crowned */
    uint64_t jump_from[2][2][4];
    uint64_t cap_ray[64][NDIRS], cap_next[64][NDIRS];
    uint8_t cap_up[64][NDIRS];
    /* Where men_search: the men's multi-jumps are searched here too
     * (ml_moves.h's men_routes), per colour and square the jumps of a man
     * there (the bits of the piece taken and of the landing square), and
     * whether the precedence rules keep the routes that take the most
     * (most) and may tell routes apart by the kings they take (by_kings). */
    int men_search, most_taken, by_kings;
    /* Where king_search: the kings' captures are searched there too (the
     * rules rank no route by its piece or its kings: the kings' routes are
     * ranked as the men's). */
    int king_search;
    int crown_stop, crown_continue, lands_behind, must_land, stops_behind_king; /* the core's Rules' */
    uint64_t jump_near[2][64]; /* the squares of the pieces a man there may take */
    uint8_t njumps[2][64], jump_over[2][64][NDIRS], jump_land[2][64][NDIRS];
} Numbered;

typedef struct {
    PyObject_HEAD
    CoreObject *core;
    int num_envs, perspective, max_plies, lose, goal, planes, hw, nsq, king_limit;
    int u8; /* observations as bytes (each float times 255, rounded), not float32 */
    float *ones; /* hw ones: a plane of 1.0 is a copy of it */
    int claim; /* claimable draws end the games (VectorEnv's claim_draw) */
    int events[3]; /* Reset bits of a capture, a man move, a promotion */
    bb_t bit[MAX_SQUARES];            /* compact square -> its bit (a table: no 128-bit shift) */
    int cell[MAX_SQUARES];            /* compact square -> cell seen by White, -1 off the board */
    int turned_cell[MAX_SQUARES];     /* ... and seen by Black (the board turned half a turn) */
    int turned[MAX_SQUARES + 1];      /* square number -> its number turned half a turn */
    /* Compact square -> its part of an action index as an origin, (number -
     * 1) * nsq, and as a destination, number - 1; [1]: the numbers turned
     * (Black to move with perspective). */
    int origin_part[2][MAX_SQUARES], dest_part[2][MAX_SQUARES];
    int nrules, repetition;           /* repetition: index of the repetition rule, or -1 */
    RuleSpec rules[MAX_DRAW_RULES];   /* in the variant's order */
    int counting[MAX_DRAW_RULES], ncounting; /* the counting rules (planes' order) */
    int king_endings; /* an ending of a tracked rule asks for a king on the long diagonal */
    /* Whether the draw rules' counts are known right after a man's move or
     * a capture while no tracked rule counts (ml_rules_init): then no rule
     * is met, and the rule planes show base_values. */
    int baseline, tracked[MAX_DRAW_RULES], ntracked; /* the tracked rules (indices) */
    int tracked_slot[MAX_DRAW_RULES]; /* their slots in Game.starts */
    float base_values[MAX_DRAW_RULES + 1];
    /* The rule plane values' rules (the repetition rule, then the counting
     * ones: Drawn.values' order), and how many (ml_rules_init). */
    int value_rule[MAX_DRAW_RULES + 1], nvalues;
    bb_t long_diagonal;
    int squares_turn; /* the playing squares turned half a turn are the same cells */
    /* Whether Drawn.view is used: e->num.ok, and with perspective, number k
     * turned is n + 1 - k and its cell the cell of k turned half a turn. */
    int view_ok, view_turns; /* view_turns: view_ok with perspective (Game.tb kept) */
    int num_cell[64]; /* number less one -> its cell seen by White */
    /* Where spread: the piece planes written whole (ml_planes.h), eight
     * cells k (from 8k, or the last eight) from the eight bits of numbers
     * from spread_from[k], their byte spread_byte[k][those bits]. */
    int spread;
    uint8_t spread_from[ML_SPREAD_GROUPS], spread_byte[ML_SPREAD_GROUPS][256];
    /* Where spread is 2 (by pdep): the numbers below spread_split to the
     * cells of spread_lo's bits (0 .. 63), the others to spread_hi's (from 64). */
    int spread_split;
    uint64_t spread_lo, spread_hi;
    uint64_t num_bit[2][MAX_SQUARES]; /* compact square -> its bit in Game.nb, in Game.tb */
    Numbered num; /* the quiet moves' tables (ml_moves.h) */
    Game start; /* the start position, its legal moves included */
    Game *games;
    Drawn *drawn; /* per game, what its observation shows */
    /* Per game, where its action is in its moves: sample() leaves the place
     * of the action it picks, which the step checks before it searches. */
    int *chosen;
    int threads;
    int backwards; /* the last step went through the games from the last (see ml_step_all) */
    struct Pool *pool; /* the threads that step with the caller's (ml_step.c), or NULL */
    int busy; /* a step runs (without the GIL): another call must not start */
    RouteList scratch[MAX_THREADS]; /* one per thread */
    int failed; /* out of memory, or more shared moves than the extra block holds */
    /* The arrays bind() keeps for step_sampled() (nbound of them: 0 or 10,
     * step()'s order), held until the next bind() or the end. */
    Py_buffer bound[10];
    int nbound;
} VecEnvObject;

/* A game's bytes of observation (a byte a cell with e->u8, else a float)
 * and of legal mask (an action index a byte: 2 * nsq * nsq). */
static inline size_t ml_obs_bytes(const VecEnvObject *e) {
    return (size_t)e->planes * (size_t)e->hw * (e->u8 ? 1 : sizeof(float));
}

static inline size_t ml_mask_bytes(const VecEnvObject *e) {
    return 2 * (size_t)e->nsq * (size_t)e->nsq;
}

#ifdef __SIZEOF_INT128__
/* NumPy's PCG64 (numpy.random.PCG64; the 128-bit integers of GCC and
 * Clang): a linear congruential generator of 128 bits, each 64-bit output
 * the state after its step folded (XSL-RR), each double its top 53 bits.
 * Where the environment's generator is one, sample_step()'s uniforms are
 * drawn on the stepping threads (ml_env.c), each thread's from the state
 * that many numbers on. */
#define ML_PCG64 1
typedef unsigned __int128 u128;
typedef struct {
    u128 state, inc;
} Pcg64;
#endif

/* The caller's arrays for one step (checked by the Python side). */
typedef struct {
    int64_t *actions; /* written where uniforms: the actions they pick */
    double *uniforms; /* or NULL: per game, which legal move to play, as sample() picks */
#ifdef ML_PCG64
    /* Or NULL: uniforms[0] drawn, the others still to draw from this
     * state, uniforms[i] the i-th number after it. */
    const Pcg64 *pcg;
#endif
    void *obs, *final_obs; /* float32, or bytes (u8) */
    float *rewards;
    uint8_t *masks, *terminated, *truncated;
    int8_t *codes, *winners;
} Arrays;

/* g's bitboards (Game.bb): g->bb, or where e->num.ok (whose step keeps
 * g->nb alone) made from g->nb into out. */
static inline const bb_t *ml_game_bb(const VecEnvObject *e, const Game *g, bb_t out[4]) {
    if (!e->num.ok) return g->bb;
    for (int p = 0; p < 4; p++) {
        out[p] = 0;
        for (uint64_t b = g->nb[p]; b; b &= b - 1) out[p] |= e->bit[e->num.square[ctz64(b)]];
    }
    return out;
}

/* Whether g's bitboard p (as Game.bb) has a piece. */
static inline int ml_has_pieces(const VecEnvObject *e, const Game *g, int p) {
    return e->num.ok ? g->nb[p] != 0 : g->bb[p] != 0;
}

/* *items (of *cap, each size bytes) with room for need at least; -1 out of memory. */
int ml_grow(void **items, int *cap, int need, size_t size);
/* e->baseline and e->base_values, once its draw rules are loaded. */
void ml_rules_init(VecEnvObject *e);
/* g->holding from g->starts, once they are set. */
void ml_holding(const VecEnvObject *e, Game *g);
/* g starts the game again (its arrays stay its own); -1 out of memory. */
int ml_restart(const VecEnvObject *e, Game *g);
/* e->num, once e's action index parts are known; -1 out of memory. */
int ml_moves_init(VecEnvObject *e);
/* e->spread (ml_planes.h), once e->num_cell and e->view_ok are known. */
void ml_spread_init(VecEnvObject *e);
/* g->nb from g->bb, where e->num.ok. */
void ml_number_bits(const VecEnvObject *e, Game *g);
/* g's legal moves, sorted by action index, marked in mask (its entries
 * for them set to 1, some others to 0, where it is not NULL: entries of
 * moves no longer legal, which must be 0 already); -1 out of memory, -2
 * when more moves share a pair than the extra block holds. */
int ml_generate(const VecEnvObject *e, Game *g, RouteList *l, uint8_t *mask);
/* What g's observation shows. */
void ml_shown(const VecEnvObject *e, const Game *g, Drawn *d);
/* g's observation into obs (bytes where e->u8): all of it (was NULL), or
 * what differs from was. */
void ml_observe(const VecEnvObject *e, const Game *g, void *obs, Drawn *was);
/* d's whole observation into obs (float32). */
void ml_draw(const VecEnvObject *e, const Drawn *d, float *obs);
/* Play m (taking captured) on g, its key kept for the repetition rule; -1
 * out of memory. */
int ml_play(const VecEnvObject *e, Game *g, const Legal *m, bb_t captured);
/* VecEnv.replay and VecEnv.expand (ml_dataset.c: game records for
 * draughts.ml.dataset). */
PyObject *ml_replay(VecEnvObject *e, PyObject *args);
PyObject *ml_expand(VecEnvObject *e, PyObject *args);
/* One step's games, 0 .. n (fewer than the VecEnv's where an illegal action
 * stops the batch), their arrays, how far ahead to prefetch (0: not), and
 * whether each thread goes through its games from the last (its chunks and
 * the games in each, see ml_step_all). */
typedef struct {
    VecEnvObject *e;
    const Arrays *a;
    int n, ahead, backwards;
} Batch;

/* Step b's games from .. to on one thread (from the last where
 * b->backwards), with that thread's route list: 0, or -1/-2 as ml_generate
 * (the games after the failing one in that order unstepped). */
int ml_step_games(const Batch *b, int from, int to, RouteList *routes);
/* Step all b's games on e's pool of threads (ml_pool.c; started at the first
 * call and kept), the caller's included: 0, or -1/-2 as ml_step_games. */
int ml_pool_run(VecEnvObject *e, const Batch *b);
/* The legal action of game i that uniform (in [0, 1)) picks among its
 * sorted legal actions (VectorEnv.sample's rule; -1 where it has none), its
 * place kept for the step. */
int64_t ml_pick(VecEnvObject *e, int i, double uniform);
/* Step every game (see ml_step.c); *illegal set to the game whose action is
 * illegal, where illegal actions raise. 0, or -1/-2 as ml_generate. */
int ml_step_all(VecEnvObject *e, const Arrays *a, long *illegal);
#ifdef ML_PCG64
/* ml_random.c: the next double of p (as NumPy's PCG64 draws it); p's
 * state delta numbers on; games from .. to's uniforms from a->pcg (the
 * i-th number after its state is uniforms[i]; uniforms[0] is drawn). */
double ml_pcg_double(Pcg64 *p);
u128 ml_pcg_advance(const Pcg64 *p, uint64_t delta);
void ml_draw_uniforms(const Arrays *a, int from, int to);
#endif
/* Stop and free e's step threads (dealloc). */
void ml_pool_free(VecEnvObject *e);

#if defined(__GNUC__) || defined(__clang__)
#pragma GCC visibility pop
#endif

#endif
