/* A game's movetext read into the moves it writes (pdn_movetext.c), once
 * for all the variants pdn_check.c replays it in, and the text reader the
 * record's tags are read with too (pdn_tags.c). */
#ifndef DRAUGHTS_PDN_MOVETEXT_H
#define DRAUGHTS_PDN_MOVETEXT_H

#include "pdn_native.h"

/* What a reading or a replay answers: every move read or played (C_OK), a
 * sure move error (C_ERROR), not known here: the full reader's to read
 * (C_UNKNOWN), the first part of a capture split in two (C_SPLIT), a move
 * where one must be (C_MOVE, within the reading only). */
enum { C_OK = 0, C_ERROR = 1, C_UNKNOWN = 2, C_SPLIT = 3, C_MOVE = 4 };

#define MAX_WRITTEN 32 /* the squares a move may write */

/* A square as written, coded in one range: a number ("32", 1-99) as
 * itself; an algebraic name ("c3": a file a-w, y or z, then a rank 1-99)
 * as ALGEBRAIC_CODES + 100 * file + rank, file 0 for "a". The setups of
 * pdn_check.c give the square each code names in a variant (SQUARE_CODES
 * of them). */
#define ALGEBRAIC_CODES 100
#define SQUARE_CODES (ALGEBRAIC_CODES + 26 * 100)

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

/* Inline: the loops of the reading and of the tag reading call these once
 * a character (they were static in one file before it was split in two). */
static inline Py_UCS4 ch(const Reader *r, Py_ssize_t i) { return i < r->len ? r->s[i] : 0; }
static inline int is_dig(Py_UCS4 c) { return c >= '0' && c <= '9'; }
/* [ \t]* at i: the position after it. */
static inline Py_ssize_t blanks(const Reader *r, Py_ssize_t i) {
    while (ch(r, i) == ' ' || ch(r, i) == '\t') i++;
    return i;
}

/* The moves of a movetext as written, read once and replayed for each
 * variant tried (reading the text was half the time of a replay, and
 * inference replays three or four variants a game). */
typedef struct {
    Py_ssize_t end;   /* where its text ends */
    int first, count; /* its squares' codes: numbers[first .. first + count) */
    int capture;      /* written with "x", "X" or ":" */
} Written;

typedef struct {
    Written *moves;
    int *numbers;
    Py_ssize_t len, cap, nlen, ncap;
    int state;            /* how the text ends: C_OK or C_UNKNOWN */
    Py_ssize_t result[2]; /* where its result is written (-1 if none) */
    Py_ssize_t first;     /* where its first move starts (-1 if none) */
    int highest;          /* the highest number written in a move */
    int files, ranks;     /* the files algebraic squares span (0: none) and their highest rank */
} Movetext;

/* text as a Reader: 0, or -1 with TypeError naming `usage` or
 * MemoryError (reader_free lets it go). */
int text_reader(PyObject *text, Reader *r, const char *usage);
/* text_reader's reader of `text` and the start offset `at` within it: 0,
 * or -1 with an exception (nothing to free). */
int open_reader(PyObject *text, PyObject *at, Reader *r, Py_ssize_t *start, const char *usage);
void reader_free(Reader *r);

/* The moves from `start` up to the end of the text, or up to what this
 * reading does not read (state C_UNKNOWN); -1 out of memory. m starts
 * zeroed; movetext_free lets it go. */
int read_movetext(const Reader *r, Py_ssize_t start, Movetext *m);
void movetext_free(Movetext *m);

/* What follows the first part of a capture split in two, ending at the
 * square coded `dest`, the text read up to i: C_ERROR or C_UNKNOWN. */
int split_rest(const Reader *r, Py_ssize_t i, int dest);

#endif
