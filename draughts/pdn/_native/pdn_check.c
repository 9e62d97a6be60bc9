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
#include "pdn_native.h"
#include "pdn_trace.h"

enum { C_OK = 0, C_ERROR = 1, C_UNKNOWN = 2, C_SPLIT = 3, C_MOVE = 4 /* within this file only */ };

/* The text read, a byte a character: a str of one byte a character
 * (ASCII, Latin-1: nearly every record) as it is; any other, copied with
 * each character above 0xFF made 0x85 where it is a space and 0xFF where
 * not (nothing here tells those characters apart from those two: only
 * ASCII and spaces mean something in a movetext). Reading the str's
 * characters of each kind was a fifth of the time of checking a game. */
typedef struct {
    const Py_UCS1 *s;
    Py_ssize_t len, pos;
    Py_UCS1 *copy; /* s where it is a copy (reader_free frees it), else NULL */
} Reader;

static Py_UCS4 ch(const Reader *r, Py_ssize_t i) { return i < r->len ? r->s[i] : 0; }

static void reader_free(Reader *r) {
    PyMem_Free(r->copy);
    r->copy = NULL;
}
static int is_dig(Py_UCS4 c) { return c >= '0' && c <= '9'; }
static int space_or_end(const Reader *r, Py_ssize_t i) {
    return i >= r->len || Py_UNICODE_ISSPACE(ch(r, i));
}

/* A result at i followed by a space or the end: its length, else 0. */
static Py_ssize_t result_at(const Reader *r, Py_ssize_t i) {
    static const char *const results[] = {"1/2-1/2", "1-0", "0-1", "2-0", "0-2", "1-1", "0-0", "*"};
    /* Most texts here are moves and move numbers ("11-15", "12."): only a
     * result has "-" or "/" second (or is "*"); the loop below was an
     * eighth of the time of checking the OCA. */
    Py_UCS4 second = ch(r, i + 1);
    if (ch(r, i) != '*' && second != '-' && second != '/') return 0;
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
    /* The other separator next ("19-23 x 2-0"): the reader reads one move
     * of both, and may find it cut rather than illegal. */
    if (ch(r, k) == '-' || ch(r, k) == 'x') return 0;
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
    uint64_t key; /* the position's Zobrist key, kept where a line is recorded */
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
    for (int k = 0; k < count; k++)
        if ((sq[k] = g->square[written[k]]) < 0) return C_UNKNOWN;
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

/* The moves of a movetext as written, read once and replayed for each
 * variant tried (reading the text was half the time of a replay, and
 * inference replays three or four variants a game). */
typedef struct {
    Py_ssize_t end;   /* where its text ends */
    int first, count; /* its numbers: numbers[first .. first + count) */
    int capture;      /* written with "x" */
} Written;

typedef struct {
    Written *moves;
    int *numbers;
    Py_ssize_t len, cap, nlen, ncap;
    int state;            /* how the text ends: C_OK or C_UNKNOWN */
    Py_ssize_t result[2]; /* where its result is written (-1 if none) */
    Py_ssize_t first;     /* where its first move starts (-1 if none) */
    int highest;          /* the highest number written in a move */
} Movetext;

static void movetext_free(Movetext *m) {
    PyMem_Free(m->moves);
    PyMem_Free(m->numbers);
}

static int movetext_add(Movetext *m, const int *written, int count, int capture, Py_ssize_t end) {
    if (m->len == m->cap) {
        Py_ssize_t cap = m->cap ? 2 * m->cap : 256; /* most games: one allocation */
        Written *moves = PyMem_Realloc(m->moves, (size_t)cap * sizeof *moves);
        if (moves == NULL) return -1;
        m->moves = moves, m->cap = cap;
    }
    if (m->nlen + count > m->ncap) {
        Py_ssize_t cap = 2 * (m->ncap + count) + 512;
        int *numbers = PyMem_Realloc(m->numbers, (size_t)cap * sizeof *numbers);
        if (numbers == NULL) return -1;
        m->numbers = numbers, m->ncap = cap;
    }
    for (int k = 0; k < count; k++) {
        m->numbers[m->nlen + k] = written[k];
        if (written[k] > m->highest) m->highest = written[k];
    }
    m->moves[m->len++] = (Written){end, (int)m->nlen, count, capture};
    m->nlen += count;
    return 0;
}

static int is_blank_byte(Py_UCS1 c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

/* The commonest text read in one pass, from *at: ASCII blanks, move
 * numbers ("12.", "12...") and moves of two numbers written with "-" or
 * "x" and followed by a blank or the end ("32-28"), each read as
 * next_move and move_at read it. It stops (*at there) at anything else (a
 * result, a comment, a NAG, a route, a blank before a separator), which
 * the general loop reads. 0, or -1 out of memory. (read_movetext took
 * 12.0M instructions on the International corpus with it, 19.8M without:
 * callgrind, benchmarks/records.py's intl-api row.) */
static int common_moves(const Reader *r, Py_ssize_t *at, Movetext *m) {
    const Py_UCS1 *s = r->s;
    Py_ssize_t n = r->len, i = *at;
    for (;;) {
        while (i < n && is_blank_byte(s[i])) i++;
        if (i >= n || !is_dig(s[i])) break;
        Py_ssize_t j = i + 1;
        while (j < n && is_dig(s[j])) j++;
        if (j < n && s[j] == '.') { /* a move number: [0-9]+\.(\.\.)? */
            i = j + 1;
            if (ch(r, i) == '.' && ch(r, i + 1) == '.') i += 2;
            continue;
        }
        /* A move [1-9][0-9]?[-x][1-9][0-9]? then a blank or the end, not
         * a result ("1-1") and not going on past blanks ("26x17 x10"). */
        if (s[i] == '0' || j - i > 2 || j >= n || (s[j] != '-' && s[j] != 'x')) break;
        int capture = s[j] == 'x';
        Py_ssize_t k = j + 1, e = k + 1;
        if (k >= n || s[k] < '1' || s[k] > '9') break;
        /* The only result of this shape: "1-1" (result_at reads it). */
        if (!capture && s[i] == '1' && s[k] == '1' && j - i == 1 && result_at(r, i)) break;
        if (e < n && is_dig(s[e])) e++;
        if (e < n && !is_blank_byte(s[e])) break;
        Py_ssize_t b = e;
        while (b < n && (s[b] == ' ' || s[b] == '\t')) b++;
        if (b < n && (s[b] == '-' || s[b] == 'x')) break;
        int written[2] = {s[i] - '0', s[k] - '0'};
        if (j - i == 2) written[0] = 10 * written[0] + s[i + 1] - '0';
        if (e - k == 2) written[1] = 10 * written[1] + s[k + 1] - '0';
        if (m->first < 0) m->first = i;
        if (movetext_add(m, written, 2, capture, e) < 0) return -1;
        i = e;
    }
    *at = i;
    return 0;
}

/* Read the moves from `start` up to the end, or up to what this loop does
 * not read (then state C_UNKNOWN; a replay that gets there without an error
 * answers that). A NAG before the first move is the reader's to report.
 * -1 out of memory. */
static int read_movetext(const Reader *r, Py_ssize_t start, Movetext *m) {
    int written[MAX_WRITTEN], capture;
    m->result[0] = m->result[1] = m->first = -1;
    for (Py_ssize_t i = start;;) {
        if (common_moves(r, &i, m) < 0) return -1;
        int next = next_move(r, &i, m->len > 0, m->result);
        if (next != C_MOVE) {
            m->state = next;
            return 0;
        }
        if (m->first < 0) m->first = i;
        int count = move_at(r, &i, written, &capture);
        if (count <= 0) {
            m->state = C_UNKNOWN;
            return 0;
        }
        if (movetext_add(m, written, count, capture, i) < 0) return -1;
    }
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

/* A str argument read as text (see Reader; reader_free lets it go): 0, or
 * -1 with TypeError naming `usage` or MemoryError. */
static int text_reader(PyObject *text, Reader *r, const char *usage) {
    if (!PyUnicode_Check(text)) {
        PyErr_SetString(PyExc_TypeError, usage);
        return -1;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(text) < 0) return -1;
#endif
    Py_ssize_t len = PyUnicode_GET_LENGTH(text);
    int kind = PyUnicode_KIND(text);
    const void *data = PyUnicode_DATA(text);
    *r = (Reader){(const Py_UCS1 *)data, len, 0, NULL};
    if (kind == PyUnicode_1BYTE_KIND) return 0;
    if ((r->copy = PyMem_Malloc((size_t)len + 1)) == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < len; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, data, i);
        r->copy[i] = (Py_UCS1)(c <= 0xFF ? c : Py_UNICODE_ISSPACE(c) ? 0x85 : 0xFF);
    }
    r->s = r->copy;
    return 0;
}

/* A start offset within the text: 0, or -1 with an exception. */
static int text_start(PyObject *arg, const Reader *r, Py_ssize_t *start) {
    *start = PyLong_AsSsize_t(arg);
    if (*start == -1 && PyErr_Occurred()) return -1;
    if (*start < 0 || *start > r->len) {
        PyErr_SetString(PyExc_ValueError, "start must be within the text");
        return -1;
    }
    return 0;
}

/* text_reader's reader of `text` and the start offset `at` within it: 0,
 * or -1 with an exception (nothing to free). */
static int open_reader(PyObject *text, PyObject *at, Reader *r, Py_ssize_t *start,
                       const char *usage) {
    if (text_reader(text, r, usage) < 0) return -1;
    if (text_start(at, r, start) < 0) {
        reader_free(r);
        return -1;
    }
    return 0;
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
        PyBytes_GET_SIZE(item[4]) != 100 * (Py_ssize_t)sizeof(int16_t)) {
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
    const char *numbers = PyBytes_AS_STRING(item[4]);
    for (int k = 0; k < 100; k++) {
        int16_t n;
        memcpy(&n, numbers + k * (Py_ssize_t)sizeof n, sizeof n);
        g->square[k] =
            n >= 1 && n <= MAX_SQUARES && n <= g->core->rules.n ? g->core->sq_of_number[n] : -1;
    }
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
 * two lists of two bitboard ints; turn: 0 or 1; numbers: 100 native int16
 * (array('h').tobytes()), the square each written number names or 0 for
 * none. limit: the plies to play at most (0: all). state: 0 every move
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

/* infer_each(text, start, starters, final) -> (numbers, moves,
 *     first_start, first_end, entry, answers) or None
 *
 * Inference's reading of the movetext text[start:] in one call: what it
 * shows before a variant is chosen (draughts.pdn.infer.Evidence: the
 * highest square number its moves write, how many moves it has, where its
 * first move is written), and the replays of the candidates it may be (as
 * check_each answers, in full).
 * starters: a dict from (first move as written, highest number) to a
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
    PyObject *key = Py_BuildValue("(Ni)", PyUnicode_Substring(args[0], m.first, first_end), m.highest);
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
    answer = Py_BuildValue("(innnOO)", m.highest, m.len, m.first, first_end,
                           entry != NULL ? entry : Py_None, found);
done:
    Py_XDECREF(found);
    movetext_free(&m);
    reader_free(&r);
    return answer;
}

/* A tag pair alone on its line at i, as draughts.pdn._fastgame's _TAG
 * expression reads one: blank lines and blanks before it, its name
 * [A-Za-z0-9_]+, its value with no quote, backslash or line break, then
 * only blanks up to the end of the line or of the text. The position after
 * it, or -1 for anything else. */
static Py_ssize_t tag_pair(const Reader *r, Py_ssize_t i, Py_ssize_t name[2], Py_ssize_t value[2]) {
    Py_UCS4 c;
    while ((c = ch(r, i)) == ' ' || c == '\t' || c == '\r' || c == '\n') i++;
    if (ch(r, i) != '[') return -1;
    i = blanks(r, i + 1);
    name[0] = i;
    while ((c = ch(r, i)) == '_' || is_dig(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
        i++;
    name[1] = i;
    if (name[1] == name[0]) return -1;
    i = blanks(r, i);
    if (ch(r, i) != '"') return -1;
    value[0] = ++i;
    while (i < r->len && (c = ch(r, i)) != '"' && c != '\\' && c != '\r' && c != '\n') i++;
    value[1] = i;
    if (ch(r, i) != '"') return -1;
    i = blanks(r, i + 1);
    if (ch(r, i) != ']') return -1;
    while ((c = ch(r, ++i)) == ' ' || c == '\t' || c == '\r')
        ;
    if (i < r->len && ch(r, i++) != '\n') return -1;
    return i;
}

/* Whether text[at[0]:at[1]] is the ASCII name `name`. */
static int is_name(const Reader *r, const Py_ssize_t at[2], const char *name) {
    Py_ssize_t i = at[0];
    for (; *name && i < at[1]; name++, i++)
        if (ch(r, i) != (Py_UCS4)(unsigned char)*name) return 0;
    return !*name && i == at[1];
}

/* Past the comments a record may start with, before its tags ("{ Dutch
 * championship 1996 }" heads several files): blanks and brace comments
 * with no brace inside, which the reader keeps as the game's comment and
 * checks nothing in. The position after the last one (0 without one),
 * or -1 for a comment left open (the reader's). */
static Py_ssize_t past_head_comments(const Reader *r) {
    Py_ssize_t i = 0, past = 0;
    for (;;) {
        Py_UCS4 c;
        while ((c = ch(r, i)) == ' ' || c == '\t' || c == '\r' || c == '\n') i++;
        if (c != '{') return past;
        while (++i < r->len && (c = ch(r, i)) != '}')
            if (c == '{') return -1;
        if (i >= r->len) return -1;
        past = ++i;
    }
}

/* record_tags(text) -> (end, event, gametype, variant) or None
 *
 * The tag pairs a game record starts with (after comments, see
 * past_head_comments), each alone on its line (see tag_pair): where they
 * end, and the values of its first Event tag and of its GameType and
 * Variant tags (None where absent). None for a record with a FEN tag or
 * with two GameType, Variant or FEN tags: the reader reads those.
 * (record_tags_of: its answer from the reader of the text.) */
static PyObject *record_tags_of(PyObject *text, const Reader *r) {
    static const char *const names[] = {"Event", "GameType", "Variant", "FEN"};
    Py_ssize_t found[4][2] = {{-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}};
    Py_ssize_t end = past_head_comments(r), next, name[2], value[2];
    if (end < 0) Py_RETURN_NONE;
    while ((next = tag_pair(r, end, name, value)) >= 0) {
        end = next;
        for (int k = 0; k < 4; k++) {
            if (!is_name(r, name, names[k])) continue;
            if (found[k][0] >= 0 && k > 0) Py_RETURN_NONE; /* the reader takes the last */
            if (found[k][0] < 0) found[k][0] = value[0], found[k][1] = value[1];
        }
    }
    if (found[3][0] >= 0) Py_RETURN_NONE;
    PyObject *answer = PyTuple_New(4), *at = PyLong_FromSsize_t(end);
    if (answer == NULL || at == NULL) {
        Py_XDECREF(answer);
        Py_XDECREF(at);
        return NULL;
    }
    PyTuple_SET_ITEM(answer, 0, at);
    for (int k = 0; k < 3; k++) {
        PyObject *v = found[k][0] < 0 ? Py_NewRef(Py_None)
                                      : PyUnicode_Substring(text, found[k][0], found[k][1]);
        if (v == NULL) {
            Py_DECREF(answer);
            return NULL;
        }
        PyTuple_SET_ITEM(answer, k + 1, v);
    }
    return answer;
}

PyObject *py_record_tags(PyObject *unused, PyObject *text) {
    (void)unused;
    Reader r;
    if (text_reader(text, &r, "record_tags(text)") < 0) return NULL;
    PyObject *answer = record_tags_of(text, &r);
    reader_free(&r);
    return answer;
}
