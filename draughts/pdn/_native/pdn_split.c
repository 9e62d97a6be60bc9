/* Where the games of PDN bytes start, found in C for draughts.pdn.offsets.
 *
 * The oracle is the pure scanner (offsets._Scanner, which runs the reader's
 * own tokenizer, draughts.pdn.lexer.TOKEN, on decoded lines): this file
 * tokenizes the bytes the same way but keeps only what decides where a game
 * ends (tags, results, "*", parentheses, comments) and how long every other
 * token is. It reads the bytes of an ASCII-compatible encoding whose other
 * bytes never decode to ASCII (UTF-8 or a single-byte code page): those
 * bytes are harmless inside comments and tag values, but where they could
 * be a space ("\xa0") or a token ("...") this file cannot tell, so it stops
 * ("bail") and the caller scans on with the pure scanner.
 *
 * Lines end at "\n", "\r\n" or "\r", as the text layer's universal newlines
 * read them. Whitespace is what Python's str.isspace() accepts among ASCII:
 * "\t\n\v\f\r", "\x1c"-"\x1f" and " ".
 *
 * The scanner tokenizes whole lines only: a line not ended within the data
 * (and the data not final) asks for more (MORE), and the caller calls again
 * from the start of the last game found. Splitting the OCA, 6-10 MB/s in
 * Python, runs at 200-350 MB/s here on a loaded 2-core machine
 * (benchmarks/records.py, row split). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

typedef unsigned char byte;

enum { S_END = 0, S_MORE = 1, S_BAIL = 2, S_ERROR = 3 };
/* How a game ended. */
enum { G_RESULT, G_TAG, G_EOF, G_MORE, G_BAIL };

typedef struct {
    const byte *d;
    Py_ssize_t n;
    int final;
    int cr;              /* whether the data has a "\r" at all */
    Py_ssize_t line;     /* the number of the current line */
    Py_ssize_t ls;       /* where the current line starts */
    Py_ssize_t le;       /* where its text ends (its newline, or n) */
    Py_ssize_t nl;       /* where the next line starts */
    Py_ssize_t base_off; /* a position of the line whose column is known: */
    Py_ssize_t base_col; /* the line's start and 1, or where scanning began */
} Scan;

#define WS_MASK (0x3e00ULL | 0xf0000000ULL | 0x100000000ULL) /* 9-13, 28-31, 32 */
static inline int is_ws(byte c) { return c <= ' ' && ((1ULL << c) & WS_MASK) != 0; }
static int is_digit(byte c) { return c >= '0' && c <= '9'; }
static int is_alpha(byte c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static int is_name(byte c) { return is_alpha(c) || is_digit(c) || c == '_'; }
static int is_blank(byte c) { return c == ' ' || c == '\t'; }

/* Find the end of the line starting at S->ls: 0 when found (le and nl
 * set), 1 when the data ends before it does and is not final. */
static int find_line_end(Scan *S) {
    const byte *start = S->d + S->ls;
    Py_ssize_t rest = S->n - S->ls;
    const byte *lf = memchr(start, '\n', (size_t)rest);
    Py_ssize_t span = lf ? lf - start : rest;
    const byte *cr = S->cr ? memchr(start, '\r', (size_t)span) : NULL;
    if (cr != NULL) {
        S->le = cr - S->d;
        if (S->le + 1 < S->n) {
            S->nl = S->le + (S->d[S->le + 1] == '\n' ? 2 : 1);
            return 0;
        }
        if (!S->final) return 1; /* a "\n" may follow */
        S->nl = S->n;
        return 0;
    }
    if (lf != NULL) {
        S->le = lf - S->d;
        S->nl = S->le + 1;
        return 0;
    }
    if (!S->final) return 1;
    S->le = S->nl = S->n;
    return 0;
}

/* Move to the next line: 0, 1 for more data, -1 at the end of the data. */
static int next_line(Scan *S) {
    if (S->nl >= S->n) return S->final ? -1 : 1;
    S->ls = S->base_off = S->nl;
    S->base_col = 1;
    S->line++;
    return find_line_end(S);
}

/* Whether the bytes from..to are all ASCII. */
static int ascii(const Scan *S, Py_ssize_t from, Py_ssize_t to) {
    for (Py_ssize_t i = from; i < to; i++)
        if (S->d[i] >= 0x80) return 0;
    return 1;
}

/* The result token at p: its length, or 0 (lexer's "result": 1/2-1/2,
 * 1-0, 2-0, 0-0, 0-1, 0-2, 1-1 with "-" or ":", not followed by a digit). */
static Py_ssize_t result_len(const Scan *S, Py_ssize_t p) {
    const byte *d = S->d;
    Py_ssize_t room = S->le - p, len = 0;
#define SEP(i) (d[p + (i)] == '-' || d[p + (i)] == ':')
#define FREE(k) (p + (k) >= S->le || !is_digit(d[p + (k)]))
    if (room >= 7 && d[p] == '1' && d[p + 1] == '/' && d[p + 2] == '2' && SEP(3) &&
        d[p + 4] == '1' && d[p + 5] == '/' && d[p + 6] == '2' && FREE(7))
        return 7;
    if (room < 3 || !SEP(1)) return 0;
    byte a = d[p], b = d[p + 2];
    if ((a == '1' || a == '2') && b == '0' && FREE(3)) len = 3;
    else if (a == '0' && b >= '0' && b <= '2' && FREE(3)) len = 3;
    else if (a == '1' && b == '1' && FREE(3)) len = 3;
#undef SEP
#undef FREE
    return len;
}

/* [a-zA-Z][0-9]{1,2} | [0-9]{1,3} at p, greedy: its length or 0. */
static Py_ssize_t square_len(const Scan *S, Py_ssize_t p) {
    const byte *d = S->d;
    Py_ssize_t i = p, most = 3;
    if (i < S->le && is_alpha(d[i])) {
        i++;
        most = 2;
    }
    Py_ssize_t digits = i;
    while (i < S->le && i - digits < most && is_digit(d[i])) i++;
    return i > digits ? i - p : 0;
}

static Py_ssize_t skip_blanks(const Scan *S, Py_ssize_t i) {
    while (i < S->le && is_blank(S->d[i])) i++;
    return i;
}

static int is_sep(byte c) { return c == '-' || c == 'x' || c == 'X' || c == ':'; }

/* [ \t]* sep [ \t]* square at p: the position after it, or 0. */
static Py_ssize_t step_at(const Scan *S, Py_ssize_t p) {
    Py_ssize_t i = skip_blanks(S, p);
    if (i >= S->le || !is_sep(S->d[i])) return 0;
    i = skip_blanks(S, i + 1);
    Py_ssize_t len = square_len(S, i);
    return len ? i + len : 0;
}

/* The lexer's "move" token at p: its length, or 0. The squares are the
 * first of four alternatives that matches; each is deterministic (a
 * greedy square can only be followed by a separator when it is the whole
 * run of digits, so giving digits back never helps). */
static Py_ssize_t move_len(const Scan *S, Py_ssize_t p) {
    const byte *d = S->d;
    Py_ssize_t le = S->le, end = 0, i;
    Py_ssize_t first = square_len(S, p);
    if (first && (p + first >= le || !is_digit(d[p + first])) && (end = step_at(S, p + first)))
        while ((i = step_at(S, end)) != 0) end = i; /* (?:[ \t]*[-xX:][ \t]*SQ)* */
    if (!end) { /* (?:[a-z][0-9]){2,} */
        for (i = p; i + 1 < le && d[i] >= 'a' && d[i] <= 'z' && is_digit(d[i + 1]); i += 2) {}
        if (i - p >= 4) end = i;
    }
    if (!end && p + 2 < le && d[p] >= 'a' && d[p] <= 'h' && d[p + 1] >= 'a' && d[p + 1] <= 'h' &&
        d[p + 2] >= '1' && d[p + 2] <= '8')
        end = p + 3;
    if (!end && p + 3 < le && is_digit(d[p]) && is_digit(d[p + 1]) && is_digit(d[p + 2]) &&
        is_digit(d[p + 3]))
        end = p + 4;
    if (!end) return 0;
    /* the strength: [!?]+ | \([!?]+\) | \* */
    if (end < le && (d[end] == '!' || d[end] == '?')) {
        while (end < le && (d[end] == '!' || d[end] == '?')) end++;
    } else if (end < le && d[end] == '(') {
        i = end + 1;
        while (i < le && (d[i] == '!' || d[i] == '?')) i++;
        if (i > end + 1 && i < le && d[i] == ')') end = i + 1;
    } else if (end < le && d[end] == '*') {
        end++;
    }
    return end - p;
}

/* The lexer's junk token [^\s{}()\[\]]+ at p: its end, or -1 at a byte
 * that is not ASCII (it may be a space). */
static Py_ssize_t junk_end(const Scan *S, Py_ssize_t p) {
    const byte *d = S->d;
    for (; p < S->le; p++) {
        byte c = d[p];
        if (c >= 0x80) return -1;
        if (is_ws(c) || c == '{' || c == '}' || c == '(' || c == ')' || c == '[' || c == ']')
            break;
    }
    return p;
}

/* A tag ("tag" or "tag2") at the "[" at p: its end, or 0. */
static Py_ssize_t tag_end(const Scan *S, Py_ssize_t p) {
    const byte *d = S->d;
    Py_ssize_t le = S->le, i = skip_blanks(S, p + 1), name = i;
    while (i < le && is_name(d[i])) i++;
    if (i == name) return 0;
    i = skip_blanks(S, i);
    if (i < le && d[i] == '"') { /* "tag": "(?:[^"\\\n]|\\.)*" [ \t]* "]" */
        for (i++; i < le && d[i] != '"'; i++)
            if (d[i] == '\\') {
                if (i + 1 >= le) break;
                i++;
            }
        if (i < le && d[i] == '"') {
            Py_ssize_t j = skip_blanks(S, i + 1);
            if (j < le && d[j] == ']') return j + 1;
        }
    }
    /* "tag2": [^\]\n]* "]" (the name may give back all but one character) */
    const byte *close = memchr(d + name + 1, ']', (size_t)(le - name - 1));
    return close ? close - d + 1 : 0;
}

/* At the "(" at p, the text up to a ")" with at most one level of
 * parentheses inside (lexer.PAREN_BODY): where that ")" is, 0 if none, -1
 * when the text has a byte that is not ASCII. */
static Py_ssize_t paren_close(const Scan *S, Py_ssize_t p) {
    const byte *d = S->d;
    Py_ssize_t i = p + 1;
    int other = 0;
    while (i < S->le) {
        byte c = d[i];
        if (c == ')') return other ? -1 : i;
        if (c == '{' || c == '}') return 0;
        if (c == '(') {
            Py_ssize_t j = i + 1;
            while (j < S->le && d[j] != '(' && d[j] != ')' && d[j] != '{' && d[j] != '}') {
                if (d[j] >= 0x80) other = 1;
                j++;
            }
            if (j >= S->le || d[j] != ')') return 0;
            i = j + 1;
            continue;
        }
        if (c >= 0x80) other = 1;
        i++;
    }
    return 0;
}

/* Whether the parenthesis at p is prose (lexer.prose_end): where the token
 * ends if so, 0 if not, -1 when it cannot be told here. */
static Py_ssize_t prose_end(const Scan *S, Py_ssize_t p) {
    const byte *d = S->d;
    Py_ssize_t close = paren_close(S, p);
    if (close <= 0) return close;
    Py_ssize_t from = p + 1, run = 0, i;
    if (memchr(d + from, '/', (size_t)(close - from))) return 0;
    for (i = from; i < close; i++) { /* [A-Za-z]{3} */
        run = is_alpha(d[i]) ? run + 1 : 0;
        if (run == 3) return close + 1;
    }
    for (i = from; i < close && is_ws(d[i]); i++) {} /* ^\s*[A-Za-z]+(?![A-Za-z0-9]) */
    Py_ssize_t letters = i;
    while (i < close && is_alpha(d[i])) i++;
    if (i > letters && (i == close || !is_digit(d[i]))) return close + 1;
    return 0;
}

/* The rest of the lexer's tokens that start at p and neither end a game nor
 * nest: their end, or -1 to bail. */
static Py_ssize_t other_end(const Scan *S, Py_ssize_t p) {
    const byte *d = S->d;
    Py_ssize_t le = S->le, i;
    byte c = d[p];
    if (is_digit(c)) {
        for (i = p; i < le && is_digit(d[i]); i++) {}
        if (i < le && d[i] == '.') /* [0-9]+\.(?:\.\.)? */
            return i + 2 < le && d[i + 1] == '.' && d[i + 2] == '.' ? i + 3 : i + 1;
    }
    if (c == '.' && p + 1 < le && d[p + 1] == '.') return p + 2 < le && d[p + 2] == '.' ? p + 3 : p + 2;
    if (is_digit(c) || is_alpha(c)) {
        Py_ssize_t len = move_len(S, p);
        if (len) return p + len;
    }
    if (c == '$' && p + 1 < le && is_digit(d[p + 1])) {
        for (i = p + 1; i < le && is_digit(d[i]); i++) {}
        return i;
    }
    if (c == '!' || c == '?') {
        for (i = p; i < le && (d[i] == '!' || d[i] == '?'); i++) {}
        return i;
    }
    if (c == ']' || c == '}') return p + 1; /* \S */
    return junk_end(S, p);
}

/* The commonest tokens, a move number ("12.") or a move of two numbers
 * ("32-28", "19x28") followed by a space, read in one pass: where the
 * token ends, or 0 for any other text (other_end and result_len read it).
 * (About 60 instructions a token less than the general path below.) */
static inline Py_ssize_t common_end(const Scan *S, Py_ssize_t p) {
    const byte *d = S->d;
    Py_ssize_t le = S->le, i = p + 1, j, k;
    while (i < le && is_digit(d[i])) i++;
    if (i >= le) return 0;
    byte x = d[i];
    if (x == '.') /* a number: [0-9]+\. but not [0-9]+\.\.\. */
        return i + 1 < le && d[i + 1] == '.' ? 0 : i + 1;
    if ((x != '-' && x != 'x') || i - p > 3) return 0;
    for (j = k = i + 1; k < le && is_digit(d[k]); k++) {}
    if (k == j || k - j > 3) return 0;
    if (k < le && !is_ws(d[k])) return 0;
    if (i - p == 1 && k - j == 1 && x == '-') { /* 1-0, 2-0, 0-0, 0-1, 0-2, 1-1: results */
        byte a = d[p], b = d[j];
        if (((a == '1' || a == '2') && b == '0') || (a == '0' && b <= '2') || (a == '1' && b == '1'))
            return 0;
    }
    j = skip_blanks(S, k); /* the move may go on: "26x17 x10" */
    return j < le && is_sep(d[j]) ? 0 : k;
}

/* A byte that may start or end a token that matters here (a tag, a
 * comment, a parenthesis, "*", a setup or a result written with ":" or
 * "/"), or that is not ASCII. */
static inline int special(byte c) {
    return ((byte)(c - '(') <= 2) | (c == '%') | (c == '/') | (c == ':') | (c == ';') |
           (c == '[') | (c == ']') | (c == '{') | (c == '}') | (c >= 0x80);
}

/* Whether "a-b" followed by n may be a result (a looser test than
 * result_len: both digits 0-2, n not a digit). */
static inline int maybe_result(byte a, byte dash, byte b, byte n) {
    return (dash == '-') & ((byte)(a - '0') <= 2) & ((byte)(b - '0') <= 2) & ((byte)(n - '0') > 9);
}

#ifdef __SSE2__
#include <emmintrin.h>
/* special() and maybe_result() on 16 positions from d at once: nonzero if
 * any holds. */
static inline int any16(const byte *d) {
#define SPLAT(c) _mm_set1_epi8((char)(c))
#define EQ(v, c) _mm_cmpeq_epi8(v, SPLAT(c))
#define UPTO(v, low, most) /* low <= byte <= low + most, unsigned */ \
    _mm_cmpeq_epi8(_mm_min_epu8(_mm_sub_epi8(v, SPLAT(low)), SPLAT(most)), \
                   _mm_sub_epi8(v, SPLAT(low)))
    __m128i v = _mm_loadu_si128((const __m128i *)d);
    __m128i hit = _mm_or_si128(UPTO(v, '(', 2), _mm_or_si128(EQ(v, '%'), EQ(v, '/')));
    hit = _mm_or_si128(hit, _mm_or_si128(UPTO(v, ':', 1), EQ(v, '[')));
    hit = _mm_or_si128(hit, _mm_or_si128(EQ(v, ']'), _mm_or_si128(EQ(v, '{'), EQ(v, '}'))));
    hit = _mm_or_si128(hit, v); /* the top bit: not ASCII */
    __m128i dash = EQ(_mm_loadu_si128((const __m128i *)(d + 1)), '-');
    __m128i b = _mm_loadu_si128((const __m128i *)(d + 2));
    __m128i n = _mm_loadu_si128((const __m128i *)(d + 3));
    __m128i result = _mm_and_si128(dash, _mm_and_si128(UPTO(v, '0', 2), UPTO(b, '0', 2)));
    result = _mm_andnot_si128(UPTO(n, '0', 9), result);
    hit = _mm_or_si128(hit, result);
#undef SPLAT
#undef EQ
#undef UPTO
    return _mm_movemask_epi8(hit);
}
#endif

/* Whether the line from p holds no token that matters here: none of the
 * bytes above, and nothing that may be a result, wherever the tokens start.
 * Most lines of movetext are such. Checking a line so, 16 bytes at a time,
 * instead of reading its tokens took splitting the OCA from 14 to 9
 * instructions a byte (cachegrind). */
static int harmless(const Scan *S, Py_ssize_t p) {
    const byte *d = S->d;
    Py_ssize_t le = S->le, i = p;
    int any = 0;
#ifdef __SSE2__
    for (; i + 19 <= le && !any; i += 16) any = any16(d + i);
    if (!any && i < le) { /* the rest, followed by spaces */
        byte rest[40];
        memset(rest, ' ', sizeof rest);
        memcpy(rest, d + i, (size_t)(le - i));
        any = any16(rest) | any16(rest + 16);
    }
#else
    for (; i < le && !any; i++)
        any = special(d[i]) |
              (i + 2 < le && maybe_result(d[i], d[i + 1], d[i + 2], i + 3 < le ? d[i + 3] : ' '));
#endif
    return !any;
}

/* Read one game's tokens from *pos as offsets._skip does: how it ended
 * (G_*), *found whether it had a token that makes a game, *pos where the
 * text after it starts (the tag that ends it, for G_TAG). */
static int scan_game(Scan *S, Py_ssize_t *pos, int *found) {
    const byte *d = S->d;
    int in_headers = 1, nesting = 0, more;
    Py_ssize_t p = *pos, e;
    *found = 0;
    int fresh = p == S->ls;
    for (;;) {
        if (fresh) { /* a whole line, read at once when nothing in it matters */
            fresh = 0;
            if (d[p] != '[' && harmless(S, p)) {
                while (p < S->le && is_ws(d[p])) p++;
                if (p < S->le) *found = 1, in_headers = 0;
                p = S->le;
            }
        }
        for (;;) { /* spaces and the commonest tokens, without the switch below */
            while (p < S->le && is_ws(d[p])) p++;
            if (p >= S->le || !is_digit(d[p]) || (e = common_end(S, p)) == 0) break;
            p = e;
            *found = 1, in_headers = 0;
        }
        if (p >= S->le) {
            more = next_line(S);
            if (more < 0) return G_EOF;
            if (more > 0) return G_MORE;
            p = S->ls;
            fresh = 1;
            continue;
        }
        byte c = d[p];
        if (c >= 0x80) break;
        switch (c) {
        case '[':
            e = tag_end(S, p);
            if (!e && S->final && S->le == S->n &&
                memchr(d + p + 1, ']', (size_t)(S->le - p - 1)) == NULL) {
                e = -1; /* bail: on the last line, with no line break, a tag
                           the end of the file cuts, which the pure scanner reads */
                break;
            }
            if (!e) {
                p++; /* a "[" alone: junk */
                *found = 1, in_headers = 0;
                continue;
            }
            if (!in_headers) {
                *pos = p;
                return G_TAG;
            }
            *found = 1;
            p = e;
            continue;
        case '{': {
            const byte *close = memchr(d + p + 1, '}', (size_t)(S->le - p - 1));
            while (close == NULL) { /* a comment over several lines */
                more = next_line(S);
                if (more < 0) return G_EOF; /* never closed: the rest of the text */
                if (more > 0) return G_MORE;
                close = memchr(d + S->ls, '}', (size_t)(S->le - S->ls));
            }
            p = close - d + 1;
            continue;
        }
        case ';':
        case '%':
            p = S->le;
            continue;
        case '(':
            e = p + 1;
            while (e < S->le && (d[e] == '!' || d[e] == '?')) e++;
            if (e > p + 1 && e < S->le && d[e] == ')') {
                p = e + 1; /* a strength, "(!?)" */
                *found = 1, in_headers = 0;
                continue;
            }
            e = prose_end(S, p);
            if (e < 0) break;
            if (e > 0) {
                p = e;
                continue;
            }
            nesting++;
            p++;
            *found = 1, in_headers = 0;
            continue;
        case ')':
            nesting--;
            p++;
            *found = 1, in_headers = 0;
            continue;
        case '*':
            *found = 1, in_headers = 0;
            if (nesting <= 0) {
                *pos = p + 1;
                return G_RESULT;
            }
            p++;
            continue;
        case '/': {
            const byte *slash = memchr(d + p + 1, '/', (size_t)(S->le - p - 1));
            e = slash ? slash - d + 1 : junk_end(S, p);
            break;
        }
        default:
            if (is_digit(c) && (e = result_len(S, p)) > 0) {
                *found = 1;
                if (nesting <= 0) {
                    *pos = p + e;
                    return G_RESULT;
                }
                p += e;
                in_headers = 0;
                continue;
            }
            e = other_end(S, p);
        }
        if (c == '(' || e < 0) break;
        p = e;
        *found = 1, in_headers = 0;
    }
    *pos = p;
    return G_BAIL;
}

/* Whether the bytes from..to are ASCII whitespace: 1, 0 if not, -1 if
 * one is not ASCII. */
static int spaces(const Scan *S, Py_ssize_t from, Py_ssize_t to) {
    for (Py_ssize_t i = from; i < to; i++) {
        if (S->d[i] >= 0x80) return -1;
        if (!is_ws(S->d[i])) return 0;
    }
    return 1;
}

/* Append a game start (offset, line, column, end of its line) to out. */
static int emit(PyObject *out, Py_ssize_t base, Py_ssize_t offset, Py_ssize_t line, Py_ssize_t column,
                Py_ssize_t line_end) {
    Py_ssize_t values[4] = {base + offset, line, column, base + line_end};
    for (int k = 0; k < 4; k++) {
        PyObject *value = PyLong_FromSsize_t(values[k]);
        if (value == NULL || PyList_Append(out, value) < 0) {
            Py_XDECREF(value);
            return -1;
        }
        Py_DECREF(value);
    }
    return 0;
}

/* The first line from the current one that is not blank: 0 (S at it), 1
 * for more data, -1 at the end, 2 to bail. */
static int first_text_line(Scan *S) {
    for (;;) {
        int blank = spaces(S, S->base_off, S->le);
        if (blank < 0) return 2;
        if (!blank) return 0;
        int more = next_line(S);
        if (more) return more;
    }
}

/* The games from one game start; see py_split_games. */
static int split(Scan *S, Py_ssize_t pos, Py_ssize_t skip, Py_ssize_t base, PyObject *out,
                 Py_ssize_t *stop) {
    Py_ssize_t start = pos, start_line = S->line, start_col = S->base_col, p = pos;
    int blank = S->base_col <= 1, found, state;
    for (;;) {
        if (blank) { /* the game starts at the first line that is not blank */
            state = first_text_line(S);
            if (state) {
                *stop = S->ls;
                return state < 0 ? S_END : state == 1 ? S_MORE : S_BAIL;
            }
            start = p = S->ls, start_line = S->line, start_col = 1;
        }
        Py_ssize_t start_nl = S->nl;
        int how = scan_game(S, &p, &found);
        *stop = p;
        if (how == G_MORE) return S_MORE;
        if (how == G_BAIL) return S_BAIL;
        if (found) {
            if (skip > 0)
                skip--;
            else if (emit(out, base, start, start_line, start_col, start_nl) < 0)
                return S_ERROR;
        }
        if (how == G_EOF) return S_END;
        Py_ssize_t q = p;
        if (how == G_RESULT) { /* the next game starts on this line or after a blank line */
            while (q < S->le && is_ws(S->d[q])) q++;
            if (q < S->le && S->d[q] >= 0x80) return S_BAIL;
            if (q >= S->le) {
                int more = next_line(S);
                if (more) return more < 0 ? S_END : S_MORE;
                blank = 1, p = S->ls;
                continue;
            }
        } else { /* a tag: the game starts at it, or at its line if only spaces come before */
            int prefix = spaces(S, S->base_off, q);
            if (prefix < 0) return S_BAIL;
            if (prefix) q = S->base_off - (S->base_col - 1);
        }
        blank = 0;
        if (q == S->base_off - (S->base_col - 1)) {
            start_col = 1;
        } else {
            if (!ascii(S, S->base_off, q)) return S_BAIL; /* columns count characters */
            start_col = S->base_col + (q - S->base_off);
        }
        start = q, start_line = S->line;
    }
}

/* split_games(data, pos, line, column, skip, final, base) -> (starts, state, stop)
 *
 * The games of ``data`` (bytes), scanning from the game start at ``pos``
 * on line ``line`` at column ``column`` (1: ``pos`` starts a line, and the
 * game starts at the first line from there that is not blank). ``starts``
 * holds four ints per game: offset, line, column, where its line ends; the
 * first ``skip`` games found are left out (the caller's last game, scanned
 * again). ``state``: 0 at the end of the games, 1 when the data ends in a
 * game (not ``final``: call again with more from the last game's start), 2
 * when the pure scanner must go on from there (``stop`` is where this one
 * stopped). ``base`` is added to the offsets and line ends: where ``data``
 * starts in the stream. */
PyObject *py_split_games(PyObject *unused, PyObject *const *args, Py_ssize_t nargs) {
    (void)unused;
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "split_games takes 7 arguments");
        return NULL;
    }
    Py_ssize_t values[4];
    for (int k = 0; k < 4; k++) {
        values[k] = PyLong_AsSsize_t(args[k + 1]);
        if (values[k] == -1 && PyErr_Occurred()) return NULL;
    }
    int final = PyObject_IsTrue(args[5]);
    if (final < 0) return NULL;
    Py_ssize_t base = PyLong_AsSsize_t(args[6]);
    if (base == -1 && PyErr_Occurred()) return NULL;
    Py_buffer view;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_SIMPLE) < 0) return NULL;
    Py_ssize_t pos = values[0];
    if (pos < 0 || pos > view.len || values[1] < 1 || values[2] < 1 || values[3] < 0) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "split_games: position out of range");
        return NULL;
    }
    Scan S = {view.buf, view.len, final, 0, values[1], pos, pos, pos, pos, values[2]};
    S.cr = memchr(S.d + pos, '\r', (size_t)(S.n - pos)) != NULL;
    PyObject *out = PyList_New(0);
    Py_ssize_t stop = pos;
    int state = S_MORE;
    if (out != NULL) {
        if (pos == S.n && !final)
            state = S_MORE;
        else if (pos == S.n)
            state = S_END;
        else if (find_line_end(&S))
            state = S_MORE;
        else
            state = split(&S, pos, values[3], base, out, &stop);
    }
    PyBuffer_Release(&view);
    if (out == NULL || state == S_ERROR) {
        Py_XDECREF(out);
        return NULL;
    }
    return Py_BuildValue("(Nin)", out, state, stop);
}

/* Whether a byte is a control a text file has few of: the C0 controls but
 * tab, line feed, form feed, carriage return and Ctrl-Z, and DEL. */
static int is_control(byte c) {
    return (c < 0x20 && c != '\t' && c != '\n' && c != 0x0c && c != '\r' && c != 0x1a) ||
           c == 0x7f;
}

/* How many bytes of `data` are such controls (draughts.pdn._text.refuse_binary,
 * whose pure count, by bytes.translate, is the oracle): 16 bytes at a time
 * where SSE2 is there, 2.6 times as fast as bytes.translate on a 64 KiB
 * block, whose count was 3.6 % of the instructions of validating the
 * International corpus (callgrind). */
PyObject *py_count_controls(PyObject *unused, PyObject *data) {
    (void)unused;
    if (!PyBytes_Check(data)) {
        PyErr_SetString(PyExc_TypeError, "count_controls(data): data must be bytes");
        return NULL;
    }
    const byte *d = (const byte *)PyBytes_AS_STRING(data);
    Py_ssize_t n = PyBytes_GET_SIZE(data), count = 0, i = 0;
#ifdef __SSE2__
    const __m128i zero = _mm_setzero_si128(), last = _mm_set1_epi8(0x1f);
    const __m128i tab = _mm_set1_epi8('\t'), lf = _mm_set1_epi8('\n'), ff = _mm_set1_epi8(0x0c);
    const __m128i cr = _mm_set1_epi8('\r'), sub = _mm_set1_epi8(0x1a), del = _mm_set1_epi8(0x7f);
    while (i + 16 <= n) {
        __m128i tally = zero; /* a count a lane, up to 255 blocks */
        for (int k = 0; k < 255 && i + 16 <= n; k++, i += 16) {
            __m128i c = _mm_loadu_si128((const __m128i *)(d + i));
            __m128i low = _mm_cmpeq_epi8(_mm_min_epu8(c, last), c); /* c <= 0x1f */
            __m128i allowed = _mm_or_si128(
                _mm_or_si128(_mm_cmpeq_epi8(c, tab), _mm_cmpeq_epi8(c, lf)),
                _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(c, ff), _mm_cmpeq_epi8(c, cr)),
                             _mm_cmpeq_epi8(c, sub)));
            __m128i control = _mm_or_si128(_mm_andnot_si128(allowed, low), _mm_cmpeq_epi8(c, del));
            tally = _mm_sub_epi8(tally, control); /* a true lane is -1 */
        }
        __m128i sums = _mm_sad_epu8(tally, zero);
        count += _mm_cvtsi128_si32(sums) + _mm_cvtsi128_si32(_mm_srli_si128(sums, 8));
    }
#endif
    for (; i < n; i++) count += is_control(d[i]);
    return PyLong_FromSsize_t(count);
}
