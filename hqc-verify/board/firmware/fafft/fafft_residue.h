/* Residue product: carry-less word products and Karatsuba, full (clmul_full) and truncated
   (clmul_low = f g mod x^c, the residue ring of the CRT, sec. 9.10).
   One stage of a FAFFT instance, not a stand-alone header: fafft_instance.h includes it, in
   its place, into the instance's one translation unit (fafft.c; fafft_m2.c for the second
   modulus), after the export's tables, fafft.h and the stages before it. Functions with
   external names go through FAFFT_NS (fafft.h). Section numbers ("sec.") refer to
   docs/fafft.md. */

/* ------------------------------------------------------------------ carry-less products */
/* 32x32 -> 64 carry-less product from integer multiplies: split both operands into the four
   residue classes of bit positions mod 4; a class-i by class-j integer product has at most 8
   terms per output position, and positions of one class are 4 apart, so no carry reaches the
   next position of the same class; keep class (i+j) mod 4 of each product. */
#if defined(__arm__) && !defined(HOST_BUILD)
/* Thumb-2 version of the same computation and the 2-word Karatsuba leaf: clmul_m4.S */
uint64_t clmul32_m4(uint32_t a, uint32_t b);
void clmul_kara2_m4(uint32_t r[4], const uint32_t a[2], const uint32_t b[2]);
void clmul_kara4_m4(uint32_t r[8], const uint32_t a[4], const uint32_t b[4]);
void kara_combine_m4(uint32_t *r, const uint32_t *m, uint32_t h);
#define clmul32(a, b) clmul32_m4((a), (b))
#define CLMUL_KARA2_M4 1
#else
static inline uint64_t clmul32(uint32_t a, uint32_t b)
{
    const uint32_t m0 = 0x11111111u, m1 = 0x22222222u, m2 = 0x44444444u, m3 = 0x88888888u;
    uint32_t a0 = a & m0, a1 = a & m1, a2 = a & m2, a3 = a & m3;
    uint32_t b0 = b & m0, b1 = b & m1, b2 = b & m2, b3 = b & m3;
    uint64_t z0 = ((uint64_t)a0 * b0) ^ ((uint64_t)a1 * b3) ^ ((uint64_t)a2 * b2) ^ ((uint64_t)a3 * b1);
    uint64_t z1 = ((uint64_t)a0 * b1) ^ ((uint64_t)a1 * b0) ^ ((uint64_t)a2 * b3) ^ ((uint64_t)a3 * b2);
    uint64_t z2 = ((uint64_t)a0 * b2) ^ ((uint64_t)a1 * b1) ^ ((uint64_t)a2 * b0) ^ ((uint64_t)a3 * b3);
    uint64_t z3 = ((uint64_t)a0 * b3) ^ ((uint64_t)a1 * b2) ^ ((uint64_t)a2 * b1) ^ ((uint64_t)a3 * b0);
    return (z0 & 0x1111111111111111ull) | (z1 & 0x2222222222222222ull) |
           (z2 & 0x4444444444444444ull) | (z3 & 0x8888888888888888ull);
}

#endif

/* low 32 bits only */
static inline uint32_t clmul32lo(uint32_t a, uint32_t b)
{
    const uint32_t m0 = 0x11111111u, m1 = 0x22222222u, m2 = 0x44444444u, m3 = 0x88888888u;
    uint32_t a0 = a & m0, a1 = a & m1, a2 = a & m2, a3 = a & m3;
    uint32_t b0 = b & m0, b1 = b & m1, b2 = b & m2, b3 = b & m3;
    uint32_t z0 = (a0 * b0) ^ (a1 * b3) ^ (a2 * b2) ^ (a3 * b1);
    uint32_t z1 = (a0 * b1) ^ (a1 * b0) ^ (a2 * b3) ^ (a3 * b2);
    uint32_t z2 = (a0 * b2) ^ (a1 * b1) ^ (a2 * b0) ^ (a3 * b3);
    uint32_t z3 = (a0 * b3) ^ (a1 * b2) ^ (a2 * b1) ^ (a3 * b0);
    return (z0 & m0) | (z1 & m1) | (z2 & m2) | (z3 & m3);
}

#define KARA_MAX 192
/* kara_full on n words needs 2n + 2(n/2) + ... < 4n scratch words, kara_low at most 4n
   (2n + max(< 2n, <= 2n) when even, 7n/3 + max(< 4n/3, <= 4n/3) in the 3-way split), so
   4 * CRT_WORDS (resp. 4 * SPLIT_RW_MAX) words always suffice; at least 8 * KARA_MAX words for
   the tests' products (search::measure::kara_scratch_words mirrors this rule). */
#define KS_WORDS_MAX2(a, b) ((a) > (b) ? (a) : (b))
#ifdef SPLIT_K
#define KSCRATCH_WORDS KS_WORDS_MAX2(8 * KARA_MAX, KS_WORDS_MAX2(4 * CRT_WORDS, 4 * SPLIT_RW_MAX))
#else
#define KSCRATCH_WORDS KS_WORDS_MAX2(8 * KARA_MAX, 4 * CRT_WORDS)
#endif
static uint32_t kscratch[KSCRATCH_WORDS];

static void school_full(uint32_t *r, const uint32_t *a, const uint32_t *b, unsigned n)
{
    memset(r, 0, 2 * n * sizeof(uint32_t));
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++) {
            uint64_t p = clmul32(a[i], b[j]);
            r[i + j] ^= (uint32_t)p;
            r[i + j + 1] ^= (uint32_t)(p >> 32);
        }
}

/* 3 words: 3-way Karatsuba, 6 word products */
static void kara3(uint32_t *r, const uint32_t *a, const uint32_t *b)
{
    uint64_t p0 = clmul32(a[0], b[0]), p1 = clmul32(a[1], b[1]), p2 = clmul32(a[2], b[2]);
    uint64_t p01 = clmul32(a[0] ^ a[1], b[0] ^ b[1]) ^ p0 ^ p1;
    uint64_t p12 = clmul32(a[1] ^ a[2], b[1] ^ b[2]) ^ p1 ^ p2;
    uint64_t p02 = clmul32(a[0] ^ a[2], b[0] ^ b[2]) ^ p0 ^ p2 ^ p1;
    r[0] = (uint32_t)p0;
    r[1] = (uint32_t)(p0 >> 32) ^ (uint32_t)p01;
    r[2] = (uint32_t)(p01 >> 32) ^ (uint32_t)p02;
    r[3] = (uint32_t)(p02 >> 32) ^ (uint32_t)p12;
    r[4] = (uint32_t)(p12 >> 32) ^ (uint32_t)p2;
    r[5] = (uint32_t)(p2 >> 32);
}

static void kara_full(uint32_t *r, const uint32_t *a, const uint32_t *b, unsigned n, uint32_t *tmp)
{
    if (n == 3) {
        kara3(r, a, b);
        return;
    }
#ifdef CLMUL_KARA2_M4
    if (n == 4) {
        clmul_kara4_m4(r, a, b);
        return;
    }
#endif
    if (n == 2) {   /* 3 word products */
#ifdef CLMUL_KARA2_M4
        clmul_kara2_m4(r, a, b);
#else
        uint64_t p0 = clmul32(a[0], b[0]), p1 = clmul32(a[1], b[1]);
        uint64_t pm = clmul32(a[0] ^ a[1], b[0] ^ b[1]) ^ p0 ^ p1;
        r[0] = (uint32_t)p0;
        r[1] = (uint32_t)(p0 >> 32) ^ (uint32_t)pm;
        r[2] = (uint32_t)(pm >> 32) ^ (uint32_t)p1;
        r[3] = (uint32_t)(p1 >> 32);
#endif
        return;
    }
    if (n < 3 || (n & 1)) {
        school_full(r, a, b, n);
        return;
    }
    unsigned h = n / 2;
    uint32_t *as = tmp, *bs = tmp + h, *m = tmp + 2 * h, *next = tmp + 4 * h;
    for (unsigned i = 0; i < h; i++) {
        as[i] = a[i] ^ a[h + i];
        bs[i] = b[i] ^ b[h + i];
    }
#ifdef CLMUL_KARA2_M4
    if (h == 4) {   /* the three leaves directly (no dispatch through kara_full) */
        clmul_kara4_m4(m, as, bs);
        clmul_kara4_m4(r, a, b);
        clmul_kara4_m4(r + n, a + h, b + h);
        kara_combine_m4(r, m, h);
        return;
    }
#endif
    kara_full(m, as, bs, h, next);
    kara_full(r, a, b, h, next);
    kara_full(r + n, a + h, b + h, h, next);
#ifdef CLMUL_KARA2_M4
    if (!(h & 1)) {
        kara_combine_m4(r, m, h);
        return;
    }
#endif
    xor_into(m, r, n);
    xor_into(m, r + n, n);
    xor_into(r + h, m, n);
}

void FAFFT_NS(clmul_full)(uint32_t *r, const uint32_t *a, const uint32_t *b, unsigned n) { kara_full(r, a, b, n, kscratch); }

static void kara_low(uint32_t *r, const uint32_t *a, const uint32_t *b, unsigned n, uint32_t *tmp);

/* n = 3t: a = a0 + a1 X + a2 X^2 (X = x^(32t)), the low 3t words of a*b are
   a0b0 + (a0b1 + a1b0) X + low_t(a0b2 + a1b1 + a2b0) X^2 with a0b1 + a1b0 by Karatsuba:
   3 full t-word products and 2 truncated ones (docs/fafft.md sec. 9.10) */
static void kara_low3(uint32_t *r, const uint32_t *a, const uint32_t *b, unsigned t, uint32_t *tmp)
{
    uint32_t *as = tmp, *bs = tmp + t, *m = tmp + 2 * t, *s = tmp + 4 * t, *lw = tmp + 6 * t,
             *next = tmp + 7 * t;
    kara_full(r, a, b, t, next);                /* a0 b0 -> r[0..2t) */
    kara_full(m, a + t, b + t, t, next);        /* a1 b1 */
    for (unsigned i = 0; i < t; i++) {
        as[i] = a[i] ^ a[t + i];
        bs[i] = b[i] ^ b[t + i];
    }
    kara_full(s, as, bs, t, next);              /* (a0 + a1)(b0 + b1) */
    xor_into(s, r, 2 * t);
    xor_into(s, m, 2 * t);                      /* a0b1 + a1b0 */
    memcpy(r + 2 * t, m, t * sizeof(uint32_t)); /* low_t(a1 b1) */
    xor_into(r + t, s, 2 * t);
    kara_low(lw, a, b + 2 * t, t, next);
    xor_into(r + 2 * t, lw, t);
    kara_low(lw, a + 2 * t, b, t, next);
    xor_into(r + 2 * t, lw, t);
}

static void kara_low(uint32_t *r, const uint32_t *a, const uint32_t *b, unsigned n, uint32_t *tmp)
{
    if (n >= 6 && n % 3 == 0) {
        kara_low3(r, a, b, n / 3, tmp);
        return;
    }
    if (n == 2) {   /* the loop below for n = 2, without the call to clear r */
        uint64_t p = clmul32(a[0], b[0]);
        r[0] = (uint32_t)p;
        r[1] = (uint32_t)(p >> 32) ^ clmul32lo(a[0], b[1]) ^ clmul32lo(a[1], b[0]);
        return;
    }
    if (n <= 3 || (n & 1)) {
        memset(r, 0, n * sizeof(uint32_t));
        for (unsigned i = 0; i < n; i++) {
            for (unsigned j = 0; i + j + 1 < n; j++) {
                uint64_t p = clmul32(a[i], b[j]);
                r[i + j] ^= (uint32_t)p;
                r[i + j + 1] ^= (uint32_t)(p >> 32);
            }
            r[n - 1] ^= clmul32lo(a[i], b[n - 1 - i]);
        }
        return;
    }
    unsigned h = n / 2;
    uint32_t *t1 = tmp, *t2 = tmp + h, *next = tmp + 2 * h;
    kara_full(r, a, b, h, next);               /* a0 b0: n words, into r directly */
    kara_low(t1, a, b + h, h, next);            /* a0 b1 mod x^h */
    kara_low(t2, a + h, b, h, next);            /* a1 b0 mod x^h */
    xor_into(r + h, t1, h);
    xor_into(r + h, t2, h);
}

void FAFFT_NS(clmul_low)(uint32_t *r, const uint32_t *a, const uint32_t *b, unsigned n) { kara_low(r, a, b, n, kscratch); }
