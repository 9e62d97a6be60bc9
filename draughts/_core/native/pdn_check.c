/* A game's movetext checked in one call, building no game tree: the moves
 * matched and played on bitboards as the PDN reader matches them, for
 * draughts.pdn._fastcheck (its docstring gives the contract; the full
 * reader is the oracle, tests/pdn/test_pdn_fastcheck.py).
 *
 * The text read here is a narrow subset of PDN: move numbers ("12.",
 * "12..."), moves of two squares written with "-" or "x", captures written
 * in full ("26x17x10"), comments in braces, NAGs ("$3"), and a result
 * ending the text. Anything else, and any move the reader would read in a
 * way of its own (an ambiguous move the next moves settle, the first part
 * of a capture split in two, a route given in part), answers UNKNOWN: the
 * caller reads the game with the full reader. A move is taken as the
 * reader's plain-line loop takes it (board_state.c, unique_move): the only
 * legal move between its squares; a capture written in full is the legal
 * capture with exactly that route. A move of two squares is a sure error
 * when no legal move joins them and no capture from the first lands on the
 * second on its way (the reader would wait for the rest of a split
 * capture); a route written in full, only when no legal move at all starts
 * on its first square. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "convert.h"

extern PyTypeObject CoreType;

enum { C_OK = 0, C_ERROR = 1, C_UNKNOWN = 2, C_SPLIT = 3, C_MOVE = 4 /* within this file only */ };

typedef struct {
    int kind;
    const void *data;
    Py_ssize_t len, pos;
} Reader;

static Py_UCS4 ch(const Reader *r, Py_ssize_t i) {
    return i < r->len ? PyUnicode_READ(r->kind, r->data, i) : 0;
}
static int is_dig(Py_UCS4 c) { return c >= '0' && c <= '9'; }
static int space_or_end(const Reader *r, Py_ssize_t i) {
    return i >= r->len || Py_UNICODE_ISSPACE(ch(r, i));
}

/* A result at i followed by a space or the end: its length, else 0. */
static Py_ssize_t result_at(const Reader *r, Py_ssize_t i) {
    static const char *const results[] = {"1/2-1/2", "1-0", "0-1", "2-0", "0-2", "1-1", "0-0", "*"};
    for (size_t k = 0; k < sizeof results / sizeof *results; k++) {
        const char *s = results[k];
        Py_ssize_t j = i;
        while (*s && ch(r, j) == (Py_UCS4)(unsigned char)*s) s++, j++;
        if (!*s && space_or_end(r, j)) return j - i;
    }
    return 0;
}

/* A written square number at *i ([1-9][0-9]?): its number, *i past it;
 * 0 if none. */
static int number_at(const Reader *r, Py_ssize_t *i) {
    Py_UCS4 c = ch(r, *i);
    if (c < '1' || c > '9') return 0;
    int n = (int)(c - '0');
    (*i)++;
    if (is_dig(ch(r, *i))) n = 10 * n + (int)(ch(r, (*i)++) - '0');
    return n;
}

/* A NAG at *i ("$" and digits): *i past it; -1 for one of more digits
 * than the reader reads as a number (it reports an error). */
static int nag_end(const Reader *r, Py_ssize_t *i) {
    Py_ssize_t start = ++*i;
    while (is_dig(ch(r, *i))) ++*i;
    return *i - start > 9 ? -1 : 0;
}

#define MAX_WRITTEN 32

/* [ \t]* at i: the position after it. */
static Py_ssize_t blanks(const Reader *r, Py_ssize_t i) {
    while (ch(r, i) == ' ' || ch(r, i) == '\t') i++;
    return i;
}

/* A move at *i: its written numbers (2 or more), whether written with
 * "x", *i past it. Blanks may stand around a separator ("4- 9"), as the
 * reader's plain lines allow. 0 if the text there is not such a move
 * followed by a space or the end; -1 for a "-" route of more than two
 * squares. */
static int move_at(const Reader *r, Py_ssize_t *i, int written[MAX_WRITTEN], int *capture) {
    Py_ssize_t j = *i;
    int count = 0;
    if ((written[count++] = number_at(r, &j)) == 0) return 0;
    Py_ssize_t k = blanks(r, j);
    Py_UCS4 sep = ch(r, k);
    if (sep != '-' && sep != 'x') return 0;
    while (ch(r, k) == sep) {
        j = blanks(r, k + 1);
        if (count == MAX_WRITTEN || (written[count++] = number_at(r, &j)) == 0) return 0;
        k = blanks(r, j);
    }
    if (!space_or_end(r, j)) return 0;
    *capture = sep == 'x';
    *i = j;
    return sep == '-' && count > 2 ? -1 : count;
}

typedef struct {
    CoreObject *core;
    bb_t bb[4];
    int color;
    int16_t square[100]; /* written number -> compact square, -1 for none */
    int dash_captures;
    int warned; /* a move written with the wrong separator: the reader warns */
    RouteList routes; /* the captures of the position, kept between plies for its memory */
} Game;

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
    RouteList steps;
    routes_init(&steps);
    long n = gen_steps(&g->core->rules, g->color, &side, 0, &steps);
    int found = n < 0 ? -1 : 0;
    for (size_t k = 0; n > 0 && k < steps.len && !found; k++) found = steps.items[k].origin == square;
    routes_free(&steps);
    return found;
}

/* Play the move written as `written` (count squares): C_OK, C_ERROR (no
 * legal move starts on its square), C_UNKNOWN, or -1 out of memory. */
static int play_written(Game *g, const int *written, int count, int capture) {
    int sq[MAX_WRITTEN];
    for (int k = 0; k < count; k++)
        if ((sq[k] = g->square[written[k]]) < 0) return C_UNKNOWN;
    const Rules *rules = &g->core->rules;
    int c = g->color, o = 1 - c;
    Side side = {g->bb[c], g->bb[2 + c], g->bb[o], g->bb[2 + o]};
    RouteList *captures = &g->routes;
    captures->len = 0;
    captures->failed = 0;
    long n = gen_captures(rules, c, &side, 0, captures);
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
    if (n == 0 && count == 2 && is_step(rules, c, &side, origin, dest, 0, &step)) {
        chosen = &step;
        matches = 1;
    }
    int state = C_UNKNOWN;
    if (matches == 1) {
        int is_capture = chosen->ncaps > 0;
        if (is_capture ? !capture && !g->dash_captures : capture) g->warned = 1;
        uint64_t key = 0;
        play(rules, chosen, c, g->bb, &key);
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

/* The first part of a capture split in two ends at written number `dest`,
 * the text read up to i: the reader joins it to the next move when that
 * move, past blanks and move numbers only, starts on `dest` (C_UNKNOWN: the
 * joined capture is the reader's to read); the end, a result, a comment, a
 * NAG or a move starting elsewhere leave the first part an illegal move
 * (C_ERROR); what this loop does not read is the reader's (C_UNKNOWN). */
static int split_rest(const Reader *r, Py_ssize_t i, int dest) {
    for (;;) {
        while (i < r->len && Py_UNICODE_ISSPACE(ch(r, i))) i++;
        Py_ssize_t j = i;
        while (is_dig(ch(r, j))) j++;
        if (j == i || ch(r, j) != '.') break;
        i = j + 1;
        if (ch(r, i) == '.' && ch(r, i + 1) == '.') i += 2;
    }
    if (i >= r->len || result_at(r, i) || ch(r, i) == '{' || (ch(r, i) == '$' && is_dig(ch(r, i + 1))))
        return C_ERROR; /* the reader's unsettled split: an error */
    int written[MAX_WRITTEN], capture;
    Py_ssize_t j = i;
    int count = move_at(r, &j, written, &capture);
    return count > 0 && written[0] != dest ? C_ERROR : C_UNKNOWN;
}

/* Past the blanks, comments, NAGs and move numbers from *at: C_MOVE with
 * *at where a move must be; C_OK at the end of the text, or at a result
 * with only blanks after it (where it is written in result[]); C_UNKNOWN
 * for anything else, and for a NAG the reader reports (nag_ok 0: before
 * any move; or of too many digits). */
static int next_move(const Reader *r, Py_ssize_t *at, int nag_ok, Py_ssize_t result[2]) {
    for (Py_ssize_t i = *at;;) {
        while (i < r->len && Py_UNICODE_ISSPACE(ch(r, i))) i++;
        if (i >= r->len) return C_OK;
        Py_UCS4 c = ch(r, i);
        Py_ssize_t len = (c >= '0' && c <= '2') || c == '*' ? result_at(r, i) : 0;
        if (len) { /* the end: only spaces may follow */
            result[0] = i, result[1] = i + len;
            for (i += len; i < r->len; i++)
                if (!Py_UNICODE_ISSPACE(ch(r, i))) return C_UNKNOWN;
            return C_OK;
        }
        if (c == '{') {
            while (i < r->len && ch(r, i) != '}') i++;
            if (i >= r->len) return C_UNKNOWN; /* not closed */
            i++;
            continue;
        }
        if (c == '$' && is_dig(ch(r, i + 1))) {
            if (!nag_ok || nag_end(r, &i) < 0) return C_UNKNOWN;
            continue;
        }
        if (!is_dig(c)) return C_UNKNOWN;
        Py_ssize_t j = i;
        while (is_dig(ch(r, j))) j++;
        if (ch(r, j) == '.') { /* a move number: [0-9]+\.(\.\.)? */
            i = j + 1;
            if (ch(r, i) == '.' && ch(r, i + 1) == '.') i += 2;
            continue;
        }
        *at = i;
        return C_MOVE;
    }
}

/* Read the movetext from the start, playing its moves: the state (C_*),
 * the plies played, where the result starts and ends (-1 if none), or -1
 * out of memory. */
static int check(Game *g, Reader *r, Py_ssize_t limit, Py_ssize_t *plies, Py_ssize_t result[2]) {
    int written[MAX_WRITTEN], capture;
    result[0] = result[1] = -1;
    for (Py_ssize_t i = 0;;) {
        /* The reader reports a NAG before any move. */
        int next = next_move(r, &i, *plies > 0, result);
        if (next != C_MOVE) return next;
        int count = move_at(r, &i, written, &capture);
        if (count <= 0) return C_UNKNOWN;
        int state = play_written(g, written, count, capture);
        if (state == C_SPLIT) return split_rest(r, i, written[count - 1]);
        if (state != C_OK) return state;
        if (++*plies == limit) return C_OK;
    }
}

/* What the movetext shows before any variant is chosen (the evidence of
 * draughts.pdn.infer.Evidence): the highest square number its moves write,
 * how many moves it has, where its first move is written. C_UNKNOWN for a
 * text outside the subset check() reads, which the reader then reads. */
static int scan_evidence(Reader *r, int *numbers, Py_ssize_t *moves, Py_ssize_t first[2]) {
    int written[MAX_WRITTEN], capture;
    Py_ssize_t result[2];
    first[0] = first[1] = -1;
    for (Py_ssize_t i = 0;;) {
        int next = next_move(r, &i, 1, result);
        if (next != C_MOVE) return next;
        Py_ssize_t at = i;
        int count = move_at(r, &i, written, &capture);
        if (count <= 0) return C_UNKNOWN;
        for (int k = 0; k < count; k++)
            if (written[k] > *numbers) *numbers = written[k];
        if (first[0] < 0) first[0] = at, first[1] = i;
        ++*moves;
    }
}

/* movetext_evidence(text) -> (state, numbers, moves, first_start, first_end)
 *
 * state: 0 the text is one the fast check reads, 2 not (the reader must
 * read it; the other fields are then 0 and -1). numbers: the highest
 * square number written in a move; moves: the moves written; first_start,
 * first_end: where the first move is written (-1 without one). */
PyObject *py_movetext_evidence(PyObject *unused, PyObject *const *args, Py_ssize_t nargs) {
    (void)unused;
    if (nargs != 1 || !PyUnicode_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "movetext_evidence(text)");
        return NULL;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(args[0]) < 0) return NULL;
#endif
    Reader r = {PyUnicode_KIND(args[0]), PyUnicode_DATA(args[0]), PyUnicode_GET_LENGTH(args[0]), 0};
    int numbers = 0;
    Py_ssize_t moves = 0, first[2];
    int state = scan_evidence(&r, &numbers, &moves, first);
    if (state != C_OK) numbers = 0, moves = 0, first[0] = first[1] = -1;
    return Py_BuildValue("(iinnn)", state, numbers, moves, first[0], first[1]);
}

/* check_moves(tables, text, men, kings, turn, numbers, dash_captures, limit)
 *     -> (state, plies, warned, result_start, result_end)
 *
 * tables: the variant's native tables (its board's _ctx.core); men, kings:
 * the board's two lists of two bitboard ints; turn: 0 or 1; numbers: 100
 * native int16 (array('h').tobytes()), the square each written number
 * names or 0 for none;
 * limit: the plies to play at most (0: all). state: 0 every move played,
 * 1 a sure move error after `plies` plies, 2 not known here (None in
 * Python). */
PyObject *py_check_moves(PyObject *unused, PyObject *const *args, Py_ssize_t nargs) {
    (void)unused;
    if (nargs != 8 || !PyObject_TypeCheck(args[0], &CoreType) || !PyUnicode_Check(args[1]) ||
        !PyList_Check(args[2]) || PyList_GET_SIZE(args[2]) != 2 || !PyList_Check(args[3]) ||
        PyList_GET_SIZE(args[3]) != 2 || !PyBytes_Check(args[5]) ||
        PyBytes_GET_SIZE(args[5]) != 100 * (Py_ssize_t)sizeof(int16_t)) {
        PyErr_SetString(PyExc_TypeError,
                        "check_moves(tables, text, men, kings, turn, numbers, dash_captures, limit)");
        return NULL;
    }
    Game g;
    memset(&g, 0, sizeof g);
    g.core = (CoreObject *)args[0];
    if (!g.core->ready) return Py_BuildValue("(innnn)", C_UNKNOWN, (Py_ssize_t)0, (Py_ssize_t)0, (Py_ssize_t)-1, (Py_ssize_t)-1);
    for (int k = 0; k < 2; k++)
        if (to_bits(g.core, PyList_GET_ITEM(args[2], k), &g.bb[k], "men") < 0 ||
            to_bits(g.core, PyList_GET_ITEM(args[3], k), &g.bb[2 + k], "kings") < 0)
            return NULL;
    long turn = PyLong_AsLong(args[4]);
    if (turn == -1 && PyErr_Occurred()) return NULL;
    if (turn != 0 && turn != 1) {
        PyErr_SetString(PyExc_ValueError, "check_moves: turn must be 0 or 1");
        return NULL;
    }
    g.color = (int)turn;
    const char *numbers = PyBytes_AS_STRING(args[5]);
    for (int k = 0; k < 100; k++) {
        int16_t n;
        memcpy(&n, numbers + k * (Py_ssize_t)sizeof n, sizeof n);
        g.square[k] = n >= 1 && n <= MAX_SQUARES && n <= g.core->rules.n ? g.core->sq_of_number[n] : -1;
    }
    g.dash_captures = PyObject_IsTrue(args[6]);
    Py_ssize_t limit = PyLong_AsSsize_t(args[7]);
    if (g.dash_captures < 0 || (limit == -1 && PyErr_Occurred())) return NULL;
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(args[1]) < 0) return NULL;
#endif
    Reader r = {PyUnicode_KIND(args[1]), PyUnicode_DATA(args[1]), PyUnicode_GET_LENGTH(args[1]), 0};
    Py_ssize_t plies = 0, result[2];
    routes_init(&g.routes);
    int state = check(&g, &r, limit > 0 ? limit : -1, &plies, result);
    routes_free(&g.routes);
    if (state < 0) return PyErr_NoMemory();
    return Py_BuildValue("(innnn)", state, plies, (Py_ssize_t)g.warned, result[0], result[1]);
}
