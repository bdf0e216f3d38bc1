/* Board harness of the pqm4 package on QEMU mps2-an386 (docs/pqm4.md), following what
 * pqm4's test, testvectors, stack and speed binaries do, in one image:
 *
 *   1. stack and speed: for the one-time multiplier set-up (fafft_init) and for keypair,
 *      enc and dec (in that order, as pqm4's stack binary calls them in a fresh program),
 *      the stack below the caller is sprayed with a canary, the operation runs between the
 *      counting markers (bench_start / BENCH_STOP: instructions and instruction classes by
 *      the plugin), and the deepest overwritten byte gives the peak stack: "stack <op> <bytes>";
 *   2. test vectors: KAT entries 0 .. KAT_COUNT - 1 with the NIST KAT DRBG (HQC's SHAKE256
 *      PRNG) as randombytes, one line "kat <i> <SHA3-256(pk || sk || ct || ss)>" each;
 *   3. functional test (pqm4's test.c): NTESTS rounds of keypair / enc / dec with canaries
 *      around every buffer, of Decaps with a random secret key and of Decaps of a random
 *      ciphertext (both must give a different key); "test <name> OK" or "test <name> ERROR".
 * The exit status is the number of failed checks. Randomness comes only from randombytes.
 *
 * Built with -DCT_CHECK the image instead runs the constant-time regions: enc of two
 * different messages under one key, and dec of an honest ciphertext, of one with a flipped
 * bit in u, of one with flipped bits in v, and of a random one, each between the markers; the
 * plugin's trace mode hashes the executed addresses and the data addresses of every region
 * (docs/pqm4.md section 3), which must be equal within each group. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "api.h"
#include "hqc_keccak.h"
#include "platform.h"
#include "randombytes.h"

#ifndef KAT_COUNT
#define KAT_COUNT 1
#endif
#define NTESTS 3
#define CANARY 0x42

void fafft_init(void);

static hqc_sponge drbg;

/* prng_init(entropy, empty personalization): SHAKE256(entropy || 0x00) */
static void drbg_init(const uint8_t *entropy, size_t len)
{
    static const uint8_t domain = 0x00;
    hqc_sponge_init(&drbg, 136, 0x1F);
    hqc_sponge_absorb(&drbg, entropy, len);
    hqc_sponge_absorb(&drbg, &domain, 1);
}

int randombytes(uint8_t *buf, size_t n)
{
    hqc_sponge_squeeze(&drbg, buf, n);
    return 0;
}

static void put_hex(const uint8_t *b, size_t n)
{
    char s[3] = {0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        s[0] = "0123456789abcdef"[b[i] >> 4];
        s[1] = "0123456789abcdef"[b[i] & 15];
        plat_puts(s);
    }
}

/* ---- stack painting ---- */
extern uint32_t __bss_end__;
static uint8_t *stack_floor(void) { return (uint8_t *)&__bss_end__ + 64; }

static inline uint8_t *current_sp(void)
{
    uint8_t *sp;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    return sp;
}

__attribute__((noinline)) static void spray(void)
{
    uint8_t *end = current_sp() - 64;
    for (volatile uint8_t *p = stack_floor(); p < end; p++) *p = CANARY;
}

__attribute__((noinline)) static uint32_t stack_used(const uint8_t *top)
{
    const uint8_t *p = stack_floor();
    while (p < top && *p == CANARY) p++;
    return (uint32_t)(top - p);
}

static void report_stack(const char *op, uint32_t bytes)
{
    plat_puts("stack ");
    plat_puts(op);
    plat_puts(" ");
    put_u32(bytes);
    plat_puts("\n");
}

static uint8_t pk[CRYPTO_PUBLICKEYBYTES + 16], sk[CRYPTO_SECRETKEYBYTES + 16];
static uint8_t ct[CRYPTO_CIPHERTEXTBYTES + 16], key_a[CRYPTO_BYTES + 16], key_b[CRYPTO_BYTES + 16];

/* op 0: fafft_init, 1: keypair, 2: enc, 3: dec; painted, counted */
__attribute__((noinline)) static void measured(int op)
{
    static const char *const names[4] = {"fafft_init", "keypair", "enc", "dec"};
    uint8_t *top;
    spray();
    top = current_sp();
    bench_start();
    switch (op) {
    case 0: fafft_init(); break;
    case 1: crypto_kem_keypair(pk, sk); break;
    case 2: crypto_kem_enc(ct, key_b, pk); break;
    default: crypto_kem_dec(key_a, ct, sk); break;
    }
    BENCH_STOP(names[op]);
    report_stack(names[op], stack_used(top));
}

static unsigned kat(void)
{
    uint8_t entropy[48], seeds[48 * KAT_COUNT], digest[32];
    unsigned bad = 0;
    for (unsigned i = 0; i < 48; i++) entropy[i] = (uint8_t)i;
    drbg_init(entropy, 48);
    randombytes(seeds, sizeof seeds);
    for (unsigned i = 0; i < KAT_COUNT; i++) {
        hqc_sponge h;
        drbg_init(seeds + 48 * i, 48);
        crypto_kem_keypair(pk, sk);
        crypto_kem_enc(ct, key_b, pk);
        crypto_kem_dec(key_a, ct, sk);
        hqc_sponge_init(&h, 136, 0x06);
        hqc_sponge_absorb(&h, pk, CRYPTO_PUBLICKEYBYTES);
        hqc_sponge_absorb(&h, sk, CRYPTO_SECRETKEYBYTES);
        hqc_sponge_absorb(&h, ct, CRYPTO_CIPHERTEXTBYTES);
        hqc_sponge_absorb(&h, key_b, CRYPTO_BYTES);
        hqc_sponge_squeeze(&h, digest, 32);
        plat_puts("kat ");
        put_u32(i);
        plat_puts(" ");
        put_hex(digest, 32);
        if (memcmp(key_a, key_b, CRYPTO_BYTES)) {
            plat_puts(" decaps-mismatch");
            bad++;
        }
        plat_puts("\n");
    }
    return bad;
}

static void canaries(uint8_t *b, size_t len)
{
    memset(b, 0xA5, 8);
    memset(b + len - 8, 0xA5, 8);
}

static int canaries_intact(const uint8_t *b, size_t len)
{
    for (size_t i = 0; i < 8; i++)
        if (b[i] != 0xA5 || b[len - 8 + i] != 0xA5) return 0;
    return 1;
}

static unsigned verdict(const char *name, int ok)
{
    plat_puts("test ");
    plat_puts(name);
    put_line(ok ? " OK" : " ERROR");
    return ok ? 0 : 1;
}

static unsigned functional(void)
{
    unsigned bad = 0;
    for (int i = 0; i < NTESTS; i++) {
        canaries(pk, sizeof pk); canaries(sk, sizeof sk); canaries(ct, sizeof ct);
        canaries(key_a, sizeof key_a); canaries(key_b, sizeof key_b);
        crypto_kem_keypair(pk + 8, sk + 8);
        crypto_kem_enc(ct + 8, key_b + 8, pk + 8);
        crypto_kem_dec(key_a + 8, ct + 8, sk + 8);
        int ok = !memcmp(key_a + 8, key_b + 8, CRYPTO_BYTES) && canaries_intact(pk, sizeof pk) &&
                 canaries_intact(sk, sizeof sk) && canaries_intact(ct, sizeof ct) &&
                 canaries_intact(key_a, sizeof key_a) && canaries_intact(key_b, sizeof key_b);
        bad += verdict("keys", ok);
    }
    for (int i = 0; i < NTESTS; i++) {
        crypto_kem_keypair(pk, sk);
        crypto_kem_enc(ct, key_b, pk);
        randombytes(sk, CRYPTO_SECRETKEYBYTES);
        crypto_kem_dec(key_a, ct, sk);
        bad += verdict("invalid-sk", memcmp(key_a, key_b, CRYPTO_BYTES) != 0);
    }
    for (int i = 0; i < NTESTS; i++) {
        crypto_kem_keypair(pk, sk);
        crypto_kem_enc(ct, key_b, pk);
        randombytes(ct, CRYPTO_CIPHERTEXTBYTES);
        crypto_kem_dec(key_a, ct, sk);
        bad += verdict("invalid-ciphertext", memcmp(key_a, key_b, CRYPTO_BYTES) != 0);
    }
    return bad;
}

#ifdef CT_CHECK
static uint8_t ct2[CRYPTO_CIPHERTEXTBYTES];

/* one code site per kind of region, so that equal traces mean equal behaviour */
__attribute__((noinline)) static void ct_enc(uint8_t seed)
{
    drbg_init(&seed, 1);   /* a fresh DRBG: randombytes reads the same buffer positions */
    bench_start();
    crypto_kem_enc(ct, key_b, pk);
    BENCH_STOP("ct-enc");
}

__attribute__((noinline)) static void ct_dec(void)
{
    bench_start();
    crypto_kem_dec(key_a, ct2, sk);
    BENCH_STOP("ct-dec");
}

static void ct_regions(void)
{
    fafft_init();
    crypto_kem_keypair(pk, sk);
    for (uint8_t i = 0; i < 2; i++) ct_enc(i);   /* two messages */
    for (int v = 0; v < 4; v++) {
        memcpy(ct2, ct, sizeof ct2);
        if (v == 1) ct2[5] ^= 0x20;                             /* u */
        if (v == 2)
            for (unsigned j = 0; j < 40; j++) ct2[CRYPTO_CIPHERTEXTBYTES - 1000 + 7 * j] ^= 0x81; /* v */
        if (v == 3) randombytes(ct2, sizeof ct2);
        ct_dec();
    }
    bench_report();
}

int main(void)
{
    put_line("==========================");
    drbg_init((const uint8_t *)"ct", 2);
    ct_regions();
    put_line("#");
    return 0;
}
#else
int main(void)
{
    static const uint8_t seed[48] = {0};
    unsigned bad;
    put_line("==========================");
    plat_puts("algorithm ");
    put_line(CRYPTO_ALGNAME);
    drbg_init(seed, sizeof seed);
    for (int op = 0; op < 4; op++) measured(op);
    bad = memcmp(key_a, key_b, CRYPTO_BYTES) ? 1 : 0;
    bad += kat();
    bad += functional();
    bench_report();
    put_line("#");
    return (int)bad;
}
#endif
