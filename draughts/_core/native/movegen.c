/* Legal move generation: the capture search, and perft.
 *
 * This follows draughts/_core/pure (the oracle) step for step, including
 * the order in which routes are found: which of two routes that take the
 * same pieces stays, and the order of routes between the same two squares,
 * both depend on it. No Python here: module.c converts. The steps, and
 * moves played with their key, are in steps.c.
 *
 * Perft (perft.h) is compiled in this file, beside the capture search it
 * calls on every node, where the compiler sees both (split into a perft.c
 * with a shared header of the inline first-jump test, International
 * perft(9) with bulk counting gave 108 M leaves per CPU second against
 * 114 M in one file, without it 73 M against 75 M). The capture search's
 * hash tables (a flying king's states, the routes kept) are in
 * route_tables.h, the men's first jumps on whole bitboards in
 * first_jumps.h, the masks derived from the rules in load.c. */
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "first_jumps.h"
#include "step_count.h"
#include "route_tables.h"

void routes_init(RouteList *list) { memset(list, 0, sizeof *list); }

void routes_free(RouteList *list) {
    free(list->items);
    routes_init(list);
}

/* -- The capture search --------------------------------------------------- */

/* The route being searched: path[0] is the origin, caps[i] the i-th
 * captured square and path[i + 1] the square landed on after it. memo is
 * NULL where routes are not merged (every route kept, or the order of the
 * pieces taken counts). Where the precedence first wants the most pieces,
 * most is the most taken by a route listed so far (from out's item start
 * on), else -1: see emit. */
typedef struct {
    const Rules *r;
    int color;
    bb_t opp, opp_kings;
    RouteList *out;
    RouteMemo *memo;
    size_t start;
    int most;
    int ncaps;
    uint8_t caps[MAX_SQUARES];
    uint8_t path[MAX_SQUARES + 1];
} CaptureSearch;

static void emit(CaptureSearch *S, bb_t captured, int crowned) {
    /* A route that takes fewer pieces than one listed already is one the
     * precedence drops (keep_best), and one that takes more drops all those
     * listed: not kept in the meantime, a custom variant's hundred thousand
     * routes need not be held at once. */
    if (S->most >= 0) {
        if (S->ncaps < S->most) return;
        if (S->ncaps > S->most) {
            S->most = S->ncaps;
            S->out->len = S->start;
        }
    }
    Route *m = new_route(S->out);
    if (m == NULL) return;
    m->captured = captured;
    m->origin = S->path[0];
    m->dest = S->path[S->ncaps];
    m->crowned = (uint8_t)crowned;
    m->ncaps = (uint8_t)S->ncaps;
    if (S->ncaps < 16) {
        /* 16 bytes each, more than the route's (the bytes beyond are never
         * read): two moves where a copy of the length is a call to memcpy
         * (International's search to depth 9 on the 50 positions of
         * benchmarks/native_speed.py: 3,557 M instructions for 3,575 M;
         * callgrind, the same trees). */
        memcpy(m->caps, S->caps, 16);
        memcpy(m->path, S->path, 16);
    } else {
        memcpy(m->caps, S->caps, (size_t)S->ncaps);
        memcpy(m->path, S->path, (size_t)S->ncaps + 1);
    }
}

static int king_jumps(CaptureSearch *S, int sq, int last, bb_t captured, bb_t occupied, int crowned);

/* Jumps over an adjacent piece (men, and kings that do not fly) in the
 * directions dirs; returns whether any jump was possible from sq. */
static int short_jumps(CaptureSearch *S, int sq, const int *dirs, int ndirs, int is_man, int last,
                       bb_t captured, bb_t occupied, int crowned) {
    const Rules *r = S->r;
    /* Most searches end here: no enemy piece next to the man (one mask
     * for every direction; International perft(8) with bulk counting:
     * 714 M instructions for 721 M with each direction looked at). */
    if (is_man && !(S->opp & ~captured & r->man_jump_near[S->color][sq])) return 0;
    int found = 0;
    int back = (last >= 0 && !r->reverse_ok) ? r->reverse[last] : -1;
    for (int k = 0; k < ndirs; k++) {
        int d = dirs[k];
        if (d == back || r->ray_len[sq][d] < 2) continue;
        const uint8_t *ray = RAY(r, sq, d);
        int over = ray[0], land = ray[1];
        bb_t over_bit = SQUARE_BIT(over), land_bit = SQUARE_BIT(land);
        if (!(over_bit & S->opp) || (over_bit & captured) || (land_bit & occupied)) continue;
        if (is_man && !r->men_capture_kings && (over_bit & S->opp_kings)) continue;
        found = 1;
        bb_t now_captured = captured | over_bit;
        bb_t now_occupied = r->at_end ? occupied : (occupied & ~over_bit);
        S->caps[S->ncaps] = (uint8_t)over;
        S->path[S->ncaps + 1] = (uint8_t)land;
        S->ncaps++;
        if (is_man && (land_bit & r->promotion[S->color])) {
            if (r->crown_stop) {
                emit(S, now_captured, 1);
            } else if (r->crown_continue) {
                if (!king_jumps(S, land, d, now_captured, now_occupied, 1))
                    emit(S, now_captured, 1);
            } else if (!short_jumps(S, land, dirs, ndirs, 1, d, now_captured, now_occupied, 0)) {
                /* Passing the far row: still a man, crowned only if it stops here. */
                emit(S, now_captured, 1);
            }
        } else if (!short_jumps(S, land, dirs, ndirs, is_man, d, now_captured, now_occupied,
                                crowned)) {
            emit(S, now_captured, crowned);
        }
        S->ncaps--;
    }
    return found;
}

typedef struct {
    int over, d;
} Target;


/* The pieces a flying king on sq could take next, highest square first,
 * as the pure generator takes them: per capture direction the first piece,
 * if the square behind it is empty and it is an enemy piece not yet taken;
 * not along skip or back, which are not taken (looked at and then passed
 * over, International's search to depth 9 on the 50 positions of
 * benchmarks/native_speed.py took 3,575 M instructions for 3,586 M;
 * callgrind, the same trees). Returns how many. */
static inline __attribute__((always_inline)) int
king_targets(const CaptureSearch *S, int sq, int skip, int back, bb_t captured, bb_t occupied,
             Target targets[NDIRS]) {
    const Rules *r = S->r;
    bb_t prey = S->opp & ~captured;
    int ntargets = 0;
    for (int k = 0; k < r->n_king_cap; k++) {
        int d = r->king_cap_dirs[k];
        if (d == skip || d == back) continue;
        int over = nearest_piece(r, sq, d, occupied);
        if (over >= 0 && (prey & SQUARE_BIT(over)) && r->ray_len[over][d] &&
            !(occupied & SQUARE_BIT(RAY(r, over, d)[0]))) {
            Target t = {over, d};
            int j = ntargets++;
            while (j > 0 && targets[j - 1].over < t.over) {
                targets[j] = targets[j - 1];
                j--;
            }
            targets[j] = t;
        }
    }
    return ntargets;
}

static int king_search(CaptureSearch *S, int sq, int back, int skip, const Target *targets,
                       int ntargets, bb_t captured, bb_t occupied, int crowned);

/* Captures at a distance. skip is a direction not to look in: from the
 * second and later landing squares behind a piece, going on straight ahead
 * finds what the first landing square already found. The targets are found
 * here, in the caller, and the search called only where there are some:
 * most landing squares have none (International's search to depth 9 on
 * the 50 positions of benchmarks/native_speed.py: 3,536 M instructions for
 * 3,539 M with a call for each landing square; callgrind, the same trees). */
static inline __attribute__((always_inline)) int
flying_jumps(CaptureSearch *S, int sq, int last, int skip, bb_t captured, bb_t occupied,
             int crowned) {
    const Rules *r = S->r;
    int back = (last >= 0 && !r->reverse_ok) ? r->reverse[last] : -1;
    Target targets[NDIRS];
    int ntargets = king_targets(S, sq, skip, back, captured, occupied, targets);
    return ntargets ? king_search(S, sq, back, skip, targets, ntargets, captured, occupied, crowned)
                    : 0;
}

/* flying_jumps from sq, where the king has the targets found by
 * king_targets: each taken in turn, and the search goes on from each
 * landing square behind it. */
static int king_search(CaptureSearch *S, int sq, int back, int skip, const Target *targets,
                       int ntargets, bb_t captured, bb_t occupied, int crowned) {
    const Rules *r = S->r;
    MemoEntry state;
    int remember = 0;
    if (S->memo != NULL && S->ncaps >= MERGE_FROM) {
        state = (MemoEntry){captured, S->path[0], (uint8_t)sq, (uint8_t)(back + 1),
                            (uint8_t)(skip + 1), 1, 0};
        const MemoEntry *known = S->memo->items ? memo_find(S->memo, &state) : NULL;
        if (known != NULL && known->used) return known->found;
        remember = 1;
    }
    int found = 0;
    for (int t = 0; t < ntargets; t++) {
        int over = targets[t].over, d = targets[t].d;
        const uint8_t *ray = RAY(r, over, d);
        int n = r->ray_len[over][d], j = 0;
        found = 1;
        bb_t over_bit = SQUARE_BIT(over);
        bb_t now_captured = captured | over_bit;
        bb_t now_occupied = r->at_end ? occupied : (occupied & ~over_bit);
        int first = j, nland;
        if (r->lands_behind) {
            nland = 1;
            j++;
        } else {
            while (j < n && !(now_occupied & SQUARE_BIT(ray[j]))) j++;
            nland = j - first;
        }
        /* Can the capture go on straight ahead beyond the landing squares? */
        int straight = 0;
        if (nland > 1 && j < n - 1) {
            bb_t ahead = SQUARE_BIT(ray[j]);
            straight = (ahead & S->opp) && !(ahead & now_captured) &&
                       !(now_occupied & SQUARE_BIT(ray[j + 1]));
        }
        uint8_t goes_on[MAX_SQUARES];
        int any = 0;
        S->caps[S->ncaps] = (uint8_t)over;
        S->ncaps++;
        for (int k = 0; k < nland; k++) {
            int land = ray[first + k];
            S->path[S->ncaps] = (uint8_t)land;
            int more = flying_jumps(S, land, d, k ? d : -1, now_captured, now_occupied, crowned);
            goes_on[k] = (uint8_t)(more || (k > 0 && straight));
            any |= goes_on[k];
        }
        if (!(r->must_land && any)) {
            /* Killer: a sequence whose last captured piece is a king ends
             * directly behind it. */
            int halt = r->stops_behind_king && (over_bit & S->opp_kings);
            for (int k = 0; k < nland; k++) {
                if (goes_on[k] || (halt && k)) continue;
                S->path[S->ncaps] = ray[first + k];
                emit(S, now_captured, crowned);
            }
        }
        S->ncaps--;
    }
    if (remember && memo_room(S->memo)) {
        /* The search below may have grown the table: its slot is found now. */
        state.found = (uint8_t)found;
        *memo_find(S->memo, &state) = state;
        S->memo->len++;
    }
    return found;
}

static int king_jumps(CaptureSearch *S, int sq, int last, bb_t captured, bb_t occupied, int crowned) {
    const Rules *r = S->r;
    if (r->flying) return flying_jumps(S, sq, last, -1, captured, occupied, crowned);
    return short_jumps(S, sq, r->king_cap_dirs, r->n_king_cap, 0, last, captured, occupied,
                       crowned);
}

/* Every route of a man that starts with the jump origin x over -> land. */
static void onward(CaptureSearch *S, int origin, int d, int over, int land, int crowned,
                   bb_t occupied) {
    const Rules *r = S->r;
    const int *dirs = r->man_cap_dirs[S->color];
    int ndirs = r->n_man_cap[S->color];
    bb_t over_bit = SQUARE_BIT(over);
    S->path[0] = (uint8_t)origin;
    S->caps[0] = (uint8_t)over;
    S->path[1] = (uint8_t)land;
    S->ncaps = 1;
    if (!r->at_end) occupied &= ~over_bit;
    if (crowned && r->crown_stop) {
        emit(S, over_bit, 1);
    } else if (crowned && r->crown_continue) {
        if (!king_jumps(S, land, d, over_bit, occupied, 1)) emit(S, over_bit, 1);
    } else if (!short_jumps(S, land, dirs, ndirs, 1, d, over_bit, occupied, 0)) {
        emit(S, over_bit, crowned);
    }
}

/* -- Precedence and duplicates -------------------------------------------- */

static long long route_value(const Rules *r, const Route *m, bb_t opp_kings) {
    int kings = popcount(m->captured & opp_kings);
    return (long long)(m->ncaps - kings) * r->man_value + (long long)kings * r->king_value;
}

/* Above 0 when a is better than b under the precedence, 0 when as good. */
static int compare_routes(const Rules *r, const Route *a, const Route *b, bb_t own_kings,
                          bb_t opp_kings) {
    for (int k = 0; k < r->n_rules; k++) {
        long long x = 0, y = 0;
        switch (r->rules[k]) {
        case RULE_MOST_PIECES:
            x = a->ncaps, y = b->ncaps;
            break;
        case RULE_MOST_KINGS:
            x = popcount(a->captured & opp_kings), y = popcount(b->captured & opp_kings);
            break;
        case RULE_MOST_VALUE:
            x = route_value(r, a, opp_kings), y = route_value(r, b, opp_kings);
            break;
        case RULE_WITH_KING:
            x = (own_kings & SQUARE_BIT(a->origin)) != 0;
            y = (own_kings & SQUARE_BIT(b->origin)) != 0;
            break;
        default: /* KINGS_FIRST: the earlier a king is taken, the better */
            for (int i = 0; i < a->ncaps && i < b->ncaps && x == y; i++) {
                x = (opp_kings & SQUARE_BIT(a->caps[i])) != 0;
                y = (opp_kings & SQUARE_BIT(b->caps[i])) != 0;
            }
            if (x == y) x = a->ncaps, y = b->ncaps; /* a longer sequence of the same start */
        }
        if (x != y) return x > y ? 1 : -1;
    }
    return 0;
}

static void keep_best(const Rules *r, RouteList *l, size_t start, bb_t own_kings,
                      bb_t opp_kings) {
    Route *items = l->items;
    size_t best = start, w = start;
    if (r->majority_only) {
        int most = 0;
        for (size_t i = start; i < l->len; i++)
            if (items[i].ncaps > most) most = items[i].ncaps;
        for (size_t i = start; i < l->len; i++)
            if (items[i].ncaps == most) {
                if (w != i) items[w] = items[i]; /* a route is 288 bytes */
                w++;
            }
    } else {
        for (size_t i = start + 1; i < l->len; i++)
            if (compare_routes(r, &items[i], &items[best], own_kings, opp_kings) > 0) best = i;
        Route top = items[best];
        for (size_t i = start; i < l->len; i++)
            if (compare_routes(r, &items[i], &top, own_kings, opp_kings) == 0)
                items[w++] = items[i];
    }
    l->len = w;
}

/* -- Entry points --------------------------------------------------------- */

/* Padded layouts: the men's first jumps (first_jumps' jumps), direction
 * by direction, into out: a man whose landing square is in more goes on
 * through the capture search S, the others take one piece. With more NULL
 * (single_jumps: S NULL too) every jump is a single one, and inlined so
 * the search's part drops out. Returns whether one went on; -1 out of
 * memory. */
static inline __attribute__((always_inline)) int
men_jumps(CaptureSearch *S, const Rules *r, int color, const bb_t jumps[NDIRS], const bb_t *more,
          bb_t occupied, RouteList *out) {
    int searched = 0;
    for (int k = 0; k < r->n_man_cap[color]; k++) {
        int d = r->man_cap_dirs[color][k], s = r->shift[d];
        for (bb_t from = jumps[d]; from;) {
            int sq = pop_top(&from);
            int over = sq + s, land = sq + 2 * s;
            int crowned = (r->promotion[color] & SQUARE_BIT(land)) != 0;
            if (more == NULL || !(more[d] & SQUARE_BIT(land))) {
                if (!single_jump(out, sq, over, land, crowned)) return -1;
                continue;
            }
            searched = 1;
            onward(S, sq, d, over, land, crowned, occupied ^ SQUARE_BIT(sq));
        }
    }
    return searched;
}

/* Padded layouts: the men's captures; a man whose landing square is in
 * more is searched. Returns whether it searched one; -1 out of memory. */
static int padded_men_captures(CaptureSearch *S, const bb_t jumps[NDIRS], const bb_t more[NDIRS],
                               bb_t occupied) {
    return men_jumps(S, S->r, S->color, jumps, more, occupied, S->out);
}

/* Padded layouts, when single_jumps_only: the men's single jumps, listed
 * as padded_men_captures lists them (in the same order) but without the
 * capture search's set-up; returns how many, or -1 out of memory. */
static long single_jumps(const Rules *r, int color, const bb_t jumps[NDIRS], RouteList *out) {
    size_t start = out->len;
    if (men_jumps(NULL, r, color, jumps, NULL, 0, out) < 0) return -1;
    return (long)(out->len - start);
}

/* The routes of the men in candidates and the kings in jumpers, in the
 * order found, appended to S->out; returns whether any needed the search
 * (1), only single jumps (0), or -1 when memory ran out. */
static int find_routes(CaptureSearch *S, const Side *s, bb_t candidates, bb_t jumpers,
                       const bb_t *known_jumps, const bb_t *known_more) {
    const Rules *r = S->r;
    int color = S->color;
    RouteList *out = S->out;
    bb_t occupied = s->own_men | s->own_kings | S->opp;
    bb_t empty = r->board & ~occupied;
    bb_t prey = r->men_capture_kings ? S->opp : s->opp_men;
    int searched = 0;
    if (candidates && r->padded) {
        bb_t jumps[NDIRS], more[NDIRS];
        if (known_jumps == NULL) {
            first_jumps(r, color, candidates, prey, empty, jumps, more);
            known_jumps = jumps;
            known_more = more;
        }
        searched = padded_men_captures(S, known_jumps, known_more, occupied);
        if (searched < 0) return -1;
    }
    for (int k = 0; candidates && !r->padded && k < r->n_man_cap[color]; k++) {
        int d = r->man_cap_dirs[color][k];
        for (bb_t men = candidates; men;) {
            int sq = pop_top(&men);
            if (r->ray_len[sq][d] < 2) continue;
            const uint8_t *ray = RAY(r, sq, d);
            int over = ray[0], land = ray[1];
            if (!(prey & SQUARE_BIT(over)) || !(empty & SQUARE_BIT(land))) continue;
            int crowned = (r->promotion[color] & SQUARE_BIT(land)) != 0;
            if ((!crowned || !r->crown_continue) &&
                !man_can_go_on(r, color, land, prey & ~SQUARE_BIT(over), empty | SQUARE_BIT(sq))) {
                if (!single_jump(out, sq, over, land, crowned)) return -1;
                continue;
            }
            searched = 1;
            onward(S, sq, d, over, land, crowned, occupied ^ SQUARE_BIT(sq));
        }
    }
    while (jumpers) {
        int sq = pop_top(&jumpers);
        searched = 1;
        S->path[0] = (uint8_t)sq;
        S->ncaps = 0;
        king_jumps(S, sq, -1, 0, occupied ^ SQUARE_BIT(sq), 0);
    }
    return out->failed ? -1 : searched;
}

/* The capture routes of the men in candidates and the kings in jumpers
 * (gen_captures has found that each has a first jump); on padded layouts,
 * the men's first_jumps when the caller has them, else NULL. */
static long __attribute__((noinline))
search_captures(const Rules *r, int color, const Side *s, int keep_duplicates, RouteList *out,
                bb_t candidates, bb_t jumpers, const bb_t *known_jumps, const bb_t *known_more) {
    size_t start = out->len;
    CaptureSearch S;
    S.r = r;
    S.color = color;
    S.opp = s->opp_men | s->opp_kings;
    S.opp_kings = s->opp_kings;
    S.out = out;
    RouteMemo memo = {NULL, 0, 0};
    S.memo = r->flying && !keep_duplicates && !r->order_counts ? &memo : NULL;
    S.start = start;
    /* Every route takes a piece at least: 1, since the single jumps listed
     * apart (single_jump) do not raise it. */
    S.most = r->majority_only || (r->n_rules && r->rules[0] == RULE_MOST_PIECES) ? 1 : -1;
    int searched = find_routes(&S, s, candidates, jumpers, known_jumps, known_more);
    free(memo.items);
    if (searched < 0) return -1;
    if (out->len - start < 2) return (long)(out->len - start);
    /* Single jumps are never duplicates, and all take one piece. */
    if (r->n_rules && (searched || !r->majority_only))
        keep_best(r, out, start, s->own_kings, s->opp_kings);
    if (!keep_duplicates && searched && !drop_duplicates(out, start)) return -1;
    return (long)(out->len - start);
}

/* The kings that have a first jump. */
static inline bb_t king_jumpers(const Rules *r, bb_t kings, bb_t occupied, bb_t opp) {
    bb_t jumpers = 0;
    while (kings) {
        int sq = pop_top(&kings);
        if (king_can_jump(r, sq, occupied, opp)) jumpers |= SQUARE_BIT(sq);
    }
    return jumpers;
}

/* The men (candidates) and kings (jumpers) of the mover that have a first
 * jump. Most positions have none: this test is kept apart from the search,
 * whose stack frame (some 900 bytes) and register saves cost more than the
 * test (International perft(9) from the start took 0.63 s for 0.95 s with
 * the two in one function). */
static inline __attribute__((always_inline)) bb_t
first_jumpers(const Rules *r, int color, const Side *s, bb_t *jumpers) {
    bb_t opp = s->opp_men | s->opp_kings;
    bb_t occupied = s->own_men | s->own_kings | opp;
    bb_t candidates = 0;
    if (s->own_men) {
        bb_t prey = r->men_capture_kings ? opp : s->opp_men;
        candidates = jump_candidates(r, color, s->own_men, prey, r->board & ~occupied);
    }
    *jumpers = king_jumpers(r, s->own_kings, occupied, opp);
    return candidates;
}

int any_capture(const Rules *r, int color, const Side *s) { return any_capture_on(r, color, s); }

/* On padded layouts the men's jump squares are worked out once, for the
 * test and for the search's first jumps (search_captures worked them out
 * again): International's search to depth 9 on the 50 positions of
 * benchmarks/native_speed.py, 3,854 M instructions for 3,890 M (callgrind,
 * the same trees). */
long gen_captures(const Rules *r, int color, const Side *s, int keep_duplicates, RouteList *out) {
    if (!r->padded || !s->own_men) {
        bb_t jumpers, candidates = first_jumpers(r, color, s, &jumpers);
        if (!(candidates | jumpers)) return 0;
        return search_captures(r, color, s, keep_duplicates, out, candidates, jumpers, NULL, NULL);
    }
    bb_t opp = s->opp_men | s->opp_kings;
    bb_t occupied = s->own_men | s->own_kings | opp;
    bb_t prey = r->men_capture_kings ? opp : s->opp_men, squares[NDIRS];
    padded_jump_squares(r, color, prey, r->board & ~occupied, squares);
    bb_t any = jump_union(r, squares);
    bb_t candidates = s->own_men & any, jumpers = king_jumpers(r, s->own_kings, occupied, opp);
    if (!candidates) {
        if (!jumpers) return 0;
        return search_captures(r, color, s, keep_duplicates, out, 0, jumpers, NULL, NULL);
    }
    bb_t jumps[NDIRS], more[NDIRS];
    jumps_of(r, color, candidates, squares, any, jumps, more);
    if (!jumpers && single_jumps_only(r, more)) return single_jumps(r, color, jumps, out);
    return search_captures(r, color, s, keep_duplicates, out, candidates, jumpers, jumps, more);
}

/* -- Perft ------------------------------------------------------------------ */

typedef struct {
    const Rules *r;
    int keep_duplicates, bulk, failed;
    RouteList *lists; /* one per ply from the root */
    int nlists;
} Perft;

/* Route lists up to ply at least; 0 (P->failed set) out of memory. */
static int grow_lists(Perft *P, int ply) {
    int n = 2 * ply + 8;
    RouteList *lists = realloc(P->lists, (size_t)n * sizeof *lists);
    if (lists == NULL) {
        P->failed = 1;
        return 0;
    }
    for (int i = P->nlists; i < n; i++) routes_init(&lists[i]);
    P->lists = lists;
    P->nlists = n;
    return 1;
}

/* The mover's men and kings after route m (play without the key, which
 * perft does not read; the captured pieces come off in two masks). */
static inline void perft_play(const Route *m, bb_t *men, bb_t *kings) {
    bb_t origin = SQUARE_BIT(m->origin), dest = SQUARE_BIT(m->dest);
    if (*men & origin) {
        *men ^= origin;
        *(m->crowned ? kings : men) |= dest;
    } else {
        *kings = (*kings & ~origin) | dest;
    }
}

/* Both copies of perft's recursion (see perft.h): the popcnt one where
 * GCC or Clang builds for x86-64 without being told the CPU has popcnt,
 * and not on Windows, where clang-cl's __builtin_cpu_supports needs a
 * runtime library the MSVC linker does not bring in. */
#define PERFT_FN(name) name
#define PERFT_TARGET
#include "perft.h"
#undef PERFT_FN
#undef PERFT_TARGET
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32) && \
    !defined(__POPCNT__) && !defined(DRAUGHTS_PORTABLE_BITS)
#define PERFT_POPCNT_COPY 1
#define PERFT_FN(name) name##_popcnt
#define PERFT_TARGET __attribute__((target("popcnt")))
#include "perft.h"
#undef PERFT_FN
#undef PERFT_TARGET
#endif

uint64_t perft(const Rules *r, int depth, int color, bb_t m0, bb_t m1, bb_t k0, bb_t k1,
               int keep_duplicates, int bulk, int *failed) {
    Perft P = {r, keep_duplicates, bulk, 0, NULL, 0};
    const Side s = color ? (Side){m1, k1, m0, k0} : (Side){m0, k0, m1, k1};
    uint64_t total;
    *failed = 0;
    if (depth < 1) return 1; /* the position itself */
#ifdef PERFT_POPCNT_COPY
    __builtin_cpu_init();
    if (__builtin_cpu_supports("popcnt"))
        total = perft_node_popcnt(&P, 0, depth, color, &s);
    else
#endif
        total = perft_node(&P, 0, depth, color, &s);
    for (int i = 0; i < P.nlists; i++) routes_free(&P.lists[i]);
    free(P.lists);
    *failed = P.failed;
    return total;
}
