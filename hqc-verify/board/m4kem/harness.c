/* KAT regeneration of the HQC KEM on the emulated Cortex-M4 (QEMU mps2-an386), over the m4kem
 * staticlib (m4kem.h) and the firmware's startup/semihosting layer (../firmware/board.c,
 * platform_common.c, link.ld: 640 KiB RAM, like the NUCLEO-L4R5ZI).
 *
 * Configuration: the semihosting command line (QEMU `-append "..."`), tokens key=value:
 *   level=1|3|5  flavour=v5.0.0|2026-02 (or 0|1)  count=K  first=F  bench=0|1
 * Defaults: level=1 flavour=2026-02 count=1 first=0 bench=1.
 *
 * For each entry i = first .. first+count-1 it prints one line
 *   count=<i> level=<L> flavour=<F> digest=<hex SHA3-256(pk||sk||ct||ss)> ok=<0|1>
 * (ok = Decaps reproduced ss).  The first entry of a run goes through the split API
 * (m4kem_keygen/encaps/decaps on static buffers) with bench_start/bench_stop around each
 * operation when bench=1; the others through hqc_kat_entry.  Stack use is measured by
 * painting the free RAM between .bss and the stack pointer.  Exit status: 0 when every entry
 * ran and had ok=1, 1 otherwise (2 for a bad configuration, 90 for a Rust panic; 95-99 are
 * the fault handlers of board.c). */
#include <stdint.h>
#include <string.h>
#include "platform.h"
#include "m4kem.h"

#define MAX_COUNT 100

extern uint32_t __bss_start__, __bss_end__, __data_start__, __data_end__, __stack_top__;

static uint8_t seeds[MAX_COUNT * 48];
static uint8_t pk[M4KEM_MAX_PK], sk[M4KEM_MAX_SK], ct[M4KEM_MAX_CT];
static uint8_t ss[32], ss2[32], digest[32];
static uint8_t seed_kem[32], msg[M4KEM_MAX_K], salt[16];

/* ---- semihosting command line (SYS_GET_CMDLINE) ---- */
static uint32_t semihost_call(uint32_t op, void *arg)
{
    register uint32_t r0 __asm__("r0") = op;
    register void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}
#define SYS_GET_CMDLINE 0x15

static char cmdline[256];

static const char *get_cmdline(void)
{
    uint32_t block[2] = { (uint32_t)(uintptr_t)cmdline, sizeof cmdline };
    if (semihost_call(SYS_GET_CMDLINE, block) != 0) cmdline[0] = 0;
    cmdline[sizeof cmdline - 1] = 0;
    return cmdline;
}

/* value of "key=" in the command line, or NULL; copies at most cap-1 chars into buf */
static const char *arg_value(const char *cl, const char *key, char *buf, unsigned cap)
{
    unsigned kl = (unsigned)strlen(key);
    const char *p = cl;
    while (*p) {
        while (*p == ' ') p++;
        if (!strncmp(p, key, kl) && p[kl] == '=') {
            p += kl + 1;
            unsigned i = 0;
            while (*p && *p != ' ' && i + 1 < cap) buf[i++] = *p++;
            buf[i] = 0;
            return buf;
        }
        while (*p && *p != ' ') p++;
    }
    return 0;
}

static int parse_u32(const char *s, uint32_t *out)
{
    uint32_t v = 0;
    if (!s || !*s) return 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9') return 0;
        v = v * 10 + (uint32_t)(*s - '0');
    }
    *out = v;
    return 1;
}

/* ---- output ---- */
static void put_hex_bytes(const uint8_t *b, unsigned n)
{
    char buf[65];
    while (n) {
        unsigned c = n > 32 ? 32 : n, i;
        for (i = 0; i < c; i++) {
            buf[2 * i] = "0123456789abcdef"[b[i] >> 4];
            buf[2 * i + 1] = "0123456789abcdef"[b[i] & 15];
        }
        buf[2 * c] = 0;
        plat_puts(buf);
        b += c;
        n -= c;
    }
}

static void put_error(int32_t v)
{
    static const char *const names[] = { "", "bad level", "bad flavour", "null pointer",
        "the multiplier was built for another ring degree", "length rejected by the core" };
    plat_puts("m4kem: error ");
    if (v < 0) { plat_puts("-"); put_u32((uint32_t)(-(v + 1)) + 1u); }
    else put_u32((uint32_t)v);
    if (v < 0 && v >= -5) { plat_puts(" ("); plat_puts(names[-v]); plat_puts(")"); }
    plat_puts("\n");
}

void m4kem_panic(void)
{
    plat_puts("m4kem: Rust panic\n");
    plat_exit(90);
}

/* ---- stack painting ---- */
#define PAINT 0xC5A3C5A3u
#define PAINT_MARGIN 64u   /* bytes left untouched below the painter's own stack pointer */

static __attribute__((noinline)) void paint_stack(void)
{
    uint32_t sp;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    for (volatile uint32_t *p = &__bss_end__; (uint32_t)(uintptr_t)p < sp - PAINT_MARGIN; p++) *p = PAINT;
}

/* bytes of stack ever used since the last paint (distance from the top of RAM to the lowest
   overwritten word) */
static uint32_t stack_used(void)
{
    const volatile uint32_t *p = &__bss_end__;
    while (*p == PAINT) p++;
    return (uint32_t)((uintptr_t)&__stack_top__ - (uintptr_t)p);
}

static void print_entry(uint32_t i, uint32_t level, const char *fname, int ok)
{
    plat_puts("count="); put_u32(i);
    plat_puts(" level="); put_u32(level);
    plat_puts(" flavour="); plat_puts(fname);
    plat_puts(" digest="); put_hex_bytes(digest, 32);
    plat_puts(" ok="); put_u32(ok ? 1 : 0);
    plat_puts("\n");
}

/* expand=1: the support-expansion self-test (the expansion in use against the portable
   reference, HQC-1/3/5, seeded supports with edge positions) and one counted expansion per
   weight of `level` (labels expand_new_w<W> / expand_ref_w<W>); exit 0 iff no mismatch. */
static uint32_t exp_sup[160];
static uint64_t exp_out[901];
static int expand_mode(uint32_t level)
{
    uint32_t bad = m4kem_expand_selftest(12345u, 8u);
    plat_puts("expand: selftest mismatches="); put_u32(bad); plat_puts("\n");
    static const uint32_t wt[3][2] = { { 66, 75 }, { 100, 114 }, { 131, 149 } };
    unsigned li = level == 1 ? 0 : level == 3 ? 1 : 2;
    static const char *const lab[2][2] = {
        { "expand_new_w", "expand_new_wr" }, { "expand_ref_w", "expand_ref_wr" } };
    for (unsigned k = 0; k < 2; k++)
        for (unsigned r = 0; r < 2; r++) {
            uint32_t w = wt[li][k];
            uint32_t *ps = exp_sup; uint64_t *po = exp_out;
            if (m4kem_expand_prepare(level, w, ps) < 0) return 2;
            bench_start();
            PIN(ps); PIN(po);
            int32_t rc = m4kem_expand_once(level, r, ps, w, po);
            PIN(po); PIN(rc);
            BENCH_STOP(lab[r][k]);
            if (rc < 0) return 2;
            plat_puts("expand: level="); put_u32(level); plat_puts(r ? " ref" : " new");
            plat_puts(" weight="); put_u32(w); plat_puts(" words64="); put_u32(m4kem_expand_words(level));
            plat_puts(" label="); plat_puts(lab[r][k]); plat_puts("\n");
        }
    bench_report();
    return bad ? 1 : 0;
}

/* The memory routines of mem_m4.S against byte loops: memcpy (and __aeabi_memcpy, 4, 8 where
   both pointers are aligned), memset, __aeabi_memset and __aeabi_memclr, for every source and
   destination offset 0..7 from an 8-byte boundary and the lengths 0..80 and MT_LENS; the bytes around the destination
   must stay untouched and memcpy/memset must return the destination. Called through volatile
   pointers so that the compiler cannot expand them inline. Returns the number of mismatches. */
void __aeabi_memcpy(void *, const void *, size_t);
void __aeabi_memcpy4(void *, const void *, size_t);
void __aeabi_memcpy8(void *, const void *, size_t);
void __aeabi_memset(void *, size_t, int);
void __aeabi_memclr(void *, size_t);
/* the KAT buffers, unused in this mode, 8-byte aligned inside (no static RAM of its own) */
#define MT_ALIGN8(p) ((uint8_t *)(((uintptr_t)(p) + 7u) & ~(uintptr_t)7u))
#define mt_src MT_ALIGN8(ct)
#define mt_dst MT_ALIGN8(sk)
#define mt_want MT_ALIGN8(pk)
static const uint32_t MT_LENS[] = { 95, 96, 97, 127, 128, 129, 255, 256, 257, 1000, 1023 };

static uint32_t mt_check(uint32_t n_all)
{
    uint32_t bad = 0;
    for (uint32_t i = 0; i < n_all; i++) bad += mt_dst[i] != mt_want[i];
    return bad ? 1 : 0;
}

static uint32_t mem_selftest_one(uint32_t so, uint32_t d, uint32_t n, uint32_t *seed)
{
    void *(*volatile mt_cpy)(void *, const void *, size_t) = memcpy;
    void *(*volatile mt_set)(void *, int, size_t) = memset;
    void (*volatile mt_aeabi_cpy[3])(void *, const void *, size_t) = {
        __aeabi_memcpy, __aeabi_memcpy4, __aeabi_memcpy8 };
    void (*volatile mt_aeabi_set)(void *, size_t, int) = __aeabi_memset;
    void (*volatile mt_aeabi_clr)(void *, size_t) = __aeabi_memclr;
    uint32_t bad = 0, all = d + n + 16;
    for (uint32_t i = 0; i < all; i++) {
        *seed = *seed * 1664525u + 1013904223u;
        mt_src[i] = (uint8_t)(*seed >> 24);
        mt_dst[i] = mt_want[i] = (uint8_t)(*seed >> 16);
    }
    for (uint32_t i = 0; i < n; i++) mt_want[d + i] = mt_src[so + i];
    bad += mt_cpy(mt_dst + d, mt_src + so, n) != mt_dst + d;
    bad += mt_check(all);
    for (uint32_t k = 0; k < 3; k++) {
        uint32_t al = k == 0 ? 1 : 4 * k;
        if (so % al || d % al) continue;
        for (uint32_t i = 0; i < n; i++) mt_dst[d + i] = (uint8_t)~mt_want[d + i];
        mt_aeabi_cpy[k](mt_dst + d, mt_src + so, n);
        bad += mt_check(all);
    }
    uint8_t c = (uint8_t)(*seed >> 8);
    for (uint32_t i = 0; i < n; i++) mt_want[d + i] = c;
    bad += mt_set(mt_dst + d, c | 0x5A00, n) != mt_dst + d;
    bad += mt_check(all);
    for (uint32_t i = 0; i < n; i++) { mt_dst[d + i] = 0; mt_want[d + i] = (uint8_t)~c; }
    mt_aeabi_set(mt_dst + d, n, (uint8_t)~c);
    bad += mt_check(all);
    for (uint32_t i = 0; i < n; i++) mt_want[d + i] = 0;
    mt_aeabi_clr(mt_dst + d, n);
    bad += mt_check(all);
    return bad;
}

static uint32_t mem_selftest(void)
{
    uint32_t bad = 0, seed = 12345u;
    for (uint32_t so = 0; so < 8; so++)
        for (uint32_t d = 0; d < 8; d++) {
            for (uint32_t n = 0; n <= 80; n++) bad += mem_selftest_one(so, d, n, &seed);
            for (uint32_t j = 0; j < sizeof MT_LENS / sizeof MT_LENS[0]; j++)
                bad += mem_selftest_one(so, d, MT_LENS[j], &seed);
        }
    return bad;
}

/* keccak=1: the Keccak self-test (src/keccak.rs), the self-test of the memory routines the
   sponge's and the KEM's copies and clears go through (mem_selftest), and one counted
   permutation by each of m4kem_keccak_once's three paths (labels keccak_new / keccak_ref /
   keccak_portable); exit 0 iff no mismatch. */
static uint32_t kk_state[50] __attribute__((aligned(8)));
static int keccak_mode(void)
{
    uint32_t bad = m4kem_keccak_selftest(12345u, 16u);
    plat_puts("keccak: selftest mismatches="); put_u32(bad); plat_puts("\n");
    uint32_t mbad = mem_selftest();
    plat_puts("mem: selftest mismatches="); put_u32(mbad); plat_puts("\n");
    bad += mbad;
    static const char *const lab[3] = { "keccak_new", "keccak_ref", "keccak_portable" };
    for (uint32_t w = 0; w < 3; w++) {
        uint32_t *ps = kk_state;
        if (m4kem_keccak_prepare(ps) < 0) return 2;
        bench_start();
        PIN(ps);
        int32_t rc = m4kem_keccak_once(w, ps);
        PIN(ps); PIN(rc);
        BENCH_STOP(lab[w]);
        if (rc < 0) return 2;
    }
    bench_report();
    return bad ? 1 : 0;
}

#ifdef M4KEM_CACHE
/* cache=1: entry 0 is followed by four measured operations through the key cache, each
   checked against the uncached result: m4kem_encaps_cached (ek miss: encaps_cache_miss),
   m4kem_decaps_cached (ek hit, first use of this dk: decaps_cache_first), m4kem_encaps_cached
   (hit: encaps_cache_hit), m4kem_decaps_cached (ek and dk hit: decaps_cache_hit); entries 1.. run KeyGen, then Encaps (a miss) and Decaps (a hit) through the cache and
   a cached Decaps of entry 0 (a miss: alternating keys), whose ss must be entry 0's. */
static uint8_t ct_c[M4KEM_MAX_CT], sk0[M4KEM_MAX_SK], ct0[M4KEM_MAX_CT], ss0[32], ss_c[32];

static int cached_after_first(uint32_t level, uint32_t flavour, int bench)
{
    uint8_t *pct = ct_c, *pss = ss_c;
    const uint8_t *ppk = pk, *psk = sk, *pm = msg, *psalt = salt, *pct0 = ct;
    int ok = 1;
    memcpy(sk0, sk, sizeof sk0); memcpy(ct0, ct, sizeof ct0); memcpy(ss0, ss, 32);
    if (bench) bench_start();
    PIN(ppk); PIN(pm); PIN(psalt); PIN(pct); PIN(pss);
    int32_t r1 = m4kem_encaps_cached(level, flavour, ppk, pm, psalt, pct, pss);
    PIN(pct); PIN(pss); PIN(r1);
    if (bench) BENCH_STOP("encaps_cache_miss");
    ok &= r1 == 0 && !memcmp(ct_c, ct, sizeof ct_c) && !memcmp(ss_c, ss, 32);
    if (bench) bench_start();
    PIN(psk); PIN(pct0); PIN(pss);
    int32_t r2 = m4kem_decaps_cached(level, flavour, psk, pct0, pss);
    PIN(pss); PIN(r2);
    if (bench) BENCH_STOP("decaps_cache_first");
    ok &= r2 == 0 && !memcmp(ss_c, ss, 32);
    memset(ct_c, 0, sizeof ct_c);
    if (bench) bench_start();
    PIN(ppk); PIN(pm); PIN(psalt); PIN(pct); PIN(pss);
    int32_t r3 = m4kem_encaps_cached(level, flavour, ppk, pm, psalt, pct, pss);
    PIN(pct); PIN(pss); PIN(r3);
    if (bench) BENCH_STOP("encaps_cache_hit");
    ok &= r3 == 0 && !memcmp(ct_c, ct, sizeof ct_c) && !memcmp(ss_c, ss, 32);
    memset(ss_c, 0, 32);
    if (bench) bench_start();
    PIN(psk); PIN(pct0); PIN(pss);
    int32_t r4 = m4kem_decaps_cached(level, flavour, psk, pct0, pss);
    PIN(pss); PIN(r4);
    if (bench) BENCH_STOP("decaps_cache_hit");
    ok &= r4 == 0 && !memcmp(ss_c, ss, 32);
    plat_puts("cache: entry 0 cached = uncached: "); put_u32((uint32_t)ok); plat_puts("\n");
    return ok;
}

/* entry j >= 1 through the cache; writes the digest; returns ok */
static int cached_entry(uint32_t level, uint32_t flavour, const uint8_t *seed)
{
    int32_t r = m4kem_kat_randomness(level, seed, seed_kem, msg, salt);
    r |= m4kem_keygen(level, flavour, seed_kem, pk, sk);
    r |= m4kem_encaps_cached(level, flavour, pk, msg, salt, ct, ss);
    r |= m4kem_decaps_cached(level, flavour, sk, ct, ss2);
    int ok = r == 0 && !memcmp(ss, ss2, 32);
    r |= m4kem_decaps_cached(level, flavour, sk0, ct0, ss_c);
    ok &= r == 0 && !memcmp(ss_c, ss0, 32);
    ok &= m4kem_entry_digest(level, pk, sk, ct, ss, digest) == 0;
    return ok;
}
#endif

/* the run's settings, before the entries */
static void print_settings(const char *fname, uint32_t level, uint32_t first, uint32_t count, uint32_t pk_len,
                           uint32_t sk_len, uint32_t ct_len)
{
    plat_puts("m4kem: multiplier="); plat_puts(m4kem_multiplier_name());
    plat_puts(" decoder="); plat_puts(m4kem_decoder_name());
    plat_puts(" level="); put_u32(level); plat_puts(" flavour="); plat_puts(fname);
    plat_puts(" first="); put_u32(first); plat_puts(" count="); put_u32(count);
    plat_puts(" pk="); put_u32(pk_len); plat_puts(" sk="); put_u32(sk_len);
    plat_puts(" ct="); put_u32(ct_len); plat_puts("\n");
}

/* after the entries: the cache's figures (cache=1), probe violations, stack depths, static and
   total RAM */
static void print_memory(uint32_t level, uint32_t cache, uint32_t st_kg, uint32_t st_enc, uint32_t st_dec,
                         uint32_t st_entry)
{
#ifdef M4KEM_CACHE
    if (cache) {
        uint32_t cb = 0, sb = 0, ns = 0, hits = 0, misses = 0;
        m4kem_cache_info(level, &cb, &sb, &ns, &hits, &misses);
        plat_puts("cache bytes="); put_u32(cb); plat_puts(" slot_bytes="); put_u32(sb);
        plat_puts(" slots_held="); put_u32(ns); plat_puts(" hits="); put_u32(hits);
        plat_puts(" misses="); put_u32(misses); plat_puts("\n");
    }
#else
    (void)level; (void)cache;
#endif
    if (m4kem_profiled()) { plat_puts("probe violations="); put_u32(m4kem_probe_violations()); plat_puts("\n"); }
    plat_puts("stack keygen="); put_u32(st_kg);
    plat_puts(" encaps="); put_u32(st_enc);
    plat_puts(" decaps="); put_u32(st_dec);
    plat_puts(" kat_entry="); put_u32(st_entry);
    plat_puts(" static="); put_u32((uint32_t)((uintptr_t)&__bss_end__ - (uintptr_t)&__data_start__));
    plat_puts(" ram="); put_u32((uint32_t)((uintptr_t)&__stack_top__ - (uintptr_t)&__data_start__));
    plat_puts("\n");
}

/* the settings level, flavour, count, first, bench, cache from the command line (key=value
   words; buf: ARG_BUF bytes). Always inlined: main's code, and so the code of its measured
   regions, is the same as with these lines in place. */
#define ARG_BUF 32
static inline __attribute__((always_inline)) void parse_args(const char *cl, char *buf, uint32_t *level,
                                                             uint32_t *flavour, uint32_t *count, uint32_t *first,
                                                             uint32_t *bench, uint32_t *cache)
{
    const char *v;
    if ((v = arg_value(cl, "level", buf, ARG_BUF)) && !parse_u32(v, level)) *level = 0;
    if ((v = arg_value(cl, "flavour", buf, ARG_BUF))) {
        if (!strcmp(v, "v5.0.0") || !strcmp(v, "v5") || !strcmp(v, "0")) *flavour = 0;
        else if (!strcmp(v, "2026-02") || !strcmp(v, "2026-02-sampling-update") || !strcmp(v, "1")) *flavour = 1;
        else *flavour = 99;
    }
    if ((v = arg_value(cl, "count", buf, ARG_BUF)) && !parse_u32(v, count)) *count = 0;
    if ((v = arg_value(cl, "first", buf, ARG_BUF)) && !parse_u32(v, first)) *first = MAX_COUNT;
    if ((v = arg_value(cl, "bench", buf, ARG_BUF)) && !parse_u32(v, bench)) *bench = 0;
    if ((v = arg_value(cl, "cache", buf, ARG_BUF)) && !parse_u32(v, cache)) *cache = 0;
}

int main(void)
{
    char buf[ARG_BUF];
    const char *cl = get_cmdline();
    uint32_t level = 1, flavour = 1, count = 1, first = 0, bench = 1;
    const char *v;
    uint32_t cache = 0;
    parse_args(cl, buf, &level, &flavour, &count, &first, &bench, &cache);
#ifndef M4KEM_CACHE
    if (cache) {
        plat_puts("m4kem: cache=1 needs a build with FEATURES=cache\n");
        return 2;
    }
#endif
    if ((v = arg_value(cl, "expand", buf, sizeof buf)) && !strcmp(v, "1")) {
        m4kem_init();
        return expand_mode(level == 3 || level == 5 ? level : 1);
    }
    if ((v = arg_value(cl, "keccak", buf, sizeof buf)) && !strcmp(v, "1")) {
        m4kem_init();
        return keccak_mode();
    }
    const char *fname = flavour == 0 ? "v5.0.0" : "2026-02";

    uint32_t pk_len, sk_len, ct_len, k_len;
    if (m4kem_sizes(level, &pk_len, &sk_len, &ct_len, &k_len) < 0 || flavour > 1 || count == 0 ||
        count > MAX_COUNT || first + count > MAX_COUNT) {
        plat_puts("m4kem: bad configuration '"); plat_puts(cl); plat_puts("'\n");
        return 2;
    }

    print_settings(fname, level, first, count, pk_len, sk_len, ct_len);
    m4kem_init();
    m4kem_kat_seeds(first, count, seeds);
    int all_ok = 1;
    uint32_t st_kg = 0, st_enc = 0, st_dec = 0, st_entry = 0;
    for (uint32_t j = 0; j < count; j++) {
        const uint8_t *seed = seeds + 48 * j;
        int ok;
        if (j == 0) {
            /* split API, static buffers, measured */
            int32_t r1, r2, r3, r4;
            m4kem_kat_randomness(level, seed, seed_kem, msg, salt);
            uint8_t *ppk = pk, *psk = sk, *pct = ct, *pss = ss, *pss2 = ss2;
            const uint8_t *psk_in = seed_kem, *pm = msg, *psalt = salt;

            paint_stack();
            if (bench) bench_start();
            PIN(psk_in); PIN(ppk); PIN(psk);
            r1 = m4kem_keygen(level, flavour, psk_in, ppk, psk);
            PIN(ppk); PIN(psk); PIN(r1);
            if (bench) BENCH_STOP("keygen");
            st_kg = stack_used();

            paint_stack();
            if (bench) bench_start();
            PIN(ppk); PIN(pm); PIN(psalt); PIN(pct); PIN(pss);
            r2 = m4kem_encaps(level, flavour, ppk, pm, psalt, pct, pss);
            PIN(pct); PIN(pss); PIN(r2);
            if (bench) BENCH_STOP("encaps");
            st_enc = stack_used();

            paint_stack();
            if (bench) bench_start();
            PIN(psk); PIN(pct); PIN(pss2);
            r3 = m4kem_decaps(level, flavour, psk, pct, pss2);
            PIN(pss2); PIN(r3);
            if (bench) BENCH_STOP("decaps");
            st_dec = stack_used();

            r4 = m4kem_entry_digest(level, pk, sk, ct, ss, digest);
            if (r1 < 0 || r2 < 0 || r3 < 0 || r4 < 0) {
                put_error(r1 < 0 ? r1 : r2 < 0 ? r2 : r3 < 0 ? r3 : r4);
                return 1;
            }
            ok = memcmp(ss, ss2, 32) == 0;
#ifdef M4KEM_CACHE
            if (cache) ok &= cached_after_first(level, flavour, (int)bench);
        } else if (cache) {
            ok = cached_entry(level, flavour, seed);
#endif
        } else {
            paint_stack();
            int32_t r = hqc_kat_entry(level, flavour, seed, digest);
            uint32_t s = stack_used();
            if (s > st_entry) st_entry = s;
            if (r < 0) {
                put_error(r);
                return 1;
            }
            ok = r == 1;
        }
        all_ok &= ok;
        print_entry(first + j, level, fname, ok);
    }

    if (bench) bench_report();
    print_memory(level, cache, st_kg, st_enc, st_dec, st_entry);
    return all_ok ? 0 : 1;
}
