/* NumPy's PCG64 in C (ml_step.h's Pcg64), for sample_step()'s uniforms
 * drawn on the stepping threads: each thread draws its games' numbers
 * from the generator's state advanced to them (ml_env.c checks the first
 * number against NumPy's own draw). */
#include "ml_step.h"

#ifdef ML_PCG64
/* The published PCG64 multiplier (NumPy's PCG64 and the PCG paper's 128-bit LCG). */
#define PCG_MULTIPLIER ((u128)0x2360ED051FC65DA4ULL << 64 | 0x4385DF649FCCF645ULL)

static inline double pcg_double(Pcg64 *p) {
    p->state = p->state * PCG_MULTIPLIER + p->inc;
    uint64_t folded = (uint64_t)(p->state >> 64) ^ (uint64_t)p->state;
    unsigned turn = (unsigned)(p->state >> 122);
    uint64_t out = (folded >> turn) | (folded << ((64 - turn) & 63));
    return (double)(out >> 11) * (1.0 / 9007199254740992.0);
}

double ml_pcg_double(Pcg64 *p) { return pcg_double(p); }

/* delta steps of the generator at once: the step composed with itself by
 * squaring (x -> a x + c twice is x -> a^2 x + (a + 1) c), log2(delta) rounds. */
u128 ml_pcg_advance(const Pcg64 *p, uint64_t delta) {
    u128 mult = PCG_MULTIPLIER, plus = p->inc, all_mult = 1, all_plus = 0;
    for (; delta; delta >>= 1) {
        if (delta & 1) all_mult *= mult, all_plus = all_plus * mult + plus;
        plus *= mult + 1;
        mult *= mult;
    }
    return all_mult * p->state + all_plus;
}

void ml_draw_uniforms(const Arrays *a, int from, int to) {
    Pcg64 p = *a->pcg;
    if (from > 1) p.state = ml_pcg_advance(a->pcg, (uint64_t)from - 1);
    for (int i = from > 1 ? from : 1; i < to; i++) a->uniforms[i] = pcg_double(&p);
}
#else
typedef int ml_random_empty; /* a C file must declare something */
#endif
