/* draughts._core.native._native.BoardState: the mutable state of a
 * draughts.Board (its bitboards, side to move, key, undo stack and draw
 * counts) with push and pop in C.
 *
 * The state stays the Python objects Board's own methods read (two lists
 * of two int bitboards, ints, tuples), held in C members instead of an
 * instance dict; push and pop do in C what Board._push_python and
 * Board._pop_python do in Python, with the same undo records, so the two
 * mix freely on one board. push+pop takes about 890 ns in Python and
 * about 330 ns here (benchmarks/compare.py, row "push+pop").
 *
 * push covers the common case: a padded board the native core holds, a
 * move whose squares are on the board, a piece of the side to move on its
 * origin. Everything else goes to Board._push_python, which is the
 * reference: its error messages, Frisian's king-move count, a hand-made
 * multi-capture without its route where men crown on the way.
 *
 * The draw-rule start plies stay with the board's Python tracker
 * (draughts._draw_rules.Tracker), which matches endings of any shape,
 * custom variants' too: push reads of it only the members of
 * draughts._draw_rules.PushTracker (a test records what the C reads and
 * compares it with that protocol) and calls it only after a move that may
 * start or stop a tracked rule, once may_progress's shortcut (the same
 * tests as Tracker.after_progress's first ones) lets it through. */
#include "convert.h"

#include <structmember.h>

extern PyTypeObject CoreType;

/* The undo record: a tuple of these fields, in the order of
 * draughts._core.pure.board_state.UNDO_FIELDS (the module publishes
 * undo_field_names as _native.UNDO_FIELDS and a test compares the two). */
enum {
    UNDO_WHITE_MEN,
    UNDO_BLACK_MEN,
    UNDO_WHITE_KINGS,
    UNDO_BLACK_KINGS,
    UNDO_TURN,
    UNDO_KEY,
    UNDO_QUIET_FROM,
    UNDO_STARTS,
    UNDO_KMOVES,
    UNDO_SIZE
};

static const char *const undo_field_names[UNDO_SIZE] = {
    [UNDO_WHITE_MEN] = "white_men",     [UNDO_BLACK_MEN] = "black_men",
    [UNDO_WHITE_KINGS] = "white_kings", [UNDO_BLACK_KINGS] = "black_kings",
    [UNDO_TURN] = "turn",               [UNDO_KEY] = "key",
    [UNDO_QUIET_FROM] = "quiet_from",   [UNDO_STARTS] = "starts",
    [UNDO_KMOVES] = "kmoves",
};

PyObject *undo_fields(void) {
    PyObject *names = PyTuple_New(UNDO_SIZE);
    for (int i = 0; names != NULL && i < UNDO_SIZE; i++) {
        PyObject *name = PyUnicode_FromString(undo_field_names[i]);
        if (name == NULL) Py_CLEAR(names);
        else PyTuple_SET_ITEM(names, i, name);
    }
    return names;
}

typedef struct {
    PyObject_HEAD
    /* Board's state, under the names Board uses. */
    PyObject *men, *kings, *turn, *key, *stack, *move_stack, *quiet_from, *starts, *kmoves,
        *legal, *ctx;
    /* Derived from ctx when it is set: core is NULL where push always
     * goes to Python. */
    CoreObject *core;
    PyObject *tracker;
    int man_move_resets, crown_and_continue, positional_pieces;
    /* The tracker's needs_king, weaker_king, max_pieces and max_weaker: see
     * may_progress. */
    int needs_king, weaker_king;
    long max_pieces, max_weaker;
    bb_t long_diagonal;
    long events[3]; /* the tracker's event bits: capture, man move, promotion */
    /* The ints of men[0], men[1], kings[0], kings[1] as last read or made,
     * and their bitboards: an int that is the same object has the same bits
     * (ints never change), so most reads skip the conversion, which took
     * 8% of a PDN replay. Owned references; cleared with the context. */
    PyObject *seen[4];
    bb_t seen_bits[4];
} StateObject;

static PyObject *str_from_square, *str_to_square, *str_captures, *str_path, *str_after_progress, *str_update,
    *str_push_python, *str_pop_python, *str_unique_move_python, *str_inactive;

/* -- The variant's context ---------------------------------------------------- */

static void forget_context(StateObject *self) {
    Py_CLEAR(self->core);
    Py_CLEAR(self->tracker);
    for (int i = 0; i < 4; i++) Py_CLEAR(self->seen[i]);
}

static int long_attr(PyObject *owner, const char *name, long *out) {
    PyObject *value = PyObject_GetAttrString(owner, name);
    if (value == NULL) return -1;
    *out = PyLong_AsLong(value);
    Py_DECREF(value);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

/* The tracker's members push reads (draughts._draw_rules.PushTracker),
 * read one after the other so that the first one missing or of the wrong
 * type is the error raised. 0, or -1 with an exception set. */
static int learn_tracker(StateObject *self, PyObject *tracker, PyObject **diagonal) {
    long positional, man_move_resets, needs_king, weaker_king;
    PyObject *events = PyObject_GetAttrString(tracker, "events");
    if (events == NULL) return -1;
    int ok = PyArg_ParseTuple(events, "lll;the tracker's events must be three ints",
                              &self->events[0], &self->events[1], &self->events[2]);
    Py_DECREF(events);
    if (!ok || long_attr(tracker, "positional_pieces", &positional) < 0 ||
        long_attr(tracker, "man_move_resets", &man_move_resets) < 0 ||
        long_attr(tracker, "needs_king", &needs_king) < 0 ||
        long_attr(tracker, "weaker_king", &weaker_king) < 0 ||
        long_attr(tracker, "max_pieces", &self->max_pieces) < 0 ||
        long_attr(tracker, "max_weaker", &self->max_weaker) < 0)
        return -1;
    self->positional_pieces = (int)positional;
    self->man_move_resets = man_move_resets != 0;
    self->needs_king = needs_king != 0;
    self->weaker_king = weaker_king != 0;
    *diagonal = PyObject_GetAttrString(tracker, "long_diagonal");
    return *diagonal == NULL ? -1 : 0;
}

/* What push reads of the context on every move, read once here. 0, or -1
 * with an exception set. */
static int learn_context(StateObject *self, PyObject *ctx) {
    long king_limit, flag;
    PyObject *core = PyObject_GetAttrString(ctx, "core");
    if (core == NULL) return -1;
    PyObject *diagonal = NULL;
    if (long_attr(ctx, "king_limit", &king_limit) < 0 ||
        long_attr(ctx, "crown_and_continue", &flag) < 0 ||
        (self->tracker = PyObject_GetAttrString(ctx, "tracker")) == NULL ||
        learn_tracker(self, self->tracker, &diagonal) < 0) {
        Py_DECREF(core);
        return -1; /* set_ctx forgets the tracker */
    }
    self->crown_and_continue = flag != 0;
    int covered = PyObject_TypeCheck(core, &CoreType) && ((CoreObject *)core)->ready &&
                  ((CoreObject *)core)->rules.padded && king_limit == 0;
    int failed = covered &&
                 to_bits((CoreObject *)core, diagonal, &self->long_diagonal, "long_diagonal") < 0;
    Py_DECREF(diagonal);
    if (failed || !covered) {
        Py_DECREF(core);
        return failed ? -1 : 0;
    }
    self->core = (CoreObject *)core;
    return 0;
}

/* The plain fields learn_context sets. */
static void copy_learnt(StateObject *to, const StateObject *from) {
    to->man_move_resets = from->man_move_resets;
    to->crown_and_continue = from->crown_and_continue;
    to->positional_pieces = from->positional_pieces;
    to->needs_king = from->needs_king;
    to->weaker_king = from->weaker_king;
    to->max_pieces = from->max_pieces;
    to->max_weaker = from->max_weaker;
    to->long_diagonal = from->long_diagonal;
    for (int i = 0; i < 3; i++) to->events[i] = from->events[i];
}

static PyObject *get_ctx(StateObject *self, void *closure) {
    (void)closure;
    if (self->ctx == NULL) {
        PyErr_SetString(PyExc_AttributeError, "_ctx");
        return NULL;
    }
    return Py_NewRef(self->ctx);
}

/* What learn_context found for the context set last (a board and its
 * copies share one): setting the same one again copies it, since reading
 * it anew would cost a new board or copy() about 0.4 us. Holds a reference
 * to that context (contexts are kept anyway, see draughts._context). */
static StateObject last_learnt;

static int set_ctx(StateObject *self, PyObject *ctx, void *closure) {
    (void)closure;
    forget_context(self);
    Py_CLEAR(self->ctx);
    if (ctx == NULL) return 0;
    if (ctx != last_learnt.ctx) {
        if (learn_context(self, ctx) < 0) {
            forget_context(self);
            return -1;
        }
        forget_context(&last_learnt);
        Py_XSETREF(last_learnt.ctx, Py_NewRef(ctx));
        last_learnt.core = (CoreObject *)Py_XNewRef(self->core);
        last_learnt.tracker = Py_NewRef(self->tracker);
        copy_learnt(&last_learnt, self);
    } else {
        self->core = (CoreObject *)Py_XNewRef(last_learnt.core);
        self->tracker = Py_NewRef(last_learnt.tracker);
        copy_learnt(self, &last_learnt);
    }
    self->ctx = Py_NewRef(ctx);
    return 0;
}

/* -- push ------------------------------------------------------------------------ */

/* The compact square of a square number, or -1 (not an int, off the board). */
static int square_of(CoreObject *c, PyObject *number) {
    if (!PyLong_CheckExact(number)) return -1;
    long n = PyLong_AsLong(number);
    if (n < 1 || n > MAX_SQUARES) {
        PyErr_Clear();
        return -1;
    }
    return c->sq_of_number[n];
}

enum { MEN = 0, KINGS = 2 }; /* where a list's bitboards are in seen[] */

/* The bitboard of colour i in the board's men (MEN) or kings (KINGS), or -1
 * if it is not what push made (then Python's push handles the move). */
static int state_bits(StateObject *self, int which, int i, bb_t *out) {
    PyObject *list = which == MEN ? self->men : self->kings;
    if (!PyList_CheckExact(list) || PyList_GET_SIZE(list) != 2) return -1;
    PyObject *value = PyList_GET_ITEM(list, i);
    if (value == self->seen[which + i]) {
        *out = self->seen_bits[which + i];
        return 0;
    }
    if (to_bits(self->core, value, out, "bitboard") < 0) {
        PyErr_Clear();
        return -1;
    }
    Py_XSETREF(self->seen[which + i], Py_NewRef(value));
    self->seen_bits[which + i] = *out;
    return 0;
}

/* A move as push reads it: squares and captures, all on the board. */
typedef struct {
    int from, to, ncaps;
    uint8_t caps[MAX_SQUARES];
} MoveSquares;

static int read_move(CoreObject *c, PyObject *move, MoveSquares *m) {
    m->from = m->to = -1;
    m->ncaps = 0;
    PyObject *from, *to, *caps;
    if (Py_TYPE(move) == (PyTypeObject *)c->move_type && c->move_slots[0] >= 0 &&
        c->move_slots[1] >= 0 && c->move_slots[2] >= 0) {
        /* A draughts.Move (frozen, so its slots are what getattr returns):
         * read in place. Through three getattr calls a push, read_game on
         * the International corpus ran about 4% more instructions (994k
         * against 954k a game, callgrind, with from_bits' change). */
        from = Py_XNewRef(*(PyObject **)(void *)((char *)move + c->move_slots[0]));
        to = Py_XNewRef(*(PyObject **)(void *)((char *)move + c->move_slots[1]));
        caps = from && to ? Py_XNewRef(*(PyObject **)(void *)((char *)move + c->move_slots[2]))
                          : NULL;
    } else {
        from = PyObject_GetAttr(move, str_from_square);
        to = from ? PyObject_GetAttr(move, str_to_square) : NULL;
        caps = to ? PyObject_GetAttr(move, str_captures) : NULL;
    }
    int ok = caps != NULL && PyTuple_CheckExact(caps) && PyTuple_GET_SIZE(caps) < MAX_SQUARES;
    if (ok) {
        m->from = square_of(c, from);
        m->to = square_of(c, to);
        m->ncaps = (int)PyTuple_GET_SIZE(caps);
        ok = m->from >= 0 && m->to >= 0;
        for (int i = 0; ok && i < m->ncaps; i++) {
            int sq = square_of(c, PyTuple_GET_ITEM(caps, i));
            ok = sq >= 0;
            m->caps[i] = (uint8_t)sq;
        }
    }
    Py_XDECREF(from);
    Py_XDECREF(to);
    Py_XDECREF(caps);
    PyErr_Clear();
    return ok ? 0 : -1;
}

/* The position after a move, worked out before the board changes. */
typedef struct {
    bb_t before[4]; /* white men, black men, white kings, black kings */
    bb_t own_men, own_kings, opp_men, opp_kings, captured, origin, target;
    uint64_t old_key, key;
    int is_man, crowned;
} Played;

/* 0, or -1 where Python's push must handle the move. */
/* Whether a capture's route (its path: the origin and every landing
 * square) crosses the crowning row: 1 or 0, or -1 for a move without its
 * route (Python's push takes the legal move's). */
static int crowned_on_the_way(CoreObject *core, PyObject *move, int ncaps, bb_t crowning) {
    PyObject *path = PyObject_GetAttr(move, str_path);
    int found = -1;
    if (path != NULL && PyTuple_CheckExact(path) && PyTuple_GET_SIZE(path) == ncaps + 1) {
        found = 0;
        for (int i = 0; i <= ncaps && found == 0; i++) {
            int sq = square_of(core, PyTuple_GET_ITEM(path, i));
            found = sq < 0 ? -1 : (crowning & BIT(sq)) != 0;
        }
    }
    Py_XDECREF(path);
    PyErr_Clear();
    return found;
}

static int play_move(StateObject *self, PyObject *move, const MoveSquares *m, int c, Played *p) {
    CoreObject *core = self->core;
    const Rules *r = &core->rules;
    int o = 1 - c;
    bb_t *bb = p->before;
    /* The opponent's pieces only matter to a capture or a new key: a
     * quiet move converts two ints instead of four. */
    int whole = m->ncaps || self->key == Py_None;
    for (int i = 0; i < 2; i++) {
        if (i != c && !whole) {
            bb[i] = bb[2 + i] = 0;
            continue;
        }
        if (state_bits(self, MEN, i, &bb[i]) < 0 || state_bits(self, KINGS, i, &bb[2 + i]) < 0)
            return -1;
    }
    p->own_men = bb[c], p->opp_men = bb[o], p->own_kings = bb[2 + c], p->opp_kings = bb[2 + o];
    if (self->key == Py_None) {
        p->old_key = position_key(r, c, bb);
    } else {
        if (get_key(self->key, &p->old_key) < 0) {
            PyErr_Clear();
            return -1;
        }
    }
    uint64_t key = p->old_key ^ r->key_black;
    p->captured = 0;
    for (int i = 0; i < m->ncaps; i++) {
        int sq = m->caps[i];
        p->captured |= BIT(sq);
        if (p->opp_kings & BIT(sq))
            key ^= r->key_kings[o][sq];
        else if (p->opp_men & BIT(sq))
            key ^= r->key_men[o][sq];
    }
    p->origin = BIT(m->from), p->target = BIT(m->to);
    p->crowned = 0;
    if (p->own_men & p->origin) {
        p->is_man = 1;
        p->crowned = (p->target & r->promotion[c]) != 0;
        /* A man may crown on the way and go on as a king (Russian): the
         * move's route tells. */
        if (!p->crowned && m->ncaps > 1 && self->crown_and_continue) {
            p->crowned = crowned_on_the_way(core, move, m->ncaps, r->promotion[c]);
            if (p->crowned < 0) return -1;
        }
        p->own_men &= ~p->origin; /* a capture may end where it began */
        if (p->crowned) {
            p->own_kings |= p->target;
            key ^= r->key_men[c][m->from] ^ r->key_kings[c][m->to];
        } else {
            p->own_men |= p->target;
            key ^= r->key_men[c][m->from] ^ r->key_men[c][m->to];
        }
    } else if (p->own_kings & p->origin) {
        p->is_man = 0;
        p->own_kings = (p->own_kings & ~p->origin) | p->target;
        key ^= r->key_kings[c][m->from] ^ r->key_kings[c][m->to];
    } else {
        return -1; /* no piece of the side to move there: Python raises */
    }
    p->key = key;
    return 0;
}

static void replace(PyObject **slot, PyObject *value) {
    PyObject *old = *slot;
    *slot = value;
    Py_XDECREF(old);
}

/* The int of a bitboard, or a new reference to the list's own int when it
 * did not change. */
static PyObject *bits_int(CoreObject *c, PyObject *list, int i, bb_t before, bb_t after) {
    if (before == after) return Py_NewRef(PyList_GET_ITEM(list, i));
    return from_bits(c, after);
}

/* Whether a tracked ending may hold in the board's position: the first
 * tests of Tracker.after_progress, which rule out most positions (no king
 * on the board where every ending has one, too many pieces, a weaker side
 * too big or without a king), made here so that a capture in the middle
 * game calls no Python (0.3 us a capture, 5% of a PDN replay). 1 when the
 * bitboards cannot be read: Python then decides. */
static int may_progress(StateObject *self) {
    bb_t men[2], kings[2];
    for (int i = 0; i < 2; i++)
        if (state_bits(self, MEN, i, &men[i]) < 0 || state_bits(self, KINGS, i, &kings[i]) < 0)
            return 1;
    if (!(kings[0] | kings[1]) && self->needs_king) return 0;
    long n0 = popcount(men[0] | kings[0]), n1 = popcount(men[1] | kings[1]);
    if (n0 + n1 > self->max_pieces || (n0 < n1 ? n0 : n1) > self->max_weaker) return 0;
    return (n0 <= n1 ? kings[0] : kings[1]) || !self->weaker_king;
}

/* The draw rules' counts after the move (Board._push_python's last lines). */
static int count_draw_rules(StateObject *self, const Played *p) {
    Py_ssize_t ply = PyList_GET_SIZE(self->stack);
    PyObject *starts = NULL;
    if (p->is_man || p->captured) {
        PyObject *ply_int = PyLong_FromSsize_t(ply);
        if (ply_int == NULL) return -1;
        replace(&self->quiet_from, Py_NewRef(ply_int));
        if ((p->captured || p->crowned || self->man_move_resets) && !may_progress(self)) {
            Py_DECREF(ply_int);
            starts = PyObject_GetAttr(self->tracker, str_inactive);
            if (starts == NULL) return -1;
            replace(&self->starts, starts);
        } else if (p->captured || p->crowned || self->man_move_resets) {
            long events = (p->captured ? self->events[0] : 0) | (p->is_man ? self->events[1] : 0) |
                          (p->crowned ? self->events[2] : 0);
            PyObject *events_int = PyLong_FromLong(events);
            if (events_int != NULL)
                starts = PyObject_CallMethodObjArgs(self->tracker, str_after_progress, self->starts,
                                                    ply_int, self->men, self->kings, events_int,
                                                    NULL);
            Py_XDECREF(events_int);
            Py_DECREF(ply_int);
            if (starts == NULL) return -1;
            replace(&self->starts, starts);
        } else {
            Py_DECREF(ply_int);
        }
        return 0;
    }
    if (!((p->origin | p->target) & self->long_diagonal)) return 0;
    /* A quiet king move onto or off the long diagonal: with few pieces left,
     * a rule about the lone king there may start or stop. The board's
     * lists already hold the position after the move (and a quiet move
     * read only the mover's bitboards). */
    bb_t all = 0;
    for (int i = 0; i < 2; i++) {
        bb_t men = 0, kings = 0; /* unreadable: no pieces, and update() decides */
        state_bits(self, MEN, i, &men);
        state_bits(self, KINGS, i, &kings);
        all |= men | kings;
    }
    int pieces = popcount(all);
    if (pieces <= self->positional_pieces) {
        PyObject *ply_int = PyLong_FromSsize_t(ply);
        PyObject *zero = PyLong_FromLong(0);
        if (ply_int != NULL && zero != NULL)
            starts = PyObject_CallMethodObjArgs(self->tracker, str_update, self->starts, ply_int,
                                                self->men, self->kings, zero, NULL);
        Py_XDECREF(ply_int);
        Py_XDECREF(zero);
        if (starts == NULL) return -1;
        replace(&self->starts, starts);
    }
    return 0;
}

static PyObject *python_push(StateObject *self, PyObject *move) {
    return PyObject_CallMethodOneArg((PyObject *)self, str_push_python, move);
}

static int state_complete(StateObject *self) {
    return self->men && self->kings && self->turn && self->key && self->stack &&
           PyList_CheckExact(self->stack) && self->move_stack &&
           PyList_CheckExact(self->move_stack) && self->quiet_from && self->starts &&
           self->kmoves;
}

static PyObject *state_push(StateObject *self, PyObject *move) {
    MoveSquares m;
    Played p;
    long c = self->turn && PyLong_CheckExact(self->turn) ? PyLong_AsLong(self->turn) : -1;
    if (self->core == NULL || !self->core->ready || !state_complete(self) || (c != 0 && c != 1) ||
        read_move(self->core, move, &m) < 0 || play_move(self, move, &m, (int)c, &p) < 0) {
        PyErr_Clear();
        return python_push(self, move);
    }
    int o = 1 - (int)c;
    CoreObject *core = self->core;
    /* Every new object first, so that running out of memory leaves the
     * board as it was. */
    PyObject *old_key = self->key == Py_None ? PyLong_FromUnsignedLongLong(p.old_key)
                                             : Py_NewRef(self->key);
    PyObject *record = old_key == NULL ? NULL : PyTuple_New(UNDO_SIZE);
    if (record != NULL) {
        PyTuple_SET_ITEM(record, UNDO_WHITE_MEN, Py_NewRef(PyList_GET_ITEM(self->men, 0)));
        PyTuple_SET_ITEM(record, UNDO_BLACK_MEN, Py_NewRef(PyList_GET_ITEM(self->men, 1)));
        PyTuple_SET_ITEM(record, UNDO_WHITE_KINGS, Py_NewRef(PyList_GET_ITEM(self->kings, 0)));
        PyTuple_SET_ITEM(record, UNDO_BLACK_KINGS, Py_NewRef(PyList_GET_ITEM(self->kings, 1)));
        PyTuple_SET_ITEM(record, UNDO_TURN, Py_NewRef(self->turn));
        PyTuple_SET_ITEM(record, UNDO_KEY, Py_NewRef(old_key));
        PyTuple_SET_ITEM(record, UNDO_QUIET_FROM, Py_NewRef(self->quiet_from));
        PyTuple_SET_ITEM(record, UNDO_STARTS, Py_NewRef(self->starts));
        PyTuple_SET_ITEM(record, UNDO_KMOVES, Py_NewRef(self->kmoves));
    }
    PyObject *values[5] = {
        bits_int(core, self->men, (int)c, p.before[c], p.own_men),
        bits_int(core, self->kings, (int)c, p.before[2 + c], p.own_kings),
        bits_int(core, self->men, o, p.before[o], p.opp_men & ~p.captured),
        bits_int(core, self->kings, o, p.before[2 + o], p.opp_kings & ~p.captured),
        PyLong_FromUnsignedLongLong(p.key),
    };
    PyObject *turn = PyLong_FromLong(o);
    int failed = record == NULL || turn == NULL;
    for (int i = 0; i < 5; i++) failed |= values[i] == NULL;
    if (!failed && PyList_Append(self->stack, record) < 0) failed = 1;
    if (!failed && PyList_Append(self->move_stack, move) < 0) {
        PyList_SetSlice(self->stack, PyList_GET_SIZE(self->stack) - 1,
                        PyList_GET_SIZE(self->stack), NULL);
        failed = 1;
    }
    Py_XDECREF(old_key);
    Py_XDECREF(record);
    if (failed) {
        for (int i = 0; i < 5; i++) Py_XDECREF(values[i]);
        Py_XDECREF(turn);
        return NULL;
    }
    /* The board changes from here on. */
    PyList_SetItem(self->men, c, values[0]);
    PyList_SetItem(self->kings, c, values[1]);
    /* The mover's new ints and their bits (the opponent's are read anew:
     * a quiet move did not read them). */
    Py_XSETREF(self->seen[MEN + c], Py_NewRef(values[0]));
    Py_XSETREF(self->seen[KINGS + c], Py_NewRef(values[1]));
    self->seen_bits[MEN + c] = p.own_men;
    self->seen_bits[KINGS + c] = p.own_kings;
    PyList_SetItem(self->men, o, values[2]);
    PyList_SetItem(self->kings, o, values[3]);
    replace(&self->key, values[4]);
    replace(&self->turn, turn);
    replace(&self->legal, Py_NewRef(Py_None));
    if (count_draw_rules(self, &p) < 0) return NULL;
    Py_RETURN_NONE;
}

/* -- The one move between two squares -------------------------------------------- */

/* Board._unique_move_python in C: the legal move between two square
 * numbers when it is the only one and is a capture exactly when `capture`
 * is true, else None; the board does not change. What the PDN reader's
 * line loop (draughts/pdn/_native/play_line.c) asks of every move of a
 * line, through the core's C API (core_api.h). */
static PyObject *unique_move(StateObject *self, PyObject *origin_number, PyObject *dest_number,
                             int capture) {
    CoreObject *core = self->core && self->core->ready ? self->core : NULL;
    long c = self->turn && PyLong_CheckExact(self->turn) ? PyLong_AsLong(self->turn) : -1;
    int origin = core ? square_of(core, origin_number) : -1;
    int dest = core ? square_of(core, dest_number) : -1;
    bb_t bb[4];
    int ready = core != NULL && state_complete(self) && (c == 0 || c == 1) && origin >= 0 &&
                dest >= 0;
    for (int i = 0; ready && i < 2; i++)
        ready = state_bits(self, MEN, i, &bb[i]) == 0 && state_bits(self, KINGS, i, &bb[2 + i]) == 0;
    if (!ready) { /* Python's answer, or its error for a square off the board */
        PyErr_Clear();
        PyObject *args[] = {(PyObject *)self, origin_number, dest_number,
                            capture ? Py_True : Py_False};
        return PyObject_VectorcallMethod(str_unique_move_python, args, 4 | PY_VECTORCALL_ARGUMENTS_OFFSET,
                                         NULL);
    }
    int o = 1 - (int)c;
    Side side = {bb[c], bb[2 + c], bb[o], bb[2 + o]};
    RouteList routes;
    routes_init(&routes);
    long n = gen_captures(&core->rules, (int)c, &side, 0, &routes);
    if (n < 0) {
        routes_free(&routes);
        return PyErr_NoMemory();
    }
    PyObject *found = NULL;
    if (n == 0) {
        Route step;
        if (!capture && is_step(&core->rules, (int)c, &side, origin, dest, 0, &step))
            found = Py_NewRef(core->step_moves[step.slot]);
    } else if (capture) {
        const Route *only = NULL;
        size_t matches = 0;
        for (size_t i = 0; i < routes.len; i++)
            if (routes.items[i].origin == origin && routes.items[i].dest == dest) {
                only = &routes.items[i];
                matches++;
            }
        if (matches == 1 && (found = capture_move(core, only)) == NULL) {
            routes_free(&routes);
            return NULL;
        }
    }
    routes_free(&routes);
    return found ? found : Py_NewRef(Py_None);
}

/* -- pop ------------------------------------------------------------------------- */

static PyObject *state_pop(StateObject *self, PyObject *unused) {
    (void)unused;
    if (!state_complete(self) || !PyList_CheckExact(self->men) ||
        PyList_GET_SIZE(self->men) != 2 || !PyList_CheckExact(self->kings) ||
        PyList_GET_SIZE(self->kings) != 2)
        return PyObject_CallMethodNoArgs((PyObject *)self, str_pop_python);
    Py_ssize_t n = PyList_GET_SIZE(self->move_stack);
    if (n == 0) {
        PyErr_SetString(PyExc_IndexError, "pop from empty list");
        return NULL;
    }
    Py_ssize_t depth = PyList_GET_SIZE(self->stack);
    PyObject *record = depth ? PyList_GET_ITEM(self->stack, depth - 1) : NULL;
    if (record == NULL || !PyTuple_CheckExact(record) || PyTuple_GET_SIZE(record) != UNDO_SIZE)
        return PyObject_CallMethodNoArgs((PyObject *)self, str_pop_python);
    PyObject *move = Py_NewRef(PyList_GET_ITEM(self->move_stack, n - 1));
    Py_INCREF(record);
    if (PyList_SetSlice(self->move_stack, n - 1, n, NULL) < 0 ||
        PyList_SetSlice(self->stack, depth - 1, depth, NULL) < 0) {
        Py_DECREF(move);
        Py_DECREF(record);
        return NULL;
    }
    PyList_SetItem(self->men, 0, Py_NewRef(PyTuple_GET_ITEM(record, UNDO_WHITE_MEN)));
    PyList_SetItem(self->men, 1, Py_NewRef(PyTuple_GET_ITEM(record, UNDO_BLACK_MEN)));
    PyList_SetItem(self->kings, 0, Py_NewRef(PyTuple_GET_ITEM(record, UNDO_WHITE_KINGS)));
    PyList_SetItem(self->kings, 1, Py_NewRef(PyTuple_GET_ITEM(record, UNDO_BLACK_KINGS)));
    replace(&self->turn, Py_NewRef(PyTuple_GET_ITEM(record, UNDO_TURN)));
    replace(&self->key, Py_NewRef(PyTuple_GET_ITEM(record, UNDO_KEY)));
    replace(&self->quiet_from, Py_NewRef(PyTuple_GET_ITEM(record, UNDO_QUIET_FROM)));
    replace(&self->starts, Py_NewRef(PyTuple_GET_ITEM(record, UNDO_STARTS)));
    replace(&self->kmoves, Py_NewRef(PyTuple_GET_ITEM(record, UNDO_KMOVES)));
    replace(&self->legal, Py_NewRef(Py_None));
    Py_DECREF(record);
    return move;
}

/* -- The type -------------------------------------------------------------------- */

static int state_traverse(StateObject *self, visitproc visit, void *arg) {
    Py_VISIT(self->men);
    Py_VISIT(self->kings);
    Py_VISIT(self->turn);
    Py_VISIT(self->key);
    Py_VISIT(self->stack);
    Py_VISIT(self->move_stack);
    Py_VISIT(self->quiet_from);
    Py_VISIT(self->starts);
    Py_VISIT(self->kmoves);
    Py_VISIT(self->legal);
    Py_VISIT(self->ctx);
    Py_VISIT(self->core);
    Py_VISIT(self->tracker);
    return 0;
}

static int state_clear(StateObject *self) {
    Py_CLEAR(self->men);
    Py_CLEAR(self->kings);
    Py_CLEAR(self->turn);
    Py_CLEAR(self->key);
    Py_CLEAR(self->stack);
    Py_CLEAR(self->move_stack);
    Py_CLEAR(self->quiet_from);
    Py_CLEAR(self->starts);
    Py_CLEAR(self->kmoves);
    Py_CLEAR(self->legal);
    Py_CLEAR(self->ctx);
    forget_context(self);
    return 0;
}

static void state_dealloc(StateObject *self) {
    PyObject_GC_UnTrack(self);
    state_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

#define MEMBER(name, field) {name, T_OBJECT_EX, offsetof(StateObject, field), 0, NULL}

static PyMemberDef state_members[] = {
    MEMBER("_men", men),
    MEMBER("_kings", kings),
    MEMBER("_turn", turn),
    MEMBER("_key", key),
    MEMBER("_stack", stack),
    {"move_stack", T_OBJECT_EX, offsetof(StateObject, move_stack), 0,
     "The moves played on this board, oldest first."},
    MEMBER("_quiet_from", quiet_from),
    MEMBER("_starts", starts),
    MEMBER("_kmoves", kmoves),
    MEMBER("_legal", legal),
    {NULL, 0, 0, 0, NULL},
};

static PyGetSetDef state_getset[] = {
    {"_ctx", (getter)get_ctx, (setter)set_ctx, "The board's variant context.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* The same text as the docstrings of Board._push_python and
 * Board._pop_python, which the pure backend's Board shows. */
PyDoc_STRVAR(push_doc,
             "push($self, move, /)\n--\n\n"
             "Play ``move``.\n\n"
             "The move should come from :attr:`legal_moves`, :meth:`parse_pdn` or\n"
             ":meth:`find_move`; like python-chess, ``push`` does not check that it\n"
             "is legal (use :meth:`is_legal` or :meth:`push_pdn` for that), only that\n"
             "the side to move has a piece on its origin.\n\n"
             ":raises IllegalMoveError: if the origin holds no piece of the side to move.");
PyDoc_STRVAR(pop_doc,
             "pop($self, /)\n--\n\n"
             "Take back the last move and return it.\n\n"
             ":raises IndexError: if no move was played.");

static PyMethodDef state_methods[] = {
    {"push", (PyCFunction)state_push, METH_O, push_doc},
    {"pop", (PyCFunction)state_pop, METH_NOARGS, pop_doc},
    {NULL, NULL, 0, NULL},
};

PyTypeObject StateType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "draughts._core.native._native.BoardState",
    .tp_basicsize = sizeof(StateObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "The state of a draughts.Board, with push and pop in C.",
    .tp_traverse = (traverseproc)state_traverse,
    .tp_clear = (inquiry)state_clear,
    .tp_dealloc = (destructor)state_dealloc,
    .tp_members = state_members,
    .tp_getset = state_getset,
    .tp_methods = state_methods,
    .tp_new = PyType_GenericNew,
};

/* The board state's part of the core's C API (core_api.h, filled in by
 * module.c). The caller has checked that state is a BoardState (the API's
 * state_type); everything else is checked here, as for push itself. */
PyObject *board_unique_move(PyObject *state, PyObject *origin, PyObject *destination,
                            int capture) {
    return unique_move((StateObject *)state, origin, destination, capture);
}

PyObject *board_push(PyObject *state, PyObject *move) {
    return state_push((StateObject *)state, move);
}

int board_state_init(void) {
    static const char *names[] = {"from_square",  "to_square",   "captures",
                                  "path",         "after_progress", "update",
                                  "_push_python", "_pop_python", "_unique_move_python",
                                  "inactive"};
    PyObject **slots[] = {&str_from_square, &str_to_square,      &str_captures,
                          &str_path,        &str_after_progress, &str_update,
                          &str_push_python, &str_pop_python,     &str_unique_move_python,
                          &str_inactive};
    for (int i = 0; i < 10; i++) {
        *slots[i] = PyUnicode_InternFromString(names[i]);
        if (*slots[i] == NULL) return -1;
    }
    return PyType_Ready(&StateType);
}
