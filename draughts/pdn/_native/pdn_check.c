/* A game's movetext checked in one call, building no game tree: the moves
 * matched and played on bitboards as the PDN reader matches them, for
 * draughts.pdn._fastcheck (its docstring gives the contract; the full
 * reader is the oracle, tests/pdn/test_pdn_fastcheck.py). The movetext is
 * read by pdn_movetext.c, once for every variant replayed here.
 *
 * The text read is a narrow subset of PDN: move numbers ("12.",
 * "12..."), moves of two squares written with "-", "x", "X" or ":",
 * captures written in full ("26x17x10", "c3:e5:g7"), squares written as
 * numbers or as algebraic names ("c3-d4"), comments in braces, NAGs ("$3"), and a result
 * ending the text. Anything else, and any move the reader would read in a
 * way of its own (an ambiguous move the next moves settle, the first part
 * of a capture split in two, a route given in part), answers UNKNOWN: the
 * caller reads the game with the full reader. A move is taken as the
 * reader's plain-line loop takes it (board_state.c, unique_move): the only
 * legal move between its squares; a capture written in full is the legal
 * capture with exactly that route. A move naming a square the board does
 * not have is a sure error (the reader's "no square"). A move of two
 * squares is a sure error when no legal move joins them and no capture from the first lands on the
 * second on its way (the reader would wait for the rest of a split
 * capture); a route written in full, only when no legal move at all starts
 * on its first square. */
#include "pdn_movetext.h"
#include "pdn_trace.h"

typedef struct {
    CoreObject *core;
    bb_t bb[4];
    int color;
    const char *names; /* the setup's square of each code (SQUARE_CODES int16), borrowed */
    int dash_captures;
    int warned; /* a move written with the wrong separator: the reader warns */
    uint64_t key; /* the position's Zobrist key, kept where a line is recorded */
    RouteList routes; /* the captures of the position, kept between plies for its memory */
} Game;

/* The compact square a written square's code (see SQUARE_CODES) names,
 * -1 for none. */
static int square_of(const Game *g, int code) {
    int16_t n;
    memcpy(&n, g->names + code * (Py_ssize_t)sizeof n, sizeof n);
    return n >= 1 && n <= MAX_SQUARES && n <= g->core->rules.n ? g->core->sq_of_number[n] : -1;
}

/* Whether a legal move starts on square (captures first: they are
 * mandatory). */
static int moves_from(Game *g, const RouteList *captures, int square) {
    if (captures->len) {
        for (size_t k = 0; k < captures->len; k++)
            if (captures->items[k].origin == square) return 1;
        return 0;
    }
    int o = 1 - g->color;
    Side side = {g->bb[g->color], g->bb[2 + g->color], g->bb[o], g->bb[2 + o]};
    RouteList steps = {0};
    long n = core_api->gen_steps(&g->core->rules, g->color, &side, 0, &steps);
    int found = n < 0 ? -1 : 0;
    for (size_t k = 0; n > 0 && k < steps.len && !found; k++) found = steps.items[k].origin == square;
    core_api->routes_free(&steps);
    return found;
}

/* Play the move written as `written` (count squares): C_OK, C_ERROR (no
 * legal move starts on its square), C_UNKNOWN, or -1 out of memory. The
 * move played is copied to *played where that is not NULL. */
static int play_written(Game *g, const int *written, int count, int capture, Played *played) {
    int sq[MAX_WRITTEN];
    /* A square the board does not have ("c3" where the dark squares are
     * b1, d1...: Italian) is the reader's error: it names no move, nor the
     * start of a capture split in two (resolver.begins_capture). */
    for (int k = 0; k < count; k++)
        if ((sq[k] = square_of(g, written[k])) < 0) return C_ERROR;
    const Rules *rules = &g->core->rules;
    int c = g->color, o = 1 - c;
    Side side = {g->bb[c], g->bb[2 + c], g->bb[o], g->bb[2 + o]};
    RouteList *captures = &g->routes;
    captures->len = 0;
    captures->failed = 0;
    long n = core_api->gen_captures(rules, c, &side, 0, captures);
    if (n < 0) return -1;
    const Route *chosen = NULL;
    Route step;
    size_t matches = 0;
    int origin = sq[0], dest = sq[count - 1];
    for (size_t k = 0; k < captures->len; k++) {
        const Route *route = &captures->items[k];
        if (route->origin != origin || route->dest != dest) continue;
        if (count > 2) { /* a route written in full: that route exactly */
            if (route->ncaps + 1 != count) continue;
            int same = 1;
            for (int s = 1; s < count - 1 && same; s++) same = route->path[s] == sq[s];
            if (!same) continue;
        }
        chosen = route;
        matches++;
    }
    if (n == 0 && count == 2 && core_api->is_step(rules, c, &side, origin, dest, 0, &step)) {
        chosen = &step;
        matches = 1;
    }
    int state = C_UNKNOWN;
    if (matches == 1) {
        int is_capture = chosen->ncaps > 0;
        if (is_capture ? !capture && !g->dash_captures : capture) g->warned = 1;
        if (played != NULL) {
            played->route = *chosen;
            played->alike = 0;
            for (size_t k = 0; k < captures->len; k++)
                played->alike += captures->items[k].origin == origin && captures->items[k].dest == dest;
        }
        core_api->play(rules, chosen, c, g->bb, &g->key);
        g->color = o;
        state = C_OK;
    } else if (matches == 0 && count == 2) {
        /* The reader's error, unless the move is the first part of a
         * capture split in two (a capture from its square lands on its
         * second square on the way): C_SPLIT, the next move tells. */
        state = C_ERROR;
        for (size_t k = 0; k < captures->len && state == C_ERROR; k++) {
            const Route *route = &captures->items[k];
            for (int s = 1; route->origin == origin && s < route->ncaps; s++)
                if (route->path[s] == dest) state = C_SPLIT;
        }
    } else if (matches == 0) { /* a route given in full that no capture takes */
        int ends_there = 0, passes = 0;
        for (size_t k = 0; k < captures->len; k++) {
            const Route *route = &captures->items[k];
            if (route->origin != origin) continue;
            ends_there |= route->dest == dest;
            for (int s = 1; s < route->ncaps; s++) passes |= route->path[s] == dest;
        }
        /* A capture that ends there may be the route given in part (the
         * reader's); one that passes there, a capture split in two. */
        if (!ends_there && passes) return C_SPLIT;
        int any = moves_from(g, captures, origin);
        state = any < 0 ? -1 : any ? C_UNKNOWN : C_ERROR;
    }
    return state;
}

/* Play the moves read: the state (C_*), the plies played, where the result
 * starts and ends (-1 if none, or if the replay stopped before it); -1 out
 * of memory. Each move played is recorded in `trace` where that is not
 * NULL. */
static int replay(Game *g, const Reader *r, const Movetext *m, Py_ssize_t limit, Py_ssize_t *plies,
                  Py_ssize_t result[2], Trace *trace) {
    result[0] = result[1] = -1;
    Played played;
    for (Py_ssize_t k = 0; k < m->len; k++) {
        const Written *move = &m->moves[k];
        const int *written = m->numbers + move->first;
        int state = play_written(g, written, move->count, move->capture, trace ? &played : NULL);
        if (state == C_SPLIT) return split_rest(r, move->end, written[move->count - 1]);
        if (state != C_OK) return state;
        if (trace != NULL && trace_add(trace, &played, g->key) < 0) return -1;
        if (++*plies == limit) return C_OK;
    }
    if (m->state == C_OK) result[0] = m->result[0], result[1] = m->result[1];
    return m->state;
}

/* A Game at the start a setup tuple gives: (tables, men, kings, turn,
 * numbers, dash_captures), as check_each() describes them. 0, 1 for tables
 * not ready (the replay's answer is then C_UNKNOWN), -1 with an exception. */
static int game_of_setup(Game *g, PyObject *setup) {
    static const char usage[] =
        "check_each: a setup is (tables, men, kings, turn, numbers, dash_captures)";
    memset(g, 0, sizeof *g);
    PyObject *const *item = PyTuple_Check(setup) && PyTuple_GET_SIZE(setup) == 6
                                ? &PyTuple_GET_ITEM(setup, 0)
                                : NULL;
    if (item == NULL || !PyObject_TypeCheck(item[0], core_api->core_type) ||
        !PyList_Check(item[1]) || PyList_GET_SIZE(item[1]) != 2 || !PyList_Check(item[2]) ||
        PyList_GET_SIZE(item[2]) != 2 || !PyBytes_Check(item[4]) ||
        PyBytes_GET_SIZE(item[4]) != SQUARE_CODES * (Py_ssize_t)sizeof(int16_t)) {
        PyErr_SetString(PyExc_TypeError, usage);
        return -1;
    }
    g->core = (CoreObject *)item[0];
    if (!g->core->ready) return 1;
    for (int k = 0; k < 2; k++)
        if (core_api->to_bits(g->core, PyList_GET_ITEM(item[1], k), &g->bb[k], "men") < 0 ||
            core_api->to_bits(g->core, PyList_GET_ITEM(item[2], k), &g->bb[2 + k], "kings") < 0)
            return -1;
    long turn = PyLong_AsLong(item[3]);
    if (turn == -1 && PyErr_Occurred()) return -1;
    if (turn != 0 && turn != 1) {
        PyErr_SetString(PyExc_ValueError, "check_each: turn must be 0 or 1");
        return -1;
    }
    g->color = (int)turn;
    g->names = PyBytes_AS_STRING(item[4]);
    g->dash_captures = PyObject_IsTrue(item[5]);
    return g->dash_captures < 0 ? -1 : 0;
}

/* What a replay answers: check_each's 5-tuple (FINAL_NONE), or
 * play_final's 9-tuple with the position it ends in, for a replay that
 * played every move (FINAL_OK: the others answer the 5-tuple) or for any
 * (FINAL_ALL). */
enum { FINAL_NONE = 0, FINAL_OK = 1, FINAL_ALL = 2 };

/* A replay's answer with the position it ends in and its line (where
 * trace is not NULL), as play_final gives it; NULL with an exception. */
static PyObject *final_answer(const Game *g, int state, Py_ssize_t plies,
                              const Py_ssize_t result[2], const Trace *trace, PyObject *names,
                              PyObject *separator) {
    PyObject *bits[4] = {NULL, NULL, NULL, NULL};
    for (int k = 0; k < 4; k++)
        if ((bits[k] = core_api->from_bits(g->core, g->bb[k])) == NULL) goto fail;
    PyObject *line = trace != NULL ? trace_line(trace, g->core, names, separator)
                                   : Py_NewRef(Py_None);
    if (line == NULL) goto fail;
    return Py_BuildValue("(innnn[NN][NN]iN)", state, plies, (Py_ssize_t)g->warned, result[0],
                         result[1], bits[0], bits[1], bits[2], bits[3], g->color, line);
fail:
    for (int k = 0; k < 4; k++) Py_XDECREF(bits[k]);
    return NULL;
}

/* One replay's answer (see FINAL_*), the line recorded and written with
 * `names` and `separator` where names is a tuple; NULL with an exception. */
static PyObject *replay_answer(Game *g, const Reader *r, const Movetext *m, Py_ssize_t limit,
                               int final, PyObject *names, PyObject *separator) {
    Py_ssize_t plies = 0, result[2] = {-1, -1};
    Trace trace = {0}, *recording = final != FINAL_NONE && PyTuple_Check(names) ? &trace : NULL;
    int state = 0;
    if (recording != NULL) {
        g->key = core_api->position_key(&g->core->rules, g->color, g->bb);
        state = trace_room(&trace);
        if (state == 0) trace.keys[0] = g->key;
    }
    g->routes = (RouteList){0};
    if (state == 0) state = replay(g, r, m, limit, &plies, result, recording);
    core_api->routes_free(&g->routes);
    PyObject *answer =
        state < 0 ? PyErr_NoMemory()
        : final == FINAL_ALL || (final == FINAL_OK && state == C_OK)
            ? final_answer(g, state, plies, result, recording, names, separator)
            : Py_BuildValue("(innnn)", state, plies, (Py_ssize_t)g->warned, result[0], result[1]);
    trace_free(&trace);
    return answer;
}

/* The answer for tables the native core does not hold: not known here. */
static PyObject *unknown_answer(int final) {
    if (final == FINAL_ALL)
        return Py_BuildValue("(innnnOOiO)", C_UNKNOWN, (Py_ssize_t)0, (Py_ssize_t)0,
                             (Py_ssize_t)-1, (Py_ssize_t)-1, Py_None, Py_None, 0, Py_None);
    return Py_BuildValue("(innnn)", C_UNKNOWN, (Py_ssize_t)0, (Py_ssize_t)0, (Py_ssize_t)-1,
                         (Py_ssize_t)-1);
}

/* The replays of the moves read from each of `setups` (a tuple of setup
 * tuples, see check_each): a tuple of their answers (see FINAL_*), or NULL
 * with an exception. writings: NULL, or a tuple of (names, separator) for
 * each setup (see play_final), for the lines of FINAL_OK. */
static PyObject *replay_each(PyObject *setups, const Reader *r, const Movetext *m,
                             Py_ssize_t limit, int final, PyObject *writings) {
    Py_ssize_t count = PyTuple_GET_SIZE(setups);
    if (writings != NULL && (!PyTuple_Check(writings) || PyTuple_GET_SIZE(writings) != count)) {
        PyErr_SetString(PyExc_TypeError, "infer_each: a (names, separator) pair for each setup");
        return NULL;
    }
    PyObject *answers = PyTuple_New(count);
    if (answers == NULL) return NULL;
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *names = Py_None, *separator = Py_None;
        if (writings != NULL) {
            PyObject *pair = PyTuple_GET_ITEM(writings, k);
            if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2 ||
                !PyTuple_Check(PyTuple_GET_ITEM(pair, 0)) ||
                !PyUnicode_Check(PyTuple_GET_ITEM(pair, 1))) {
                PyErr_SetString(PyExc_TypeError, "infer_each: a writing is (names, separator)");
                Py_DECREF(answers);
                return NULL;
            }
            names = PyTuple_GET_ITEM(pair, 0), separator = PyTuple_GET_ITEM(pair, 1);
        }
        Game g;
        int ready = game_of_setup(&g, PyTuple_GET_ITEM(setups, k));
        PyObject *answer = ready < 0 ? NULL
                           : ready   ? unknown_answer(final)
                                     : replay_answer(&g, r, m, limit > 0 ? limit : -1, final,
                                                     names, separator);
        if (answer == NULL) {
            Py_DECREF(answers);
            return NULL;
        }
        PyTuple_SET_ITEM(answers, k, answer);
    }
    return answers;
}

/* check_each(setups, text, start, limit) -> ((state, plies, warned,
 *     result_start, result_end), ...), one for each setup
 *
 * The movetext text[start:] played from each setup's start:
 * (tables, men, kings, turn, numbers, dash_captures). tables: the
 * variant's native tables (its board's _ctx.core); men, kings: the board's
 * two lists of two bitboard ints; turn: 0 or 1; numbers: SQUARE_CODES
 * (2,700) native int16 (array('h').tobytes()), the square each written
 * square's code names (see pdn_movetext.h: a number as itself, an
 * algebraic name after the numbers) or 0 for none. limit: the plies to play at most (0: all). state: 0 every move
 * played, 1 a sure move error after `plies` plies, 2 not known here (None
 * in Python). The text is read once for all the setups. */
PyObject *py_check_each(PyObject *unused, PyObject *const *args, Py_ssize_t nargs) {
    (void)unused;
    static const char usage[] = "check_each(setups, text, start, limit)";
    Reader r;
    Py_ssize_t start;
    if (nargs != 4 || !PyTuple_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, usage);
        return NULL;
    }
    Py_ssize_t limit = PyLong_AsSsize_t(args[3]);
    if (limit == -1 && PyErr_Occurred()) return NULL;
    if (open_reader(args[1], args[2], &r, &start, usage) < 0) return NULL;
    Movetext m;
    memset(&m, 0, sizeof m);
    PyObject *answers = read_movetext(&r, start, &m) < 0 ? PyErr_NoMemory()
                                                          : replay_each(args[0], &r, &m, limit,
                                                                        FINAL_NONE, NULL);
    movetext_free(&m);
    reader_free(&r);
    return answers;
}

/* play_final(setup, text, start, names, separator) -> (state, plies,
 *     warned, result_start, result_end, men, kings, turn, line)
 *
 * check_each's answer for one setup, with the position the replay stopped
 * in: the two lists of men's and kings' bitboard ints (the board's _men
 * and _kings) and the side to move (for a game's record: its final
 * position). line is None where names is None; else (moves, keys), the main
 * line as draughts.pdn.record.MainLine keeps it: each move played as
 * line_move_text writes it (names: a tuple of each square number's name,
 * index 0 unused; separator: a capture's), and the position key at the
 * start and after each move. */
PyObject *py_play_final(PyObject *unused, PyObject *const *args, Py_ssize_t nargs) {
    (void)unused;
    static const char usage[] = "play_final(setup, text, start, names, separator)";
    Reader r;
    Py_ssize_t start;
    if (nargs != 5 || (args[3] != Py_None && !PyTuple_Check(args[3])) ||
        !PyUnicode_Check(args[4])) {
        PyErr_SetString(PyExc_TypeError, usage);
        return NULL;
    }
    if (open_reader(args[1], args[2], &r, &start, usage) < 0) return NULL;
    Game g;
    int ready = game_of_setup(&g, args[0]);
    if (ready) {
        reader_free(&r);
        return ready < 0 ? NULL : unknown_answer(FINAL_ALL);
    }
    Movetext m;
    memset(&m, 0, sizeof m);
    PyObject *answer = read_movetext(&r, start, &m) < 0
                           ? PyErr_NoMemory()
                           : replay_answer(&g, &r, &m, -1, FINAL_ALL, args[3], args[4]);
    movetext_free(&m);
    reader_free(&r);
    return answer;
}

/* infer_each(text, start, starters, final) -> (numbers, files, ranks,
 *     moves, first_start, first_end, entry, answers) or None
 *
 * Inference's reading of the movetext text[start:] in one call: what it
 * shows before a variant is chosen (draughts.pdn.infer.Evidence: the
 * highest square number its moves write, how many files their algebraic
 * squares span and their highest rank, how many moves it has, where its
 * first move is written), and the replays of the candidates it may be (as
 * check_each answers, in full).
 * starters: a dict from (first move as written, numbers, files, ranks) to a
 * tuple whose first item is the tuple of the candidates' setups; entry is
 * the movetext's (None where it has none: the caller chooses the
 * candidates and calls check_each), answers the replays of its setups
 * (None without them). None for a movetext with no move, or with text
 * this loop does not read (the reader reads it).
 * final: 0; or 1 for a replay that plays every move to answer as
 * play_final does, with the position it ends in (for a game's record,
 * without replaying the variant chosen), its line None; or 2 for its line
 * too, written as the entry's third item says: for each setup, the
 * (names, separator) play_final takes. */
PyObject *py_infer_each(PyObject *unused, PyObject *const *args, Py_ssize_t nargs) {
    (void)unused;
    static const char usage[] = "infer_each(text, start, starters, final)";
    Reader r;
    Py_ssize_t start;
    if (nargs != 4 || !PyDict_Check(args[2])) {
        PyErr_SetString(PyExc_TypeError, usage);
        return NULL;
    }
    long final = PyLong_AsLong(args[3]);
    if (final == -1 && PyErr_Occurred()) return NULL;
    if (final < 0 || final > 2) {
        PyErr_SetString(PyExc_ValueError, "infer_each: final must be 0, 1 or 2");
        return NULL;
    }
    if (open_reader(args[0], args[1], &r, &start, usage) < 0) return NULL;
    Movetext m;
    memset(&m, 0, sizeof m);
    PyObject *found = NULL, *answer = NULL;
    if (read_movetext(&r, start, &m) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    if (m.state != C_OK || m.len == 0) {
        answer = Py_NewRef(Py_None);
        goto done;
    }
    Py_ssize_t first_end = m.moves[0].end;
    PyObject *key = Py_BuildValue("(Niii)", PyUnicode_Substring(args[0], m.first, first_end),
                                  m.highest, m.files, m.ranks);
    if (key == NULL) goto done;
    PyObject *entry = PyDict_GetItemWithError(args[2], key); /* borrowed */
    Py_DECREF(key);
    if (entry == NULL && PyErr_Occurred()) goto done;
    if (entry != NULL && PyTuple_Check(entry) && PyTuple_GET_SIZE(entry) > 0 &&
        PyTuple_Check(PyTuple_GET_ITEM(entry, 0))) {
        PyObject *writings = final == 2 ? PyTuple_GetItem(entry, 2) : NULL; /* borrowed */
        if (final == 2 && writings == NULL) goto done; /* IndexError: no third item */
        found = replay_each(PyTuple_GET_ITEM(entry, 0), &r, &m, 0,
                            final ? FINAL_OK : FINAL_NONE, writings);
        if (found == NULL) goto done;
    } else {
        found = Py_NewRef(Py_None);
    }
    answer = Py_BuildValue("(iiinnnOO)", m.highest, m.files, m.ranks, m.len, m.first, first_end,
                           entry != NULL ? entry : Py_None, found);
done:
    Py_XDECREF(found);
    movetext_free(&m);
    reader_free(&r);
    return answer;
}
