/* The built-in engine's search (no Python): a line-by-line mirror of
 * Searcher in draughts/engine/search.py. Everything that decides which
 * nodes are visited follows the Python code exactly: the move order (the
 * generator's order, then stable sorts on the same keys), the
 * transposition table (buckets of two entries of a fixed-size array,
 * filled and replaced as Table.store does), killers, history, reductions, threat
 * answers, draws and the node count. Comments name the Python method each
 * function mirrors; the reasons are given there. */
/* First: it includes Python.h (through core_api.h), which must come before
 * the standard headers and defines _POSIX_C_SOURCE, for clock_gettime. No
 * Python function is called here: the search runs without the GIL. */
#include "search.h"
#include "capture_test.h" /* the core's any_capture, compiled in: see has_capture */
#include "play.h"         /* the core's play, compiled in: see child_of */
#include "step_count.h"   /* the core's step count, compiled in: see staged_first */

#include <stdlib.h>
#include <string.h>
#include <time.h>
#if defined(_WIN32)
#include <malloc.h>
#else
#include <sys/mman.h>
#endif

#define WON (WIN - 10000)
#define KNOWN_WIN (WON - 1000) /* search.KNOWN_WIN: a bitbase win, less its ply */
#define NOT_COVERED 2
#define EXACT 0
#define LOWER 1
#define UPPER 2
#define MAX_EXTENDED_PLY 60
#define LATE 3
#define PROBCUT_DEPTH 3       /* search.PROBCUT_DEPTH */
#define PROBCUT_SCORES 10000 /* search._PROBCUT_SCORES */
/* The Python killers' list length; deeper plies grow it. */
#define KILLER_PLIES (MAX_EXTENDED_PLY + 64)

/* p from c's side, for the core's generator. Each colour spelled out: with
 * the colour an index, GCC read the four 128-bit sets by computed
 * addresses (the 50 positions of benchmarks/native_speed.py to depth 9:
 * 3,513 M instructions in the search for 3,518 M; callgrind, the same
 * trees). */
static inline Side side_of(const Pos *p, int c) {
    return c ? (Side){p->bb[1], p->bb[3], p->bb[0], p->bb[2]}
             : (Side){p->bb[0], p->bb[2], p->bb[1], p->bb[3]};
}

void legal_routes(const Rules *r, const Pos *p, RouteList *out) {
    int c = p->color;
    Side side = side_of(p, c);
    out->len = 0;
    if (core_api->gen_captures(r, c, &side, 0, out) == 0) core_api->gen_steps(r, c, &side, 0, out);
}

static void capture_routes(const Rules *r, int c, const Pos *p, RouteList *out) {
    Side side = side_of(p, c);
    out->len = 0;
    core_api->gen_captures(r, c, &side, 0, out);
}

/* Whether c has a capture in p: the core's first-jump test, without the
 * routes. */
static int has_capture(const Rules *r, int c, const Pos *p) {
    Side side = side_of(p, c);
    return any_capture_on(r, c, &side);
}

/* The quiet leaves of the quiescence search met last, by key: the side to
 * move has no capture and has a step, the opponent has no capture (or was
 * not looked at: no threat extension left), and the score is the static
 * one. They come back, from transpositions and from each iteration of the
 * deepening, and all that is a function of the position alone (so the tree
 * stays the same, but for two positions sharing a 64-bit key, as in the
 * transposition table): a leaf found here skips the generator and the
 * evaluation. A small table, so that its probes stay in the processor's
 * caches: 2**12 entries (64 KB). The 50 positions of
 * benchmarks/native_speed.py to depth 9 took 4,246 M instructions in the
 * search with a cache of static scores alone, 4,472 M without (callgrind);
 * to depth 11, 2.40 to 2.92 CPU seconds against 2.69 to 3.28 (5 interleaved
 * runs each, load average 6). Keeping the quiet leaves whole took it to
 * 4,117 M. With 2**14 leaves, 4,020 M, but 2.16 to 2.52 CPU seconds against
 * 2.09 to 2.23 with 2**12 (load average 7); with 2**16 static scores (1 MB),
 * 29 % of the probes found theirs but the search was slower than without;
 * sets of 4 leaves in 2**12 took 4,173 M. */
#define EVALUATED (1 << 12)
enum { QUIET_CHECKED = 1, QUIET_UNCHECKED = 2 }; /* Evaluated.quiet: the opponent's captures */

static Evaluated *leaf_at(const Search *s, uint64_t key) {
    return &s->evaluated[(key ^ (key >> 32)) & (EVALUATED - 1)];
}

/* The remembered score of a quiet leaf, or 0 with *found unset. */
static int known_leaf(const Search *s, uint64_t key, int *found) {
    const Evaluated *known = leaf_at(s, key);
    *found = known->key == key && (known->quiet == QUIET_CHECKED ||
                                   (known->quiet == QUIET_UNCHECKED && !s->threat_extensions));
    return *found ? known->white : 0;
}

/* White's static score of a quiet leaf, remembered with what quiet says. */
static int evaluate(Search *s, const Pos *p, uint64_t key, int quiet) {
    Evaluated *known = leaf_at(s, key);
    if (known->quiet && known->key == key) {
        if (quiet == QUIET_CHECKED) known->quiet = QUIET_CHECKED;
        return known->white;
    }
    int white = search_static_white(s, p);
    *known = (Evaluated){key, white, quiet};
    return white;
}

/* -- The transposition table (search_table.h) ------------------------------------ */

#include "search_table.h"

/* The table's memory, zeroed: aligned so that a bucket (two 32-byte slots)
 * is one 64-byte cache line, and a large table on 2 MB boundaries with
 * Linux asked for huge pages, so that a probe costs one cache miss and
 * rarely a TLB miss. calloc put the 8 MB default table 16 bytes past a
 * page (glibc's header), each bucket across two lines. The 50 positions
 * of benchmarks/native_speed.py to depth 12, 8 runs of each build in
 * turns: 2.51 CPU seconds before, 2.42 after (faster in 6 of 8; load
 * average 0.7 to 0.9); the run's page faults 11,945 before, 4,061 after. */
#define HUGE_PAGE ((size_t)2 << 20)
static Slot *table_alloc(size_t entries) {
    size_t bytes = entries * sizeof(Slot);
    void *tt = NULL;
#if defined(_WIN32)
    tt = _aligned_malloc(bytes, 64);
#else
    if (posix_memalign(&tt, bytes >= HUGE_PAGE ? HUGE_PAGE : 64, bytes) != 0) tt = NULL;
#endif
    if (tt == NULL) return NULL;
#if defined(MADV_HUGEPAGE)
    if (bytes >= HUGE_PAGE) madvise(tt, bytes, MADV_HUGEPAGE); /* advice: may be refused */
#endif
    memset(tt, 0, bytes);
    return tt;
}

static void table_free(Slot *tt) {
#if defined(_WIN32)
    _aligned_free(tt);
#else
    free(tt);
#endif
}

int search_size_table(Search *s, size_t entries) {
    if (entries == s->tt_cap) return 0;
    Slot *tt = table_alloc(entries);
    if (tt == NULL) return -1;
    table_free(s->tt);
    s->tt = tt, s->tt_cap = entries;
    return 0;
}

void search_clear_table(Search *s) { memset(s->tt, 0, s->tt_cap * sizeof *s->tt); }

size_t search_table_count(const Search *s) {
    size_t n = 0;
    for (size_t i = 0; i < s->tt_cap; i++) n += slot_read(&s->tt[i]).used;
    return n;
}

/* -- Set-up ----------------------------------------------------------------------- */

int search_init(Search *s, const Rules *r, const Evaluation *e, const uint64_t *game_keys,
                size_t ngame_keys) {
    memset(s, 0, sizeof *s);
    s->r = r, s->e = e;
    s->no_progress = -1;
    s->probcut_pieces = (int)(e->men_at_start * 4 / 5);
    memset(s->endings, -1, sizeof s->endings);
    s->tt_cap = 2; /* sized by the caller before a search (search_size_table) */
    s->tt = table_alloc(s->tt_cap);
    s->base = ngame_keys ? ngame_keys - 1 : 0;
    s->line_cap = s->base + 256;
    s->line = calloc(s->line_cap, sizeof *s->line);
    s->nkillers = KILLER_PLIES;
    s->killers = calloc(s->nkillers, sizeof *s->killers);
    s->evaluated = calloc(EVALUATED, sizeof *s->evaluated);
    if (s->tt == NULL || s->line == NULL || s->killers == NULL || s->evaluated == NULL)
        return -1;
    if (s->base) memcpy(s->line, game_keys, s->base * sizeof *s->line);
    return 0;
}

int search_renew(Search *s, const uint64_t *game_keys, size_t ngame_keys) {
    s->generation++; /* uint8_t: modulo 256, as in Python */
    size_t base = ngame_keys ? ngame_keys - 1 : 0;
    if (base + 256 > s->line_cap) {
        uint64_t *line = realloc(s->line, (base + 256) * sizeof *line);
        if (line == NULL) return -1;
        memset(line + s->line_cap, 0, (base + 256 - s->line_cap) * sizeof *line);
        s->line = line, s->line_cap = base + 256;
    }
    if (base) memcpy(s->line, game_keys, base * sizeof *s->line);
    s->base = base;
    memset(s->killers, 0, s->nkillers * sizeof *s->killers);
    long long *history = &s->history[0][0][0];
    for (size_t i = 0; i < sizeof s->history / sizeof *history; i++) history[i] /= 2;
    __atomic_store_n(&s->interrupt, 0, __ATOMIC_RELAXED);
    return 0;
}

void search_interrupt(Search *s) { __atomic_store_n(&s->interrupt, 1, __ATOMIC_RELAXED); }

void search_free(Search *s) {
    table_free(s->tt);
    free(s->added);
    free(s->evaluated);
    free(s->line);
    free(s->killers);
    for (size_t i = 0; i < s->nplies; i++) {
        core_api->routes_free(&s->plies[i].moves);
        free(s->plies[i].order);
        free(s->plies[i].rank);
    }
    free(s->plies);
    memset(s, 0, sizeof *s);
}

int search_init_helper(Search *h, const Search *main) {
    /* The settings, limits, tables' pointers and history by value, then
     * the search's own work space made afresh. */
    *h = *main;
    h->line = NULL, h->killers = NULL, h->evaluated = NULL, h->plies = NULL, h->nplies = 0;
    h->added = NULL, h->nadded = h->added_cap = 0, h->waiting = 0;
    h->root = NULL, h->helper = 1, h->interrupt = 0;
    h->line = calloc(main->line_cap, sizeof *h->line);
    h->killers = calloc(main->nkillers, sizeof *h->killers);
    h->evaluated = calloc(EVALUATED, sizeof *h->evaluated);
    int *root = main->root ? malloc((size_t)main->nroot * sizeof *root + 1) : NULL;
    if (h->line == NULL || h->killers == NULL || h->evaluated == NULL || (main->root && !root))
        return free(root), -1;
    memcpy(h->line, main->line, main->base * sizeof *h->line);
    if (root) memcpy(root, main->root, (size_t)main->nroot * sizeof *root);
    h->root = root;
    return 0;
}

void search_free_helper(Search *h) {
    free((void *)h->root);
    h->tt = NULL; /* main's */
    search_free(h);
}

/* The work space of ply, made on first use. */
static Ply *ply_at(Search *s, int ply) {
    if ((size_t)ply >= s->nplies) {
        size_t n = (size_t)ply + 16;
        Ply *plies = realloc(s->plies, n * sizeof *plies);
        if (plies == NULL) return NULL;
        memset(plies + s->nplies, 0, (n - s->nplies) * sizeof *plies);
        s->plies = plies, s->nplies = n;
    }
    return &s->plies[ply];
}

static int order_room(Ply *p) {
    if (p->order_cap >= p->moves.len) return 0;
    size_t cap = p->moves.len + 32;
    int *order = realloc(p->order, cap * sizeof *order);
    if (order != NULL) p->order = order;
    long long *rank = realloc(p->rank, cap * sizeof *rank);
    if (rank != NULL) p->rank = rank;
    if (order == NULL || rank == NULL) return -1;
    p->order_cap = cap;
    return 0;
}

/* The line and the killers must reach ply (forced moves extend lines). */
static int reach(Search *s, int ply) {
    if (s->base + (size_t)ply >= s->line_cap) {
        size_t cap = s->base + (size_t)ply + 256;
        uint64_t *line = realloc(s->line, cap * sizeof *line);
        if (line == NULL) return -1;
        memset(line + s->line_cap, 0, (cap - s->line_cap) * sizeof *line);
        s->line = line, s->line_cap = cap;
    }
    if ((size_t)ply >= s->nkillers) {
        size_t n = (size_t)ply + 64;
        uint32_t(*killers)[2] = realloc(s->killers, n * sizeof *killers);
        if (killers == NULL) return -1;
        memset(killers + s->nkillers, 0, (n - s->nkillers) * sizeof *killers);
        s->killers = killers, s->nkillers = n;
    }
    return 0;
}

/* -- The search ------------------------------------------------------------------- */

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The nodes of every thread (search_smp.c) at a look at the clock, its
 * own published; a helper told to halt is stopped. */
static unsigned long long all_nodes(Search *s) {
    SmpShared *smp = s->smp;
    if (smp == NULL) return s->nodes;
    if (!s->helper) {
        __atomic_store_n(&smp->main_nodes, s->nodes, __ATOMIC_RELAXED);
        return s->nodes + __atomic_load_n(&smp->helper_nodes, __ATOMIC_RELAXED);
    }
    if (__atomic_load_n(&smp->halt, __ATOMIC_RELAXED)) s->stopped = 1;
    return __atomic_add_fetch(&smp->helper_nodes, CHECK_EVERY, __ATOMIC_RELAXED) +
           __atomic_load_n(&smp->main_nodes, __ATOMIC_RELAXED);
}

/* tick's look at the clock, every CHECK_EVERY nodes: returns 1 (and sets
 * stopped) when a limit is spent or a stop was asked for. The node budget
 * counts every thread's nodes; the main search, stopping, stops its
 * helpers. */
static int look(Search *s) {
    unsigned long long nodes = all_nodes(s);
    if (s->stopped) return 1;
    if (__atomic_load_n(&s->interrupt, __ATOMIC_RELAXED) && s->interruptible)
        return s->stopped = 1;
    if (!s->enforce) return 0;
    if ((s->max_nodes >= 0 && nodes >= (unsigned long long)s->max_nodes) ||
        (s->deadline >= 0 && now() >= s->deadline)) {
        s->stopped = 1;
        if (s->smp != NULL) __atomic_store_n(&s->smp->halt, 1, __ATOMIC_RELAXED);
    }
    return s->stopped;
}

/* Searcher._tick. Inlined, the look apart: with the look inside it, GCC
 * called tick at every node (the 20 first positions of
 * benchmarks/native_speed.py to depth 9: 10 M instructions more in the
 * search, callgrind). */
ENGINE_INLINE int tick(Search *s) {
    s->nodes++;
    return s->nodes % CHECK_EVERY ? 0 : look(s);
}

static void child_of(const Search *s, const Pos *p, const Route *m, uint64_t key, Pos *child,
                     uint64_t *child_key) {
    /* Not *child = *p: the pattern numbers are copied only where used. */
    memcpy(child->bb, p->bb, sizeof p->bb);
    *child_key = key;
    play_on(s->r, m, p->color, child->bb, child_key);
    child->color = 1 - p->color;
    const Patterns *patterns = &s->e->patterns;
    if (patterns->nwindows) {
        memcpy(child->pattern, p->pattern, (size_t)patterns->nwindows * sizeof *p->pattern);
        patterns_update(patterns, p->bb, child->bb, child->pattern);
    }
}

void search_pos_ready(const Search *s, Pos *p) {
    if (s->e->patterns.nwindows)
        patterns_number(&s->e->patterns, p->bb[0], p->bb[1], p->pattern);
}

/* Searcher._crowned */
static int crowned_score(const Pos *p, int ply) {
    return (p->color == 0 ? p->bb[3] : p->bb[2]) ? ply - WIN : WIN - ply;
}

#include "search_quiesce.h"

static int tt_index(const Ply *here, const Entry *entry) {
    for (size_t i = 0; i < here->moves.len; i++)
        if (same_move(entry, &here->moves.items[here->order[i]])) return (int)i;
    return -1;
}

/* Whether quiet move a goes before b: by rank, then as generated (the
 * stable sort of Searcher._order). */
static inline int before(const long long *rank, int a, int b) {
    return rank[a] < rank[b] || (rank[a] == rank[b] && a < b);
}

/* The quiet moves are put in order as the search reaches them: most nodes
 * that cut off do so on their first move. The first ORDER_PICKED places
 * are picked, the rest sorted at once when the search gets there (the
 * order is the same: by rank, then as generated). The 50 positions of
 * benchmarks/native_speed.py to depth 9: 3,878 M instructions in the
 * search, 3,888 M picking 2, 3,906 M picking 4, 3,900 M sorting every
 * node's moves (callgrind, the same trees). */
#define ORDER_PICKED 1

/* The moves not yet in order, sorted (insertion: a few dozen at most). */
static void order_rest(Ply *here) {
    int *order = here->order;
    const long long *rank = here->rank;
    size_t n = here->moves.len;
    for (size_t k = here->ordered + 1; k < n; k++) {
        int moved = order[k];
        size_t j = k;
        for (; j > here->ordered && before(rank, moved, order[j - 1]); j--) order[j] = order[j - 1];
        order[j] = moved;
    }
    here->ordered = n;
}

/* Make here->order[i] final, the places before it being so (the moves are
 * tried in order). */
static void next_move(Ply *here, size_t i) {
    if (i < here->ordered) return;
    if (i >= ORDER_PICKED) {
        order_rest(here);
        return;
    }
    int *order = here->order;
    size_t best = i;
    for (size_t j = i + 1; j < here->moves.len; j++)
        if (before(here->rank, order[j], order[best])) best = j;
    int moved = order[best];
    order[best] = order[i];
    order[i] = moved;
    here->ordered = i + 1;
}

/* The quiet moves' ranks (Searcher._order's keys): the killers first, then
 * by history, a crowning ahead of its equals. */
static void rank_quiet(const Search *s, Ply *here, int color, int ply) {
    const RouteList *l = &here->moves;
    uint32_t first = s->killers[ply][0], second = s->killers[ply][1];
    long long *rank = here->rank;
    for (size_t i = 0; i < l->len; i++) {
        const Route *m = &l->items[i];
        uint32_t code = (uint32_t)color << 20 | (uint32_t)m->origin << 10 | m->dest;
        rank[i] = code == first    ? -(1LL << 40)
                  : code == second ? -(1LL << 39)
                                   : -s->history[color][m->origin][m->dest] -
                                         (1LL << 30) * m->crowned;
    }
}

/* Searcher._order: ply's moves best first (order holds 0..n-1). Captures
 * are sorted here; quiet moves ranked, the table's move put first, and the
 * others left to next_move. */
static void order_moves(Search *s, Ply *here, int color, int ply, const Entry *entry) {
    const RouteList *l = &here->moves;
    int *order = here->order;
    here->ordered = l->len;
    if (l->items[0].ncaps) {
        sort_by_taken(l, order);
        int at = entry ? tt_index(here, entry) : -1;
        if (at > 0) {
            int moved_first = order[at];
            memmove(order + 1, order, (size_t)at * sizeof *order);
            order[0] = moved_first;
        }
        return;
    }
    long long *rank = here->rank;
    int table = -1; /* the table's move: the first in order that is the entry's */
    rank_quiet(s, here, color, ply);
    for (size_t i = 0; entry && i < l->len; i++)
        if (same_move(entry, &l->items[i]) && (table < 0 || before(rank, (int)i, table)))
            table = (int)i;
    here->ordered = 0;
    if (table >= 0) {
        order[table] = 0;
        order[0] = table;
        here->ordered = 1;
    }
}

/* Searcher._reward */
static void reward(Search *s, const Route *m, int color, int ply, int depth) {
    uint32_t code = (uint32_t)color << 20 | (uint32_t)m->origin << 10 | m->dest;
    s->history[color][m->origin][m->dest] += (long long)depth * depth;
    if (s->waiting) { /* see staged_first */
        if (s->nadded == s->added_cap) {
            size_t cap = 2 * s->added_cap + 256;
            struct HistoryAdd *added = realloc(s->added, cap * sizeof *added);
            if (added == NULL) {
                s->failed = 1;
                return;
            }
            s->added = added, s->added_cap = cap;
        }
        s->added[s->nadded++] = (struct HistoryAdd){
            (int32_t)(&s->history[color][m->origin][m->dest] - &s->history[0][0][0]),
            depth * depth};
    }
    uint32_t *killers = s->killers[ply];
    if (killers[0] != code) {
        killers[1] = killers[0];
        killers[0] = code;
    }
}

/* The moves of ply's list for pos (the root's allowed ones at ply 0, by
 * their indices among the legal moves), in order; -1 out of memory. With
 * captures_made, the list holds the node's captures already, or none, and
 * then only the steps are made (staged_first made them). */
static long node_moves(Search *s, Ply *here, const Pos *p, int ply, const Entry *entry,
                       int captures_made) {
    RouteList *l = &here->moves;
    if (!captures_made) {
        legal_routes(s->r, p, l);
    } else if (l->len == 0) { /* no capture: the steps */
        Side side = side_of(p, p->color);
        core_api->gen_steps(s->r, p->color, &side, 0, l);
    }
    if (l->failed) return -1;
    if (ply == 0 && s->root != NULL) {
        size_t n = l->len, need = n + (size_t)s->nroot;
        if (need > l->cap) {
            Route *items = realloc(l->items, need * sizeof *items);
            if (items == NULL) return -1;
            l->items = items, l->cap = need;
        }
        for (int i = 0; i < s->nroot; i++) l->items[n + (size_t)i] = l->items[s->root[i]];
        memmove(l->items, l->items + n, (size_t)s->nroot * sizeof *l->items);
        l->len = (size_t)s->nroot;
    }
    if (order_room(here) < 0) return -1;
    for (size_t i = 0; i < l->len; i++) here->order[i] = (int)i;
    here->ordered = l->len;
    if (l->len > 1) order_moves(s, here, p->color, ply, entry);
    return (long)l->len;
}

static int search(Search *s, const Pos *p, uint64_t key, int depth, int alpha, int beta, int ply,
                  int reversible);

/* Searcher._reduced */
static int reduced(Search *s, const Pos *child, uint64_t key, int depth, int alpha, int ply,
                   int reversible, int plies) {
    s->reductions -= plies;
    int score = -search(s, child, key, depth - plies, -alpha - 1, -alpha, ply + 1, reversible);
    s->reductions += plies;
    return score;
}

/* Searcher._probcut: whether a half-depth search shows p s->probcut better
 * than beta (the caller checks the window, depth, ply and reductions). */
static int probcut(Search *s, const Pos *p, uint64_t key, int depth, int beta, int ply,
                   int reversible) {
    if (beta >= PROBCUT_SCORES || beta <= -PROBCUT_SCORES) return 0;
    if (popcount(p->bb[0] | p->bb[1] | p->bb[2] | p->bb[3]) >= s->probcut_pieces) return 0;
    int bound = beta + s->probcut;
    return search(s, p, key, depth / 2, bound - 1, bound, ply, reversible) >= bound;
}

/* Whether the line or the game repeats key at ply (Searcher.search). */
static int repeated(const Search *s, uint64_t key, int ply, int reversible) {
    long index = (long)s->base + ply, stop = index - reversible - 1;
    if (stop < -1) stop = -1;
    for (long i = index - 4; i > stop; i -= 2)
        if (s->line[i] == key) return 1;
    return 0;
}

/* A table score that decides the node, or 0 with *decided unset. */
static int table_cut(const Entry *e, int depth, int alpha, int beta, int ply, int *decided) {
    *decided = 0;
    if (e->depth < depth || !ply) return 0;
    int score = e->score > WON ? e->score - ply : e->score < -WON ? e->score + ply : e->score;
    if (e->bound == EXACT || (e->bound == LOWER && score >= beta) ||
        (e->bound == UPPER && score <= alpha))
        *decided = 1;
    return score;
}

/* Whether the side to move in child has a capture (the move that made it
 * offered one). */
static int offers_capture(const Search *s, const Pos *child) {
    return has_capture(s->r, child->color, child);
}

/* Searcher._etc: the score of an enhanced transposition cutoff, or 0 with
 * *cut unset. */
static int etc_cut(const Search *s, const Pos *p, uint64_t key, int depth, int beta, int ply,
                   int reversible, int *cut) {
    const Ply *here = &s->plies[ply];
    int extend = ply < MAX_EXTENDED_PLY;
    bb_t own_men = p->bb[p->color];
    int pieces = popcount(p->bb[0] | p->bb[1] | p->bb[2] | p->bb[3]);
    *cut = 0;
    for (size_t i = 0; i < here->moves.len; i++) {
        const Route *m = &here->moves.items[here->order[i]];
        int after = m->ncaps || own_men & SQUARE_BIT(m->origin) ? 0 : reversible + 1;
        if (after >= 4 || (s->no_progress >= 0 && after >= s->no_progress)) continue;
        if (pieces - m->ncaps <= s->bases.pieces) continue;
        bb_t bb[4];
        memcpy(bb, p->bb, sizeof bb);
        uint64_t child_key = key;
        play_on(s->r, m, p->color, bb, &child_key);
        Entry e;
        if (!tt_get(s, child_key, &e) || e.bound == LOWER) continue;
        if (e.depth < (extend && m->crowned ? depth : depth - 1)) continue;
        int child = ply + 1;
        int score = -(e.score > WON    ? e.score - child
                      : e.score < -WON ? e.score + child
                                       : e.score);
        if (score >= beta) return *cut = 1, score;
    }
    return 0;
}

static int moves_from(Search *s, const Pos *p, uint64_t key, int depth, int alpha, int beta,
                      int ply, int reversible, size_t start, int best, int *best_at, int only);

/* The loop over the moves of Searcher.search; returns best, sets *best_at. */
static int move_loop(Search *s, const Pos *p, uint64_t key, int depth, int alpha, int beta,
                     int ply, int reversible, int *best_at) {
    Ply *here = &s->plies[ply];
    next_move(here, 0);
    *best_at = here->order[0];
    return moves_from(s, p, key, depth, alpha, beta, ply, reversible, 0, -WIN - 1, best_at,
                      here->moves.len == 1);
}

/* The loop over the moves of Searcher.search from the start'th, with best
 * and *best_at as found before it; only is whether the node has one move. */
static int moves_from(Search *s, const Pos *p, uint64_t key, int depth, int alpha, int beta,
                      int ply, int reversible, size_t start, int best, int *best_at, int only) {
    size_t n = s->plies[ply].moves.len;
    int extend = ply < MAX_EXTENDED_PLY, forced = only && extend;
    bb_t own_men = p->bb[p->color];
    for (size_t i = start; i < n; i++) {
        /* here may move when a child grows the plies: index afresh. */
        next_move(&s->plies[ply], i);
        int at = s->plies[ply].order[i];
        Route *move = &s->plies[ply].moves.items[at];
        if (i && i + 1 < n && depth >= 2) { /* the next move's bucket: see prefetch_first */
            const Route *later = &s->plies[ply].moves.items[s->plies[ply].order[i + 1]];
            if (!later->ncaps)
                tt_prefetch(s, step_key(s->r, p, key, later->origin, later->dest, later->crowned));
        }
        int next_depth = forced || (extend && move->crowned) ? depth : depth - 1;
        Pos child;
        uint64_t child_key;
        child_of(s, p, move, key, &child, &child_key);
        int after = move->ncaps || own_men & SQUARE_BIT(move->origin) ? 0 : reversible + 1;
        int capture = move->ncaps != 0, crowned = move->crowned;
        int score;
        /* Plies a late move is reduced by (Searcher.search). */
        int r = s->late_deep > 0 && (int)i >= s->late_deep && s->reductions >= 2 ? 2 : 1;
        if (i == 0) {
            score = -search(s, &child, child_key, next_depth, -beta, -alpha, ply + 1, after);
        } else if (i >= LATE && depth >= s->late_depth && s->reductions && (ply || s->late_root) &&
                   (s->late_pv || beta - alpha == 1) && !capture && !crowned &&
                   !(s->late_sacrifice && offers_capture(s, &child)) &&
                   ((score = reduced(s, &child, child_key, next_depth, alpha, ply, after, r)) <=
                        alpha ||
                    s->stopped || s->failed)) {
            /* a late move that a shallower search shows to be no better */
        } else {
            score = -search(s, &child, child_key, next_depth, -alpha - 1, -alpha, ply + 1, after);
            if (!s->stopped && !s->failed && alpha < score && score < beta)
                score = -search(s, &child, child_key, next_depth, -beta, -score, ply + 1, after);
        }
        if (s->stopped || s->failed) return 0;
        move = &s->plies[ply].moves.items[at];
        if (score > best) {
            best = score, *best_at = at;
            if (ply == 0 && i) {
                s->has_partial = 1, s->partial_score = score;
                s->partial = *move;
            }
            if (score > alpha) {
                alpha = score;
                if (alpha >= beta) {
                    if (!capture) reward(s, move, p->color, ply, depth);
                    break;
                }
            }
        }
    }
    return best;
}

/* Probe.__call__ of draughts/engine/egtb.py: p's value for the side to
 * move (1 won, 0 drawn, -1 lost), or NOT_COVERED. */
static int probe_value(const Bitbases *b, const Pos *p) {
    const bb_t sets[4] = {p->bb[0], p->bb[2], p->bb[1], p->bb[3]};
    int count[4];
    for (int i = 0; i < 4; i++) count[i] = popcount(sets[i]);
    if (count[0] + count[1] + count[2] + count[3] > b->pieces) return NOT_COVERED;
    const uint8_t *packed = b->packed[count[0]][count[1]][count[2]][count[3]];
    if (packed == NULL) return NOT_COVERED;
    uint64_t number = 0;
    for (int i = 0; i < 4; i++) {
        int numbers[PROBE_PIECES], k = 0;
        for (bb_t x = sets[i]; x; x &= x - 1) { /* sorted as they come: a few squares */
            int at = b->number[low_bit(x)], j = k++;
            for (; j > 0 && numbers[j - 1] > at; j--) numbers[j] = numbers[j - 1];
            numbers[j] = at;
        }
        uint64_t rank = 0;
        for (int j = 0; j < k; j++) rank += b->choose[numbers[j]][j + 1];
        number = number * b->choose[b->nsquares][k] + rank;
    }
    uint64_t at = number * 2 + (uint64_t)p->color;
    int code = packed[at >> 2] >> (2 * (at & 3)) & 3;
    return code == 0 ? 0 : code == 1 ? 1 : code == 2 ? -1 : NOT_COVERED;
}

/* Searcher.search */
static int r_padded(const Search *s) { return s->r->padded; }

/* The node's best score, stored in the table with its move (ply's list's
 * best_at'th); 0 when the search stopped. */
static int stored_best(Search *s, uint64_t key, int depth, int original_alpha, int beta, int ply,
                       int best, int best_at) {
    if (s->stopped || s->failed) return 0;
    int bound = best <= original_alpha ? UPPER : best >= beta ? LOWER : EXACT;
    int stored = best > WON ? best + ply : best < -WON ? best - ply : best;
    tt_put(s, key, depth, stored, bound, &s->plies[ply].moves.items[best_at]);
    return best;
}

#include "search_staged.h"

static int search(Search *s, const Pos *p, uint64_t key, int depth, int alpha, int beta, int ply,
                  int reversible) {
    if (tick(s)) return 0;
    if (s->breakthrough && (p->bb[2] | p->bb[3])) return crowned_score(p, ply);
    if (reach(s, ply) < 0) return s->failed = 1, 0;
    s->line[s->base + (size_t)ply] = key;
    if (ply && reversible >= 4 && repeated(s, key, ply, reversible)) return 0;
    if (s->no_progress >= 0 && reversible >= s->no_progress) return 0;
    if (s->bases.pieces && ply &&
        popcount(p->bb[0] | p->bb[1] | p->bb[2] | p->bb[3]) <= s->bases.pieces) {
        int known = probe_value(&s->bases, p);
        if (known != NOT_COVERED) return known * (KNOWN_WIN - ply);
    }
    if (depth <= 0) return quiesce(s, p, key, alpha, beta, ply);
    Entry entry;
    int found = tt_get(s, key, &entry);
    if (found) {
        int decided;
        int score = table_cut(&entry, depth, alpha, beta, ply, &decided);
        if (decided) return score;
    }
    if (depth >= 2) prefetch_first(s, p, key, ply, found ? &entry : NULL);
    if (beta - alpha == 1 && depth >= PROBCUT_DEPTH && ply && s->reductions && s->probcut) {
        int cut = probcut(s, p, key, depth, beta, ply, reversible);
        if (s->stopped || s->failed) return 0;
        if (cut) return beta;
    }
    Ply *here = ply_at(s, ply);
    if (here == NULL) return s->failed = 1, 0;
    int best_at, original_alpha = alpha, best, made = 0;
    if (ply && r_padded(s) && !(s->etc_depth > 0 && depth >= s->etc_depth && beta - alpha == 1)) {
        int staged = staged_first(s, here, p, key, depth, alpha, beta, ply, reversible,
                                  found ? &entry : NULL, &best, &best_at);
        if (staged < 0) return s->failed = 1, 0;
        if (staged > 0) return stored_best(s, key, depth, original_alpha, beta, ply, best, best_at);
        made = 1; /* the captures, or none */
    }
    long n = node_moves(s, here, p, ply, found ? &entry : NULL, made);
    if (n < 0) return s->failed = 1, 0;
    if (n == 0) return s->sign * (ply - WIN);
    if (n > 1 && s->etc_depth > 0 && depth >= s->etc_depth && beta - alpha == 1 && ply) {
        order_rest(here);
        int cut, score = etc_cut(s, p, key, depth, beta, ply, reversible, &cut);
        if (cut) return score;
    }
    best = move_loop(s, p, key, depth, alpha, beta, ply, reversible, &best_at);
    return stored_best(s, key, depth, original_alpha, beta, ply, best, best_at);
}

int search_run(Search *s, const Pos *p, uint64_t key, int depth, int alpha, int beta, int ply,
               int reversible) {
    s->stopped = s->failed = 0;
    s->has_partial = 0;
    s->interruptible = depth > 1 || s->helper;
    int score = search(s, p, key, depth, alpha, beta, ply, reversible);
    return s->stopped || s->failed ? 0 : score;
}

int search_table_move(Search *s, const Pos *p, uint64_t key, RouteList *moves) {
    Entry e;
    if (!tt_get(s, key, &e)) return -1;
    legal_routes(s->r, p, moves);
    for (size_t i = 0; i < moves->len; i++)
        if (same_move(&e, &moves->items[i])) return (int)i;
    return -1;
}
