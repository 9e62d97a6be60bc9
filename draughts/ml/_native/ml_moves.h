/* A VectorEnv game's legal moves with their action indices (the index of
 * draughts/ml/actions.py), sorted by index: the captures from the core's
 * generator, through its C API.
 *
 * Included by ml_step.c alone, once, rather than compiled on its own, so
 * that the step inlines generate() (the build has no link-time
 * optimisation): 1,123 instructions an International step with a call to
 * ml_generate (a clone of its own), 1,102 so (callgrind, random self-play
 * with sample_step(), 256 games, one thread, 450 calls, 2026-12-06). Over
 * the project's 800 lines on purpose, as ml_step.c is: the searches and
 * tables' readers below are inlined into each clone of the step and of
 * ml_generate (ML_CLONED, ml_step.h). */
#ifndef DRAUGHTS_ML_NATIVE_ML_MOVES_H
#define DRAUGHTS_ML_NATIVE_ML_MOVES_H

#include "ml_step.h"

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
    bb_t *taken = malloc((size_t)n * sizeof *taken);
    if (r == NULL || order == NULL || sorted == NULL || taken == NULL) {
        free(r), free(order), free(sorted), free(taken);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        const Legal *m = &g->moves[i];
        r[i].base = m->action;
        r[i].n = 0;
        for (bb_t c = g->captured[i]; c; c &= c - 1) {
            int number = e->core->number[low_bit(c)];
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
    for (int i = 0; i < n; i++) {
        if (i > 0 && r[order[i]].base == r[order[i - 1]].base) continue;
        taken[w] = g->captured[order[i]];
        sorted[w++] = g->moves[order[i]];
    }
    for (int i = 1; i < n; i++) {
        if (r[order[i]].base != r[order[i - 1]].base) continue;
        taken[w] = g->captured[order[i]];
        sorted[w] = g->moves[order[i]];
        sorted[w++].action = extra + k++;
    }
    memcpy(g->moves, sorted, (size_t)n * sizeof *sorted);
    memcpy(g->captured, taken, (size_t)n * sizeof *taken);
    free(r), free(order), free(sorted), free(taken);
    return k > e->nsq * e->nsq ? -2 : 0;
}

/* Sorting moves by action: up to RANKED of them (most positions), each
 * goes straight to its rank, the count of smaller keys (the action above
 * the route's place), with no branch on the data. ml_generate's own
 * instructions (the generator's aside) were 687 a step with an insertion
 * sort of the 32-byte moves and the action worked out from the square
 * numbers, 550 this way with the actions' parts from tables (callgrind,
 * International random self-play, 256 games, 2026-12-05). */
enum { RANKED = 16 };

#ifdef __SSE2__
#include <emmintrin.h>
/* How many of keys[0 .. width) are below key, four at a time (the
 * compiler does not vectorise the loop below by itself); width, a constant
 * 8 or 16, unrolls it. */
static inline int rank_of(const int32_t *keys, int width, int32_t key) {
    __m128i k = _mm_set1_epi32(key), sum = _mm_setzero_si128();
    for (int j = 0; j < width; j += 4)
        sum = _mm_sub_epi32(sum, _mm_cmpgt_epi32(k, _mm_loadu_si128((const __m128i *)(keys + j))));
    sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, 0x4E));
    sum = _mm_add_epi32(sum, _mm_shuffle_epi32(sum, 0xB1));
    return _mm_cvtsi128_si32(sum);
}
#else
static inline int rank_of(const int32_t *keys, int width, int32_t key) {
    int rank = 0;
    for (int j = 0; j < width; j++) rank += keys[j] < key;
    return rank;
}
#endif

/* Route i of l as moves[k] of g, with its action. */
static inline void put_route(Game *g, int k, const RouteList *l, long i, int32_t action) {
    const Route *route = &l->items[i];
    g->moves[k] = (Legal){action, route->origin, route->dest, route->crowned, route->ncaps > 0};
    g->captured[k] = route->captured;
}

/* -- Quiet moves, straight in action order ----------------------------------- */

/* The bits of b's squares' numbers (less one). */
static inline uint64_t numbered(const VecEnvObject *e, bb_t b) {
    uint64_t out = 0;
    for (; b; b &= b - 1) out |= (uint64_t)1 << (e->core->number[low_bit(b)] - 1);
    return out;
}

void ml_number_bits(const VecEnvObject *e, Game *g) {
    for (int p = 0; p < 4 && e->num.ok; p++) {
        g->nb[p] = numbered(e, g->bb[p]);
        g->tb[p] = 0;
        for (bb_t b = g->bb[p]; e->view_turns && b; b &= b - 1) g->tb[p] |= e->num_bit[1][low_bit(b)];
    }
}

/* t's man steps of colour c: 0, or -1 where they do not fit its groups. */
static int man_groups(const VecEnvObject *e, Numbered *t, int c, uint64_t near[64]) {
    const Rules *r = &e->core->rules;
    for (int k = 0; k < r->n_man_move[c]; k++) {
        int d = r->man_move_dirs[c][k];
        for (int sq = 0; sq < r->n; sq++) {
            if (!(r->board & BIT(sq)) || !r->ray_len[sq][d]) continue;
            int from = e->core->number[sq] - 1, to = e->core->number[RAY(r, sq, d)[0]] - 1, g = 0;
            near[from] |= (uint64_t)1 << to;
            while (g < t->ngroups[c] && t->shift[c][g] != to - from) g++;
            if (g == 16) return -1;
            if (g == t->ngroups[c]) t->shift[c][t->ngroups[c]++] = to - from;
            t->from[c][g] |= (uint64_t)1 << from;
        }
    }
    /* Those that go up first, each shift's sign not tested at every step:
     * 2,066 instructions a step before, 2,056 after (callgrind,
     * International random self-play, 256 games, 2026-12-05). */
    for (int g = 0; g < t->ngroups[c]; g++) {
        if (t->shift[c][g] < 0) continue;
        int shift = t->shift[c][g], up = t->nup[c]++;
        uint64_t from = t->from[c][g];
        t->shift[c][g] = t->shift[c][up], t->from[c][g] = t->from[c][up];
        t->shift[c][up] = shift, t->from[c][up] = from;
    }
    return 0;
}

/* t's step_w tables where its men's steps fit rows of w squares (w from
 * t->jump_w, 0: none). */
static void step_tables(Numbered *t, int w) {
    for (int c = 0; w && c < 2; c++) {
        int up = -1;
        for (int g = 0; g < t->ngroups[c]; g++) {
            int shift = t->shift[c][g], along = shift < 0 ? -shift : shift;
            if ((up >= 0 && up != (shift > 0)) || along < w - 1 || along > w + 1) return;
            up = shift > 0;
        }
    }
    for (int c = 0; w && c < 2; c++)
        for (int g = 0; g < t->ngroups[c]; g++) {
            int along = t->shift[c][g] < 0 ? -t->shift[c][g] : t->shift[c][g];
            t->step_up[c] = t->shift[c][g] > 0;
            t->step_from[c][along - w + 1] |= t->from[c][g];
        }
    t->step_w = w;
}

/* The steps from bit o to the bits of targets as colour c plays them, in
 * its action order, into bits and moves; how many. */
static int steps_in_order(const VecEnvObject *e, int c, int o, uint64_t targets,
                          uint64_t crowning, uint8_t *bits, Legal *moves) {
    const Numbered *t = &e->num;
    int down = e->perspective && c == 1, last = e->nsq - 1, n = 0;
    for (int i = 0; i < 64; i++) {
        int d = down ? 63 - i : i;
        if (!((targets >> d) & 1)) continue;
        bits[n] = (uint8_t)d;
        int32_t action = (down ? last - o : o) * e->nsq + (down ? last - d : d);
        moves[n++] = (Legal){action, t->square[o], t->square[d], (uint8_t)((crowning >> d) & 1), 0};
    }
    return n;
}

/* t's king rays, and whether each ray's numbers go one way. */
static int king_rays(const VecEnvObject *e, Numbered *t) {
    const Rules *r = &e->core->rules;
    int ok = 1;
    for (int sq = 0; sq < r->n; sq++) {
        if (!(r->board & BIT(sq))) continue;
        int bit = e->core->number[sq] - 1, reach = 0;
        for (int k = 0; k < r->n_king_move; k++) {
            int d = r->king_move_dirs[k], n = r->ray_len[sq][d], last = bit;
            const uint8_t *ray = RAY(r, sq, d);
            t->king_up[bit][k] = n && e->core->number[ray[0]] - 1 > bit;
            for (int i = 0; i < n; i++) {
                int to = e->core->number[ray[i]] - 1;
                ok &= (to > last) == t->king_up[bit][k]; /* king_reach: the nearest piece */
                t->king_rays[bit][k] |= (uint64_t)1 << to;
                if (i == 0) t->king_near[bit] |= (uint64_t)1 << to;
                last = to;
            }
            reach += r->flying ? n : n > 0;
        }
        t->most = reach > t->most ? reach : t->most;
    }
    return ok;
}

/* A jump of colour c from bit 'from' over 'over' to 'land' (bits of
 * numbers) into t's jump_from for rows of w squares: 0, or -1 where it is
 * none of the four patterns. */
static int jump_pattern(Numbered *t, int c, int w, int from, int over, int land) {
    int down = over < from, a = down ? from - over : over - from, b = down ? from - land : land - from;
    int k = b == 2 * w - 1 ? (a == w - 1 ? 0 : a == w ? 1 : -1)
            : b == 2 * w + 1 ? (a == w ? 2 : a == w + 1 ? 3 : -1) : -1;
    if (k < 0 || (land < from) != down) return -1;
    t->jump_from[c][down][k] |= (uint64_t)1 << from;
    t->jump_has[c][down] = 1;
    return 0;
}

/* The men's jumps of r in t for rows of w squares: 0, or -1 (t's jump
 * tables cleared) where one does not fit. */
static int men_jumps_as(const VecEnvObject *e, Numbered *t, int w) {
    const Rules *r = &e->core->rules;
    const int *number = e->core->number;
    for (int c = 0; c < 2; c++)
        for (int k = 0; k < r->n_man_cap[c]; k++)
            for (int sq = 0, d = r->man_cap_dirs[c][k]; sq < r->n; sq++) {
                if (!(r->board & BIT(sq)) || r->ray_len[sq][d] < 2) continue;
                const uint8_t *ray = RAY(r, sq, d);
                if (jump_pattern(t, c, w, number[sq] - 1, number[ray[0]] - 1, number[ray[1]] - 1) == 0)
                    continue;
                memset(t->jump_from, 0, sizeof t->jump_from);
                memset(t->jump_has, 0, sizeof t->jump_has);
                return -1;
            }
    return 0;
}

/* t's tables for single_jumps (as movegen.c's first_jumpers finds first
 * jumps): its rows' width (t->jump_w), or 0 where they do not hold this
 * board. */
static int jump_tables(const VecEnvObject *e, Numbered *t) {
    const Rules *r = &e->core->rules;
    const int *number = e->core->number;
    int w = 4;
    while (w <= 6 && men_jumps_as(e, t, w) < 0) w++;
    if (w > 6 || r->n_king_cap > NDIRS) return 0;
    t->cap_dirs = r->n_king_cap;
    t->men_take_kings = r->men_capture_kings;
    for (int sq = 0; sq < r->n; sq++) {
        if (!(r->board & BIT(sq))) continue;
        int bit = number[sq] - 1;
        for (int k = 0; k < r->n_king_cap; k++) {
            int d = r->king_cap_dirs[k], n = r->ray_len[sq][d], last = bit;
            const uint8_t *ray = RAY(r, sq, d);
            t->cap_up[bit][k] = n && number[ray[0]] - 1 > bit;
            if (n) t->cap_next[bit][k] = (uint64_t)1 << (number[ray[0]] - 1);
            for (int i = 0; i < (r->flying ? n : n > 0); i++) {
                int to = number[ray[i]] - 1;
                /* the nearest piece is the lowest or the highest bit, and
                 * the square past ray[i] is ray[i + 1] */
                if ((to > last) != t->cap_up[bit][k]) return 0;
                if (i + 1 < n && (r->ray_len[ray[i]][d] == 0 || RAY(r, ray[i], d)[0] != ray[i + 1]))
                    return 0;
                t->cap_ray[bit][k] |= (uint64_t)1 << to;
                last = to;
            }
        }
    }
    return w;
}

/* t's tables for men_routes: every man's jump per colour and square, and
 * what the precedence rules ask of men's routes that crown no man. Where
 * the captured pieces leave the board at the end of the move (r->at_end),
 * a man takes no piece twice and never jumps back over the last one, and
 * every rule ranks such routes by how many pieces they take or not at all
 * (movegen.c's compare_routes: the value of men alone, the kings taken
 * before more pieces), where they take no king. */
static void men_search_tables(const VecEnvObject *e, Numbered *t) {
    const Rules *r = &e->core->rules;
    const int *number = e->core->number;
    if (!r->at_end) return;
    for (int c = 0; c < 2; c++)
        for (int sq = 0; sq < r->n; sq++) {
            if (!(r->board & BIT(sq))) continue;
            int bit = number[sq] - 1;
            for (int k = 0; k < r->n_man_cap[c]; k++) {
                int d = r->man_cap_dirs[c][k];
                if (r->ray_len[sq][d] < 2) continue;
                const uint8_t *ray = RAY(r, sq, d);
                int j = t->njumps[c][bit]++;
                t->jump_over[c][bit][j] = (uint8_t)(number[ray[0]] - 1);
                t->jump_land[c][bit][j] = (uint8_t)(number[ray[1]] - 1);
                t->jump_near[c][bit] |= (uint64_t)1 << (number[ray[0]] - 1);
            }
        }
    int with_king = 0;
    for (int k = 0; k < r->n_rules && !r->majority_only; k++) {
        t->most_taken |= r->rules[k] != RULE_WITH_KING && r->rules[k] != RULE_MOST_KINGS;
        t->by_kings |= r->rules[k] != RULE_WITH_KING && r->rules[k] != RULE_MOST_PIECES;
        with_king |= r->rules[k] == RULE_WITH_KING;
    }
    t->most_taken |= r->n_rules && r->majority_only;
    t->king_search = !with_king && !t->by_kings;
    t->crown_stop = r->crown_stop;
    t->crown_continue = r->crown_continue;
    t->lands_behind = r->lands_behind;
    t->must_land = r->must_land;
    t->stops_behind_king = r->stops_behind_king;
    t->men_search = 1;
}

int ml_moves_init(VecEnvObject *e) {
    const Rules *r = &e->core->rules;
    Numbered *t = &e->num;
    for (int sq = 0; sq < MAX_SQUARES; sq++) e->bit[sq] = BIT(sq);
    int ok = e->nsq <= 64 && r->n_king_move <= NDIRS;
    for (int sq = 0; ok && sq < r->n; sq++) {
        if (!(r->board & BIT(sq))) continue;
        int bit = e->core->number[sq] - 1;
        ok &= bit >= 0 && bit < e->nsq && e->dest_part[0][sq] == bit &&
              (!e->perspective || e->dest_part[1][sq] == e->nsq - 1 - bit);
        if (ok) t->square[bit] = (uint8_t)sq;
    }
    if (!ok) return 0;
    t->board = e->nsq == 64 ? ~(uint64_t)0 : ((uint64_t)1 << e->nsq) - 1;
    t->flying = r->flying;
    t->king_dirs = r->n_king_move;
    ok = king_rays(e, t);
    uint64_t near[2][64] = {{0}};
    for (int c = 0; c < 2; c++) {
        ok &= man_groups(e, t, c, near[c]) == 0;
        t->most = r->n_man_move[c] > t->most ? r->n_man_move[c] : t->most;
    }
    if (!ok || t->most > 255) return 0;
    t->king_bit = malloc((size_t)(2 * 64 * t->most));
    t->king_move = malloc((size_t)(2 * 64 * t->most) * sizeof(Legal));
    if (t->king_bit == NULL || t->king_move == NULL) return -1;
    for (int c = 0; c < 2; c++) {
        uint64_t crowning = numbered(e, r->promotion[c]);
        t->crown[c] = crowning;
        t->man_steps = r->n_man_move[c] > t->man_steps ? r->n_man_move[c] : t->man_steps;
        for (int o = 0; o < e->nsq; o++) {
            uint64_t reach = 0;
            for (int k = 0; k < t->king_dirs; k++) reach |= t->flying ? t->king_rays[o][k] : 0;
            size_t at = (size_t)(c * 64 + o) * (size_t)t->most;
            int steps = steps_in_order(e, c, o, near[c][o], crowning, t->man_bit[c][o],
                                       t->man_move[c][o]);
            for (; steps < NDIRS; steps++) t->man_bit[c][o][steps] = (uint8_t)o;
            t->king_count[c][o] = (uint8_t)steps_in_order(e, c, o, t->flying ? reach : t->king_near[o],
                                                          0, t->king_bit + at, t->king_move + at);
        }
    }
    t->ok = 1;
    t->jump_w = jump_tables(e, t);
    step_tables(t, t->jump_w);
    if (t->jump_w) men_search_tables(e, t);
    return 0;
}

/* The first jumps of g's mover, as movegen.c's first_jumpers finds them (a
 * man next to prey with an empty square behind it along one of its capture
 * directions; a king whose nearest piece along one of its capture
 * directions is the opponent's, with an empty square behind it), on 64-bit
 * bitboards of numbers, where e->num.jump_w: where there is none, the
 * core's generator need not be called. Three quarters of random
 * International plies have no capture: a step took 1,675 instructions so,
 * 1,735 with the core's test alone (callgrind, random self-play with
 * sample_step(), 256 games, one thread, 450 calls, 2026-12-05); with the
 * men's shifts read from tables rather than constants, 1,761. men_jumps:
 * the squares from which a man of colour c jumps prey onto empty. */
static inline __attribute__((always_inline)) uint64_t
men_jumps(const Numbered *t, int c, uint64_t prey, uint64_t empty, const int w) {
    const uint64_t(*f)[4] = t->jump_from[c];
    uint64_t hit = 0;
    if (t->jump_has[c][0])
        hit |= (((f[0][0] & (prey >> (w - 1))) | (f[0][1] & (prey >> w))) & (empty >> (2 * w - 1))) |
               (((f[0][2] & (prey >> w)) | (f[0][3] & (prey >> (w + 1)))) & (empty >> (2 * w + 1)));
    if (t->jump_has[c][1])
        hit |= (((f[1][0] & (prey << (w - 1))) | (f[1][1] & (prey << w))) & (empty << (2 * w - 1))) |
               (((f[1][2] & (prey << w)) | (f[1][3] & (prey << (w + 1)))) & (empty << (2 * w + 1)));
    return hit;
}

/* Whether one of g's mover's kings has a first jump. */
static inline int kings_may_capture(const Numbered *t, const Game *g, uint64_t opp, uint64_t occupied,
                                    uint64_t empty) {
    for (uint64_t kings = g->nb[2 + g->turn]; kings; kings &= kings - 1) {
        int o = ctz64(kings);
        for (int k = 0; k < t->cap_dirs; k++) {
            uint64_t blocked = t->cap_ray[o][k] & occupied;
            if (!blocked) continue;
            int near = t->cap_up[o][k] ? ctz64(blocked) : 63 - clz64(blocked);
            if (((opp >> near) & 1) && (t->cap_next[near][k] & empty)) return 1;
        }
    }
    return 0;
}

/* -- Men's captures, without the core's search ------------------------------ */

enum { NO_CAPTURE, SINGLE_JUMPS, ASK_THE_CORE };

enum { MOST_ROUTES = 64 };

typedef struct {
    int origin, dest, ntaken, crowned;
    uint64_t taken;
} MenRoute;

typedef struct {
    const Numbered *t;
    int c, abort, n, most;
    uint64_t empty, occupied, kings; /* kings: the opponent's */
    MenRoute routes[MOST_ROUTES];
} MenSearch;

/* A finished route into S's, as the core keeps them (movegen.c's keep_best
 * and drop_duplicates): the longest alone where the rules ask for it, one
 * of those with the same origin, destination and pieces taken; S aborts
 * where the rules may rank it by its kings, where two differ in the pieces
 * they take alone (actions.py's extra block), or where there are too many. */
static void men_route(MenSearch *S, int origin, int dest, uint64_t taken, int ntaken, int crowned) {
    if (S->t->by_kings && (taken & S->kings)) {
        S->abort = 1;
        return;
    }
    if (S->t->most_taken && ntaken < S->most) return;
    if (S->t->most_taken && ntaken > S->most) S->n = 0, S->most = ntaken;
    for (int i = 0; i < S->n; i++) {
        if (S->routes[i].origin != origin || S->routes[i].dest != dest) continue;
        S->abort |= S->routes[i].taken != taken;
        return;
    }
    if (S->n == MOST_ROUTES) {
        S->abort = 1;
        return;
    }
    S->routes[S->n++] = (MenRoute){origin, dest, ntaken, crowned, taken};
}

/* Every route of a man of S's colour from origin, now on sq, having taken
 * taken (n pieces), prey left to take: as movegen.c's short_jumps, where
 * the pieces taken stay on the board to the move's end (the squares empty
 * are those at the start and the origin). A man landing where it is
 * crowned stops there (crown_stop), or goes on as a man, crowned if it
 * stops there; where it goes on as a king (crown_continue) the search
 * aborts. */
static void men_onward(MenSearch *S, int origin, int sq, uint64_t prey, uint64_t taken, int n) {
    const Numbered *t = S->t;
    int c = S->c, any = 0;
    for (int j = 0; (prey & t->jump_near[c][sq]) && j < t->njumps[c][sq] && !S->abort; j++) {
        int over = t->jump_over[c][sq][j], land = t->jump_land[c][sq][j];
        if (!((prey >> over) & 1) || !((S->empty >> land) & 1)) continue;
        any = 1;
        uint64_t bit = (uint64_t)1 << over;
        if ((t->crown[c] >> land) & 1) {
            if (t->crown_continue) {
                S->abort = 1;
                return;
            }
            if (t->crown_stop) {
                men_route(S, origin, land, taken | bit, n + 1, 1);
                continue;
            }
        }
        men_onward(S, origin, land, prey & ~bit, taken | bit, n + 1);
    }
    if (!any && n) men_route(S, origin, sq, taken, n, (int)((t->crown[c] >> sq) & 1));
}

/* Every route of a king from origin, now on sq, having taken taken (n
 * pieces), prey left to take, into S: as movegen.c's flying_jumps (and
 * short_jumps for kings that do not fly), where the pieces taken stay on
 * the board to the move's end (so that no king jumps back over the last
 * one); whether it has a jump from sq. Along each capture direction the
 * nearest piece, if prey with an empty square behind it, and the landing
 * squares behind it (the first alone where the kings do not fly or land
 * right behind the piece they take). */
static int king_onward(MenSearch *S, int origin, int sq, uint64_t prey, uint64_t taken, int n) {
    const Numbered *t = S->t;
    int found = 0;
    for (int k = 0; k < t->cap_dirs && !S->abort; k++) {
        uint64_t blocked = t->cap_ray[sq][k] & S->occupied;
        if (!blocked) continue;
        int near = t->cap_up[sq][k] ? ctz64(blocked) : 63 - clz64(blocked);
        if (!((prey >> near) & 1) || !(t->cap_next[near][k] & S->empty)) continue;
        found = 1;
        int nland = 0, any = 0;
        uint8_t lands[64];
        uint8_t goes_on[64];
        for (uint64_t at = t->cap_next[near][k]; at & S->empty; at = t->cap_next[ctz64(at)][k]) {
            lands[nland++] = (uint8_t)ctz64(at);
            if (!t->flying || t->lands_behind) break;
        }
        uint64_t bit = (uint64_t)1 << near;
        for (int j = 0; j < nland; j++) {
            goes_on[j] = (uint8_t)king_onward(S, origin, lands[j], prey & ~bit, taken | bit, n + 1);
            any |= goes_on[j];
        }
        if (t->must_land && any) continue;
        /* a sequence whose last piece taken is a king ends right behind it */
        int halt = t->stops_behind_king && ((S->kings >> near) & 1);
        for (int j = 0; j < nland; j++)
            if (!goes_on[j] && !(halt && j)) men_route(S, origin, lands[j], taken | bit, n + 1, 0);
    }
    return found;
}

/* g's captures by its men of jumpers (those with a first jump) and its
 * kings of kings (0 where they have none: then only the men can take),
 * searched on the bitboards of numbers where e->num.men_search (kings:
 * e->num.king_search), in action order, into g's moves and mask:
 * SINGLE_JUMPS, ASK_THE_CORE where the search aborts (g's moves then
 * overwritten), -1 out of memory. A step took 1,337 instructions with the
 * core's search for every capture but single jumps of men, 1,279 with the
 * men's captures searched here (about 450 instructions a search, the
 * core's 1,560), 1,244 with the kings' too (English 1,210, 1,174 and
 * 1,154; callgrind, random self-play with sample_step(), 256 games, one
 * thread, 450 calls, 2026-12-06). */
static int men_routes(const VecEnvObject *e, Game *g, uint8_t *restrict mask, uint64_t jumpers,
                      uint64_t kings, int down) {
    const Numbered *t = &e->num;
    int c = g->turn;
    uint64_t opp = g->nb[1 - c] | g->nb[3 - c], occupied = g->nb[c] | g->nb[2 + c] | opp;
    MenSearch S;
    S.t = t, S.c = c, S.abort = 0, S.n = 0, S.most = 0, S.kings = g->nb[3 - c];
    for (; jumpers && !S.abort; jumpers &= jumpers - 1) {
        int o = ctz64(jumpers);
        S.empty = (t->board & ~occupied) | (uint64_t)1 << o;
        men_onward(&S, o, o, t->men_take_kings ? opp : g->nb[1 - c], 0, 0);
    }
    for (; kings && !S.abort; kings &= kings - 1) {
        int o = ctz64(kings);
        S.occupied = occupied & ~((uint64_t)1 << o);
        S.empty = t->board & ~S.occupied;
        king_onward(&S, o, o, opp, 0, 0);
    }
    if (S.abort) return ASK_THE_CORE;
    if ((S.n > g->capmoves && ml_grow((void **)&g->moves, &g->capmoves, S.n, sizeof(Legal)) < 0) ||
        (S.n > g->capcaptured &&
         ml_grow((void **)&g->captured, &g->capcaptured, S.n, sizeof(bb_t)) < 0))
        return -1;
    int last = e->nsq - 1;
    for (int i = 0; i < S.n; i++) { /* insertion by action: a few routes */
        const MenRoute *m = &S.routes[i];
        int32_t action = (down ? last - m->origin : m->origin) * e->nsq +
                         (down ? last - m->dest : m->dest);
        bb_t captured = 0;
        for (uint64_t b = m->taken; b; b &= b - 1) captured |= e->bit[t->square[ctz64(b)]];
        int j = i;
        for (; j > 0 && g->moves[j - 1].action > action; j--) {
            g->moves[j] = g->moves[j - 1];
            g->captured[j] = g->captured[j - 1];
        }
        g->moves[j] = (Legal){action, t->square[m->origin], t->square[m->dest], (uint8_t)m->crowned, 1};
        g->captured[j] = captured;
    }
    g->nmoves = S.n;
    for (int k = 0; mask && k < S.n; k++) mask[g->moves[k].action] = 1;
    return SINGLE_JUMPS;
}

/* -- Single jumps of men ------------------------------------------------------ */

/* Where every capture of g's mover is one man's single jump over a man,
 * with no jump after it (the man lands where it is not crowned, and none
 * of the mover's kings can take): then every one of them is legal
 * whatever the variant's precedence rules (each takes one man, with a
 * man), and they are written here, in action order, and marked in mask:
 * SINGLE_JUMPS; NO_CAPTURE where there is none; ASK_THE_CORE otherwise
 * (g's moves then overwritten); -1 out of memory. The four kinds of jump
 * in the order of their destinations' numbers: down 2w + 1 and 2w - 1
 * numbers, up 2w - 1 and 2w + 1; each takes the piece at one of two
 * distances (jump_pattern), the first where the origin is in its first
 * table. Random International self-play, 256 games, one thread: a step
 * took 1,440 instructions with the core's search for every capture, 1,337
 * so (English 1,283 and 1,210; callgrind, sample_step(), 450 calls, 2026-12-05). */
static inline __attribute__((always_inline)) int
single_jumps_as(const VecEnvObject *e, Game *g, uint8_t *restrict mask, const int w, const int down) {
    const Numbered *t = &e->num;
    int c = g->turn;
    uint64_t opp = g->nb[1 - c] | g->nb[3 - c], occupied = g->nb[c] | g->nb[2 + c] | opp;
    uint64_t empty = t->board & ~occupied, prey = t->men_take_kings ? opp : g->nb[1 - c];
    uint64_t men = g->nb[c];
    /* The men that jump first (men_jumps: the patterns of the men's
     * directions alone), the four kinds of jump worked out only where
     * there is one (the kinds took the registers at every step): 1,015.5
     * instructions an English step with the kinds first, 999.1 so;
     * International 1,087.1 and 1,094.8, its men jumping both ways
     * (callgrind, benchmarks/ml_phases.py, 2026-12-07; testing which way
     * the men jump to keep the kinds first there took 1,010.9 and 1,093.8). */
    uint64_t jumpers = men & men_jumps(t, c, prey, empty, w);
    if (g->nb[2 + c] && kings_may_capture(t, g, opp, occupied, empty))
        return t->king_search ? men_routes(e, g, mask, jumpers, g->nb[2 + c], down) : ASK_THE_CORE;
    if (!jumpers) return NO_CAPTURE;
    const uint64_t(*f)[4] = t->jump_from[c];
    uint64_t first[4] = {f[1][2] & (prey << w), f[1][0] & (prey << (w - 1)), f[0][0] & (prey >> (w - 1)),
                         f[0][2] & (prey >> w)};
    uint64_t kind[4] = {(first[0] | (f[1][3] & (prey << (w + 1)))) & (empty << (2 * w + 1)),
                        (first[1] | (f[1][1] & (prey << w))) & (empty << (2 * w - 1)),
                        (first[2] | (f[0][1] & (prey >> w))) & (empty >> (2 * w - 1)),
                        (first[3] | (f[0][3] & (prey >> (w + 1)))) & (empty >> (2 * w + 1))};
    static const int land[4] = {-1, -1, 1, 1}, wide[4] = {1, -1, -1, 1};
    /* the piece taken: w + near[k] along where the origin is in first[k], else w + far[k] */
    static const int near[4] = {0, -1, -1, 0}, far[4] = {1, 0, 0, 1};
    for (int k = 0; k < 4; k++) kind[k] &= men;
    int most = 4 * popcount64(jumpers);
    if ((most > g->capmoves && ml_grow((void **)&g->moves, &g->capmoves, most, sizeof(Legal)) < 0) ||
        (most > g->capcaptured && ml_grow((void **)&g->captured, &g->capcaptured, most, sizeof(bb_t)) < 0))
        return -1;
    int n = 0, last = e->nsq - 1;
    uint64_t all = jumpers;
    while (jumpers) {
        int o = down ? 63 - clz64(jumpers) : ctz64(jumpers);
        jumpers ^= (uint64_t)1 << o;
        for (int j = 0; j < 4; j++) {
            int k = down ? 3 - j : j;
            if (!((kind[k] >> o) & 1)) continue;
            int to = o + land[k] * (2 * w + wide[k]);
            int over = o + land[k] * (w + (((first[k] >> o) & 1) ? near[k] : far[k]));
            uint64_t at = (uint64_t)1 << to, taken = (uint64_t)1 << over;
            /* a king taken (precedence may count it), a man crowned, or
             * one that may jump on: the search */
            if ((g->nb[3 - c] & taken) || (t->crown[c] & at) ||
                (men_jumps(t, c, prey & ~taken, (empty | ((uint64_t)1 << o)) & ~at, w) & at))
                return t->men_search ? men_routes(e, g, mask, all, 0, down) : ASK_THE_CORE;
            int32_t action = (down ? last - o : o) * e->nsq + (down ? last - to : to);
            g->moves[n] = (Legal){action, t->square[o], t->square[to], 0, 1};
            g->captured[n++] = e->bit[t->square[over]];
        }
    }
    g->nmoves = n;
    for (int k = 0; mask && k < n; k++) mask[g->moves[k].action] = 1;
    return SINGLE_JUMPS;
}

ML_INLINE int single_jumps(const VecEnvObject *e, Game *g, uint8_t *mask) {
    int down = e->perspective && g->turn == 1;
    switch (e->num.jump_w) { /* each shift a constant */
    case 4: return down ? single_jumps_as(e, g, mask, 4, 1) : single_jumps_as(e, g, mask, 4, 0);
    case 5: return down ? single_jumps_as(e, g, mask, 5, 1) : single_jumps_as(e, g, mask, 5, 0);
    default: return down ? single_jumps_as(e, g, mask, 6, 1) : single_jumps_as(e, g, mask, 6, 0);
    }
}

/* The squares (bits of numbers) a king on bit o can step to. */
static inline uint64_t king_reach(const Numbered *t, int o, uint64_t occupied) {
    if (!t->flying) return t->king_near[o] & ~occupied;
    uint64_t reach = 0;
    for (int k = 0; k < t->king_dirs; k++) {
        uint64_t ray = t->king_rays[o][k], blocked = ray & occupied;
        if (blocked) /* the squares before the nearest piece */
            ray &= t->king_up[o][k] ? (blocked & (0 - blocked)) - 1
                                    : ~((((uint64_t)1 << (63 - clz64(blocked))) << 1) - 1);
        reach |= ray;
    }
    return reach;
}

/* The moves of count that reach a bit of open, from moves and their bits,
 * into out (each written, the next one over it if it does not: no branch
 * on the board), and marked in mask (where not NULL); the end of those
 * written. Marking them here rather than in a pass over the moves: 2,066
 * instructions a step, against 2,083 (callgrind, International random
 * self-play, 256 games, 2026-12-05). */
static inline __attribute__((always_inline)) Legal *
steps_to(Legal *out, const Legal *moves, const uint8_t *bits, int count, uint64_t open,
         uint8_t *restrict mask) {
    for (int i = 0; i < count; i++) {
        /* a size_t, not an int, so that out += on needs no sign extension: 1,132
         * instructions an International step before, 1,123 after (callgrind,
         * as in ml_step_games) */
        size_t on = (size_t)(open >> bits[i]) & 1;
        *out = moves[i];
        if (mask) mask[moves[i].action] = (uint8_t)on; /* 0 where it was 0 */
        out += on;
    }
    return out;
}

/* The men of colour c that can step to empty: with each shift a constant
 * where t->step_w, else from t's groups. The groups' loops took 1,215
 * instructions an International step, this 1,199 (English 1,179 and
 * 1,160; callgrind, random self-play with sample_step(), 256 games, one
 * thread, 450 calls, 2026-12-06). */
#define ML_STEPS(w, op)                                                                    \
    (men & ((f[0] & (empty op((w) - 1))) | (f[1] & (empty op(w))) | (f[2] & (empty op((w) + 1)))))
ML_INLINE uint64_t men_movers(const Numbered *t, int c, uint64_t men, uint64_t empty) {
    const uint64_t *f = t->step_from[c];
    switch (t->step_w * 2 + t->step_up[c]) {
    case 8: return ML_STEPS(4, <<);
    case 9: return ML_STEPS(4, >>);
    case 10: return ML_STEPS(5, <<);
    case 11: return ML_STEPS(5, >>);
    case 12: return ML_STEPS(6, <<);
    case 13: return ML_STEPS(6, >>);
    default: break;
    }
    uint64_t movers = 0;
    for (int k = 0; k < t->nup[c]; k++) movers |= men & t->from[c][k] & (empty >> t->shift[c][k]);
    for (int k = t->nup[c]; k < t->ngroups[c]; k++)
        movers |= men & t->from[c][k] & (empty << -t->shift[c][k]);
    return movers;
}
#undef ML_STEPS

/* g's quiet moves (it has no capture), written in action order: the pieces
 * in the order of their numbers and each one's steps from the tables
 * (down: the other way, as Black sees them with the board turned), room
 * made for them first. frozen: the king that may not move. men_steps: the
 * steps of each man, 2 for most variants (a constant there: the loop
 * unrolled). With the core's routes (gen_steps) sorted by action a step
 * took 2,949 instructions, 2,331 so (callgrind, International random
 * self-play, 256 games, 2026-12-05). mask: see ml_generate. */
static inline __attribute__((always_inline)) int
quiet_moves_as(const VecEnvObject *e, Game *g, uint64_t frozen, const int down,
               const int men_steps, const int kings, uint8_t *restrict mask) {
    const Numbered *t = &e->num;
    int c = g->turn;
    uint64_t men = g->nb[c], occupied = g->nb[0] | g->nb[1] | g->nb[2] | g->nb[3];
    uint64_t empty = t->board & ~occupied;
    uint64_t movers = (g->nb[2 + c] & ~frozen) | men_movers(t, c, men, empty);
    int most = popcount64(movers) * t->most;
    if (most > g->capmoves && ml_grow((void **)&g->moves, &g->capmoves, most, sizeof(Legal)) < 0)
        return -1;
    Legal *m = g->moves;
    while (movers) {
        int o = down ? 63 - clz64(movers) : ctz64(movers);
        movers = down ? movers ^ (uint64_t)1 << o : movers & (movers - 1);
        if (!kings || ((men >> o) & 1)) {
            m = steps_to(m, t->man_move[c][o], t->man_bit[c][o], men_steps, empty, mask);
        } else {
            size_t at = (size_t)(c * 64 + o) * (size_t)t->most;
            m = steps_to(m, t->king_move + at, t->king_bit + at, t->king_count[c][o],
                         king_reach(t, o, occupied), mask);
        }
    }
    g->nmoves = (int)(m - g->moves);
    return 0;
}

/* Inlined in ml_generate: 1,535 instructions a step, 1,541 with a call
 * (callgrind, as in ml_step.h). */
ML_INLINE int quiet_moves(const VecEnvObject *e, Game *g, uint8_t *mask) {
    int c = g->turn;
    uint64_t frozen = 0;
    if (e->king_limit && g->kn[c] >= e->king_limit && g->nb[c])
        frozen = (uint64_t)1 << (e->core->number[g->ksq[c]] - 1);
    int down = e->perspective && c == 1, steps = e->num.man_steps;
    if (mask == NULL) return quiet_moves_as(e, g, frozen, down, steps, 1, NULL);
    /* No king to move (most plies of random play): no piece tested for
     * one. 1,233 instructions an International step, against 1,257
     * (English 1,199 and 1,208; callgrind, random self-play with
     * sample_step(), 256 games, one thread, 450 calls, 2026-12-06). */
    if (steps == 2 && !(g->nb[2 + c] & ~frozen))
        return down ? quiet_moves_as(e, g, frozen, 1, 2, 0, mask)
                    : quiet_moves_as(e, g, frozen, 0, 2, 0, mask);
    if (steps == 2)
        return down ? quiet_moves_as(e, g, frozen, 1, 2, 1, mask)
                    : quiet_moves_as(e, g, frozen, 0, 2, 1, mask);
    return down ? quiet_moves_as(e, g, frozen, 1, steps, 1, mask)
                : quiet_moves_as(e, g, frozen, 0, steps, 1, mask);
}

/* g's legal moves, sorted by action index. -1 out of memory, -2 when more
 * moves share a pair than the extra block holds (ml_generate, ml_step.h). */
ML_INLINE int generate(const VecEnvObject *e, Game *g, RouteList *l, uint8_t *mask) {
    const Rules *r = &e->core->rules;
    int c = g->turn;
    if (e->num.jump_w) {
        int found = single_jumps(e, g, mask);
        if (found == NO_CAPTURE) return quiet_moves(e, g, mask);
        if (found != ASK_THE_CORE) return found == SINGLE_JUMPS ? 0 : -1;
    }
    bb_t made[4];
    const bb_t *bb = ml_game_bb(e, g, made);
    Side s = {bb[c], bb[2 + c], bb[1 - c], bb[3 - c]};
    l->len = 0;
    long n = ml_core->gen_captures(r, c, &s, 0, l);
    int captures = n != 0;
    if (n == 0 && e->num.ok) return quiet_moves(e, g, mask);
    if (n == 0) {
        bb_t frozen = 0;
        if (e->king_limit && g->kn[c] >= e->king_limit && bb[c]) frozen = BIT(g->ksq[c]);
        n = ml_core->gen_steps(r, c, &s, frozen, l);
    }
    if (n < 0 || ml_grow((void **)&g->moves, &g->capmoves, (int)n, sizeof(Legal)) < 0 ||
        ml_grow((void **)&g->captured, &g->capcaptured, (int)n, sizeof(bb_t)) < 0)
        return -1;
    const int *frame = e->perspective && c == 1 ? e->turned : NULL;
    /* A move's action is its origin's part plus its destination's, each
     * read from a table per side to move. */
    const int *origins = e->origin_part[frame != NULL], *dests = e->dest_part[frame != NULL];
    if (n <= RANKED) {
        int32_t keys[RANKED], actions[RANKED];
        memset(keys, 0x7F, sizeof keys); /* 0x7F7F7F7F: above every key, in no rank */
        for (int i = 0; i < n; i++) {
            actions[i] = origins[l->items[i].origin] + dests[l->items[i].dest];
            keys[i] = actions[i] * RANKED + i;
        }
        /* Keys past n are above every key: 8 of them compared where they hold n. */
        for (int i = 0; n <= 8 && i < n; i++) put_route(g, rank_of(keys, 8, keys[i]), l, i, actions[i]);
        for (int i = 0; n > 8 && i < n; i++)
            put_route(g, rank_of(keys, RANKED, keys[i]), l, i, actions[i]);
    } else {
        for (long i = 0; i < n; i++) {
            int32_t action = origins[l->items[i].origin] + dests[l->items[i].dest];
            long j = i; /* insertion by action */
            for (; j > 0 && g->moves[j - 1].action > action; j--) {
                g->moves[j] = g->moves[j - 1];
                g->captured[j] = g->captured[j - 1];
            }
            put_route(g, (int)j, l, i, action);
        }
    }
    g->nmoves = (int)n;
    /* Steps have a pair each: only captures may share one. */
    int shared = 0;
    for (long i = 1; captures && i < n; i++) shared |= g->moves[i].action == g->moves[i - 1].action;
    int status = shared ? rank_shared(e, g, frame) : 0;
    for (int k = 0; mask && status == 0 && k < g->nmoves; k++) mask[g->moves[k].action] = 1;
    return status;
}

/* generate() for the other callers (ml_env.c, ml_dataset.c). */
ML_CLONED int ml_generate(const VecEnvObject *e, Game *g, RouteList *l, uint8_t *mask) {
    return generate(e, g, l, mask);
}

#endif
