/* Game records replayed for draughts.ml.dataset, many games in one call
 * with no Python per move (draughts/ml/_records.py drives it; its pure
 * twin, the reader with a visitor, is the oracle the tests hold it to),
 * and a dataset's compact positions expanded into observations.
 *
 * replay() reads the movetext of each game (the bytes after its tags) from
 * the variant's start, with a VecEnv's tables: each position in the compact
 * form of draughts.ml.Dataset (a byte per square, Black to move, the rule
 * planes' values, the king-move counts) and the action index of the move
 * played there. It answers only for a movetext it reads exactly as the
 * fast check of the PDN reader (check() in
 * draughts/pdn/_native/pdn_check.c) reads it,
 * with no error, no warning and a result: a narrower text than that one
 * (printable ASCII, tabs and line ends outside comments; the moves as
 * check() takes them); any other game is refused and read by the reader.
 * expand() turns compact positions into observations, on threads. */
#include "ml_step.h"

#define MAX_WRITTEN 32

enum { GAME_READ = 0, GAME_REFUSED = 1 };

typedef struct {
    const uint8_t *s;
    Py_ssize_t len;
} Text;

static int at(const Text *t, Py_ssize_t i) { return i < t->len ? t->s[i] : 0; }
static int is_dig(int c) { return c >= '0' && c <= '9'; }
/* The blanks read here: what the reader's isspace() also takes, and no
 * other byte (a text with another space character is refused, never read
 * otherwise). */
static int blank(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }
static int blank_or_end(const Text *t, Py_ssize_t i) { return i >= t->len || blank(t->s[i]); }

/* The results check() reads, in its order: a result's index here is what
 * replay() reports (draughts/ml/_records.py reads them). */
static const char *const RESULTS[] = {"1/2-1/2", "1-0", "0-1", "2-0", "0-2", "1-1", "0-0", "*"};
#define N_RESULTS 8
#define UNFINISHED 7 /* "*": the reader takes the Result tag then; refused here */

static int result_at(const Text *t, Py_ssize_t i, Py_ssize_t *len) {
    for (int k = 0; k < N_RESULTS; k++) {
        const char *r = RESULTS[k];
        Py_ssize_t j = i;
        while (*r && at(t, j) == (unsigned char)*r) r++, j++;
        if (!*r && blank_or_end(t, j)) {
            *len = j - i;
            return k;
        }
    }
    return -1;
}

static int number_at(const Text *t, Py_ssize_t *i) {
    int c = at(t, *i);
    if (c < '1' || c > '9') return 0;
    int n = c - '0';
    (*i)++;
    if (is_dig(at(t, *i))) n = 10 * n + (at(t, (*i)++) - '0');
    return n;
}

static Py_ssize_t spaces(const Text *t, Py_ssize_t i) {
    while (at(t, i) == ' ' || at(t, i) == '\t') i++;
    return i;
}

/* A move at *i as check()'s move_at reads it: the count of its written
 * numbers, 0 for none, -1 for a "-" route of more than two squares. */
static int move_at(const Text *t, Py_ssize_t *i, int written[MAX_WRITTEN], int *capture) {
    Py_ssize_t j = *i;
    int count = 0;
    if ((written[count++] = number_at(t, &j)) == 0) return 0;
    Py_ssize_t k = spaces(t, j);
    int sep = at(t, k);
    if (sep != '-' && sep != 'x') return 0;
    while (at(t, k) == sep) {
        j = spaces(t, k + 1);
        if (count == MAX_WRITTEN || (written[count++] = number_at(t, &j)) == 0) return 0;
        k = spaces(t, j);
    }
    /* The other separator next ("19-23 x 2-0"): the reader reads one move
     * of both, and may find it cut rather than illegal. */
    if (at(t, k) == '-' || at(t, k) == 'x') return 0;
    if (!blank_or_end(t, j)) return 0;
    *capture = sep == 'x';
    *i = j;
    return sep == '-' && count > 2 ? -1 : count;
}

/* Past blanks, comments, NAGs and move numbers from *i: 1 with *i at a
 * move; 0 at a result with only blanks after it (its index in *result);
 * -1 for anything else (the end without a result included: refused). */
static int next_move(const Text *t, Py_ssize_t *i, int nag_ok, int *result) {
    for (Py_ssize_t p = *i;;) {
        while (p < t->len && blank(t->s[p])) p++;
        if (p >= t->len) return -1;
        int c = t->s[p];
        Py_ssize_t len = 0;
        /* Every result but "*" has '-' or '/' second: a move number or a
         * move of two-digit squares is passed over without comparing it to
         * each result (that took a tenth of the replay: 89,464 instructions
         * a game before, 80,184 now; callgrind, the OCA's first 1,000 games,
         * 2026-12-05). */
        int d = at(t, p + 1);
        int r = c == '*' || (c >= '0' && c <= '2' && (d == '-' || d == '/'))
                    ? result_at(t, p, &len)
                    : -1;
        if (r >= 0) {
            for (p += len; p < t->len; p++)
                if (!blank(t->s[p])) return -1;
            *result = r;
            return 0;
        }
        if (c == '{') { /* anything but '}' inside: its bytes decode to no '}' */
            while (p < t->len && t->s[p] != '}') p++;
            if (p >= t->len) return -1;
            p++;
            continue;
        }
        if (c == '$' && is_dig(at(t, p + 1))) {
            Py_ssize_t start = ++p;
            while (is_dig(at(t, p))) p++;
            if (!nag_ok || p - start > 9) return -1;
            continue;
        }
        if (!is_dig(c)) return -1;
        Py_ssize_t j = p;
        while (is_dig(at(t, j))) j++;
        if (at(t, j) == '.') {
            p = j + 1;
            if (at(t, p) == '.' && at(t, p + 1) == '.') p += 2;
            continue;
        }
        *i = p;
        return 1;
    }
}

/* The move written as squares sq[0..count-1] with its action index into
 * *m: the one move check() takes (play_written in
 * draughts/pdn/_native/pdn_check.c: the only capture between the squares,
 * or with exactly that route when written in full; else the step between
 * them); 0 where it takes none or would warn,
 * -1 out of memory. Only captures are generated (they are mandatory): a
 * step is looked up, and its action is its pair's (steps never share a
 * pair); a capture's too unless another capture shares its pair, where
 * ml_generate() ranks them (rare). Generating every move, steps and ranks
 * included, took a third of the replay's time (perf, the OCA, 2026-12-04). */
static int chosen_move(const VecEnvObject *e, Game *g, RouteList *l, const int *sq, int count,
                       int capture, int dash_captures, Legal *m, bb_t *taken) {
    const Rules *r = &e->core->rules;
    int c = g->turn, origin = sq[0], dest = sq[count - 1];
    Side side = {g->bb[c], g->bb[2 + c], g->bb[1 - c], g->bb[3 - c]};
    l->len = 0;
    long n = ml_core->gen_captures(r, c, &side, 0, l);
    if (n < 0) return -1;
    const Route *chosen = NULL;
    Route step;
    int matches = 0, pair = 0;
    for (size_t k = 0; k < l->len; k++) {
        const Route *route = &l->items[k];
        if (route->origin != origin || route->dest != dest) continue;
        pair++;
        if (count > 2) { /* a route written in full: that route exactly */
            if (route->ncaps + 1 != count) continue;
            int same = 1;
            for (int s = 1; s < count - 1 && same; s++) same = route->path[s] == sq[s];
            if (!same) continue;
        }
        chosen = route;
        matches++;
    }
    if (n == 0 && count == 2 && ml_core->is_step(r, c, &side, origin, dest, 0, &step)) {
        chosen = &step;
        matches = pair = 1;
    }
    if (matches != 1) return 0;
    int is_capture = chosen->ncaps > 0;
    if (is_capture ? !capture && !dash_captures : capture) return 0; /* the reader warns */
    int from = e->core->number[origin], to = e->core->number[dest];
    if (e->perspective && c == 1) from = e->turned[from], to = e->turned[to];
    *m = (Legal){(from - 1) * e->nsq + to - 1, chosen->origin, chosen->dest, chosen->crowned,
                 (uint8_t)is_capture};
    *taken = chosen->captured;
    if (pair == 1) return 1;
    bb_t captured = chosen->captured;
    int status = ml_generate(e, g, l, NULL);
    if (status == -1) return -1;
    for (int k = 0; status == 0 && k < g->nmoves; k++) {
        const Legal *legal = &g->moves[k];
        if (legal->origin == origin && legal->dest == dest && legal->is_capture &&
            g->captured[k] == captured) {
            *m = *legal;
            return 1;
        }
    }
    return 0;
}

/* One thread's rows, grown as games are read: the compact positions (see
 * draughts/ml/data.py; per row nsq bytes of pieces, a byte for Black to
 * move, nvalues floats, 4 bytes of king moves) and the actions. */
typedef struct {
    uint8_t *pieces, *black, *kings;
    float *values;
    int64_t *actions;
    int nrows, caprows;
    int hint; /* the rows first made room for */
} Rows;

static int grown(void **items, size_t n, size_t size) {
    void *more = realloc(*items, n * (size ? size : 1));
    if (more == NULL) return -1;
    *items = more;
    return 0;
}

static int room(const VecEnvObject *e, Rows *r) {
    if (r->nrows < r->caprows) return 0;
    if (r->caprows > INT_MAX / 2) return -1;
    int n = r->caprows ? 2 * r->caprows : r->hint > 1024 ? r->hint : 1024;
    size_t rows = (size_t)n, nvalues = (size_t)((e->repetition >= 0) + e->ncounting);
    if (grown((void **)&r->pieces, rows, (size_t)e->nsq) < 0 ||
        grown((void **)&r->black, rows, 1) < 0 || grown((void **)&r->kings, rows, 4) < 0 ||
        grown((void **)&r->values, rows, nvalues * sizeof(float)) < 0 ||
        grown((void **)&r->actions, rows, sizeof(int64_t)) < 0)
        return -1;
    r->caprows = n;
    return 0;
}

static void rows_free(Rows *r) {
    free(r->pieces), free(r->black), free(r->kings), free(r->values), free(r->actions);
}

/* The compact position of g as row r->nrows (room() made room for it). */
static void compact_row(const VecEnvObject *e, const Game *g, Rows *r) {
    size_t row = (size_t)r->nrows, nvalues = (size_t)((e->repetition >= 0) + e->ncounting);
    uint8_t *pieces = r->pieces + row * (size_t)e->nsq;
    memset(pieces, 0, (size_t)e->nsq);
    static const uint8_t code[4] = {1, 3, 2, 4}; /* g->bb's order: men W, B, kings W, B */
    for (int p = 0; p < 4; p++)
        for (int half = 0; half < 2; half++)
            for (uint64_t b = (uint64_t)(g->bb[p] >> (64 * half)); b; b &= b - 1)
                pieces[e->core->number[64 * half + ctz64(b)] - 1] = code[p];
    r->black[row] = (uint8_t)(g->turn == 1);
    Drawn d;
    ml_shown(e, g, &d); /* the rule planes' values, as the observation shows them */
    memcpy(r->values + row * nvalues, d.values, nvalues * sizeof(float));
    uint8_t *kings = r->kings + 4 * row;
    for (int c = 0; c < 2; c++) {
        int moved = e->king_limit && g->kn[c] > 0 && g->ksq[c] >= 0;
        kings[2 * c] = moved ? (uint8_t)e->core->number[g->ksq[c]] : 0;
        kings[2 * c + 1] = moved ? (uint8_t)(g->kn[c] < 255 ? g->kn[c] : 255) : 0;
    }
}

typedef struct {
    const VecEnvObject *e;
    const uint8_t *data;
    Py_ssize_t size;
    const int64_t *spans;
    const int16_t *square; /* written number -> compact square, -1 for none */
    int dash_captures;
    int8_t *status, *result;
    int32_t *plies;
    int from, to, failed;
    Rows out;
} ReplayPart;

/* Read game k of the part: its rows appended to p->out (none if refused).
 * -1 out of memory. */
static int read_game(ReplayPart *p, Game *g, RouteList *l, int k) {
    const VecEnvObject *e = p->e;
    int64_t from = p->spans[2 * k], to = p->spans[2 * k + 1];
    p->status[k] = GAME_REFUSED, p->result[k] = -1, p->plies[k] = 0;
    if (from < 0 || to < from || to > p->size || e->king_limit) return 0; /* as check_moves */
    Text t = {p->data + from, (Py_ssize_t)(to - from)};
    if (ml_restart(e, g) < 0) return -1;
    int first = p->out.nrows, plies = 0, written[MAX_WRITTEN], sq[MAX_WRITTEN], capture, result;
    for (Py_ssize_t i = 0;;) {
        int next = next_move(&t, &i, plies > 0, &result);
        if (next == 0 && result != UNFINISHED) break;
        int count = next > 0 ? move_at(&t, &i, written, &capture) : 0;
        int found = 0;
        Legal m;
        bb_t taken = 0;
        for (int s = 0; s < count; s++) sq[s] = p->square[written[s]];
        for (int s = 0; s < count && count > 1; s++)
            if (sq[s] < 0) count = 0;
        if (count > 1) {
            found = chosen_move(e, g, l, sq, count, capture, p->dash_captures, &m, &taken);
            if (found < 0) return -1;
        }
        if (!found) {
            p->out.nrows = first;
            return 0;
        }
        if (room(e, &p->out) < 0) return -1;
        compact_row(e, g, &p->out);
        p->out.actions[p->out.nrows++] = m.action;
        if (ml_play(e, g, &m, taken) < 0) return -1;
        plies++;
    }
    p->status[k] = GAME_READ, p->result[k] = (int8_t)result, p->plies[k] = plies;
    return 0;
}

static void *replay_part(void *arg) {
    ReplayPart *p = arg;
    Game g;
    memset(&g, 0, sizeof g);
    RouteList l;
    ml_core->routes_init(&l);
    for (int k = p->from; k < p->to && !p->failed; k++)
        if (read_game(p, &g, &l, k) < 0) p->failed = 1;
    free(g.keys), free(g.moves), free(g.captured), free(g.hist), free(g.fhist);
    ml_core->routes_free(&l);
    return NULL;
}

/* Run work over parts[0..n-1] on n threads (the calling one included). */
static void run_parts(void *(*work)(void *), void *parts, size_t size, int n) {
#ifdef HAVE_THREADS
    pthread_t ids[MAX_THREADS];
    int started = 1;
    for (; started < n; started++)
        if (pthread_create(&ids[started], NULL, work, (char *)parts + (size_t)started * size) != 0) break;
    for (int t = started; t < n; t++) work((char *)parts + (size_t)t * size); /* could not start one */
    work(parts);
    for (int t = 1; t < started; t++) pthread_join(ids[t], NULL);
#else
    for (int t = 0; t < n; t++) work((char *)parts + (size_t)t * size);
#endif
}

static int clamp_threads(long threads, long work, long least) {
    long most = work / least;
    if (threads > most) threads = most;
    if (threads > MAX_THREADS) threads = MAX_THREADS;
    return threads < 1 ? 1 : (int)threads;
}

enum { F_PIECES, F_BLACK, F_VALUES, F_KINGS, F_ACTIONS };

static const void *field(const Rows *r, int f) {
    switch (f) {
    case F_PIECES: return r->pieces;
    case F_BLACK: return r->black;
    case F_VALUES: return r->values;
    case F_KINGS: return r->kings;
    default: return r->actions;
    }
}

/* One field of the parts' rows (size bytes a row), joined in the parts'
 * order into a new bytearray (writable: the dataset's arrays may be views
 * of it); NULL with an exception. */
static PyObject *joined(const ReplayPart *parts, int n, int f, size_t size) {
    Py_ssize_t total = 0;
    for (int t = 0; t < n; t++) total += parts[t].out.nrows;
    PyObject *bytes = PyByteArray_FromStringAndSize(NULL, total * (Py_ssize_t)size);
    if (bytes == NULL) return NULL;
    char *to = PyByteArray_AS_STRING(bytes);
    for (int t = 0; t < n; t++) {
        size_t k = (size_t)parts[t].out.nrows * size;
        if (k) memcpy(to, field(&parts[t].out, f), k);
        to += k;
    }
    return bytes;
}

/* replay(data, spans, numbers, dash_captures, threads)
 *     -> (status, results, plies, pieces, black, values, kings, actions)
 *
 * data: the file's bytes; spans: int64 (start, end) pairs, a game's
 * movetext each; numbers: 100 int16, the square number each written number
 * names (0 for none), as check_moves takes them. Per game (bytes of int8,
 * int8, int32): 0 read or 1 refused, its result's index in RESULTS, its
 * plies; then the rows of the games read, in order (bytearrays): each
 * position's compact form (uint8 pieces, uint8 Black to move, float32
 * values, uint8 king moves; see Rows) and the action played there (int64). */
PyObject *ml_replay(VecEnvObject *e, PyObject *args) {
    Py_buffer data, spans, numbers;
    int dash_captures, threads;
    if (!PyArg_ParseTuple(args, "y*y*y*pi", &data, &spans, &numbers, &dash_captures, &threads))
        return NULL;
    PyObject *answer = NULL, *status = NULL, *result = NULL, *plies = NULL;
    Py_ssize_t n = spans.len / (2 * (Py_ssize_t)sizeof(int64_t));
    if (numbers.len != 100 * (Py_ssize_t)sizeof(int16_t) || n > INT_MAX / 2) {
        PyErr_SetString(PyExc_ValueError, "replay: 100 int16 numbers and int64 spans expected");
        goto done;
    }
    int16_t square[100];
    for (int k = 0; k < 100; k++) {
        int16_t v;
        memcpy(&v, (const char *)numbers.buf + k * (Py_ssize_t)sizeof v, sizeof v);
        square[k] = v >= 1 && v <= MAX_SQUARES && v <= e->core->rules.n ? e->core->sq_of_number[v]
                                                                         : -1;
    }
    status = PyBytes_FromStringAndSize(NULL, n);
    result = PyBytes_FromStringAndSize(NULL, n);
    plies = PyBytes_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(int32_t));
    if (status == NULL || result == NULL || plies == NULL) goto done;
    int parts_n = clamp_threads(threads, (long)n, 64); /* a slice of 64 games at least */
    ReplayPart parts[MAX_THREADS];
    int64_t *span_items = malloc((size_t)(n ? n : 1) * 2 * sizeof *span_items);
    if (span_items == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    memcpy(span_items, spans.buf, (size_t)n * 2 * sizeof *span_items);
    for (int t = 0; t < parts_n; t++) {
        /* Room for the part's rows made once, at a ply per 6 bytes of
         * movetext (7.6 in the OCA file): growing from 1,024 rows copied them
         * and touched new memory at every doubling, a tenth of the replay's
         * time (perf, 2026-12-05). */
        int from = (int)(n * t / parts_n), to = (int)(n * (t + 1) / parts_n);
        int64_t bytes = 0;
        for (int k = from; k < to; k++)
            if (span_items[2 * k + 1] > span_items[2 * k]) bytes += span_items[2 * k + 1] - span_items[2 * k];
        parts[t] = (ReplayPart){e, data.buf, data.len, span_items, square, dash_captures,
                          (int8_t *)PyBytes_AS_STRING(status), (int8_t *)PyBytes_AS_STRING(result),
                          (int32_t *)(void *)PyBytes_AS_STRING(plies),
                          from, to, 0, {0}};
        parts[t].out.hint = bytes / 6 < INT_MAX / 2 ? (int)(bytes / 6) : INT_MAX / 2;
    }
    Py_BEGIN_ALLOW_THREADS
    run_parts(replay_part, parts, sizeof(ReplayPart), parts_n);
    Py_END_ALLOW_THREADS
    free(span_items);
    Py_ssize_t total = 0;
    int failed = 0;
    for (int t = 0; t < parts_n; t++) total += parts[t].out.nrows, failed |= parts[t].failed;
    if (failed) {
        PyErr_NoMemory();
    } else {
        size_t nvalues = (size_t)((e->repetition >= 0) + e->ncounting);
        PyObject *pieces = joined(parts, parts_n, F_PIECES, (size_t)e->nsq);
        PyObject *black = joined(parts, parts_n, F_BLACK, 1);
        PyObject *values = joined(parts, parts_n, F_VALUES, nvalues * sizeof(float));
        PyObject *kings = joined(parts, parts_n, F_KINGS, 4);
        PyObject *actions = joined(parts, parts_n, F_ACTIONS, sizeof(int64_t));
        if (pieces && black && values && kings && actions)
            answer = PyTuple_Pack(8, status, result, plies, pieces, black, values, kings, actions);
        Py_XDECREF(pieces);
        Py_XDECREF(black);
        Py_XDECREF(values);
        Py_XDECREF(kings);
        Py_XDECREF(actions);
    }
    for (int t = 0; t < parts_n; t++) rows_free(&parts[t].out);
done:
    Py_XDECREF(status);
    Py_XDECREF(result);
    Py_XDECREF(plies);
    PyBuffer_Release(&data);
    PyBuffer_Release(&spans);
    PyBuffer_Release(&numbers);
    return answer;
}

/* expand(): compact positions into observations, a slice of rows a thread. */
typedef struct {
    const VecEnvObject *e;
    const uint8_t *pieces, *black, *kings;
    const float *values;
    float *out;
    const int *cells; /* square number - 1 -> cell seen by White; by Black: hw - 1 - cell */
    Py_ssize_t from, to;
} Expansion;

static void fill_plane(float *plane, int hw, float value) {
    for (int i = 0; i < hw; i++) plane[i] = value;
}

/* Row i's observation, as ml_draw() writes a game's (the same planes and
 * values; tests/ml/test_data.py holds both to encode()). A code over 4 or
 * a square out of range writes nothing (load() refuses such files). */
static void expand_row(const Expansion *x, Py_ssize_t i) {
    const VecEnvObject *e = x->e;
    int hw = e->hw, nsq = e->nsq, nvalues = (e->repetition >= 0) + e->ncounting;
    float *obs = x->out + (size_t)i * (size_t)e->planes * (size_t)hw;
    const uint8_t *pieces = x->pieces + (size_t)i * (size_t)nsq, *kings = x->kings + 4 * (size_t)i;
    int black = x->black[i] != 0, turned = e->perspective && black;
    memset(obs, 0, (size_t)e->planes * (size_t)hw * sizeof *obs);
    if (black) fill_plane(obs + 4 * hw, hw, 1.0f);
    for (int k = 0; k < nsq; k++) {
        int cell = turned ? hw - 1 - x->cells[k] : x->cells[k], code = pieces[k];
        obs[5 * hw + cell] = 1.0f;
        /* codes 1-4: White's men, kings, Black's men, kings; turned, the
         * side to move's (Black's) planes come first */
        if (code >= 1 && code <= 4) obs[((code - 1) ^ (turned ? 2 : 0)) * hw + cell] = 1.0f;
    }
    for (int v = 0; v < nvalues; v++) {
        float value = x->values[(size_t)i * (size_t)nvalues + (size_t)v];
        if (value != 0.0f) fill_plane(obs + (6 + v) * hw, hw, value);
    }
    for (int c = 0; e->king_limit && c < 2; c++) {
        int square = kings[2 * c], moves = kings[2 * c + 1];
        if (!moves || square < 1 || square > nsq) continue;
        int cell = turned ? hw - 1 - x->cells[square - 1] : x->cells[square - 1];
        obs[(6 + nvalues + (c ^ turned)) * hw + cell] = (float)((double)moves / (double)e->king_limit);
    }
}

static void *expand_part(void *arg) {
    const Expansion *x = arg;
    for (Py_ssize_t i = x->from; i < x->to; i++) expand_row(x, i);
    return NULL;
}

/* expand(rows, out, threads): the observations of compact positions into
 * out (float32, one observation per row). rows: (pieces, black, values,
 * kings), draughts.ml.Dataset's arrays of n rows, C-contiguous. */
PyObject *ml_expand(VecEnvObject *e, PyObject *args) {
    PyObject *rows;
    Py_buffer pieces, black, values, kings, out;
    int threads;
    if (!PyArg_ParseTuple(args, "O!w*i", &PyTuple_Type, &rows, &out, &threads)) return NULL;
    if (!PyArg_ParseTuple(rows, "y*y*y*y*", &pieces, &black, &values, &kings)) {
        PyBuffer_Release(&out);
        return NULL;
    }
    Py_ssize_t n = black.len, nvalues = (e->repetition >= 0) + e->ncounting;
    Py_ssize_t size = (Py_ssize_t)e->planes * e->hw * (Py_ssize_t)sizeof(float);
    PyObject *answer = NULL;
    int cells[MAX_SQUARES];
    for (int k = 0; k < e->nsq; k++) cells[k] = e->cell[e->core->sq_of_number[k + 1]];
    if (pieces.len != n * e->nsq || values.len != n * nvalues * (Py_ssize_t)sizeof(float) ||
        kings.len != 4 * n || out.len != n * size || !PyBuffer_IsContiguous(&out, 'C') ||
        (uintptr_t)out.buf % sizeof(float) || (uintptr_t)values.buf % sizeof(float)) {
        PyErr_SetString(PyExc_ValueError, "expand: arrays of n compact rows and n observations");
    } else {
        int parts_n = clamp_threads(threads, (long)(n < LONG_MAX ? n : LONG_MAX), 1024);
        Expansion parts[MAX_THREADS];
        for (int t = 0; t < parts_n; t++)
            parts[t] = (Expansion){e,     pieces.buf, black.buf, kings.buf, values.buf, out.buf,
                                   cells, n * t / parts_n, n * (t + 1) / parts_n};
        Py_BEGIN_ALLOW_THREADS
        run_parts(expand_part, parts, sizeof(Expansion), parts_n);
        Py_END_ALLOW_THREADS
        answer = Py_NewRef(Py_None);
    }
    PyBuffer_Release(&pieces);
    PyBuffer_Release(&black);
    PyBuffer_Release(&values);
    PyBuffer_Release(&kings);
    PyBuffer_Release(&out);
    return answer;
}
