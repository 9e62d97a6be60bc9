/* The tag pairs a game record starts with, read in one call (record_tags)
 * for draughts.pdn._fastgame: where they end and the values that decide
 * how the record is read; anything out of the ordinary is the full
 * reader's. */
#include "pdn_movetext.h"

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
