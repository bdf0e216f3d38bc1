/* Field arithmetic: the scalar tower field F_2^32 (sec. 2.1), 32x32 bit matrices, and the
   beta-dependent products of the 32 bitsliced planes (gamma_j, Encode/Decode matrices) by the
   exported Thumb-2 routines, the exported C programs or the matrices.
   One stage of a FAFFT instance, not a stand-alone header: fafft_instance.h includes it, in
   its place, into the instance's one translation unit (fafft.c; fafft_m2.c for the second
   modulus), after the export's tables, fafft.h and the stages before it. Functions with
   external names go through FAFFT_NS (fafft.h). Section numbers ("sec.") refer to
   docs/fafft.md. */

/* ------------------------------------------------------------------ scalar tower field sec. 2.1 */
static uint32_t tmul(uint32_t a, uint32_t b, unsigned k)
{
    if (k == 1) return a & b;
    unsigned h = k / 2;
    uint32_t m = (1u << h) - 1;
    static const uint32_t C[17] = {0, 1, 2, 0, 8, 0, 0, 0, 0x80, 0, 0, 0, 0, 0, 0, 0, 0x8000};
    uint32_t a0 = a & m, a1 = a >> h, b0 = b & m, b1 = b >> h;
    uint32_t p00 = tmul(a0, b0, h), p11 = tmul(a1, b1, h), pmx = tmul(a0 ^ a1, b0 ^ b1, h);
    return (p00 ^ tmul(p11, C[h], h)) | ((pmx ^ p00) << h);
}

uint32_t FAFFT_NS(gf_mul)(uint32_t a, uint32_t b) { return tmul(a, b, 32); }

uint32_t FAFFT_NS(gf_pow)(uint32_t a, uint32_t e)
{
    uint32_t r = 1;
    while (e) {
        if (e & 1) r = FAFFT_NS(gf_mul)(r, a);
        a = FAFFT_NS(gf_mul)(a, a);
        e >>= 1;
    }
    return r;
}

/* ------------------------------------------------------------------ generic 32x32 bit matrices */
/* row masks: bit j of rows[i] = M[i][j]; apply: out[i] = XOR_{j in rows[i]} in[j] (in place) */
static void mat_rows(uint32_t rows[32], const uint8_t m[32][32])
{
    for (int i = 0; i < 32; i++) {
        uint32_t r = 0;
        for (int j = 0; j < 32; j++) r |= (uint32_t)(m[i][j] & 1) << j;
        rows[i] = r;
    }
}

__attribute__((unused)) static void mat_apply(const uint32_t rows[32], uint32_t *x)
{
    uint32_t in[32];
    memcpy(in, x, sizeof in);
    for (int i = 0; i < 32; i++) {
        uint32_t m = rows[i], acc = 0;
        while (m) {
            acc ^= in[__builtin_ctz(m)];
            m &= m - 1;
        }
        x[i] = acc;
    }
}

static uint32_t enc_rows[32], dec_rows[32];
static uint32_t gam_rows[FAFFT_L + 1][32];

/* GEN_XOR_INOUT: the exporter's call form encode_xor(in, out) / decode_xor(in, out) (in == out
   allowed); without it the in-place form encode_xor(x). */
#if defined(FAFFT_ASM_ROUTINES) && !defined(HOST_BUILD)
/* The exported Thumb-2 routines (search export: NAME.S), void NAME(uint32_t *out, const uint32_t *in)
   on 32-word bitsliced arrays, out and in never aliased. */
/* Each routine is also linked as NAME_nosave (the Makefile assembles the same file with its
   vpush/vpop {s16-s31} turned into sp -/+ 64): it leaves s16-s31 changed. The transform calls
   only the _nosave forms, from functions that name FP_FRAME(): the compiler then saves s16-s31
   once in their prologue instead of once per routine call (docs/board.md section 17.3). */
/* The second instance's routines are assembled under FAFFT_NS names (m2_NAME, Makefile). */
#define FAFFT_ROUTINE(name) void FAFFT_NS(name)(uint32_t *out, const uint32_t *in); \
    void FAFFT_NS(name##_nosave)(uint32_t *out, const uint32_t *in);
#define R_(name) FAFFT_NS(name##_nosave)
#define FP_FRAME()                                                                               \
    __asm__ volatile("" ::: "s16", "s17", "s18", "s19", "s20", "s21", "s22", "s23", "s24", "s25", \
                     "s26", "s27", "s28", "s29", "s30", "s31")
FAFFT_ROUTINE(encode_to_gft_full_length)
FAFFT_ROUTINE(decode_from_gft_full_length)
FAFFT_ROUTINE(gft_mul_s_inv_1_beta) FAFFT_ROUTINE(gft_mul_s_inv_2_beta) FAFFT_ROUTINE(gft_mul_s_inv_3_beta)
FAFFT_ROUTINE(gft_mul_s_inv_4_beta) FAFFT_ROUTINE(gft_mul_s_inv_5_beta) FAFFT_ROUTINE(gft_mul_s_inv_6_beta)
FAFFT_ROUTINE(gft_mul_s_inv_7_beta) FAFFT_ROUTINE(gft_mul_s_inv_8_beta) FAFFT_ROUTINE(gft_mul_s_inv_9_beta)
FAFFT_ROUTINE(gft_mul_s_inv_10_beta) FAFFT_ROUTINE(gft_mul_s_inv_11_beta) FAFFT_ROUTINE(gft_mul_s_inv_12_beta)
FAFFT_ROUTINE(gft_mul_s_inv_13_beta)
static void (*const gamma_asm[16])(uint32_t *, const uint32_t *) = {
    0, R_(gft_mul_s_inv_1_beta), R_(gft_mul_s_inv_2_beta), R_(gft_mul_s_inv_3_beta), R_(gft_mul_s_inv_4_beta),
    R_(gft_mul_s_inv_5_beta),
#if FAFFT_L >= 6
    R_(gft_mul_s_inv_6_beta),
#endif
#if FAFFT_L >= 7
    R_(gft_mul_s_inv_7_beta),
#endif
#if FAFFT_L >= 8
    R_(gft_mul_s_inv_8_beta),
#endif
#if FAFFT_L >= 9
    R_(gft_mul_s_inv_9_beta),
#endif
#if FAFFT_L >= 10
    R_(gft_mul_s_inv_10_beta),
#endif
#if FAFFT_L >= 11
    R_(gft_mul_s_inv_11_beta),
#endif
#if FAFFT_L >= 12
    R_(gft_mul_s_inv_12_beta),
#endif
#if FAFFT_L >= 13
    R_(gft_mul_s_inv_13_beta),
#endif
};
#define FAFFT_USE_ASM 1
#else
#define FP_FRAME() ((void)0)
#endif

__attribute__((unused)) static void encode_apply(uint32_t *x)
{
#if defined(FAFFT_USE_ASM)
    FP_FRAME();
    uint32_t t[32];
    R_(encode_to_gft_full_length)(t, x);
    memcpy(x, t, sizeof t);
#elif defined(HAVE_GEN_XOR) && defined(GEN_XOR_INOUT)
    encode_xor(x, x);
#elif defined(HAVE_GEN_XOR)
    encode_xor(x);
#else
    mat_apply(enc_rows, x);
#endif
}

__attribute__((unused)) static void decode_apply(uint32_t *x)
{
#if defined(FAFFT_USE_ASM)
    FP_FRAME();
    uint32_t t[32];
    R_(decode_from_gft_full_length)(t, x);
    memcpy(x, t, sizeof t);
#elif defined(HAVE_GEN_XOR) && defined(GEN_XOR_INOUT)
    decode_xor(x, x);
#elif defined(HAVE_GEN_XOR)
    decode_xor(x);
#else
    mat_apply(dec_rows, x);
#endif
}

#if defined(HAVE_GEN_XOR) && !defined(FAFFT_USE_ASM)
typedef void (*xorprog_t)(uint32_t *);
static void (*const gamma_prog[16])(uint32_t *) = {
    0, gft_mul_gamma_1, gft_mul_gamma_2, gft_mul_gamma_3, gft_mul_gamma_4, gft_mul_gamma_5,
#if FAFFT_L >= 6
    gft_mul_gamma_6,
#endif
#if FAFFT_L >= 7
    gft_mul_gamma_7,
#endif
#if FAFFT_L >= 8
    gft_mul_gamma_8,
#endif
#if FAFFT_L >= 9
    gft_mul_gamma_9,
#endif
#if FAFFT_L >= 10
    gft_mul_gamma_10,
#endif
#if FAFFT_L >= 11
    gft_mul_gamma_11,
#endif
#if FAFFT_L >= 12
    gft_mul_gamma_12,
#endif
#if FAFFT_L >= 13
    gft_mul_gamma_13,
#endif
};
#endif

#ifdef HAVE_GEN_XOR_ACC
static void (*const gamma_acc_prog[16])(uint32_t *, const uint32_t *) = {
    0, gft_mulacc_gamma_1, gft_mulacc_gamma_2, gft_mulacc_gamma_3, gft_mulacc_gamma_4, gft_mulacc_gamma_5,
#if FAFFT_L >= 6
    gft_mulacc_gamma_6,
#endif
#if FAFFT_L >= 7
    gft_mulacc_gamma_7,
#endif
#if FAFFT_L >= 8
    gft_mulacc_gamma_8,
#endif
#if FAFFT_L >= 9
    gft_mulacc_gamma_9,
#endif
#if FAFFT_L >= 10
    gft_mulacc_gamma_10,
#endif
#if FAFFT_L >= 11
    gft_mulacc_gamma_11,
#endif
#if FAFFT_L >= 12
    gft_mulacc_gamma_12,
#endif
#if FAFFT_L >= 13
    gft_mulacc_gamma_13,
#endif
};
#endif

/* acc ^= gamma_j * y */
static inline void gamma_acc(unsigned j, uint32_t *acc, const uint32_t *y)
{
#if defined(FAFFT_USE_ASM)
    FP_FRAME();
    uint32_t t[32];
    gamma_asm[j](t, y);
    xor_into(acc, t, 32);
#elif defined(HAVE_GEN_XOR_ACC)
    gamma_acc_prog[j](acc, y);
#else
    uint32_t t[32];
    memcpy(t, y, sizeof t);
#ifdef HAVE_GEN_XOR
    gamma_prog[j](t);
#else
    mat_apply(gam_rows[j], t);
#endif
    xor_into(acc, t, 32);
#endif
}

__attribute__((unused)) static inline void gamma_apply(unsigned j, uint32_t *x)
{
#if defined(FAFFT_USE_ASM)
    FP_FRAME();
    uint32_t t[32];
    gamma_asm[j](t, x);
    memcpy(x, t, sizeof t);
#elif defined(HAVE_GEN_XOR)
    gamma_prog[j](x);
#else
    mat_apply(gam_rows[j], x);
#endif
}
