/* The built-in engine's search in C, draughts.engine._native._c: the same
 * tree as the Python Searcher of draughts/engine/search.py, node for node
 * (search.c, no Python calls), and the Python type that runs it
 * (search_module.c). It reaches the core's move generator through the
 * core's C API (draughts/_core/native/core_api.h), read once when the
 * module loads (module.c).
 *
 * The evaluation's masks and weights are computed by the Python Evaluator
 * (draughts/engine/evaluation.py) and loaded here as data, so the features
 * are defined once; C only counts them. The learned patterns (eval_patterns.h)
 * are loaded the same way. */
#ifndef DRAUGHTS_NATIVE_SEARCH_H
#define DRAUGHTS_NATIVE_SEARCH_H

#include "convert.h" /* before core_api.h: the engine's pointers there are typed */
#include "core_api.h"
#include "eval_patterns.h"

/* The core's C API (draughts/_core/native/core_api.h). */
extern const CoreAPI *core_api;

/* The evaluation, compiled twice, the one to run picked as the module
 * loads (GCC's target_clones, on x86-64 Linux, as draughts.ml's ML_CLONED):
 * for x86-64-v3 processors, where GCC makes each of its dozens of bit
 * counts (core.h's popcount) one POPCNT instruction, and for any x86-64.
 * DRAUGHTS_NO_CLONES builds the portable version alone (.ci/native). The
 * figure is in evaluate.c, at search_static_white. */
#if defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12 && defined(__x86_64__) && \
    defined(__linux__) && !defined(DRAUGHTS_NO_CLONES)
#define ENGINE_CLONED __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define ENGINE_CLONED
#endif
/* GCC inlines a function compiled for any x86-64 into a clone only if it
 * must: the evaluation's helpers are inlined always. */
#if defined(__GNUC__) || defined(__clang__)
#define ENGINE_INLINE static inline __attribute__((always_inline))
#else
#define ENGINE_INLINE static inline
#endif

#define N_FEATURES 16
#define MAX_PLANES 8
#define SMALL_MATERIAL 8 /* _SMALL_MATERIAL: endings are looked up with this many pieces or fewer */

/* A won score (less the plies to it); search.c and its helper threads'
 * full window (search_smp.c) go one beyond it. */
#define WIN 1000000
/* Nodes between two looks at the clock; a helper thread adds its nodes to
 * the shared count this many at a time (search.c's tick, search_smp.c). */
#define CHECK_EVERY 1024
#define PROBE_PIECES 8 /* the most pieces bitbases are probed with */

/* Endgame bitbases as draughts/engine/egtb.py writes them (Probe): per
 * material (white men, white kings, black men, black kings), two bits per
 * position, numbered from the colexicographic ranks of each set of squares
 * in the bitbases' own square numbers. The bytes belong to Python objects
 * that the Search object keeps alive. */
typedef struct {
    int pieces; /* 0: no bitbases */
    int nsquares;
    int16_t number[MAX_SQUARES]; /* a square -> its number in the bitbases, -1 none */
    uint64_t choose[MAX_SQUARES + 1][PROBE_PIECES + 1];
    const uint8_t *packed[PROBE_PIECES + 1][PROBE_PIECES + 1][PROBE_PIECES + 1]
                         [PROBE_PIECES + 1]; /* NULL: not probed */
} Bitbases;

/* Evaluator's data, in compact squares. */
typedef struct {
    int nplanes;
    bb_t planes[2][MAX_PLANES]; /* rows whose advancement has bit k set */
    bb_t centre, back[2], edge, left, right, far_half[2], near[2], last_step[2];
    int nshifts[2], shifts[2][NDIRS]; /* the padded shifts of a man's steps */
    /* 10 or 12 where the board is padded with that stride and a man steps
     * along the two forward diagonals, White's towards the higher indices
     * (shifts stride + 1 and stride - 1, Black's their negatives), and
     * the advancement is in 4 planes (stride 12) or 3 (stride 10): every
     * diagonal preset of 8 or 10 rows; else 0. evaluate.c's shifts and
     * planes are then constants. */
    int men_stride;
    /* 1 where the board is padded and the men's step shifts above are the
     * core's (Rules.man_move_dirs), so that the evaluation's steps tell
     * whether the side can step (search_static_white_step). */
    int steps_exact;
    /* Unpadded boards: per colour, shift and square, the square one shift
     * away (-1 off the board), since a bitboard shift means nothing there. */
    int16_t shift_to[2][NDIRS][MAX_SQUARES];
    bb_t cones[2][MAX_SQUARES];
    long long (*blended)[N_FEATURES]; /* per number of men on the board */
    int nblended;
    long long men_at_start;
    Patterns patterns; /* nwindows 0: none for this variant */
} Evaluation;

/* The advancement's planes where Evaluation.men_stride is stride: 4 on the
 * 10 rows of stride 12, 3 on the 8 rows of stride 10. */
ENGINE_INLINE int men_stride_planes(int stride) { return stride == 12 ? 4 : 3; }

/* One transposition-table entry, as the search reads it; the best move is
 * told apart from its siblings by origin, destination, crowning, capture
 * count and a 64-bit hash of its captured squares and path (two different
 * legal moves of one position sharing all of them is a 2**-64 event). */
typedef struct {
    uint64_t key, move_hash;
    int32_t score;
    int16_t depth;
    uint8_t used, bound, origin, dest, crowned, ncaps;
    uint8_t generation; /* Searcher.generation when stored */
} Entry;

/* An Entry as the table stores it: four words, the first the key XOR the
 * other three, each word read and written whole (search_table.h). Helper
 * threads (search_smp.c) share the table without a lock: an entry another
 * thread was writing while this one read it mixes the words of two
 * entries, its key check fails, and it is taken for no entry. */
typedef struct {
    uint64_t w[4];
} Slot;

/* One remembered quiet leaf of the quiescence search: White's static score
 * (search_static_white) of the position whose key this is, where the side
 * to move has no capture and has a step (see quiesce in search.c). */
typedef struct {
    uint64_t key;
    int32_t white;
    int32_t quiet; /* 0: no entry; QUIET_CHECKED or QUIET_UNCHECKED (search.c) */
} Evaluated;

/* What the main search and its helper threads (search_smp.c) share
 * besides the table, each read and written with relaxed atomics at a look
 * at the clock (every CHECK_EVERY nodes of a thread): the node counts that
 * the node budget is held to, and the helpers' orders. */
typedef struct {
    unsigned long long helper_nodes; /* all helpers', added CHECK_EVERY at a time */
    unsigned long long main_nodes;   /* the main search's, as of its last look */
    int halt;                        /* the helpers are to stop */
    int main_depth;                  /* the depth of the main search's run */
} SmpShared;

/* Per ply: the moves and the order to try them in. */
typedef struct {
    RouteList moves;
    int *order;
    long long *rank; /* the sort keys of quiet moves */
    size_t order_cap;
    size_t ordered; /* order[i] is final for i below this (search.c's next_move) */
} Ply;

typedef struct {
    int color;
    bb_t bb[4]; /* white men, black men, white kings, black kings */
    /* The learned patterns' window configurations (patterns_number), the
     * first patterns.nwindows of them: set for the root by
     * search_pos_ready, kept up to date by the search from there. */
    uint16_t pattern[PATTERN_MAX_WINDOWS];
} Pos;

typedef struct {
    const Rules *r;
    const Evaluation *e;
    int sign, breakthrough, no_progress; /* no_progress -1: none */
    int8_t endings[SMALL_MATERIAL + 1][SMALL_MATERIAL + 1][SMALL_MATERIAL + 1]
                  [SMALL_MATERIAL + 1]; /* -1: none; else the divisor (0: drawn) */
    Bitbases bases;
    Slot *tt;       /* buckets of two entries: see Table.store; shared with helpers */
    Evaluated *evaluated; /* EVALUATED entries, by key: see evaluate in search.c */
    size_t tt_cap;  /* entries, a power of two */
    uint8_t generation; /* Searcher.generation */
    long long history[2][MAX_SQUARES][MAX_SQUARES];
    /* The history's additions (reward in search.c) while a node that
     * searched its first move before making its moves (staged_first) waits
     * to rank them as they were: the entry's place in history, the amount. */
    struct HistoryAdd {
        int32_t at, amount;
    } *added;
    size_t nadded, added_cap;
    int waiting; /* nodes waiting so */
    uint32_t (*killers)[2];
    size_t nkillers;
    uint64_t *line; /* the game's reversible keys, then the current line */
    size_t base, line_cap;
    Ply *plies;
    size_t nplies;
    /* Limits and per-iteration counters, set by the caller of search_run. */
    unsigned long long nodes;
    long long max_nodes;  /* -1: none */
    double deadline;     /* < 0: none */
    int enforce, reductions, threat_extensions;
    int probcut, probcut_pieces; /* Searcher.probcut and .probcut_pieces */
    int late_deep;               /* Searcher.late_deep */
    int late_depth, late_pv;     /* Searcher.late_depth and .late_pv */
    int late_sacrifice;          /* Searcher.late_sacrifice */
    int etc_depth;               /* Searcher.etc_depth */
    int late_root;               /* Searcher.late_root */
    const int *root; /* indices into the root's legal moves, or NULL */
    int nroot;
    /* Searcher.stop: set by another thread (Search.stop, holding the GIL
     * while this search runs without it), read at each look at the clock.
     * A flag that only goes from 0 to 1 while a search runs, read and
     * written with relaxed atomics: a late read costs at most one more
     * look, CHECK_EVERY nodes. */
    int interrupt;
    int interruptible; /* the root depth is beyond 1 (a stop waits for depth 1) */
    /* With helper threads (search_smp.c), what the threads share; NULL
     * without. helper: this Search is a helper's (stopped even at depth 1:
     * the main search's result is the one played). */
    SmpShared *smp;
    int helper;
    /* Results. */
    int stopped, failed;
    int has_partial, partial_score;
    Route partial;
} Search;

/* Allocate the tables (once); 0, or -1 out of memory. */
int search_init(Search *s, const Rules *r, const Evaluation *e, const uint64_t *game_keys,
                size_t ngame_keys);
void search_free(Search *s);
/* Searcher.renew: ready for a search from the game's next position (its
 * keys since the last man move or capture, as search_init takes them),
 * keeping the transposition table, its entries now of an older generation;
 * 0, or -1 out of memory. */
int search_renew(Search *s, const uint64_t *game_keys, size_t ngame_keys);
/* Searcher.table_entries = entries (a power of two, at least 2): a new empty
 * table if the size changes; 0, or -1 out of memory. */
int search_size_table(Search *s, size_t entries);
/* Searcher.clear_table and Searcher.table_count. */
void search_clear_table(Search *s);
size_t search_table_count(const Search *s);
/* The negamax score of pos (key) at depth, as Searcher.search; s->stopped
 * is set (and the score meaningless) when a limit ran out, s->failed when
 * memory did. */
int search_run(Search *s, const Pos *p, uint64_t key, int depth, int alpha, int beta, int ply,
               int reversible);
/* The transposition table's move for key among pos's legal moves (the
 * first of *moves, sized by the call), or -1; *moves must be freed. */
int search_table_move(Search *s, const Pos *p, uint64_t key, RouteList *moves);
/* Number p's pattern windows (p->bb set): a position from outside the
 * search before it is given to the functions below. */
void search_pos_ready(const Search *s, Pos *p);
/* White's static score (Evaluator.score with the drawn endings applied). */
int search_static_white(const Search *s, const Pos *p);
/* The same, and in *can_step whether the side to move can step (the core's
 * any_step where the Evaluation's steps_exact is set; else meaningless). */
int search_static_white_step(const Search *s, const Pos *p, int *can_step);
void legal_routes(const Rules *r, const Pos *p, RouteList *out);
/* A stop for the search running in another thread (Searcher.stop). */
void search_interrupt(Search *s);
/* A helper's own Search for main's position and settings: its own line,
 * killers, history (main's, copied), quiet-leaf cache and plies, main's
 * table shared; 0, or -1 out of memory (then search_free_helper it). */
int search_init_helper(Search *h, const Search *main);
void search_free_helper(Search *h);

/* Lazy SMP (search_smp.c): helper threads that search the main search's
 * root at the same time, on their own, sharing its table. */
#if !defined(_WIN32)
#define HAVE_THREADS 1
#endif
#define MAX_HELPERS 63 /* threads beyond the main search's */
typedef struct Helpers Helpers;
/* Start count helpers (as many as could be made: the count is returned)
 * on main's root p, key, after main's limits and root are set: each deepens
 * from depth 1 (an odd one a ply ahead of the main search) to max_depth,
 * reducing beyond full_width plies, threats threat answers a line, until
 * helpers_stop. *pool is NULL or the last pool (stopped); 0 started when
 * the platform has no threads. */
int helpers_start(Helpers **pool, Search *main, const Pos *p, uint64_t key, int reversible,
                  int max_depth, int full_width, int threats, int count);
/* Tell the helpers to stop (callable from any thread but while
 * helpers_release runs). NULL: nothing, as in the functions below. */
void helpers_interrupt(Helpers *pool);
/* Stop the helpers and wait for their threads to end (no GIL needed). */
void helpers_join(Helpers *pool);
/* Free the joined helpers' searches; main no longer counts their nodes.
 * The pool is kept, for its node count. */
void helpers_release(Helpers *pool, Search *main);
int helpers_running(const Helpers *pool);
/* The nodes the helpers searched since helpers_reset_nodes (exact once
 * stopped). */
unsigned long long helpers_nodes(const Helpers *pool);
void helpers_reset_nodes(Helpers *pool);
void helpers_free(Helpers *pool);
/* The main search's depth (run) that helpers keep a ply ahead of. */
void helpers_main_depth(Helpers *pool, int depth);

#endif
