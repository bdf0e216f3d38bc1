/* Constant-time trace driver of the HQC KEM on the emulated Cortex-M4 (QEMU mps2-an386), over
 * the m4kem staticlib (m4kem.h) and the firmware's startup/semihosting layer. Built by
 * `build.sh c-fafft` with HARNESS=ct instead of harness.c; run by `hqc-verify board --ct-check`
 * (board/src/board/ct/, docs/board.md section 13) with the plugin in trace mode.
 *
 * Command line (QEMU -append): level=1|3|5 flavour=v5.0.0|2026-02 cases=E0,E1,... (KAT entry
 * indices, at most MAX_CASES, each < MAX_ENTRY).
 *
 * For case j (entry Ej: seed_kem, m, salt drawn from the entry's seed as the KAT generator
 * does) it runs four marked regions (bench_start/bench_stop), region index 4j + r:
 *   r = 0 KeyGen(seed_kem)            r = 1 Encaps(pk; m, salt)
 *   r = 2 Decaps(sk, ct)  (valid)     r = 3 Decaps(sk, ct') (ct tampered, kind j mod 8)
 * and prints
 *   ct case=<j> entry=<Ej> kind=<tamper kind> valid=<0|1> rejected=<0|1>
 * valid = Decaps of ct returned Encaps' key; rejected = Decaps of ct' did not (implicit
 * rejection). Every region uses the same static buffers and is called from the same stack
 * depth, so identical code gives identical address streams. Exit status 0 when every case had
 * valid=1 and rejected=1, 1 otherwise, 2 for a bad command line, 90 for a Rust panic. */
#include <stdint.h>
#include <string.h>
#include "platform.h"
#include "m4kem.h"

#define MAX_CASES 32
#define MAX_ENTRY 1000
#define NKINDS 8

static uint8_t seed[48], seed_kem[32], msg[M4KEM_MAX_K], salt[16];
static uint8_t pk[M4KEM_MAX_PK], sk[M4KEM_MAX_SK], ct[M4KEM_MAX_CT], ct_in[M4KEM_MAX_CT];
static uint8_t ss_enc[32], ss_dec[32];
static char cmdline[512];

static const char *const kind_names[NKINDS] = {
    "u-bit0", "v-bit", "salt-bit", "v-burst", "u-zero", "u-and-v-bit", "v-ones", "all-xor",
};

/* ---- semihosting command line (SYS_GET_CMDLINE) ---- */
static uint32_t semihost_call(uint32_t op, void *arg)
{
    register uint32_t r0 __asm__("r0") = op;
    register void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

static const char *value_of(const char *cl, const char *key)
{
    unsigned kl = (unsigned)strlen(key);
    for (const char *p = cl; *p;) {
        while (*p == ' ') p++;
        if (!strncmp(p, key, kl) && p[kl] == '=') return p + kl + 1;
        while (*p && *p != ' ') p++;
    }
    return 0;
}

/* decimal up to a space, comma or end; 0 on a bad number */
static int number(const char **s, uint32_t *out)
{
    uint32_t v = 0;
    const char *p = *s;
    if (*p < '0' || *p > '9') return 0;
    while (*p >= '0' && *p <= '9') {
        v = v * 10 + (uint32_t)(*p - '0');
        if (v > 100000) return 0;
        p++;
    }
    *s = p;
    *out = v;
    return 1;
}

void m4kem_panic(void)
{
    plat_puts("m4kem: Rust panic\n");
    plat_exit(90);
}

/* ---- the four measured operations (noinline: one call site each, the same stack depth) ---- */
static __attribute__((noinline)) int32_t op_keygen(uint32_t level, uint32_t flavour)
{
    const uint8_t *s = seed_kem;
    uint8_t *p = pk, *q = sk;
    bench_start();
    PIN(s); PIN(p); PIN(q);
    int32_t r = m4kem_keygen(level, flavour, s, p, q);
    PIN(p); PIN(q); PIN(r);
    bench_stop();
    return r;
}

static __attribute__((noinline)) int32_t op_encaps(uint32_t level, uint32_t flavour)
{
    const uint8_t *p = pk, *m = msg, *sl = salt;
    uint8_t *c = ct, *k = ss_enc;
    bench_start();
    PIN(p); PIN(m); PIN(sl); PIN(c); PIN(k);
    int32_t r = m4kem_encaps(level, flavour, p, m, sl, c, k);
    PIN(c); PIN(k); PIN(r);
    bench_stop();
    return r;
}

/* Decaps always reads ct_in and writes ss_dec, for valid and tampered ciphertexts alike */
static __attribute__((noinline)) int32_t op_decaps(uint32_t level, uint32_t flavour)
{
    const uint8_t *q = sk, *c = ct_in;
    uint8_t *k = ss_dec;
    bench_start();
    PIN(q); PIN(c); PIN(k);
    int32_t r = m4kem_decaps(level, flavour, q, c, k);
    PIN(k); PIN(r);
    bench_stop();
    return r;
}

/* ct' = ct changed as kind says; u: ubytes (the last byte's high bits are padding and are
   never touched), v: vbytes, then the 16-byte salt */
static void tamper(uint32_t kind, uint32_t ubytes, uint32_t vbytes, uint32_t ct_len)
{
    uint8_t *u = ct_in, *v = ct_in + ubytes, *s = ct_in + ubytes + vbytes;
    memcpy(ct_in, ct, ct_len);
    switch (kind) {
    case 0: u[0] ^= 1; break;
    case 1: v[vbytes / 2] ^= 0x10; break;
    case 2: s[5] ^= 0x80; break;
    case 3: for (uint32_t i = vbytes / 4; i < vbytes / 4 + vbytes / 8; i++) v[i] ^= 0xFF; break;
    case 4: memset(u, 0, ubytes); break;
    case 5: u[ubytes / 2] ^= 4; v[3] ^= 1; break;
    case 6: memset(v, 0xFF, vbytes); break;
    default:
        for (uint32_t i = 0; i + 1 < ubytes; i++) u[i] ^= (uint8_t)(0x5A + 7 * i);
        for (uint32_t i = 0; i < vbytes + 16; i++) v[i] ^= (uint8_t)(0xA5 + 13 * i);
        break;
    }
}

int main(void)
{
    uint32_t block[2] = { (uint32_t)(uintptr_t)cmdline, sizeof cmdline };
    if (semihost_call(0x15, block) != 0) cmdline[0] = 0;
    cmdline[sizeof cmdline - 1] = 0;

    uint32_t level = 0, flavour = 99, ncases = 0, entries[MAX_CASES];
    const char *v;
    if ((v = value_of(cmdline, "level")) && (!number(&v, &level) || (*v && *v != ' '))) level = 0;
    if ((v = value_of(cmdline, "flavour"))) {
        if (!strncmp(v, "v5.0.0", 6) && (!v[6] || v[6] == ' ')) flavour = 0;
        else if (!strncmp(v, "2026-02", 7) && (!v[7] || v[7] == ' ')) flavour = 1;
    }
    if ((v = value_of(cmdline, "cases"))) {
        for (;;) {
            uint32_t e;
            if (ncases >= MAX_CASES || !number(&v, &e) || e >= MAX_ENTRY) { ncases = 0; break; }
            entries[ncases++] = e;
            if (*v == ',') { v++; continue; }
            if (*v && *v != ' ') ncases = 0;
            break;
        }
    }
    uint32_t pk_len, sk_len, ct_len, k_len;
    /* u = ceil(n/8) and v = n1*n2/8 bytes per level (docs/hqc.md) */
    uint32_t ubytes = level == 1 ? 2209 : level == 3 ? 4482 : 7205;
    uint32_t vbytes = level == 1 ? 2208 : level == 3 ? 4480 : 7200;
    if (m4kem_sizes(level, &pk_len, &sk_len, &ct_len, &k_len) < 0 || flavour > 1 || ncases == 0 ||
        ubytes + vbytes + 16 != ct_len) {
        plat_puts("ct: bad configuration '"); plat_puts(cmdline); plat_puts("'\n");
        return 2;
    }
    plat_puts("ct: multiplier="); plat_puts(m4kem_multiplier_name());
    plat_puts(" level="); put_u32(level); plat_puts(" flavour="); put_u32(flavour);
    plat_puts(" cases="); put_u32(ncases); plat_puts("\n");

    m4kem_init();
    int all_ok = 1;
    for (uint32_t j = 0; j < ncases; j++) {
        int32_t r = m4kem_kat_seeds(entries[j], 1, seed);
        if (r >= 0) r = m4kem_kat_randomness(level, seed, seed_kem, msg, salt);
        int32_t r1 = op_keygen(level, flavour);
        int32_t r2 = op_encaps(level, flavour);
        memcpy(ct_in, ct, ct_len);
        int32_t r3 = op_decaps(level, flavour);
        int valid = memcmp(ss_dec, ss_enc, 32) == 0;
        uint32_t kind = j % NKINDS;
        tamper(kind, ubytes, vbytes, ct_len);
        int32_t r4 = op_decaps(level, flavour);
        int rejected = memcmp(ss_dec, ss_enc, 32) != 0;
        if (r < 0 || r1 < 0 || r2 < 0 || r3 < 0 || r4 < 0) {
            plat_puts("ct: m4kem error in case "); put_u32(j); plat_puts("\n");
            return 1;
        }
        plat_puts("ct case="); put_u32(j);
        plat_puts(" entry="); put_u32(entries[j]);
        plat_puts(" kind="); plat_puts(kind_names[kind]);
        plat_puts(" valid="); put_u32((uint32_t)valid);
        plat_puts(" rejected="); put_u32((uint32_t)rejected);
        plat_puts("\n");
        all_ok &= valid & rejected;
    }
    return all_ok ? 0 : 1;
}
