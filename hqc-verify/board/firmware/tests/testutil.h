/* Helpers shared by the firmware tests (board and host builds). */
#ifndef TESTUTIL_H
#define TESTUTIL_H
#include <stdint.h>
#include "platform.h"

static uint64_t rng_state = 0x243f6a8885a308d3ull;   /* fixed seed (xorshift64*) */
static inline uint32_t rnd32(void)
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545F4914F6CDD1Dull) >> 32);
}

/* 64-bit FNV-1a over little-endian words */
static inline uint64_t hash_words(const uint32_t *w, unsigned n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned i = 0; i < n; i++)
        for (unsigned b = 0; b < 4; b++) {
            h ^= (w[i] >> (8 * b)) & 0xff;
            h *= 0x100000001b3ull;
        }
    return h;
}

static unsigned t_pass, t_fail;
/* prints "PASS: what" or "FAIL: what" (hqc-verify board collects both) */
static inline void check(int ok, const char *what)
{
    if (ok) {
        t_pass++;
        plat_puts("PASS: "); put_line(what);
    } else {
        t_fail++;
        plat_puts("FAIL: "); put_line(what);
    }
}

static inline void put_hash(const char *label, uint64_t h)
{
    char b[17];
    for (int i = 0; i < 16; i++) b[i] = "0123456789abcdef"[(h >> (60 - 4 * i)) & 15];
    b[16] = 0;
    plat_puts(label); plat_puts(" "); put_line(b);
}

static inline int finish(void)
{
    put_u32(t_pass); plat_puts(" passed, "); put_u32(t_fail); put_line(" failed");
    return t_fail ? 1 : 0;
}

static inline unsigned popcount_words(const uint32_t *w, unsigned n)
{
    unsigned c = 0;
    for (unsigned i = 0; i < n; i++) c += (unsigned)__builtin_popcount(w[i]);
    return c;
}
#endif
