/* The quiescence search of search.c (Searcher._quiesce and
 * _answer_threat of draughts/engine/search.py): the captures, then at a
 * quiet leaf the opponent's threat answered or the static evaluation.
 * Included by search.c only, where its helpers are (the same pattern as
 * search_table.h: one translation unit, so that all of it inlines). */
#ifndef DRAUGHTS_NATIVE_SEARCH_QUIESCE_H
#define DRAUGHTS_NATIVE_SEARCH_QUIESCE_H

/* Captures most first, stably (the sort on _taken). */
static void sort_by_taken(const RouteList *l, int *order) {
    for (size_t i = 0; i < l->len; i++) {
        size_t j = i;
        int taken = l->items[i].ncaps;
        while (j > 0 && l->items[order[j - 1]].ncaps < taken) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = (int)i;
    }
}

static int quiesce(Search *s, const Pos *p, uint64_t key, int alpha, int beta, int ply);

/* Searcher._best_reply over the moves of ply's list, in order. */
static int best_reply(Search *s, const Pos *p, uint64_t key, int alpha, int beta, int ply) {
    int best = -WIN - 1;
    for (size_t i = 0; i < s->plies[ply].moves.len; i++) {
        if (tick(s)) return 0;
        /* Indexed afresh: a child may move the plies when it adds one. */
        const Ply *here = &s->plies[ply];
        Pos child;
        uint64_t child_key;
        child_of(s, p, &here->moves.items[here->order[i]], key, &child, &child_key);
        int score = -quiesce(s, &child, child_key, -beta, -alpha, ply + 1);
        if (s->stopped || s->failed) return 0;
        if (score > best) {
            best = score;
            if (score > alpha) {
                alpha = score;
                if (alpha >= beta) break;
            }
        }
    }
    return best;
}

static int in_order(Ply *here) {
    if (order_room(here) < 0) return -1;
    for (size_t i = 0; i < here->moves.len; i++) here->order[i] = (int)i;
    return 0;
}

/* _answer_threat: the steps of the side to move in p, where the opponent
 * threatens a capture, searched for the quiescence (one threat extension
 * fewer below); a loss without a step. */
static int answer_threat(Search *s, const Pos *p, uint64_t key, int alpha, int beta, int ply) {
    Ply *here = &s->plies[ply];
    int c = p->color;
    Side side = side_of(p, c);
    core_api->gen_steps(s->r, c, &side, 0, &here->moves);
    if (here->moves.failed || in_order(here) < 0) return s->failed = 1, 0;
    if (here->moves.len == 0) return s->sign * (ply - WIN);
    s->threat_extensions--;
    int best = best_reply(s, p, key, alpha, beta, ply);
    s->threat_extensions++;
    return best;
}

/* quiesce where the side to move has no capture and the evaluation's steps
 * are the core's (Evaluation.steps_exact): the same score as the general
 * code below, whose step test (any_step, some 170 instructions with its
 * set-up) comes from the evaluation's own steps here. The threat is asked
 * first (answer_threat finds no step as any_step would), then the
 * evaluation, which a position without a step throws away (a loss). The
 * 50 positions of benchmarks/native_speed.py to depth 9: 3,436 M
 * instructions in the search for 3,497 M (callgrind, the same trees). */
static int quiet_leaf(Search *s, const Pos *p, uint64_t key, int alpha, int beta, int ply) {
    if (s->threat_extensions && has_capture(s->r, 1 - p->color, p))
        return answer_threat(s, p, key, alpha, beta, ply);
    int quiet = s->threat_extensions ? QUIET_CHECKED : QUIET_UNCHECKED, white, can_step;
    Evaluated *known = leaf_at(s, key);
    if (known->quiet && known->key == key) { /* stored with a step: see evaluate */
        if (quiet == QUIET_CHECKED) known->quiet = QUIET_CHECKED;
        white = known->white;
    } else {
        white = search_static_white_step(s, p, &can_step);
        if (!can_step) return s->sign * (ply - WIN);
        *known = (Evaluated){key, white, quiet};
    }
    return s->sign * (p->color == 0 ? white : -white);
}

/* Searcher._quiesce, with _answer_threat; a quiet leaf met before
 * (known_leaf) is answered without the generator: the same score. */
static int quiesce(Search *s, const Pos *p, uint64_t key, int alpha, int beta, int ply) {
    if (s->breakthrough && (p->bb[2] | p->bb[3])) return crowned_score(p, ply);
    int found, white = known_leaf(s, key, &found);
    if (found) return s->sign * (p->color == 0 ? white : -white);
    Ply *here = ply_at(s, ply);
    if (here == NULL) return s->failed = 1, 0;
    capture_routes(s->r, p->color, p, &here->moves);
    if (here->moves.failed) return s->failed = 1, 0;
    if (here->moves.len == 0 && s->e->steps_exact) return quiet_leaf(s, p, key, alpha, beta, ply);
    if (here->moves.len == 0) {
        int c = p->color;
        bb_t occupied = p->bb[0] | p->bb[1] | p->bb[2] | p->bb[3];
        Side own = {p->bb[c], p->bb[2 + c], occupied & ~(p->bb[c] | p->bb[2 + c]), 0};
        if (!core_api->any_step(s->r, c, &own)) return s->sign * (ply - WIN);
        if (s->threat_extensions && has_capture(s->r, 1 - c, p))
            return answer_threat(s, p, key, alpha, beta, ply);
        white = evaluate(s, p, key, s->threat_extensions ? QUIET_CHECKED : QUIET_UNCHECKED);
        return s->sign * (p->color == 0 ? white : -white);
    }
    if (order_room(here) < 0) return s->failed = 1, 0;
    sort_by_taken(&here->moves, here->order);
    return best_reply(s, p, key, alpha, beta, ply);
}

#endif
