/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rcuboost_draw.h - the module's random draws, in integers only (no FPU in
 * the kernel).  Included by rcuboost_kmod.c and, outside the kernel, by
 * tests/test_kdraw.c, which checks that what the module draws has the
 * scenario's distribution.
 *
 *   exp(MEAN)          -ln(u) * MEAN, ln from log2 in Q16
 *   uniform(LO, HI)    LO + (HI - LO) * u
 *   normal, lognormal, pareto
 *                      inverse transform through a quantile table that
 *                      `rcuboost kernel-program` computes with GSL
 *                      (dist_quantile()), dense in both tails: u < 1/2 is
 *                      looked up by s = -log2(u), u >= 1/2 by
 *                      t = -log2(1 - u), each on a grid of RCUBOOST_QSTEPS
 *                      points per octave from 1 to 32, with linear
 *                      interpolation between grid points.  A 32-bit u never
 *                      leaves the table, so the tails reach as far as the
 *                      model's draws do (to 2^-32).
 */
#ifndef RCUBOOST_DRAW_H
#define RCUBOOST_DRAW_H

#ifdef __KERNEL__
#include <linux/bitops.h>
#include <linux/math64.h>
#include <linux/types.h>
#else
#include <stdint.h>
typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t s64;
static inline int fls64(u64 x)
{
        return x ? 64 - __builtin_clzll(x) : 0;
}
static inline u64 mul_u64_u32_shr(u64 a, u32 mul, unsigned int shift)
{
        return (u64)(((unsigned __int128)a * mul) >> shift);
}
#endif

/* The line format `rcuboost kernel-program` writes and the module reads;
 * 2 added the quantile tables, 3 a task's start_in line. */
#define RCUBOOST_PROGRAM_FORMAT 3

/* dist.h's enum dist_kind, as kernel-program writes it */
enum { RCUBOOST_DIST_CONST, RCUBOOST_DIST_EXP, RCUBOOST_DIST_UNIFORM, RCUBOOST_DIST_NORMAL,
       RCUBOOST_DIST_LOGNORMAL, RCUBOOST_DIST_PARETO };

/* The quantile grid: point j of each half is at -log2 = 1 + j / QSTEPS. */
#define RCUBOOST_QSTEPS 8
#define RCUBOOST_QPOINTS (31 * RCUBOOST_QSTEPS + 1)

/* A draw's parameters: a and b as the scenario gives them (ns or bytes);
 * for the table kinds, the lower half's quantiles then the upper half's. */
struct rcuboost_dist {
        int kind;
        s64 a, b;
        const s64 *lower, *upper;       /* RCUBOOST_QPOINTS each */
};

/* xorshift64*: the task's stream */
static inline u32 rcuboost_rand32(u64 *state)
{
        *state ^= *state >> 12;
        *state ^= *state << 25;
        *state ^= *state >> 27;
        return (u32)((*state * 0x2545F4914F6CDD1DULL) >> 32);
}

/* log2(x) in Q16 for x >= 1: the integer part from fls64(), the fraction
 * bit by bit by squaring the mantissa (Q30). */
static inline u64 rcuboost_log2_q16(u64 x)
{
        int ip = fls64(x) - 1;
        u64 m = ip >= 30 ? x >> (ip - 30) : x << (30 - ip);
        u64 y = (u64)ip << 16;
        int i;

        for (i = 15; i >= 0; i--) {
                m = (m * m) >> 30;
                if (m >= (1ULL << 31)) {
                        m >>= 1;
                        y |= 1ULL << i;
                }
        }
        return y;
}

/* -log2(v / 2^32) in Q16, for v in [1, 2^32] */
static inline u64 rcuboost_neglog2_q16(u64 v)
{
        return (32ULL << 16) - rcuboost_log2_q16(v);
}

/* The table at Q16 grid position s (1 <= s <= 32, in octaves). */
static inline s64 rcuboost_lookup(const s64 *tab, u64 s_q16)
{
        u64 pos = (s_q16 - (1ULL << 16)) * RCUBOOST_QSTEPS;
        u64 j = pos >> 16;
        u32 frac = pos & 0xffff;
        s64 lo, hi;

        if (j >= RCUBOOST_QPOINTS - 1)
                return tab[RCUBOOST_QPOINTS - 1];
        lo = tab[j];
        hi = tab[j + 1];
        /* quantiles are monotone: hi - lo has the sign of the half */
        return hi >= lo ? lo + (s64)mul_u64_u32_shr((u64)(hi - lo), frac, 16)
                        : lo - (s64)mul_u64_u32_shr((u64)(lo - hi), frac, 16);
}

static inline s64 rcuboost_draw(const struct rcuboost_dist *d, u64 *state)
{
        u64 x, e;

        switch (d->kind) {
        case RCUBOOST_DIST_EXP:
                /* -ln(u), u = x / 2^32 in (0, 1]: ln 2 * (32 - log2 x) */
                x = (u64)rcuboost_rand32(state) + 1;
                e = (rcuboost_neglog2_q16(x) * 45426ULL) >> 16;  /* Q16 */
                return (s64)mul_u64_u32_shr((u64)d->a, (u32)e, 16);
        case RCUBOOST_DIST_UNIFORM:
                /* 128-bit products: a range over 2^32 ns (4.3 s) would overflow u64 */
                return d->a + (s64)mul_u64_u32_shr((u64)(d->b - d->a), rcuboost_rand32(state), 32);
        case RCUBOOST_DIST_NORMAL:
        case RCUBOOST_DIST_LOGNORMAL:
        case RCUBOOST_DIST_PARETO:
                x = rcuboost_rand32(state);
                if (x < (1ULL << 31))   /* u = (x + 1) / 2^32 in (0, 1/2] */
                        return rcuboost_lookup(d->lower, rcuboost_neglog2_q16(x + 1));
                /* 1 - u = (2^32 - x) / 2^32 in (0, 1/2] */
                return rcuboost_lookup(d->upper, rcuboost_neglog2_q16((1ULL << 32) - x));
        default:
                return d->a;
        }
}

#endif /* RCUBOOST_DRAW_H */
