/* draughts._core.native._native.VecEnv: the games of draughts.ml.VectorEnv
 * stepped in C, many at once, with no Python per game.
 *
 * Each game keeps its bitboards, side to move, ply, Zobrist keys since
 * the set-up (for the repetition rule), the draw rules' start plies and
 * the king followed for a king-move limit (Frisian), as draughts.Board
 * does in Python; its legal moves come from movegen.c and carry the
 * action index of draughts/ml/actions.py. step() plays one action per
 * game, decides the end as Board.outcome does (without claims: the
 * Python side keeps claim_draw for itself), starts finished games again
 * and writes observations, masks, rewards and flags into the caller's
 * buffers (any writable C-contiguous buffer: the core does not link
 * against NumPy). The GIL is released while the games are stepped.
 *
 * The Python side (draughts/ml/_native_env.py) passes the variant's rules
 * as flat int32 tables and checks the buffers' shapes and types. */
#include "convert.h"

#include <limits.h>
#ifndef _WIN32
#include <pthread.h>
#define HAVE_THREADS 1
#endif

extern PyTypeObject CoreType;

#define MAX_DRAW_RULES 8
#define MAX_THREADS 16
#define MAX_ENDINGS 8
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
    /* Tracked rules only: what restarts the count, and the most pieces
     * (and the most the weaker side) any ending has. */
    int resets, most, weak_most;
    EndingSpec endings[MAX_ENDINGS];
} RuleSpec;

typedef struct {
    bb_t captured;
    int32_t action;
    uint8_t origin, dest, crowned, is_capture;
} Legal;

typedef struct {
    bb_t bb[4]; /* men of White, Black, kings of White, Black */
    int turn, ply, quiet_from, ply_origin;
    int starts[MAX_DRAW_RULES]; /* per tracked rule, NOT_COUNTING when inactive */
    int ksq[2], kn[2];          /* the king each side moved in a row (-1: none), and how often */
    uint64_t key;
    uint64_t *keys; /* keys[p]: the key at ply p < ply */
    size_t capkeys;
    Legal *moves;
    int nmoves, capmoves;
    int32_t *hist, *fhist; /* this game's actions; the last ended game's */
    int nhist, caphist, nfhist, capfhist;
} Game;

/* What an observation shows of a game (the layout of draughts/ml/encoding.py):
 * kept per game as last written, so that a step rewrites only what changed.
 * Clearing and filling the whole observation and mask took 41% of a step
 * (perf, International, 256 games, 2026-12-04): the pieces that moved and
 * the planes whose value changed are a few dozen stores. */
typedef struct {
    bb_t planes[4];
    int black_view, turn, kcell[2];
    float values[MAX_DRAW_RULES + 1], kval[2];
} Drawn;

typedef struct {
    PyObject_HEAD
    CoreObject *core;
    int num_envs, perspective, max_plies, lose, goal, planes, hw, nsq, king_limit;
    int events[3]; /* Reset bits of a capture, a man move, a promotion */
    int cell[MAX_SQUARES];            /* compact square -> cell seen by White, -1 off the board */
    int turned[MAX_SQUARES + 1];      /* square number -> its number turned half a turn */
    int nrules, repetition;           /* repetition: index of the repetition rule, or -1 */
    RuleSpec rules[MAX_DRAW_RULES];   /* in the variant's order */
    int counting[MAX_DRAW_RULES], ncounting; /* the counting rules (planes' order) */
    bb_t long_diagonal;
    int squares_turn; /* the playing squares turned half a turn are the same cells */
    Game start; /* the start position, its legal moves included */
    Game *games;
    Drawn *drawn; /* per game, what its observation shows */
    int threads;
    int busy; /* a step runs (without the GIL): another call must not start */
    RouteList scratch[MAX_THREADS]; /* one per thread */
    int failed; /* out of memory, or more shared moves than the extra block holds */
} VecEnvObject;

static inline int low_sq(bb_t b) {
    uint64_t lo = (uint64_t)b;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(b >> 64));
}

/* -- Growing arrays --------------------------------------------------------- */

static int grow(void **items, int *cap, int need, size_t size) {
    if (need <= *cap) return 0;
    int n = *cap ? 2 * *cap : 64;
    while (n < need) n *= 2;
    void *p = realloc(*items, (size_t)n * size);
    if (p == NULL) return -1;
    *items = p;
    *cap = n;
    return 0;
}

static int push_key(Game *g) {
    if ((size_t)g->ply >= g->capkeys) {
        size_t n = g->capkeys ? 2 * g->capkeys : 256;
        uint64_t *p = realloc(g->keys, n * sizeof *p);
        if (p == NULL) return -1;
        g->keys = p;
        g->capkeys = n;
    }
    g->keys[g->ply] = g->key;
    return 0;
}

/* Copy the start game into g (its arrays stay g's own). */
static int restart(const VecEnvObject *e, Game *g) {
    Legal *moves = g->moves;
    uint64_t *keys = g->keys;
    int32_t *hist = g->hist, *fhist = g->fhist;
    int capmoves = g->capmoves, caphist = g->caphist, nfhist = g->nfhist, capfhist = g->capfhist;
    size_t capkeys = g->capkeys;
    *g = e->start;
    g->moves = moves, g->capmoves = capmoves, g->keys = keys, g->capkeys = capkeys;
    g->hist = hist, g->caphist = caphist, g->nhist = 0;
    g->fhist = fhist, g->capfhist = capfhist, g->nfhist = nfhist;
    if (grow((void **)&g->moves, &g->capmoves, e->start.nmoves, sizeof(Legal)) < 0) return -1;
    memcpy(g->moves, e->start.moves, (size_t)e->start.nmoves * sizeof(Legal));
    return 0;
}

/* -- Draw rules (draughts/_draw_rules.py's Tracker) ------------------------- */

/* The strong side of one of the rule's endings (0 when it has none), or -1. */
static int strong_side(const VecEnvObject *e, const RuleSpec *rule, const bb_t bb[4]) {
    if (!rule->n_endings) return 0;
    int m0 = popcount(bb[0]), m1 = popcount(bb[1]), k0 = popcount(bb[2]), k1 = popcount(bb[3]);
    int total = m0 + m1 + k0 + k1;
    for (int i = 0; i < rule->n_endings; i++) {
        const EndingSpec *x = &rule->endings[i];
        if (total < x->low || total > x->high) continue;
        if (x->sk <= k0 && k0 <= x->sK && x->sm <= m0 && m0 <= x->sM && x->wk <= k1 &&
            k1 <= x->wK && x->wm <= m1 && m1 <= x->wM && (!x->diagonal || (bb[3] & e->long_diagonal)))
            return 0;
        if (x->sk <= k1 && k1 <= x->sK && x->sm <= m1 && m1 <= x->sM && x->wk <= k0 &&
            k0 <= x->wK && x->wm <= m0 && m0 <= x->wM && (!x->diagonal || (bb[2] & e->long_diagonal)))
            return 1;
    }
    return -1;
}

/* The tracked rules' start plies after a move with events (Tracker.update;
 * worked out after every move, which gives the same starts as the board's
 * updates on the moves that may change them). */
static void update_starts(const VecEnvObject *e, Game *g, int events) {
    int m0 = popcount(g->bb[0] | g->bb[2]), m1 = popcount(g->bb[1] | g->bb[3]);
    int total = m0 + m1, weaker = m0 < m1 ? m0 : m1;
    for (int i = 0; i < e->nrules; i++) {
        const RuleSpec *rule = &e->rules[i];
        if (rule->mode != MODE_TRACKED) continue;
        int held = total <= rule->most && weaker <= rule->weak_most &&
                   strong_side(e, rule, g->bb) >= 0;
        int *start = &g->starts[rule->slot];
        if (!held)
            *start = NOT_COUNTING;
        else if (*start == NOT_COUNTING || (rule->resets & events))
            *start = g->ply;
    }
}

/* How far a counting rule has got (Tracker.count), or -1 while it does not hold. */
static int rule_count(const VecEnvObject *e, const Game *g, const RuleSpec *rule) {
    int start = rule->mode == MODE_QUIET   ? g->quiet_from
                : rule->mode == MODE_PLIES ? g->ply_origin
                                           : g->starts[rule->slot];
    if (start == NOT_COUNTING) return -1;
    int plies = g->ply - start;
    if (!rule->strong_moves) return plies;
    int strong = strong_side(e, rule, g->bb);
    if (strong < 0) return -1;
    int first = plies % 2 == 0 ? g->turn : 1 - g->turn;
    return first == strong ? (plies + 1) / 2 : plies / 2;
}

/* How often the position has occurred (this time included), at most limit
 * (Board.is_repetition's scan). */
static int occurrences(const Game *g, int limit) {
    int seen = 1, low = g->quiet_from > 0 ? g->quiet_from : 0;
    for (int p = g->ply - 2; p >= low && seen < limit; p -= 2)
        if (g->keys[p] == g->key) seen++;
    return seen;
}

/* -- Legal moves with their action indices ---------------------------------- */

typedef struct {
    int base, n;
    uint8_t key[MAX_SQUARES]; /* the captured squares' numbers, sorted */
} Ranked;

static int compare_ranked(const Ranked *a, const Ranked *b) {
    if (a->base != b->base) return a->base < b->base ? -1 : 1;
    for (int i = 0; i < a->n && i < b->n; i++)
        if (a->key[i] != b->key[i]) return a->key[i] < b->key[i] ? -1 : 1;
    return (a->n > b->n) - (a->n < b->n);
}

/* Order the moves by (base, captured squares) and give every move of a
 * pair but the first an index in the extra block (actions.py's indexed):
 * the rare case, so it may take its time. */
static int rank_shared(const VecEnvObject *e, Game *g, const int *frame) {
    int n = g->nmoves;
    Ranked *r = malloc((size_t)n * sizeof *r);
    int *order = malloc((size_t)n * sizeof *order);
    Legal *sorted = malloc((size_t)n * sizeof *sorted);
    if (r == NULL || order == NULL || sorted == NULL) {
        free(r), free(order), free(sorted);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        const Legal *m = &g->moves[i];
        r[i].base = m->action;
        r[i].n = 0;
        for (bb_t c = m->captured; c; c &= c - 1) {
            int number = e->core->number[low_sq(c)];
            int v = frame ? frame[number] : number, j = r[i].n++;
            while (j > 0 && r[i].key[j - 1] > v) {
                r[i].key[j] = r[i].key[j - 1];
                j--;
            }
            r[i].key[j] = (uint8_t)v;
        }
        int j = i;
        while (j > 0 && compare_ranked(&r[order[j - 1]], &r[i]) > 0) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    int w = 0, extra = e->nsq * e->nsq, k = 0;
    for (int i = 0; i < n; i++)
        if (i == 0 || r[order[i]].base != r[order[i - 1]].base) sorted[w++] = g->moves[order[i]];
    for (int i = 1; i < n; i++) {
        if (r[order[i]].base != r[order[i - 1]].base) continue;
        sorted[w] = g->moves[order[i]];
        sorted[w++].action = extra + k++;
    }
    memcpy(g->moves, sorted, (size_t)n * sizeof *sorted);
    free(r), free(order), free(sorted);
    return k > e->nsq * e->nsq ? -2 : 0;
}

/* g's legal moves, sorted by action index. -1 out of memory, -2 when more
 * moves share a pair than the extra block holds. */
static int generate(const VecEnvObject *e, Game *g, RouteList *l) {
    const Rules *r = &e->core->rules;
    int c = g->turn;
    Side s = {g->bb[c], g->bb[2 + c], g->bb[1 - c], g->bb[3 - c]};
    l->len = 0;
    long n = gen_captures(r, c, &s, 0, l);
    if (n == 0) {
        bb_t frozen = 0;
        if (e->king_limit && g->kn[c] >= e->king_limit && g->bb[c]) frozen = BIT(g->ksq[c]);
        n = gen_steps(r, c, &s, frozen, l);
    }
    if (n < 0 || grow((void **)&g->moves, &g->capmoves, (int)n, sizeof(Legal)) < 0) return -1;
    const int *frame = e->perspective && c == 1 ? e->turned : NULL;
    const int *number = e->core->number;
    int shared = 0;
    for (long i = 0; i < n; i++) {
        const Route *route = &l->items[i];
        int from = number[route->origin], to = number[route->dest];
        if (frame) from = frame[from], to = frame[to];
        Legal m = {route->captured, (from - 1) * e->nsq + to - 1, route->origin, route->dest,
                   route->crowned, route->ncaps > 0};
        /* Insertion by action: the lists are short. */
        long j = i;
        while (j > 0 && g->moves[j - 1].action > m.action) {
            g->moves[j] = g->moves[j - 1];
            j--;
        }
        if (j > 0 && g->moves[j - 1].action == m.action) shared = 1;
        if (j < i && g->moves[j + 1].action == m.action) shared = 1;
        g->moves[j] = m;
    }
    g->nmoves = (int)n;
    return shared ? rank_shared(e, g, frame) : 0;
}

/* -- Playing a move ----------------------------------------------------------- */

/* Play m on g (Board._push_python's bookkeeping); returns the events. */
static int apply(const VecEnvObject *e, Game *g, const Legal *m) {
    const Rules *r = &e->core->rules;
    int c = g->turn, o = 1 - c;
    bb_t from = BIT(m->origin), to = BIT(m->dest);
    uint64_t k = g->key ^ r->key_black;
    for (bb_t cap = m->captured; cap; cap &= cap - 1) {
        int sq = low_sq(cap);
        k ^= (g->bb[2 + o] & BIT(sq)) ? r->key_kings[o][sq] : r->key_men[o][sq];
    }
    g->bb[o] &= ~m->captured;
    g->bb[2 + o] &= ~m->captured;
    int is_man = (g->bb[c] & from) != 0;
    if (is_man) { /* a capture may bring the man back to its own square: clear it first */
        g->bb[c] &= ~from;
        k ^= r->key_men[c][m->origin];
        if (m->crowned) {
            g->bb[2 + c] |= to;
            k ^= r->key_kings[c][m->dest];
        } else {
            g->bb[c] |= to;
            k ^= r->key_men[c][m->dest];
        }
    } else {
        g->bb[2 + c] = (g->bb[2 + c] & ~from) | to;
        k ^= r->key_kings[c][m->origin] ^ r->key_kings[c][m->dest];
    }
    g->key = k;
    g->turn = o;
    g->ply++;
    int events = (m->captured ? e->events[0] : 0) | (is_man ? e->events[1] : 0) |
                 (is_man && m->crowned ? e->events[2] : 0);
    if (is_man || m->captured) g->quiet_from = g->ply;
    update_starts(e, g, events);
    if (e->king_limit) { /* Board._count_king_move */
        if (!is_man && !m->captured && g->bb[c]) {
            g->kn[c] = g->ksq[c] == m->origin ? g->kn[c] + 1 : 1;
            g->ksq[c] = m->dest;
        } else if (g->ksq[c] >= 0) {
            g->ksq[c] = -1;
            g->kn[c] = 0;
        }
    }
    return events;
}

/* How the game stands (Board.outcome without claims): an END_ code, with
 * the winner (-1 none) in *winner. */
static int decide(const VecEnvObject *e, const Game *g, int *winner) {
    int turn = g->turn;
    *winner = -1;
    if (e->goal == GOAL_BREAKTHROUGH) {
        for (int k = 0; k < 2; k++) {
            int side = k ? turn : 1 - turn;
            if (g->bb[2 + side]) {
                *winner = side;
                return END_BREAKTHROUGH;
            }
        }
    }
    if (!g->nmoves) {
        *winner = e->goal == GOAL_ANTIDRAUGHTS ? turn : 1 - turn;
        return (g->bb[turn] | g->bb[2 + turn]) ? END_BLOCKED : END_NO_PIECES;
    }
    for (int i = 0; i < e->nrules; i++) {
        const RuleSpec *rule = &e->rules[i];
        if (!rule->automatic) continue;
        if (rule->is_repetition) {
            if (occurrences(g, rule->limit) >= rule->limit) return END_RULE + i;
            continue;
        }
        int count = rule_count(e, g, rule);
        if (count < 0 || count < rule->limit) continue;
        /* A pure material rule judges the material that stays: not while a
         * capture must be made (Board._met). */
        if (rule->limit || !g->moves[0].is_capture) return END_RULE + i;
    }
    return END_NONE;
}

/* -- Observations ----------------------------------------------------------- */

static void shown(const VecEnvObject *e, const Game *g, Drawn *d) {
    int black_view = e->perspective && g->turn == 1, first = black_view, hw = e->hw;
    d->black_view = black_view;
    d->turn = g->turn;
    d->planes[0] = g->bb[first], d->planes[1] = g->bb[2 + first];
    d->planes[2] = g->bb[1 - first], d->planes[3] = g->bb[3 - first];
    int n = 0;
    if (e->repetition >= 0) {
        int limit = e->rules[e->repetition].limit;
        d->values[n++] = (float)((double)occurrences(g, limit) / (double)limit);
    }
    for (int i = 0; i < e->ncounting; i++) {
        const RuleSpec *rule = &e->rules[e->counting[i]];
        int count = rule_count(e, g, rule);
        d->values[n++] =
            count < 0 ? 0.0f : (float)((double)(count + 1) / (double)(count + rule->limit + 2));
    }
    for (int k = 0; k < 2; k++) {
        int color = first ? 1 - k : k;
        d->kcell[k] = -1;
        d->kval[k] = 0.0f;
        if (!e->king_limit || !g->kn[color]) continue;
        d->kcell[k] = black_view ? hw - 1 - e->cell[g->ksq[color]] : e->cell[g->ksq[color]];
        d->kval[k] = (float)((double)g->kn[color] / (double)e->king_limit);
    }
}

static void put_pieces(const VecEnvObject *e, float *obs, const Drawn *d, float value) {
    int hw = e->hw;
    for (int p = 0; p < 4; p++) {
        for (bb_t b = d->planes[p]; b; b &= b - 1) {
            int sq = low_sq(b);
            obs[p * hw + (d->black_view ? hw - 1 - e->cell[sq] : e->cell[sq])] = value;
        }
    }
}

static void fill(float *plane, int hw, float value) {
    for (int i = 0; i < hw; i++) plane[i] = value;
}

static void put_squares(const VecEnvObject *e, float *plane, int black_view) {
    fill(plane, e->hw, 0.0f);
    for (int sq = 0; sq < e->core->rules.n; sq++)
        if (e->cell[sq] >= 0) plane[black_view ? e->hw - 1 - e->cell[sq] : e->cell[sq]] = 1.0f;
}

/* Write g's observation into obs: all of it (was == NULL), or only what
 * differs from was, which obs shows; was becomes what obs shows now. */
static void observe(const VecEnvObject *e, const Game *g, float *obs, Drawn *was) {
    int hw = e->hw, nvalues = (e->repetition >= 0) + e->ncounting;
    Drawn now;
    shown(e, g, &now);
    if (was == NULL) {
        memset(obs, 0, (size_t)e->planes * (size_t)hw * sizeof *obs);
        put_squares(e, obs + 5 * hw, now.black_view);
        if (now.turn) fill(obs + 4 * hw, hw, 1.0f);
        for (int i = 0; i < nvalues; i++)
            if (now.values[i] != 0.0f) fill(obs + (6 + i) * hw, hw, now.values[i]);
    } else {
        put_pieces(e, obs, was, 0.0f);
        if (now.turn != was->turn) fill(obs + 4 * hw, hw, (float)now.turn);
        if (now.black_view != was->black_view && !e->squares_turn)
            put_squares(e, obs + 5 * hw, now.black_view);
        for (int i = 0; i < nvalues; i++)
            if (now.values[i] != was->values[i]) fill(obs + (6 + i) * hw, hw, now.values[i]);
        for (int k = 0; k < 2; k++)
            if (was->kcell[k] >= 0) obs[(6 + nvalues + k) * hw + was->kcell[k]] = 0.0f;
    }
    put_pieces(e, obs, &now, 1.0f);
    for (int k = 0; k < 2; k++)
        if (now.kcell[k] >= 0) obs[(6 + nvalues + k) * hw + now.kcell[k]] = now.kval[k];
    if (was != NULL) *was = now;
}

/* -- Stepping ----------------------------------------------------------------- */

/* The caller's arrays for one step (checked by the Python side). */
typedef struct {
    const int64_t *actions;
    float *obs, *rewards, *final_obs;
    uint8_t *masks, *terminated, *truncated;
    int8_t *codes, *winners;
} Arrays;

static int keep_action(Game *g, int32_t action) {
    if (grow((void **)&g->hist, &g->caphist, g->nhist + 1, sizeof(int32_t)) < 0) return -1;
    g->hist[g->nhist++] = action;
    return 0;
}

/* The game ended (or was cut): its last position into final_obs, its
 * actions kept, and a new game. */
static int start_again(VecEnvObject *e, Game *g, float *final_obs) {
    observe(e, g, final_obs, NULL);
    int32_t *h = g->fhist;
    int cap = g->capfhist;
    g->fhist = g->hist, g->capfhist = g->caphist, g->nfhist = g->nhist;
    g->hist = h, g->caphist = cap, g->nhist = 0;
    return restart(e, g);
}

/* Where action is in g's moves (sorted by action), or -1. */
static int find_action(const Game *g, int64_t action) {
    int low = 0, high = g->nmoves - 1;
    while (low <= high) {
        int mid = (low + high) / 2;
        if (g->moves[mid].action == action) return mid;
        if (g->moves[mid].action < action) low = mid + 1;
        else high = mid - 1;
    }
    return -1;
}

/* Step game i: 0, 1 if its action is illegal (and illegal actions raise),
 * -1 out of memory, -2 more shared moves than the extra block holds. */
static int step_one(VecEnvObject *e, int i, const Arrays *a, RouteList *l) {
    Game *g = &e->games[i];
    size_t obs_size = (size_t)e->planes * (size_t)e->hw;
    size_t mask_size = 2 * (size_t)e->nsq * (size_t)e->nsq;
    int64_t action = a->actions[i];
    int found = find_action(g, action);
    int mover = g->turn, code, winner;
    if (found < 0 && !e->lose) return 1;
    uint8_t *mask = a->masks + i * mask_size;
    for (int k = 0; k < g->nmoves; k++) mask[g->moves[k].action] = 0;
    if (found < 0) {
        code = END_RESIGNATION;
        winner = 1 - mover;
    } else {
        Legal m = g->moves[found];
        if (push_key(g) < 0 || keep_action(g, (int32_t)action) < 0) return -1;
        apply(e, g, &m);
        int status = generate(e, g, l);
        if (status < 0) {
            g->nmoves = 0; /* no action index out of range stays; reset() starts again */
            return status;
        }
        code = decide(e, g, &winner);
    }
    int cut = code == END_NONE && e->max_plies && g->ply >= e->max_plies;
    a->rewards[i] = winner < 0 ? 0.0f : winner == mover ? 1.0f : -1.0f;
    a->terminated[i] = code != END_NONE;
    a->truncated[i] = (uint8_t)cut;
    a->codes[i] = (int8_t)code;
    a->winners[i] = (int8_t)winner;
    if ((code != END_NONE || cut) && start_again(e, g, a->final_obs + i * obs_size) < 0) return -1;
    observe(e, g, a->obs + i * obs_size, &e->drawn[i]);
    for (int k = 0; k < g->nmoves; k++) mask[g->moves[k].action] = 1;
    return 0;
}

/* Whether no step runs (the others read what a step writes). */
static int idle(const VecEnvObject *e) {
    if (e->busy) PyErr_SetString(PyExc_RuntimeError, "the games are being stepped by another thread");
    return !e->busy;
}

typedef struct {
    VecEnvObject *e;
    const Arrays *a;
    int from, to, status;
    RouteList *scratch;
} Part;

static void *step_part(void *arg) {
    Part *p = arg;
    for (int i = p->from; i < p->to && p->status == 0; i++)
        p->status = step_one(p->e, i, p->a, p->scratch);
    return NULL;
}

/* Step every game, on e->threads threads (each its own slice of the games).
 * An illegal action that raises stops the batch there: the games before it
 * move (on one thread), none after. */
static int step_all(VecEnvObject *e, const Arrays *a, long *illegal) {
    int n = e->num_envs;
    if (!e->lose) {
        for (int i = 0; i < n; i++) {
            if (find_action(&e->games[i], a->actions[i]) < 0) {
                *illegal = i;
                n = i;
                break;
            }
        }
    }
    int threads = e->threads < n / 32 ? e->threads : n / 32; /* a slice of 32 games at least */
    if (threads < 1) threads = 1;
    Part parts[MAX_THREADS];
    for (int t = 0; t < threads; t++) {
        parts[t] = (Part){e, a, (int)((long)n * t / threads), (int)((long)n * (t + 1) / threads), 0,
                          &e->scratch[t]};
    }
#ifdef HAVE_THREADS
    pthread_t ids[MAX_THREADS];
    int started = 1;
    for (; started < threads; started++)
        if (pthread_create(&ids[started], NULL, step_part, &parts[started]) != 0) break;
    for (int t = started; t < threads; t++) step_part(&parts[t]); /* could not start one */
    step_part(&parts[0]);
    for (int t = 1; t < started; t++) pthread_join(ids[t], NULL);
#else
    for (int t = 0; t < threads; t++) step_part(&parts[t]);
#endif
    for (int t = 0; t < threads; t++)
        if (parts[t].status < 0) return parts[t].status;
    return 0;
}

static int get_buffer(PyObject *obj, Py_buffer *view, Py_ssize_t size, const char *what) {
    if (PyObject_GetBuffer(obj, view, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (view->len != size) {
        PyErr_Format(PyExc_ValueError, "%s: %zd bytes, not %zd", what, view->len, size);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static PyObject *failure(VecEnvObject *e) {
    if (e->failed == -2)
        PyErr_SetString(PyExc_ValueError,
                        "more legal moves share an origin and a destination than the action "
                        "index's extra block holds (reset() starts the games again)");
    else
        PyErr_NoMemory();
    e->failed = 0;
    return NULL;
}

static PyObject *vec_step(VecEnvObject *e, PyObject *args) {
    static const char *const what[9] = {"actions", "observations", "masks",  "rewards",
                                        "terminated", "truncated", "final observations",
                                        "end codes", "winners"};
    PyObject *objs[9];
    if (!PyArg_ParseTuple(args, "OOOOOOOOO", &objs[0], &objs[1], &objs[2], &objs[3], &objs[4],
                          &objs[5], &objs[6], &objs[7], &objs[8]))
        return NULL;
    Py_ssize_t n = e->num_envs, obs = n * e->planes * e->hw * (Py_ssize_t)sizeof(float);
    Py_ssize_t sizes[9] = {n * 8, obs, n * 2 * e->nsq * e->nsq, n * 4, n, n, obs, n, n};
    if (!idle(e)) return NULL;
    Py_buffer views[9];
    int got = 0;
    for (; got < 9; got++)
        if (get_buffer(objs[got], &views[got], sizes[got], what[got]) < 0) break;
    long illegal = -1;
    int status = 0;
    if (got == 9) {
        Arrays a = {views[0].buf, views[1].buf, views[3].buf, views[6].buf, views[2].buf,
                    views[4].buf, views[5].buf, views[7].buf, views[8].buf};
        e->busy = 1;
        Py_BEGIN_ALLOW_THREADS
        status = step_all(e, &a, &illegal);
        Py_END_ALLOW_THREADS
        e->busy = 0;
    }
    for (int i = 0; i < got; i++) PyBuffer_Release(&views[i]);
    if (got < 9) return NULL;
    if (status < 0) {
        e->failed = status;
        return failure(e);
    }
    return PyLong_FromLong(illegal);
}

static PyObject *vec_reset(VecEnvObject *e, PyObject *args) {
    PyObject *obs_obj, *mask_obj;
    if (!PyArg_ParseTuple(args, "OO", &obs_obj, &mask_obj)) return NULL;
    if (!idle(e)) return NULL;
    Py_ssize_t n = e->num_envs;
    Py_buffer obs, masks;
    if (get_buffer(obs_obj, &obs, n * e->planes * e->hw * (Py_ssize_t)sizeof(float),
                   "observations") < 0)
        return NULL;
    if (get_buffer(mask_obj, &masks, n * 2 * e->nsq * e->nsq, "masks") < 0) {
        PyBuffer_Release(&obs);
        return NULL;
    }
    int status = 0;
    size_t obs_size = (size_t)e->planes * (size_t)e->hw, mask_size = 2 * (size_t)e->nsq * e->nsq;
    for (int i = 0; i < e->num_envs && status == 0; i++) {
        Game *g = &e->games[i];
        g->nfhist = 0;
        status = restart(e, g);
        observe(e, g, (float *)obs.buf + i * obs_size, NULL);
        shown(e, g, &e->drawn[i]);
        uint8_t *mask = (uint8_t *)masks.buf + i * mask_size;
        memset(mask, 0, mask_size);
        for (int k = 0; k < g->nmoves; k++) mask[g->moves[k].action] = 1;
    }
    PyBuffer_Release(&obs);
    PyBuffer_Release(&masks);
    if (status < 0) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

/* A legal action per game, picked by uniforms[i] in [0, 1) among its sorted
 * legal actions (VectorEnv.sample's rule). */
static PyObject *vec_sample(VecEnvObject *e, PyObject *args) {
    PyObject *u_obj, *a_obj;
    if (!PyArg_ParseTuple(args, "OO", &u_obj, &a_obj) || !idle(e)) return NULL;
    Py_buffer u, a;
    if (get_buffer(u_obj, &u, e->num_envs * (Py_ssize_t)sizeof(double), "uniforms") < 0)
        return NULL;
    if (get_buffer(a_obj, &a, e->num_envs * 8, "actions") < 0) {
        PyBuffer_Release(&u);
        return NULL;
    }
    const double *uniforms = u.buf;
    int64_t *actions = a.buf;
    for (int i = 0; i < e->num_envs; i++) {
        const Game *g = &e->games[i];
        int k = (int)(uniforms[i] * g->nmoves);
        actions[i] = g->nmoves ? g->moves[k < g->nmoves ? k : g->nmoves - 1].action : -1;
    }
    PyBuffer_Release(&u);
    PyBuffer_Release(&a);
    Py_RETURN_NONE;
}

/* The actions of game i's current game (final: of the last one that ended). */
static PyObject *vec_history(VecEnvObject *e, PyObject *args) {
    int i, final;
    if (!PyArg_ParseTuple(args, "ip", &i, &final) || !idle(e)) return NULL;
    if (i < 0 || i >= e->num_envs) {
        PyErr_Format(PyExc_IndexError, "no game %d", i);
        return NULL;
    }
    const Game *g = &e->games[i];
    int n = final ? g->nfhist : g->nhist;
    const int32_t *h = final ? g->fhist : g->hist;
    PyObject *list = PyList_New(n);
    for (int k = 0; list != NULL && k < n; k++) {
        PyObject *v = PyLong_FromLong(h[k]);
        if (v == NULL) Py_CLEAR(list);
        else PyList_SET_ITEM(list, k, v);
    }
    return list;
}

/* -- Encoding boards (draughts.ml.encode_batch) -------------------------------- */

enum { A_CTX, A_MEN, A_KINGS, A_TURN, A_STACK, A_QUIET, A_STARTS, A_KMOVES, A_ORIGIN, N_ATTRS };
static PyObject *attr_names[N_ATTRS];

static int intern_names(void) {
    static const char *const names[N_ATTRS] = {"_ctx",         "_men",    "_kings",
                                               "_turn",        "_stack",  "_quiet_from",
                                               "_starts",      "_kmoves", "_ply_origin"};
    for (int i = 0; i < N_ATTRS; i++)
        if (attr_names[i] == NULL && (attr_names[i] = PyUnicode_InternFromString(names[i])) == NULL)
            return -1;
    return 0;
}

static int int_item(PyObject *seq, Py_ssize_t i, long *out) {
    PyObject *v = PySequence_GetItem(seq, i);
    if (v == NULL) return -1;
    *out = v == Py_None ? NOT_COUNTING : PyLong_AsLong(v);
    Py_DECREF(v);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

static int pair_bits(CoreObject *c, PyObject *board, PyObject *name, bb_t *first, bb_t *second) {
    PyObject *pair = PyObject_GetAttr(board, name);
    if (pair == NULL) return -1;
    PyObject *a = PySequence_GetItem(pair, 0), *b = PySequence_GetItem(pair, 1);
    int status = a && b && to_bits(c, a, first, "a bitboard") == 0 &&
                         to_bits(c, b, second, "a bitboard") == 0
                     ? 0
                     : -1;
    Py_XDECREF(a);
    Py_XDECREF(b);
    Py_DECREF(pair);
    return status;
}

/* A board's game state as a Game: what observe() reads. The keys of the
 * plies the repetition scan looks at go into keys (room for ply keys). */
static int read_board(VecEnvObject *e, PyObject *board, Game *g) {
    CoreObject *c = e->core;
    long v;
    PyObject *o;
    if (pair_bits(c, board, attr_names[A_MEN], &g->bb[0], &g->bb[1]) < 0 ||
        pair_bits(c, board, attr_names[A_KINGS], &g->bb[2], &g->bb[3]) < 0)
        return -1;
    if ((o = PyObject_GetAttr(board, attr_names[A_TURN])) == NULL) return -1;
    g->turn = (int)PyLong_AsLong(o);
    Py_DECREF(o);
    if ((o = PyObject_GetAttr(board, attr_names[A_QUIET])) == NULL) return -1;
    g->quiet_from = (int)PyLong_AsLong(o);
    Py_DECREF(o);
    if ((o = PyObject_GetAttr(board, attr_names[A_STACK])) == NULL) return -1;
    g->ply = (int)PyList_Size(o);
    int low = g->quiet_from > 0 ? g->quiet_from : 0, failed = g->ply < 0;
    if (!failed && e->repetition >= 0 && g->ply > (int)g->capkeys) {
        uint64_t *keys = realloc(g->keys, (size_t)g->ply * sizeof *keys);
        if (keys == NULL) failed = 1;
        else g->keys = keys, g->capkeys = (size_t)g->ply;
    }
    for (int p = g->ply - 2; !failed && e->repetition >= 0 && p >= low; p -= 2) {
        PyObject *entry = PyList_GET_ITEM(o, p);
        PyObject *key = PyTuple_Check(entry) && PyTuple_GET_SIZE(entry) > 5
                            ? PyTuple_GET_ITEM(entry, 5)
                            : NULL;
        failed = key == NULL || get_key(key, &g->keys[p]) < 0;
    }
    Py_DECREF(o);
    if (failed) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a board's history is unreadable");
        return -1;
    }
    g->key = position_key(&c->rules, g->turn, g->bb);
    g->ply_origin = 0;
    for (int i = 0; i < e->nrules; i++) {
        if (e->rules[i].mode != MODE_PLIES) continue;
        if ((o = PyObject_GetAttr(board, attr_names[A_ORIGIN])) == NULL) return -1;
        g->ply_origin = (int)PyLong_AsLong(o);
        Py_DECREF(o);
        break;
    }
    if ((o = PyObject_GetAttr(board, attr_names[A_STARTS])) == NULL) return -1;
    Py_ssize_t n = PySequence_Size(o);
    for (Py_ssize_t i = 0; i < MAX_DRAW_RULES; i++) {
        if (i < n && int_item(o, i, &v) < 0) {
            Py_DECREF(o);
            return -1;
        }
        g->starts[i] = i < n ? (int)v : NOT_COUNTING;
    }
    Py_DECREF(o);
    if (e->king_limit) {
        if ((o = PyObject_GetAttr(board, attr_names[A_KMOVES])) == NULL) return -1;
        for (int k = 0; k < 2; k++) {
            PyObject *bit = PySequence_GetItem(o, 2 * k);
            bb_t b = 0;
            int bad = bit == NULL || to_bits(c, bit, &b, "a king square") < 0 ||
                      int_item(o, 2 * k + 1, &v) < 0;
            Py_XDECREF(bit);
            if (bad) {
                Py_DECREF(o);
                return -1;
            }
            g->ksq[k] = b ? low_sq(b) : -1;
            g->kn[k] = (int)v;
        }
        Py_DECREF(o);
    }
    return PyErr_Occurred() ? -1 : 0;
}

/* encode(boards, out, ctx): the observations of boards (as this VecEnv's
 * perspective shows them) into out; -1, or the index of the first board
 * whose _ctx is not ctx (nothing is promised of out then). */
static PyObject *vec_encode(VecEnvObject *e, PyObject *args) {
    PyObject *boards, *out_obj, *ctx;
    if (!PyArg_ParseTuple(args, "O!OO", &PyList_Type, &boards, &out_obj, &ctx) ||
        intern_names() < 0)
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(boards);
    Py_buffer out;
    size_t obs_size = (size_t)e->planes * (size_t)e->hw;
    if (get_buffer(out_obj, &out, n * (Py_ssize_t)(obs_size * sizeof(float)), "out") < 0)
        return NULL;
    Game g;
    memset(&g, 0, sizeof g);
    long stopped = -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *board = PyList_GET_ITEM(boards, i);
        PyObject *board_ctx = PyObject_GetAttr(board, attr_names[A_CTX]);
        if (board_ctx == NULL) {
            stopped = -2;
            break;
        }
        Py_DECREF(board_ctx);
        if (board_ctx != ctx) {
            stopped = (long)i;
            break;
        }
        if (read_board(e, board, &g) < 0) {
            stopped = -2;
            break;
        }
        observe(e, &g, (float *)out.buf + (size_t)i * obs_size, NULL);
    }
    free(g.keys);
    PyBuffer_Release(&out);
    if (stopped == -2) return NULL;
    return PyLong_FromLong(stopped);
}

/* -- Construction --------------------------------------------------------------- */

static int int32s(PyObject *bytes, const int32_t **out, Py_ssize_t *n) {
    if (!PyBytes_Check(bytes)) {
        PyErr_SetString(PyExc_TypeError, "int32 tables come as bytes");
        return -1;
    }
    *out = (const int32_t *)PyBytes_AS_STRING(bytes);
    *n = PyBytes_GET_SIZE(bytes) / 4;
    return 0;
}

/* rules: per rule is_repetition, automatic, limit, mode, slot, strong side
 * moves, resets, most, weak most, endings, then 11 ints per ending. */
static int load_draw_rules(VecEnvObject *e, PyObject *bytes) {
    const int32_t *v;
    Py_ssize_t n, at = 0;
    if (int32s(bytes, &v, &n) < 0) return -1;
    e->repetition = -1;
    while (at < n) {
        if (e->nrules == MAX_DRAW_RULES || at + 10 > n) goto bad;
        RuleSpec *rule = &e->rules[e->nrules];
        rule->is_repetition = v[at], rule->automatic = v[at + 1], rule->limit = v[at + 2];
        rule->mode = v[at + 3], rule->slot = v[at + 4], rule->strong_moves = v[at + 5];
        rule->resets = v[at + 6], rule->most = v[at + 7], rule->weak_most = v[at + 8];
        rule->n_endings = v[at + 9];
        at += 10;
        if (rule->n_endings < 0 || rule->n_endings > MAX_ENDINGS ||
            at + 11 * rule->n_endings > n || rule->slot < -1 || rule->slot >= MAX_DRAW_RULES ||
            (rule->mode == MODE_TRACKED && rule->slot < 0))
            goto bad;
        memcpy(rule->endings, v + at, 11 * sizeof(int32_t) * (size_t)rule->n_endings);
        at += 11 * rule->n_endings;
        if (rule->is_repetition) {
            if (rule->limit < 1) goto bad;
            e->repetition = e->nrules;
        } else {
            e->counting[e->ncounting++] = e->nrules;
        }
        e->nrules++;
    }
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "a malformed draw-rule table");
    return -1;
}

/* start: m0, m1, k0, k1, turn, quiet_from, ply_origin, starts (int32
 * bytes), king square and count of White, of Black. */
static int load_start(VecEnvObject *e, PyObject *start) {
    PyObject *bbs[4], *starts;
    Game *g = &e->start;
    if (!PyArg_ParseTuple(start, "OOOOiiiOiiii", &bbs[0], &bbs[1], &bbs[2], &bbs[3], &g->turn,
                          &g->quiet_from, &g->ply_origin, &starts, &g->ksq[0], &g->kn[0],
                          &g->ksq[1], &g->kn[1]))
        return -1;
    for (int i = 0; i < 4; i++)
        if (to_bits(e->core, bbs[i], &g->bb[i], "a start bitboard") < 0) return -1;
    const int32_t *v;
    Py_ssize_t n;
    if (int32s(starts, &v, &n) < 0) return -1;
    for (int i = 0; i < MAX_DRAW_RULES; i++) g->starts[i] = i < n ? v[i] : NOT_COUNTING;
    g->key = position_key(&e->core->rules, g->turn, g->bb);
    int status = generate(e, g, &e->scratch[0]);
    if (status == -2) {
        e->failed = -2;
        failure(e);
        return -1;
    }
    if (status < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static PyObject *vec_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    PyObject *core, *params, *cells, *turned, *rules, *diagonal, *start;
    int num_envs;
    if (kwargs != NULL && PyDict_GET_SIZE(kwargs)) {
        PyErr_SetString(PyExc_TypeError, "VecEnv takes no keyword arguments");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "O!iOOOOOO", &CoreType, &core, &num_envs, &params, &cells,
                          &turned, &rules, &diagonal, &start))
        return NULL;
    CoreObject *c = (CoreObject *)core;
    if (!c->ready || !c->rules.padded || num_envs < 1) {
        PyErr_SetString(PyExc_ValueError, "the native VecEnv needs a padded board and a game");
        return NULL;
    }
    VecEnvObject *e = (VecEnvObject *)type->tp_alloc(type, 0);
    if (e == NULL) return NULL;
    e->core = (CoreObject *)Py_NewRef(core);
    e->num_envs = num_envs;
    for (int t = 0; t < MAX_THREADS; t++) routes_init(&e->scratch[t]);
    const int32_t *v;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(params, "iiiiiiiiiiii", &e->perspective, &e->max_plies, &e->lose,
                          &e->goal, &e->planes, &e->hw, &e->nsq, &e->king_limit, &e->events[0],
                          &e->events[1], &e->events[2], &e->threads) ||
        int32s(cells, &v, &n) < 0)
        goto fail;
    if (e->threads < 1 || e->threads > MAX_THREADS) {
        PyErr_Format(PyExc_ValueError, "threads must be 1 to %d", MAX_THREADS);
        goto fail;
    }
    if (n != c->rules.n || e->nsq > MAX_SQUARES || e->nsq < 1) {
        PyErr_SetString(PyExc_ValueError, "one cell per square expected");
        goto fail;
    }
    for (int i = 0; i < n; i++) e->cell[i] = v[i];
    if (int32s(turned, &v, &n) < 0) goto fail;
    for (int i = 0; i <= e->nsq; i++) e->turned[i] = i < n ? v[i] : i;
    if (load_draw_rules(e, rules) < 0 || to_bits(c, diagonal, &e->long_diagonal, "diagonal") < 0)
        goto fail;
    if (load_start(e, start) < 0) goto fail;
    e->squares_turn = 1;
    for (int sq = 0; sq < c->rules.n; sq++) {
        int turned_cell = e->cell[sq] < 0 ? -1 : e->hw - 1 - e->cell[sq], found = 0;
        for (int other = 0; other < c->rules.n && turned_cell >= 0; other++)
            found |= e->cell[other] == turned_cell;
        if (turned_cell >= 0 && !found) e->squares_turn = 0;
    }
    e->games = calloc((size_t)num_envs, sizeof(Game));
    e->drawn = calloc((size_t)num_envs, sizeof(Drawn));
    if (e->games == NULL || e->drawn == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    for (int i = 0; i < num_envs; i++)
        if (restart(e, &e->games[i]) < 0) {
            PyErr_NoMemory();
            goto fail;
        }
    return (PyObject *)e;
fail:
    Py_DECREF(e);
    return NULL;
}

static void free_game(Game *g) {
    free(g->keys), free(g->moves), free(g->hist), free(g->fhist);
}

static void vec_dealloc(VecEnvObject *e) {
    if (e->games != NULL)
        for (int i = 0; i < e->num_envs; i++) free_game(&e->games[i]);
    free(e->games);
    free(e->drawn);
    free_game(&e->start);
    for (int t = 0; t < MAX_THREADS; t++) routes_free(&e->scratch[t]);
    Py_XDECREF(e->core);
    Py_TYPE(e)->tp_free((PyObject *)e);
}

static PyMethodDef vec_methods[] = {
    {"step", (PyCFunction)vec_step, METH_VARARGS,
     "step(actions, obs, masks, rewards, terminated, truncated, final_obs, codes, winners): "
     "-1, or the game whose action is illegal (the games before it have moved)."},
    {"reset", (PyCFunction)vec_reset, METH_VARARGS, "reset(obs, masks): every game anew."},
    {"sample", (PyCFunction)vec_sample, METH_VARARGS,
     "sample(uniforms, actions): the legal action each uniform picks."},
    {"encode", (PyCFunction)vec_encode, METH_VARARGS,
     "encode(boards, out, ctx): observations of boards; -1 or the first "
     "board of another context."},
    {"history", (PyCFunction)vec_history, METH_VARARGS,
     "history(i, final): the actions of game i (final: of its last ended game)."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject VecEnvType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "draughts._core.native._native.VecEnv",
    .tp_basicsize = sizeof(VecEnvObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The games of draughts.ml.VectorEnv, stepped in C.",
    .tp_new = vec_new,
    .tp_dealloc = (destructor)vec_dealloc,
    .tp_methods = vec_methods,
};
