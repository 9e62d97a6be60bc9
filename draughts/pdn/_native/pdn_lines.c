/* The commonest lines of PDN text, read in C for the PDN reader: plain
 * lines of movetext and lines of one tag pair.
 *
 * A plain line holds nothing but move numbers and short moves, maybe ending
 * with the result: most of a game's movetext. The grammar is the one of
 * draughts.pdn.lexer.PLAIN_LINE and PLAIN_MOVE, the pure backend's
 * definition and this file's oracle (tests/pdn/test_pdn_lines.py compares
 * them on random text):
 *
 *   line   = \s* item+ result?            (the whole line)
 *   item   = [0-9]+ "." \s*
 *          | move (\s+ | end of line)     (a move is never "1-1" followed
 *                                          by a space or the end: a result)
 *   move   = square [ \t]* ("-" | "x") [ \t]* square
 *   square = [1-9][0-9]?
 *   result = ("1-0" | "2-0" | "0-1" | "0-2" | "0-0" | "1-1" | "1/2-1/2" | "*") \s*
 *
 * Every alternative starts differently and every repetition is greedy
 * without a choice to undo, so one pass from left to right decides. \s is
 * Python's: any character str.isspace() accepts. Reading a line here rather
 * than with the two regular expressions (a fullmatch, then a findall of its
 * moves) took a replay of the International corpus on the native core from
 * about 175 to 130 us a game (docs/native.rst). */
#include "pdn_lines.h"

int text_of(PyObject *text, Text *out) {
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "a line of PDN must be a str, not %.100s",
                     Py_TYPE(text)->tp_name);
        return -1;
    }
#if PY_VERSION_HEX < 0x030C0000 /* a str made by a legacy API may not be ready to read yet */
    if (PyUnicode_READY(text) < 0) return -1;
#endif
    out->object = text;
    out->kind = PyUnicode_KIND(text);
    out->data = PyUnicode_DATA(text);
    out->len = PyUnicode_GET_LENGTH(text);
    return 0;
}

static Py_UCS4 at(const Text *t, Py_ssize_t i) { return PyUnicode_READ(t->kind, t->data, i); }

static int is_digit(Py_UCS4 c) { return c >= '0' && c <= '9'; }

static Py_ssize_t skip_spaces(const Text *t, Py_ssize_t i) {
    while (i < t->len && Py_UNICODE_ISSPACE(at(t, i))) i++;
    return i;
}

static Py_ssize_t skip_blanks(const Text *t, Py_ssize_t i) { /* [ \t]* */
    while (i < t->len && (at(t, i) == ' ' || at(t, i) == '\t')) i++;
    return i;
}

/* [1-9][0-9]? at i: the number, *i moved past it; 0 if none. */
static int square(const Text *t, Py_ssize_t *i) {
    if (*i >= t->len || at(t, *i) < '1' || at(t, *i) > '9') return 0;
    int n = (int)(at(t, (*i)++) - '0');
    if (*i < t->len && is_digit(at(t, *i))) n = 10 * n + (int)(at(t, (*i)++) - '0');
    return n;
}

/* Whether the text from i is s. */
static int starts_with(const Text *t, Py_ssize_t i, const char *s) {
    for (; *s; s++, i++)
        if (i >= t->len || at(t, i) != (Py_UCS4)(unsigned char)*s) return 0;
    return 1;
}

/* A move at i, followed by a space or the end of the line: 1 and *move
 * filled in, else 0. */
static int move_at(const Text *t, Py_ssize_t i, PlainMove *move) {
    if (starts_with(t, i, "1-1") && (i + 3 == t->len || Py_UNICODE_ISSPACE(at(t, i + 3))))
        return 0; /* the result of a drawn game in some variants */
    move->start = i;
    if ((move->origin = square(t, &i)) == 0) return 0;
    i = skip_blanks(t, i);
    if (i >= t->len || (at(t, i) != '-' && at(t, i) != 'x')) return 0;
    move->capture = at(t, i++) == 'x';
    i = skip_blanks(t, i);
    if ((move->destination = square(t, &i)) == 0) return 0;
    if (i < t->len && !Py_UNICODE_ISSPACE(at(t, i))) return 0;
    move->end = i;
    return 1;
}

/* [0-9]+ "." at i: the position after the dot, else 0. */
static Py_ssize_t move_number_at(const Text *t, Py_ssize_t i) {
    while (i < t->len && is_digit(at(t, i))) i++;
    return i < t->len && at(t, i) == '.' ? i + 1 : 0;
}

int next_plain_move(const Text *t, Py_ssize_t *pos, Py_ssize_t end, PlainMove *move) {
    for (;;) {
        Py_ssize_t i = skip_spaces(t, *pos);
        if (i >= end) {
            *pos = end;
            return 0;
        }
        *pos = i;
        if (!is_digit(at(t, i))) return -1;
        Py_ssize_t after = move_number_at(t, i);
        if (after > 0 && after <= end) {
            *pos = after;
            continue;
        }
        if (!move_at(t, i, move) || move->end > end) return -1;
        *pos = move->end;
        return 1;
    }
}

Py_ssize_t plain_line_end(const Text *t) {
    Py_ssize_t count;
    return plain_line_moves(t, NULL, 0, &count);
}

Py_ssize_t plain_line_moves(const Text *t, PlainMove *moves, Py_ssize_t cap, Py_ssize_t *count) {
    static const char *const results[] = {"1-0", "2-0", "0-1", "0-2", "0-0", "1-1", "1/2-1/2", "*"};
    Py_ssize_t i = skip_spaces(t, 0);
    int items = 0;
    *count = 0;
    while (i < t->len && is_digit(at(t, i))) {
        Py_ssize_t after = move_number_at(t, i);
        PlainMove move;
        if (after > 0)
            i = skip_spaces(t, after);
        else if (move_at(t, i, &move)) {
            i = skip_spaces(t, move.end);
            if (*count < cap) moves[*count] = move;
            ++*count;
        } else
            break;
        items++;
    }
    if (items == 0) return -1;
    if (i == t->len) return i;
    for (size_t r = 0; r < sizeof results / sizeof *results; r++)
        if (starts_with(t, i, results[r]) &&
            skip_spaces(t, i + (Py_ssize_t)strlen(results[r])) == t->len)
            return i;
    return -1;
}

/* A tag line is what draughts.pdn.lexer.TOKEN reads as one "tag" token and
 * nothing else (its oracle, compared in tests/pdn/test_pdn_lines.py):
 *
 *   \s* "[" [ \t]* name [ \t]* '"' value '"' [ \t]* "]" \s*
 *   name = [A-Za-z0-9_]+       value = any characters but '"', "\" and "\n"
 *
 * A value with an escape is left to the regular expression. Read here, the
 * tag lines of a game cost about 10 us less than TOKEN's two searches of
 * each (a replay of the International corpus: 125 -> 113 us a game). */
static int is_name_char(Py_UCS4 c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_';
}

int tag_line(const Text *t, PyObject **name, PyObject **value, Py_ssize_t *start) {
    Py_ssize_t i = skip_spaces(t, 0);
    if (i >= t->len || at(t, i) != '[') return 0;
    *start = i;
    i = skip_blanks(t, i + 1);
    Py_ssize_t name_start = i;
    while (i < t->len && is_name_char(at(t, i))) i++;
    Py_ssize_t name_end = i;
    i = skip_blanks(t, i);
    if (name_end == name_start || i >= t->len || at(t, i) != '"') return 0;
    Py_ssize_t value_start = ++i;
    while (i < t->len && at(t, i) != '"') {
        Py_UCS4 c = at(t, i++);
        if (c == '\\' || c == '\n') return 0;
    }
    if (i >= t->len) return 0;
    Py_ssize_t value_end = i;
    i = skip_blanks(t, i + 1);
    if (i >= t->len || at(t, i) != ']' || skip_spaces(t, i + 1) != t->len) return 0;
    *name = PyUnicode_Substring(t->object, name_start, name_end);
    *value = *name ? PyUnicode_Substring(t->object, value_start, value_end) : NULL;
    if (*value == NULL) {
        Py_CLEAR(*name);
        return -1;
    }
    return 1;
}
