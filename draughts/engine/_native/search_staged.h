/* A quiet node's first move searched before the node makes its moves
 * (staged_first, for search in search.c). Included by search.c only,
 * where its helpers are (as search_table.h). */
#ifndef DRAUGHTS_NATIVE_SEARCH_STAGED_H
#define DRAUGHTS_NATIVE_SEARCH_STAGED_H

/* A quiet node's first move searched before its moves are made: where the
 * side to move has no capture and the move the node would search first is
 * known without the list (the table's, if a legal step; else the first
 * killer, if a legal step, whose rank is the lowest), that move is checked
 * (the core's is_step) and searched; a cutoff there spares the steps'
 * generation and their ranks. Else the steps are made and ranked as they
 * were when the node began (the history's additions since, kept in
 * s->added while a node waits, taken off for the ranking), the first move
 * put first, and the search goes on from the second: the same order, the
 * same tree. Of the 302,778 quiet nodes with two moves or more below the
 * root to depth 9 (benchmarks/native_speed.py, the 50 positions), 96,344
 * search the table's move first and 174,719 a killer; 170,329 of those
 * cut off on it, with 2.14 M steps made for nothing before. 3,315 M
 * instructions in the search for 3,393 M (callgrind, the same trees);
 * without the history's additions taken off, other trees. Returns 1 with
 * *best and *best_at set (the list holding that
 * move), 0 where the node is not staged (its captures, if any, in the
 * list), -1 out of memory; *best 0 when the search stopped. */
static int staged_first(Search *s, Ply *here, const Pos *p, uint64_t key, int depth, int alpha,
                        int beta, int ply, int reversible, const Entry *entry, int *best,
                        int *best_at) {
    const Rules *r = s->r;
    int c = p->color;
    RouteList *l = &here->moves;
    Side side = side_of(p, c);
    l->len = 0;
    if (core_api->gen_captures(r, c, &side, 0, l) != 0 || l->failed) return l->failed ? -1 : 0;
    Route first;
    int staged = entry && !entry->ncaps &&
                 core_api->is_step(r, c, &side, entry->origin & (MAX_SQUARES - 1),
                                   entry->dest & (MAX_SQUARES - 1), 0, &first) &&
                 same_move(entry, &first);
    uint32_t killer = s->killers[ply][0];
    if (!staged && killer && (int)(killer >> 20) == c)
        staged = core_api->is_step(r, c, &side, killer >> 10 & (MAX_SQUARES - 1),
                                    killer & (MAX_SQUARES - 1), 0, &first);
    if (!staged || count_steps(r, c, &side, 2) < 2) return 0;
    if (l->cap < 1) {
        Route *items = realloc(l->items, 8 * sizeof *items);
        if (items == NULL) return -1;
        l->items = items, l->cap = 8;
    }
    l->items[0] = first, l->len = 1;
    if (order_room(here) < 0) return -1;
    here->order[0] = 0, here->ordered = 1;
    size_t mark = s->nadded;
    s->waiting++;
    *best = moves_from(s, p, key, depth, alpha, beta, ply, reversible, 0, -WIN - 1, best_at, 0);
    s->waiting--;
    if (s->stopped || s->failed || *best >= beta) {
        if (!s->waiting) s->nadded = 0;
        return s->failed ? -1 : 1;
    }
    l = &s->plies[ply].moves; /* the plies may have moved */
    here = &s->plies[ply];
    l->len = 0;
    core_api->gen_steps(r, c, &side, 0, l);
    if (l->failed || order_room(here) < 0) return -1;
    long long *history = &s->history[0][0][0];
    for (size_t i = mark; i < s->nadded; i++) history[s->added[i].at] -= s->added[i].amount;
    rank_quiet(s, here, c, ply);
    for (size_t i = mark; i < s->nadded; i++) history[s->added[i].at] += s->added[i].amount;
    if (!s->waiting) s->nadded = 0;
    int at = 0;
    for (size_t i = 0; i < l->len; i++) {
        here->order[i] = (int)i;
        if (l->items[i].origin == first.origin && l->items[i].dest == first.dest) at = (int)i;
    }
    here->order[at] = 0, here->order[0] = at, here->ordered = 1;
    *best_at = at;
    int score = *best;
    *best = moves_from(s, p, key, depth, score > alpha ? score : alpha, beta, ply, reversible, 1,
                       score, best_at, 0);
    return s->failed ? -1 : 1;
}

#endif
