/* The games of draughts.ml.VectorEnv, stepped in C, many at once, with no
 * Python per game (ml_env.c is their Python type, VecEnv).
 *
 * Each game keeps its bitboards, side to move, ply, Zobrist keys since
 * the set-up (for the repetition rule), the draw rules' start plies and
 * the king followed for a king-move limit (Frisian), as draughts.Board
 * does in Python; its legal moves come from movegen.c and carry the
 * action index of draughts/ml/actions.py. A step plays one action per
 * game, decides the end as Board.outcome does (with claims where the
 * environment takes them), starts finished games again
 * and writes observations, masks, rewards and flags into the caller's
 * buffers. No Python API is called here: the GIL is released meanwhile.
 *
 * Over the project's 800 lines on purpose: the draw rules, observations
 * and stepping below are one translation unit because the step is cloned
 * per instruction set (ML_CLONED, ml_step.h) and its static helpers are
 * inlined into each clone; in files of their own (the build has no
 * link-time optimisation) they would be calls compiled for the baseline. */
#include "ml_step.h"
#include "ml_planes.h"
#include "ml_moves.h"

/* -- Growing arrays --------------------------------------------------------- */

int ml_grow(void **items, int *cap, int need, size_t size) {
    if (need <= *cap) return 0;
    int n = *cap ? 2 * *cap : 64;
    while (n < need) n *= 2;
    void *p = realloc(*items, (size_t)n * size);
    if (p == NULL) return -1;
    *items = p;
    *cap = n;
    return 0;
}

ML_INLINE int push_key(Game *g) {
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
int ml_restart(const VecEnvObject *e, Game *g) {
    Legal *moves = g->moves;
    bb_t *captured = g->captured;
    uint64_t *keys = g->keys;
    int32_t *hist = g->hist, *fhist = g->fhist;
    int capmoves = g->capmoves, caphist = g->caphist, nfhist = g->nfhist, capfhist = g->capfhist;
    int capcaptured = g->capcaptured;
    size_t capkeys = g->capkeys;
    *g = e->start;
    g->moves = moves, g->capmoves = capmoves, g->keys = keys, g->capkeys = capkeys;
    g->captured = captured, g->capcaptured = capcaptured;
    g->hist = hist, g->caphist = caphist, g->nhist = 0;
    g->fhist = fhist, g->capfhist = capfhist, g->nfhist = nfhist;
    int room = e->start.nmoves > CLEARED ? e->start.nmoves : CLEARED;
    if (ml_grow((void **)&g->moves, &g->capmoves, room, sizeof(Legal)) < 0) return -1;
    memcpy(g->moves, e->start.moves, (size_t)e->start.nmoves * sizeof(Legal));
    /* the moves clear_marks() reads past the game's: an action, 0 */
    for (int k = e->start.nmoves; k < CLEARED; k++) g->moves[k].action = 0;
    if (e->start.nmoves && e->start.moves[0].is_capture) { /* all are, or none */
        if (ml_grow((void **)&g->captured, &g->capcaptured, e->start.nmoves, sizeof(bb_t)) < 0)
            return -1;
        memcpy(g->captured, e->start.captured, (size_t)e->start.nmoves * sizeof(bb_t));
    }
    return 0;
}

/* -- Draw rules (draughts/_draw_rules.py's Tracker) ------------------------- */

/* The strong side of one of the rule's endings (0 when it has none), or -1. */
static int strong_side(const VecEnvObject *e, const RuleSpec *rule, const Game *g) {
    if (!rule->n_endings) return 0;
    bb_t made[4];
    const bb_t *bb = ml_game_bb(e, g, made);
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
 * updates on the moves that may change them). A move that changes no
 * material (no capture, no promotion) leaves whether each rule holds as it
 * was, unless an ending asks where a king stands (e->king_endings): a rule
 * that holds (a start) restarts on its events, one that does not stays
 * so. That saves the counting of the pieces on most moves: 3,068
 * instructions a step instead of 3,143 (callgrind, International random
 * self-play, 256 games, 2026-12-05). */
ML_INLINE void update_starts(const VecEnvObject *e, Game *g, int events, int material) {
    if (!material && !e->king_endings) {
        /* none holds (g->holding): nothing to restart. A step took 1,244
         * instructions testing each rule's start, 1,226 so (callgrind,
         * International random self-play with sample_step(), 256 games,
         * one thread, 450 calls, 2026-12-06). */
        for (unsigned h = g->holding; h; h &= h - 1) {
            const RuleSpec *rule = &e->rules[e->tracked[ctz64(h)]];
            if (rule->resets & events) g->starts[rule->slot] = g->ply;
        }
        return;
    }
    int m0 = e->num.ok ? popcount64(g->nb[0] | g->nb[2]) : popcount(g->bb[0] | g->bb[2]);
    int m1 = e->num.ok ? popcount64(g->nb[1] | g->nb[3]) : popcount(g->bb[1] | g->bb[3]);
    int total = m0 + m1, weaker = m0 < m1 ? m0 : m1;
    for (int i = 0; i < e->ntracked; i++) {
        const RuleSpec *rule = &e->rules[e->tracked[i]];
        int held = total <= rule->most && weaker <= rule->weak_most &&
                   strong_side(e, rule, g) >= 0;
        int *start = &g->starts[rule->slot];
        if (!held)
            *start = NOT_COUNTING;
        else if (*start == NOT_COUNTING || (rule->resets & events))
            *start = g->ply;
    }
    ml_holding(e, g);
}

void ml_holding(const VecEnvObject *e, Game *g) {
    g->holding = 0;
    for (int i = 0; i < e->ntracked; i++)
        if (g->starts[e->tracked_slot[i]] != NOT_COUNTING) g->holding |= 1u << i;
}

/* How far a counting rule has got (Tracker.count), or -1 while it does not hold. */
static int rule_count(const VecEnvObject *e, const Game *g, const RuleSpec *rule) {
    int start = rule->mode == MODE_QUIET   ? g->quiet_from
                : rule->mode == MODE_PLIES ? g->ply_origin
                                           : g->starts[rule->slot];
    if (start == NOT_COUNTING) return -1;
    int plies = g->ply - start;
    if (!rule->strong_moves) return plies;
    int strong = strong_side(e, rule, g);
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


/* -- Playing a move ----------------------------------------------------------- */

/* A move of colour c from the bit from to the bit to, taking the bits of
 * taken, on the four bitboards nb (is_man: a man's; crowned). */
static inline void move_bits(uint64_t nb[4], int c, uint64_t from, uint64_t to, uint64_t taken,
                             int is_man, int crowned) {
    nb[1 - c] &= ~taken;
    nb[3 - c] &= ~taken;
    if (!is_man) nb[2 + c] = (nb[2 + c] & ~from) | to;
    else if (crowned) nb[c] &= ~from, nb[2 + c] |= to;
    else nb[c] = (nb[c] & ~from) | to;
}

/* m played on g's bitboards of numbers, and of turned numbers where
 * e->view_turns (in one pass over the captured squares: 2,020
 * instructions a step, against 2,029 with a pass for each: callgrind,
 * International random self-play, 256 games, 2026-12-05); the captured
 * pieces' keys xored into *key. */
static inline void number_move(const VecEnvObject *e, Game *g, const Legal *m, bb_t captured,
                               int is_man, uint64_t *key) {
    const Rules *r = &e->core->rules;
    const uint64_t *bit = e->num_bit[0], *turned = e->num_bit[1];
    int o = 1 - g->turn;
    uint64_t taken = 0, taken_turned = 0, k = *key;
    for (bb_t cap = captured; cap; cap &= cap - 1) {
        int sq = low_bit(cap);
        k ^= (g->nb[2 + o] & bit[sq]) ? r->key_kings[o][sq] : r->key_men[o][sq];
        taken |= bit[sq];
        taken_turned |= turned[sq];
    }
    *key = k;
    move_bits(g->nb, g->turn, bit[m->origin], bit[m->dest], taken, is_man, m->crowned);
    if (e->view_turns)
        move_bits(g->tb, g->turn, turned[m->origin], turned[m->dest], taken_turned, is_man,
                  m->crowned);
}

/* Play m on g (Board._push_python's bookkeeping); returns the events.
 * Inlined in the step (its x86-64-v3 clone): 1,541 instructions a step,
 * against 1,569 with a call to a clone of its own (callgrind, as in
 * ml_step.h). keep_bb: g->bb kept too where e->num.ok (ml_play()); the
 * step keeps g->nb alone there (ml_game_bb()): 1,143 instructions an
 * International step so, 1,199 keeping both (English 1,116 and 1,160;
 * callgrind, random self-play with sample_step(), 256 games, one thread,
 * 450 calls, 2026-12-06; its simulated mispredicted branches 6.1 and 5.7,
 * English 7.3 and 7.5). */
ML_INLINE int apply(const VecEnvObject *e, Game *g, const Legal *m, bb_t captured,
                    const int keep_bb) {
    const Rules *r = &e->core->rules;
    int c = g->turn, o = 1 - c, is_man;
    uint64_t k = g->key ^ r->key_black;
    if (e->num.ok) {
        is_man = (g->nb[c] & e->num_bit[0][m->origin]) != 0;
        number_move(e, g, m, captured, is_man, &k);
    } else {
        is_man = (g->bb[c] & e->bit[m->origin]) != 0;
        for (bb_t cap = captured; cap; cap &= cap - 1) {
            int sq = low_bit(cap);
            k ^= (g->bb[2 + o] & BIT(sq)) ? r->key_kings[o][sq] : r->key_men[o][sq];
        }
    }
    if (keep_bb || !e->num.ok) {
        /* from a table: 2,125 instructions a step with BIT(), 2,105 so */
        bb_t from = e->bit[m->origin], to = e->bit[m->dest];
        g->bb[o] &= ~captured;
        g->bb[2 + o] &= ~captured;
        /* a capture may bring the man back to its own square: clear it first */
        if (is_man) g->bb[c] &= ~from, g->bb[m->crowned ? 2 + c : c] |= to;
        else g->bb[2 + c] = (g->bb[2 + c] & ~from) | to;
    }
    if (is_man)
        k ^= r->key_men[c][m->origin] ^
             (m->crowned ? r->key_kings[c][m->dest] : r->key_men[c][m->dest]);
    else
        k ^= r->key_kings[c][m->origin] ^ r->key_kings[c][m->dest];
    g->key = k;
    g->turn = o;
    g->ply++;
    int events = (captured ? e->events[0] : 0) | (is_man ? e->events[1] : 0) |
                 (is_man && m->crowned ? e->events[2] : 0);
    if (is_man || captured) g->quiet_from = g->ply;
    update_starts(e, g, events, captured || (is_man && m->crowned));
    if (e->king_limit) { /* Board._count_king_move */
        if (!is_man && !captured && ml_has_pieces(e, g, c)) {
            g->kn[c] = g->ksq[c] == m->origin ? g->kn[c] + 1 : 1;
            g->ksq[c] = m->dest;
        } else if (g->ksq[c] >= 0) {
            g->ksq[c] = -1;
            g->kn[c] = 0;
        }
    }
    return events;
}

/* Whether one of g's legal moves would make a position occur limit times
 * (Board.can_claim_threefold_repetition's look ahead): only a king's quiet
 * move can repeat one (any other starts the count again). */
static int next_repeats(const VecEnvObject *e, const Game *g, int limit) {
    const Rules *r = &e->core->rules;
    int c = g->turn, low = g->quiet_from > 0 ? g->quiet_from : 0;
    bb_t made[4];
    const bb_t *bb = ml_game_bb(e, g, made);
    for (int i = 0; i < g->nmoves; i++) {
        const Legal *m = &g->moves[i];
        if (m->is_capture || !(bb[2 + c] & BIT(m->origin))) continue;
        uint64_t key = g->key ^ r->key_black ^ r->key_kings[c][m->origin] ^ r->key_kings[c][m->dest];
        int seen = 1; /* the position after it, at ply + 1: earlier ones of its side to move */
        for (int p = g->ply - 1; p >= low && seen < limit; p -= 2)
            if (g->keys[p] == key) seen++;
        if (seen >= limit) return 1;
    }
    return 0;
}

/* Per draw rule (the variant's order), how far it has got: the
 * repetition rule's occurrences, the others' rule_count(). decide() and the
 * observation both read them: worked out once a step, 3,039 instructions a
 * step instead of 3,068 (callgrind, International random self-play, 256
 * games, 2026-12-05). base: the counts are e's baseline ones (of[] is not
 * filled). */
typedef struct {
    int base, of[MAX_DRAW_RULES];
} Counts;

/* A rule's value in its plane at count (draughts/ml/encoding.py's). */
ML_INLINE float rule_value(const RuleSpec *rule, int count) {
    if (rule->is_repetition) return (float)((double)count / (double)rule->limit);
    return count < 0 ? 0.0f : (float)((double)(count + 1) / (double)(count + rule->limit + 2));
}

static int met(const VecEnvObject *e, const Game *g, const RuleSpec *rule, int count);

/* After a man's move or a capture (quiet_from at the ply) and while no
 * tracked rule holds, the counts are known: 1 occurrence of the position,
 * 0 plies for the rules counted since the last such move, none for the
 * tracked ones; a variant whose rules all count so, none of them met
 * there, has a baseline. Random International games are such plies at
 * 98%: a step took 2,331 instructions working the counts out at each, 2,125
 * so (callgrind, International random self-play, 256 games, 2026-12-05). */
void ml_rules_init(VecEnvObject *e) {
    Game g;
    memset(&g, 0, sizeof g); /* ply 0, quiet from 0, no moves */
    int ok = 1, n = 0;
    for (int i = 0; i < e->nrules; i++) {
        const RuleSpec *rule = &e->rules[i];
        int count = rule->is_repetition ? 1 : rule->mode == MODE_TRACKED ? -1 : 0;
        if (!rule->is_repetition && rule->mode != MODE_TRACKED)
            ok &= rule->mode == MODE_QUIET && !rule->strong_moves; /* not the ply count */
        /* met() reads no move of g at these counts (limit 0: a material rule) */
        ok &= count < 0 || rule->limit > count;
        if (ok && met(e, &g, rule, count)) ok = 0;
        if (rule->is_repetition) e->base_values[0] = rule_value(rule, count);
        if (rule->mode == MODE_TRACKED) e->tracked_slot[e->ntracked] = rule->slot;
        if (rule->mode == MODE_TRACKED) e->tracked[e->ntracked++] = i;
    }
    e->nvalues = 0;
    if (e->repetition >= 0) e->value_rule[e->nvalues++] = e->repetition;
    for (int i = 0; i < e->ncounting; i++) e->value_rule[e->nvalues++] = e->counting[i];
    for (int i = 0; i < e->ncounting; i++) {
        const RuleSpec *rule = &e->rules[e->counting[i]];
        e->base_values[(e->repetition >= 0) + n++] = rule_value(rule, rule->mode == MODE_TRACKED ? -1 : 0);
    }
    e->baseline = ok;
}

static void count_each(const VecEnvObject *e, const Game *g, Counts *counts) {
    for (int i = 0; i < e->nrules; i++) {
        const RuleSpec *rule = &e->rules[i];
        counts->of[i] = rule->is_repetition ? occurrences(g, rule->limit) : rule_count(e, g, rule);
    }
}

/* The counts, the baseline tested inline and the rules counted in a call
 * only where it does not hold: the C step took 1,750 instructions a step,
 * against 1,775 with the whole in a call (callgrind, International random
 * self-play, 256 games, one thread, 2026-12-05). */
ML_INLINE void count_rules(const VecEnvObject *e, const Game *g, Counts *counts) {
    counts->base = e->baseline && g->quiet_from == g->ply && !g->holding;
    if (!counts->base) count_each(e, g, counts);
}

/* Whether a draw rule, at count, is met now (Board._met; claims: Board._draws). */
static int met(const VecEnvObject *e, const Game *g, const RuleSpec *rule, int count) {
    if (rule->is_repetition)
        return count >= rule->limit ||
               (!rule->automatic && rule->claim_next && next_repeats(e, g, rule->limit));
    if (count < 0 || count < rule->limit) return 0;
    /* A pure material rule judges the material that stays: not while a
     * capture must be made (Board._met). */
    return rule->limit || !g->moves[0].is_capture;
}

/* How the game stands (Board.outcome, with claim_draw where e->claim): an
 * END_ code, with the winner (-1 none) in *winner. */
ML_INLINE int decide(const VecEnvObject *e, const Game *g, const Counts *counts, int *winner) {
    int turn = g->turn;
    *winner = -1;
    if (e->goal == GOAL_BREAKTHROUGH) {
        for (int k = 0; k < 2; k++) {
            int side = k ? turn : 1 - turn;
            if (ml_has_pieces(e, g, 2 + side)) {
                *winner = side;
                return END_BREAKTHROUGH;
            }
        }
    }
    if (!g->nmoves) {
        *winner = e->goal == GOAL_ANTIDRAUGHTS ? turn : 1 - turn;
        return ml_has_pieces(e, g, turn) || ml_has_pieces(e, g, 2 + turn) ? END_BLOCKED
                                                                         : END_NO_PIECES;
    }
    /* The automatic rules first, then (claims) the claimable ones, each in
     * the variant's order. */
    for (int pass = 0; !counts->base && pass < 1 + e->claim; pass++)
        for (int i = 0; i < e->nrules; i++)
            if (e->rules[i].automatic == !pass && met(e, g, &e->rules[i], counts->of[i]))
                return END_RULE + i;
    return END_NONE;
}

/* -- Observations ----------------------------------------------------------- */

static void shown(const VecEnvObject *e, const Game *g, const Counts *counts, Drawn *d) {
    int black_view = e->perspective && g->turn == 1, first = black_view, hw = e->hw;
    d->black_view = black_view;
    d->turn = g->turn;
    if (e->view_ok) {
        const uint64_t *nb = black_view ? g->tb : g->nb;
        d->view[0] = nb[first], d->view[1] = nb[2 + first];
        d->view[2] = nb[1 - first], d->view[3] = nb[3 - first];
    } else {
        bb_t made[4];
        const bb_t *bb = ml_game_bb(e, g, made);
        d->planes[0] = bb[first], d->planes[1] = bb[2 + first];
        d->planes[2] = bb[1 - first], d->planes[3] = bb[3 - first];
    }
    int n = 0;
    d->base = counts->base;
    if (counts->base) {
        memcpy(d->values, e->base_values, sizeof d->values);
    } else {
        if (e->repetition >= 0)
            d->values[n++] = rule_value(&e->rules[e->repetition], counts->of[e->repetition]);
        for (int i = 0; i < e->ncounting; i++)
            d->values[n++] = rule_value(&e->rules[e->counting[i]], counts->of[e->counting[i]]);
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

void ml_shown(const VecEnvObject *e, const Game *g, Drawn *d) {
    Counts counts;
    count_rules(e, g, &counts);
    shown(e, g, &counts, d);
}

/* Observations come as float32 or (e->u8) as bytes: each cell the float
 * times 255, rounded (the product of a float and 255 is exact in a double).
 * The writers below take u8 as a constant, each inlined once per type. */
static inline uint8_t to_byte(float v) { return (uint8_t)((double)v * 255.0 + 0.5); }

static inline void put(void *obs, int i, float v, int u8) {
    if (u8) ((uint8_t *)obs)[i] = to_byte(v);
    else ((float *)obs)[i] = v;
}

/* One plane of obs (count cells from from) to v, in 32-byte stores inlined
 * (the last one overlapping the one before where count is no multiple of
 * the width): the side to move's plane, rewritten at every ply. The
 * fill() below (a call to memset or memcpy) took 1,533 instructions a
 * step, this 1,490 (callgrind, International random self-play with
 * sample_step(), 256 games, one thread, 450 calls, 2026-12-05). */
#if defined(__GNUC__) || defined(__clang__)
typedef float Floats8 __attribute__((vector_size(32), aligned(4), may_alias));
typedef uint8_t Bytes32 __attribute__((vector_size(32), aligned(1), may_alias));
#define HAVE_VECTORS 1
#endif

static inline void fill(const VecEnvObject *e, void *obs, int from, int count, float v, int u8);

/* count a constant: the loop unrolled */
ML_INLINE void fill_stores(void *obs, int from, const int count, float v, int u8) {
    if (u8) {
        uint8_t *p = (uint8_t *)obs + from;
        Bytes32 x = (Bytes32){0} + to_byte(v);
        for (int i = 0; i + 32 <= count; i += 32) *(Bytes32 *)(p + i) = x;
        *(Bytes32 *)(p + count - 32) = x;
    } else {
        float *p = (float *)obs + from;
        Floats8 x = (Floats8){0} + v;
        for (int i = 0; i + 8 <= count; i += 8) *(Floats8 *)(p + i) = x;
        *(Floats8 *)(p + count - 8) = x;
    }
}

ML_INLINE void fill_plane(const VecEnvObject *e, void *obs, int from, int count, float v, int u8) {
#ifdef HAVE_VECTORS
    switch (count) { /* the 10x10 and 8x8 boards */
    case 100: fill_stores(obs, from, 100, v, u8); return;
    case 64: fill_stores(obs, from, 64, v, u8); return;
    default: break;
    }
#endif
    fill(e, obs, from, count, v, u8);
}

/* Cells from .. from + count of obs to v: by memset and memcpy where they
 * can (a loop of stores took 90 more instructions a step: callgrind,
 * International, 256 games, 2026-12-05). */
static inline void fill(const VecEnvObject *e, void *obs, int from, int count, float v, int u8) {
    if (u8) {
        memset((uint8_t *)obs + from, to_byte(v), (size_t)count);
        return;
    }
    float *plane = (float *)obs + from;
    if (v == 0.0f) {
        memset(plane, 0, (size_t)count * sizeof *plane);
    } else if (v == 1.0f && count <= e->hw) {
        memcpy(plane, e->ones, (size_t)count * sizeof *plane);
    } else {
        for (int i = 0; i < count; i++) plane[i] = v;
    }
}

/* The pieces' cells, a 64-bit half of the bitboard at a time, from a table
 * per view: a step took 3,270 instructions instead of 3,730 with a 128-bit
 * scan and the view tested per piece (callgrind, International, 2026-12-04). */
static inline void put_pieces(const VecEnvObject *e, void *obs, const Drawn *d, int u8) {
    for (int p = 0; e->view_ok && p < 4; p++)
        for (uint64_t b = d->view[p]; b; b &= b - 1) put(obs, p * e->hw + e->num_cell[ctz64(b)], 1.0f, u8);
    if (e->view_ok) return;
    const int *cell = d->black_view ? e->turned_cell : e->cell;
    for (int p = 0; p < 4; p++) {
        uint64_t low = (uint64_t)d->planes[p], high = (uint64_t)(d->planes[p] >> 64);
        if (u8) {
            uint8_t *plane = (uint8_t *)obs + p * e->hw;
            for (; low; low &= low - 1) plane[cell[ctz64(low)]] = 255;
            for (; high; high &= high - 1) plane[cell[64 + ctz64(high)]] = 255;
        } else {
            float *plane = (float *)obs + p * e->hw;
            for (; low; low &= low - 1) plane[cell[ctz64(low)]] = 1.0f;
            for (; high; high &= high - 1) plane[cell[64 + ctz64(high)]] = 1.0f;
        }
    }
}

static inline void put_squares(const VecEnvObject *e, void *obs, int black_view, int u8) {
    int plane = 5 * e->hw;
    fill(e, obs, plane, e->hw, 0.0f, u8);
    for (int sq = 0; sq < e->core->rules.n; sq++)
        if (e->cell[sq] >= 0)
            put(obs, plane + (black_view ? e->hw - 1 - e->cell[sq] : e->cell[sq]), 1.0f, u8);
}

static inline void draw_as(const VecEnvObject *e, const Drawn *d, void *obs, int u8) {
    int hw = e->hw, nvalues = (e->repetition >= 0) + e->ncounting;
    fill(e, obs, 0, e->planes * hw, 0.0f, u8);
    put_squares(e, obs, d->black_view, u8);
    if (d->turn) fill(e, obs, 4 * hw, hw, 1.0f, u8);
    for (int i = 0; i < nvalues; i++)
        if (d->values[i] != 0.0f) fill(e, obs, (6 + i) * hw, hw, d->values[i], u8);
    put_pieces(e, obs, d, u8);
    for (int k = 0; k < 2; k++)
        if (d->kcell[k] >= 0) put(obs, (6 + nvalues + k) * hw + d->kcell[k], d->kval[k], u8);
}

/* The whole float32 observation d stands for, into obs. */
void ml_draw(const VecEnvObject *e, const Drawn *d, float *obs) { draw_as(e, d, obs, 0); }

void ml_spread_init(VecEnvObject *e) { spread_init(e); }

/* The piece cells where now and was differ (e->view_ok: where their bits
 * do; 19 cells of International random self-play's 24 pieces a step). A
 * step took 2,079 instructions clearing the piece planes and writing every
 * piece, 2,029 so, the turned bitboards' upkeep in apply() included
 * (callgrind, International random self-play, 256 games, 2026-12-05). */
ML_INLINE void redraw_pieces(const VecEnvObject *e, const uint64_t now[4], void *obs,
                                 const uint64_t was[4], int u8, int turned) {
    /* turned: the view turned half a turn since was (most cells change) */
    if (turned && e->spread) {
        spread_planes(e, obs, now, was, u8);
        return;
    }
    /* unrolled: the C step took 1,737 instructions a step, 1,750 with the
     * loop (callgrind, International random self-play, 256 games, one
     * thread, 2026-12-05) */
#pragma GCC unroll 4
    for (int p = 0; p < 4; p++) {
        uint64_t gone = was[p] & ~now[p], come = now[p] & ~was[p];
        if (u8) {
            uint8_t *plane = (uint8_t *)obs + p * e->hw;
            for (; gone; gone &= gone - 1) plane[e->num_cell[ctz64(gone)]] = 0;
            for (; come; come &= come - 1) plane[e->num_cell[ctz64(come)]] = 255;
        } else {
            float *plane = (float *)obs + p * e->hw;
            for (; gone; gone &= gone - 1) plane[e->num_cell[ctz64(gone)]] = 0.0f;
            for (; come; come &= come - 1) plane[e->num_cell[ctz64(come)]] = 1.0f;
        }
    }
}

/* What differs from was into obs, which shows was; was becomes now. */
static inline void redraw_as(const VecEnvObject *e, const Drawn *now, void *obs, Drawn *was,
                             int u8) {
    int hw = e->hw, nvalues = (e->repetition >= 0) + e->ncounting;
    if (e->view_ok) { /* the squares' plane stays (e->squares_turn) */
        if (now->turn != was->turn) fill(e, obs, 4 * hw, hw, (float)now->turn, u8);
        redraw_pieces(e, now->view, obs, was->view, u8, now->black_view != was->black_view);
    } else {
        /* Clearing the four piece planes costs less than clearing each
         * piece's cell: a step took 3,730 instructions instead of 4,230
         * (callgrind, International, 2026-12-04). The side to move's plane
         * (the fifth) changes every ply: cleared with the four piece planes
         * in one memset when it turns to 0 (3,376 C instructions a step
         * before, 3,338 after; callgrind, International, 256 games,
         * 2026-12-05). */
        int clear_turn = now->turn != was->turn && now->turn == 0;
        fill(e, obs, 0, (4 + clear_turn) * hw, 0.0f, u8);
        if (now->turn != was->turn && !clear_turn) fill(e, obs, 4 * hw, hw, 1.0f, u8);
        if (now->black_view != was->black_view && !e->squares_turn)
            put_squares(e, obs, now->black_view, u8);
        put_pieces(e, obs, now, u8);
    }
    for (int i = 0; !(now->base && was->base) && i < nvalues; i++)
        if (now->values[i] != was->values[i]) fill(e, obs, (6 + i) * hw, hw, now->values[i], u8);
    for (int k = 0; k < 2; k++)
        if (was->kcell[k] >= 0) put(obs, (6 + nvalues + k) * hw + was->kcell[k], 0.0f, u8);
    for (int k = 0; k < 2; k++)
        if (now->kcell[k] >= 0) put(obs, (6 + nvalues + k) * hw + now->kcell[k], now->kval[k], u8);
    *was = *now;
}

/* The observation's update where only the pieces and the side to move
 * change (was shows the baseline rule planes, as g does, and there is no
 * king-move plane): most steps of random International self-play. Inlined
 * in the step, whose other cases call observe(): 1,216 instructions a step
 * with the whole of observe() called, 1,198 so (callgrind, International
 * random self-play with sample_step(), 256 games, one thread, 450 calls,
 * 2026-12-06); before, the C step (ml_step_all) took 1,801 instructions
 * a step so, 1,865 through shown() and redraw_as() (2026-12-05). */
/* Whether observe_pieces() may serve e's games at all: the view follows
 * the square numbers (view_ok) and no king-move plane is drawn. */
ML_INLINE int pieces_may_serve(const VecEnvObject *e) { return e->view_ok && !e->king_limit; }

/* The rule planes whose values differ from was's, where the counts or
 * was's are not the baseline (redraw_as's, with no Drawn made, and each
 * plane in 32-byte stores rather than by memset, memcpy or a loop): the
 * plies that change a rule plane, 30% of random English plies (4% of
 * International ones), no longer go through shown() and redraw_as(). An
 * English step took 1,067.8 instructions before, 1,021.4 so; International
 * 1,091.4 and 1,082.4 (callgrind, benchmarks/ml_phases.py, 2026-12-07;
 * inlined in the step rather than in observe(), 1,032.0 and 1,103.5). */
ML_INLINE void redraw_values(const VecEnvObject *e, const Counts *counts, void *obs, Drawn *was) {
    for (int i = 0; i < e->nvalues; i++) {
        int r = e->value_rule[i];
        float v = counts->base ? e->base_values[i] : rule_value(&e->rules[r], counts->of[r]);
        if (v != was->values[i]) fill_plane(e, obs, (6 + i) * e->hw, e->hw, v, e->u8);
        was->values[i] = v;
    }
    was->base = counts->base;
}

/* The pieces' planes and the side to move's, where pieces_may_serve(e). */
ML_INLINE void redraw_view(const VecEnvObject *e, const Game *g, void *obs, Drawn *was) {
    int black_view = e->perspective & g->turn; /* 0 or 1 each: no branch */
    const uint64_t *nb = black_view ? g->tb : g->nb;
    uint64_t view[4] = {nb[black_view], nb[2 + black_view], nb[1 - black_view], nb[3 - black_view]};
    if (g->turn != was->turn) fill_plane(e, obs, 4 * e->hw, e->hw, (float)g->turn, e->u8);
    int turned = black_view != was->black_view;
    if (e->u8) redraw_pieces(e, view, obs, was->view, 1, turned);
    else redraw_pieces(e, view, obs, was->view, 0, turned);
    memcpy(was->view, view, sizeof view);
    was->turn = g->turn;
    was->black_view = black_view;
}

ML_INLINE int observe_pieces(const VecEnvObject *e, const Game *g, const Counts *counts, void *obs,
                             Drawn *was, int plain) {
    /* plain: pieces_may_serve(e), which the step works out once a call */
    if (!(plain && counts->base && was->base)) return 0;
    redraw_view(e, g, obs, was);
    return 1;
}

/* Write g's observation into obs (e->u8: bytes): all of it (was == NULL),
 * or only what differs from was, which obs shows; was becomes what obs
 * shows now. */
ML_CLONED static void observe(const VecEnvObject *e, const Game *g, const Counts *counts, void *obs, Drawn *was) {
    if (was != NULL && pieces_may_serve(e)) {
        if (!(counts->base && was->base)) redraw_values(e, counts, obs, was);
        redraw_view(e, g, obs, was);
        return;
    }
    Drawn now;
    shown(e, g, counts, &now);
    if (was == NULL && e->u8) draw_as(e, &now, obs, 1);
    else if (was == NULL) draw_as(e, &now, obs, 0);
    else if (e->u8) redraw_as(e, &now, obs, was, 1);
    else redraw_as(e, &now, obs, was, 0);
}

void ml_observe(const VecEnvObject *e, const Game *g, void *obs, Drawn *was) {
    Counts counts;
    count_rules(e, g, &counts);
    observe(e, g, &counts, obs, was);
}

/* -- Stepping ----------------------------------------------------------------- */

int ml_play(const VecEnvObject *e, Game *g, const Legal *m, bb_t captured) {
    if (push_key(g) < 0) return -1;
    apply(e, g, m, captured, 1);
    return 0;
}

ML_INLINE int keep_action(Game *g, int32_t action) {
    if (g->nhist >= g->caphist && /* a call only to grow (see pick()) */
        ml_grow((void **)&g->hist, &g->caphist, g->nhist + 1, sizeof(int32_t)) < 0)
        return -1;
    g->hist[g->nhist++] = action;
    return 0;
}

/* The game ended (or was cut): its last position into final_obs, its
 * actions kept, and a new game. obs shows was (the position before the
 * last move): final_obs is a copy of it with what differs redrawn. A step
 * took 1,490 instructions drawing the whole of final_obs (filled with
 * zeros first), 1,440 so (callgrind, International random self-play with
 * sample_step(), 256 games, one thread, 450 calls, 2026-12-05). */
static int start_again(VecEnvObject *e, Game *g, const Counts *counts, void *final_obs,
                       const void *obs, const Drawn *was, size_t obs_size) {
    Drawn shown_there = *was;
    memcpy(final_obs, obs, obs_size);
    observe(e, g, counts, final_obs, &shown_there);
    int32_t *h = g->fhist;
    int cap = g->capfhist;
    g->fhist = g->hist, g->capfhist = g->caphist, g->nfhist = g->nhist;
    g->hist = h, g->caphist = cap, g->nhist = 0;
    return ml_restart(e, g);
}

/* Where action is in g's moves (sorted by action), or -1: at hint (where
 * sample() picked it), or searched for. The search took 2,105 instructions
 * a step with sample()'s actions, the hint 2,083 (callgrind, International
 * random self-play, 256 games, 2026-12-05). */
ML_INLINE int find_action(const Game *g, int hint, int64_t action) {
    if (hint >= 0 && hint < g->nmoves && g->moves[hint].action == action) return hint;
    int low = 0, high = g->nmoves - 1;
    while (low <= high) {
        int mid = (low + high) / 2;
        if (g->moves[mid].action == action) return mid;
        if (g->moves[mid].action < action) low = mid + 1;
        else high = mid - 1;
    }
    return -1;
}

/* ml_pick, inlined in the step's loop. With keep_action's test before its
 * call, the C step took 1,775 instructions a step, against 1,801 with the
 * two calls (callgrind, International random self-play, 256 games, one
 * thread, 2026-12-05). */
ML_INLINE int64_t pick(VecEnvObject *e, int i, double uniform) {
    const Game *g = &e->games[i];
    /* n read once (the store below may alias it): 1,094 instructions an
     * International step before, 1,092 after (callgrind, as in ml_step_games) */
    int n = g->nmoves, k = (int)(uniform * n);
    e->chosen[i] = k = k < n ? k : n - 1; /* the step looks there first */
    return n ? g->moves[k].action : -1;
}

int64_t ml_pick(VecEnvObject *e, int i, double uniform) { return pick(e, i, uniform); }

/* Set the mask's cells of n moves to on. The mask is no move's memory
 * (restrict): the moves are not read again after each byte stored.
 * Unrolled: 1,226 instructions a step before, 1,216 after (callgrind,
 * International random self-play with sample_step(), 256 games, one
 * thread, 450 calls, 2026-12-06). */
ML_INLINE void mark(uint8_t *restrict mask, const Legal *moves, int n, uint8_t on) {
#pragma GCC unroll 4
    for (int k = 0; k < n; k++) mask[moves[k].action] = on;
}

/* Clear the mask's cells of n moves, and those of the moves past them up
 * to CLEARED: a loop of a fixed count in most positions, whose end the
 * processor foresees (a loop of n took 1.5 of a step's 8 mispredicted
 * branches in callgrind's simulation). Every move a game keeps (its
 * actions, those it kept before, or 0 from ml_restart: g->moves holds
 * CLEARED at least) has an action of the mask, and every cell but the n
 * moves' is 0 already. */
ML_INLINE void clear_marks_as(uint8_t *restrict mask, const Legal *moves, int n, const int fixed) {
#pragma GCC unroll 16
    for (int k = 0; k < fixed; k++) mask[moves[k].action] = 0;
    for (int k = fixed; k < n; k++) mask[moves[k].action] = 0;
}

/* few: a game on a board of 32 squares, which has FEW_CLEARED moves or
 * fewer in most positions (random English play: 5.2 moves a ply, 10 or
 * fewer at 96% of the plies; International 8.0, 16 or fewer at 96%). The
 * mask's part of an English step, 51.0 instructions before, 43.4 so
 * (callgrind, benchmarks/ml_phases.py, 2026-12-07). */
enum { FEW_CLEARED = 10 };
ML_INLINE void clear_marks(uint8_t *restrict mask, const Legal *moves, int n, int few) {
    if (few) clear_marks_as(mask, moves, n, FEW_CLEARED);
    else clear_marks_as(mask, moves, n, CLEARED);
}

/* Step game i: 0, 1 if its action is illegal (and illegal actions raise),
 * -1 out of memory, -2 more shared moves than the extra block holds. */
ML_INLINE int step_one(VecEnvObject *e, int i, const Arrays *a, RouteList *l, size_t obs_size,
                       size_t mask_size, int plain, int few) {
    Game *g = &e->games[i];
    int64_t action = a->actions[i];
    int found = e->lose ? find_action(g, e->chosen[i], action) : e->chosen[i]; /* found there */
    int mover = g->turn, code, winner = -1;
    if (found < 0 && !e->lose) return 1;
    uint8_t *mask = a->masks + (size_t)i * mask_size;
    clear_marks(mask, g->moves, g->nmoves, few);
    if (found < 0) {
        code = END_RESIGNATION;
        winner = 1 - mover;
    } else {
        Legal m = g->moves[found];
        bb_t captured = m.is_capture ? g->captured[found] : 0;
        if (push_key(g) < 0 || keep_action(g, (int32_t)action) < 0) return -1;
        apply(e, g, &m, captured, 0);
        int status = generate(e, g, l, mask); /* the new moves marked in the mask */
        if (status < 0) {
            g->nmoves = 0; /* no action index out of range stays; reset() starts again */
            for (int k = 0; k < CLEARED; k++) g->moves[k].action = 0; /* clear_marks() reads them */
            return status;
        }
    }
    Counts counts;
    count_rules(e, g, &counts);
    if (found >= 0) code = decide(e, g, &counts, &winner);
    int cut = code == END_NONE && e->max_plies && g->ply >= e->max_plies;
    a->rewards[i] = winner < 0 ? 0.0f : winner == mover ? 1.0f : -1.0f;
    a->terminated[i] = code != END_NONE;
    a->truncated[i] = (uint8_t)cut;
    a->codes[i] = (int8_t)code;
    a->winners[i] = (int8_t)winner;
    if (code != END_NONE || cut) {
        clear_marks(mask, g->moves, g->nmoves, few);
        if (start_again(e, g, &counts, (char *)a->final_obs + (size_t)i * obs_size,
                        (char *)a->obs + (size_t)i * obs_size, &e->drawn[i], obs_size) < 0)
            return -1;
        count_rules(e, g, &counts); /* of the new game */
        mark(mask, g->moves, g->nmoves, 1);
    }
    void *obs = (char *)a->obs + (size_t)i * obs_size;
    if (!observe_pieces(e, g, &counts, obs, &e->drawn[i], plain))
        observe(e, g, &counts, obs, &e->drawn[i]);
    return 0;
}

#if defined(__GNUC__) || defined(__clang__)
#define PREFETCH_WRITE(address) __builtin_prefetch((address), 1)
#else
#define PREFETCH_WRITE(address) ((void)(address))
#endif

/* Ask for what game i's step writes, that the processor does not guess:
 * its moves, its mask's cells of them (scattered over the mask), the ends
 * of its keys and actions (each game's own block), and its observation's
 * side-to-move plane (rewritten at every ply; the pieces' cells a step
 * changes are a few of the planes before it). */
static void prefetch_game(const VecEnvObject *e, int i, const Arrays *a) {
    const Game *g = &e->games[i];
    const uint8_t *mask = a->masks + (size_t)i * ml_mask_bytes(e);
    for (int k = 0; k < g->nmoves; k++) PREFETCH_WRITE(mask + g->moves[k].action);
    size_t size = ml_obs_bytes(e);
    size_t plane = size / (size_t)e->planes;
    const char *obs = (const char *)a->obs + (size_t)i * size;
    for (size_t at = 4 * plane; at < 5 * plane; at += 64) PREFETCH_WRITE(obs + at);
}

/* Earlier: game i's own state (what the prefetches above read). */
static void prefetch_state(const VecEnvObject *e, int i) {
    const char *g = (const char *)&e->games[i];
    for (size_t at = 0; at < sizeof(Game); at += 64) PREFETCH_WRITE(g + at);
    PREFETCH_WRITE(&e->drawn[i]);
    PREFETCH_WRITE((const char *)&e->drawn[i] + 64);
}

static void prefetch_arrays(const VecEnvObject *e, int i) {
    const Game *g = &e->games[i];
    PREFETCH_WRITE(g->moves);
    PREFETCH_WRITE(g->keys + g->ply);
    PREFETCH_WRITE(g->hist + g->nhist);
}

/* Prefetching pays where the games' arrays are far larger than the
 * processor's caches: International random self-play on one thread, 4,096
 * games, 1.10 M steps per CPU second without, 1.50 M with it (4 games
 * ahead, the moves 8 ahead); at 256 games, 3% fewer (2026-12-05, load 9).
 * Each game's state asked for 12 games ahead (rather than read to find its
 * moves 8 ahead), and of its observation the side to move's plane alone
 * (rather than five planes): 1,024 games, median of 8 alternated runs
 * 2.91 M steps per CPU second of the stepping thread against 2.65 M
 * (2026-12-05, load 6). */
enum { PREFETCH_ABOVE = 4 << 20 /* bytes of observations and masks */, AHEAD = 4 };

/* The route list is the thread's own, passed in (a copy the caller makes):
 * the lists lie side by side in the VecEnv, and a thread writing its own
 * at every route would take the cache line from the other thread. */
ML_CLONED int ml_step_games(const Batch *b, int from, int to, RouteList *routes) {
    VecEnvObject *e = b->e;
    const Arrays *a = b->a;
    int ahead = b->ahead, status = 0, n = to - from, way = b->backwards ? -1 : 1;
    int first = b->backwards ? to - 1 : from;
    /* A game's bytes of observation and mask, worked out once a call rather
     * than per game (the stores into the mask and observations may alias
     * e's fields: the compiler reloads them after each): 1,143 instructions
     * an International step before, 1,132 after (callgrind, random
     * self-play with sample_step(), 256 games, one thread, 450 calls,
     * 2026-12-06). */
    size_t obs_size = ml_obs_bytes(e), mask_size = ml_mask_bytes(e);
    /* and whether observe_pieces() may serve, rather than per game from e:
     * 1,102 instructions before, 1,094 after (callgrind, as above) */
    int plain = pieces_may_serve(e), few = e->nsq <= 32;
#ifdef ML_PCG64
    if (a->pcg) ml_draw_uniforms(a, from, to);
#endif
    for (int k = 0; k < n && status == 0; k++) {
        int i = first + way * k;
        if (ahead && k + 3 * ahead < n) prefetch_state(e, i + way * 3 * ahead);
        if (ahead && k + 2 * ahead < n) prefetch_arrays(e, i + way * 2 * ahead);
        if (ahead && k + ahead < n) prefetch_game(e, i + way * ahead, a);
        if (a->uniforms) a->actions[i] = pick(e, i, a->uniforms[i]);
        status = step_one(e, i, a, routes, obs_size, mask_size, plain, few);
    }
    return status;
}

/* Step every game, on e->threads threads (see ml_pool.c). An illegal action
 * that raises stops the batch there: the games before it move, none after. */
int ml_step_all(VecEnvObject *e, const Arrays *a, long *illegal) {
    int n = e->num_envs;
    /* Where illegal actions raise, every action is looked up before any
     * game moves (on this thread; the moves of the games a few ahead asked
     * for, scattered in memory), and kept for the step: 3,021 instructions a
     * step instead of 3,039 (callgrind, International, 256 games). */
    for (int i = 0; !e->lose && !a->uniforms && i < n; i++) {
        if (i + 8 < n) PREFETCH_WRITE(e->games[i + 8].moves);
        if ((e->chosen[i] = find_action(&e->games[i], e->chosen[i], a->actions[i])) < 0) {
            *illegal = i;
            n = i;
        }
    }
    size_t bytes = ml_obs_bytes(e) + ml_mask_bytes(e);
    /* Every other step goes through the games from the last: the games a
     * step stepped last are the first of the next, their rows and state
     * still in the processor's cache. A step writes some 35 cache lines of
     * its game (15 of the observation, 9 of the mask, its state), 256
     * International games more than this machine's 512 KB second-level
     * cache a core: cache misses of its last level a step, callgrind's
     * cache simulation with --LL=524288,8,64, International random
     * self-play with sample_step(), one thread, 2026-12-06: 256 games
     * 33.7 in one order, 17.4 so; 128 games (a thread's share on two)
     * 8.8 and 5.7. */
    e->backwards = !e->backwards;
    Batch b = {e, a, n, (double)bytes * e->num_envs > PREFETCH_ABOVE ? AHEAD : 0, e->backwards};
    return ml_pool_run(e, &b);
}
