/* A game's movetext read into the moves it writes, for the replays of
 * pdn_check.c: the narrow subset of PDN that file's comment gives (move
 * numbers, moves of two squares, captures written in full, comments in
 * braces, NAGs, a result ending the text); the reading stops, answering
 * C_UNKNOWN, at anything else, which the full reader reads. Read once, the
 * moves are replayed for each variant tried. No board here: the squares
 * are numbers as written. */
#include "pdn_movetext.h"

void reader_free(Reader *r) {
    PyMem_Free(r->copy);
    r->copy = NULL;
}

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

/* A written square at *i: a number [1-9][0-9]? or an algebraic name
 * [a-wyz][1-9][0-9]?; its code (see SQUARE_CODES), *i past it; 0 if none.
 * Others the reader reads ("032", "C3", "c03", a square of the x-file) are
 * not read here: where the reader parses them its own way (an upper-case
 * name is lower-cased for the move but not for a split capture's squares,
 * draughts.pdn.resolver._SQUARE), the full reader is the oracle. */
static int square_at(const Reader *r, Py_ssize_t *i) {
    Py_UCS4 c = ch(r, *i);
    int base = 0;
    Py_ssize_t j = *i;
    if (c >= 'a' && c <= 'z' && c != 'x') {
        base = ALGEBRAIC_CODES + 100 * (int)(c - 'a');
        c = ch(r, ++j);
    }
    if (c < '1' || c > '9') return 0;
    int n = (int)(c - '0');
    j++;
    if (is_dig(ch(r, j))) n = 10 * n + (int)(ch(r, j++) - '0');
    *i = j;
    return base + n;
}

static int is_separator(Py_UCS4 c) { return c == '-' || c == 'x' || c == 'X' || c == ':'; }

/* A NAG at *i ("$" and digits): *i past it; -1 for one of more digits
 * than the reader reads as a number (it reports an error). */
static int nag_end(const Reader *r, Py_ssize_t *i) {
    Py_ssize_t start = ++*i;
    while (is_dig(ch(r, *i))) ++*i;
    return *i - start > 9 ? -1 : 0;
}

/* A move at *i: its squares' codes (2 or more), whether written as a
 * capture ("x", "X" or ":"), *i past it. Blanks may stand around a
 * separator ("4- 9"), as the reader's plain lines allow. 0 if the text
 * there is not such a move followed by a space or the end, or mixes
 * separators; -1 for a "-" route of more than two squares. */
static int move_at(const Reader *r, Py_ssize_t *i, int written[MAX_WRITTEN], int *capture) {
    Py_ssize_t j = *i;
    int count = 0;
    if ((written[count++] = square_at(r, &j)) == 0) return 0;
    Py_ssize_t k = blanks(r, j);
    Py_UCS4 sep = ch(r, k);
    if (!is_separator(sep)) return 0;
    while (ch(r, k) == sep) {
        j = blanks(r, k + 1);
        if (count == MAX_WRITTEN || (written[count++] = square_at(r, &j)) == 0) return 0;
        k = blanks(r, j);
    }
    /* Another separator next ("19-23 x 2-0", "c3:e5xg7"): the reader reads
     * one move of both, and may find it cut rather than illegal. */
    if (is_separator(ch(r, k))) return 0;
    if (!space_or_end(r, j)) return 0;
    *capture = sep != '-';
    *i = j;
    return sep == '-' && count > 2 ? -1 : count;
}

/* The first part of a capture split in two ends at the square coded `dest`,
 * the text read up to i: the reader joins it to the next move when that
 * move, past blanks and move numbers only, starts on `dest` (C_UNKNOWN: the
 * joined capture is the reader's to read); the end, a result, a comment, a
 * NAG or a move starting elsewhere leave the first part an illegal move
 * (C_ERROR); what this loop does not read is the reader's (C_UNKNOWN). */
int split_rest(const Reader *r, Py_ssize_t i, int dest) {
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
        if (c >= 'a' && c <= 'z') { /* an algebraic square, or what move_at refuses */
            *at = i;
            return C_MOVE;
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

void movetext_free(Movetext *m) {
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
        int code = written[k];
        m->numbers[m->nlen + k] = code;
        if (code < ALGEBRAIC_CODES) {
            if (code > m->highest) m->highest = code;
        } else { /* the evidence draughts.pdn.infer.Evidence notes */
            int file = (code - ALGEBRAIC_CODES) / 100 + 1, rank = code % 100;
            if (file > m->files) m->files = file;
            if (rank > m->ranks) m->ranks = rank;
        }
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
int read_movetext(const Reader *r, Py_ssize_t start, Movetext *m) {
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

/* A str argument read as text (see Reader; reader_free lets it go): 0, or
 * -1 with TypeError naming `usage` or MemoryError. */
int text_reader(PyObject *text, Reader *r, const char *usage) {
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
int open_reader(PyObject *text, PyObject *at, Reader *r, Py_ssize_t *start,
                       const char *usage) {
    if (text_reader(text, r, usage) < 0) return -1;
    if (text_start(at, r, start) < 0) {
        reader_free(r);
        return -1;
    }
    return 0;
}
