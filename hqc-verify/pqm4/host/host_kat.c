/* Host driver of the package's KEM for the Rust tests (board/tests/pqm4_package.rs).
 *
 *   host_kat COUNT   reads the randomness of COUNT KAT entries from stdin (randombytes), and
 *                    per entry writes pk, sk, ct, ss (encaps) and ss (decaps) to stdout;
 *   host_kat -t      the failure cases of pqm4's test: a changed ciphertext byte or a changed
 *                    secret key gives a different key; prints "ok" or the first failure.
 * randombytes is fed by the test from the KAT DRBG; in -t mode, the stream comes from stdin
 * as well. Exit status 0 on success. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "api.h"
#include "randombytes.h"

int randombytes(uint8_t *buf, size_t n)
{
    if (fread(buf, 1, n, stdin) != n) {
        fprintf(stderr, "host_kat: randomness ran out\n");
        exit(3);
    }
    return 0;
}

static unsigned char pk[CRYPTO_PUBLICKEYBYTES], sk[CRYPTO_SECRETKEYBYTES];
static unsigned char ct[CRYPTO_CIPHERTEXTBYTES], ss[CRYPTO_BYTES], ss2[CRYPTO_BYTES];

static int emit(const unsigned char *p, size_t n)
{
    return fwrite(p, 1, n, stdout) == n ? 0 : 1;
}

static int failure_cases(void)
{
    crypto_kem_keypair(pk, sk);
    crypto_kem_enc(ct, ss, pk);
    crypto_kem_dec(ss2, ct, sk);
    if (memcmp(ss, ss2, CRYPTO_BYTES)) { puts("FAIL: decaps differs"); return 1; }
    ct[7] ^= 0x10;
    crypto_kem_dec(ss2, ct, sk);
    if (!memcmp(ss, ss2, CRYPTO_BYTES)) { puts("FAIL: invalid ciphertext accepted"); return 1; }
    ct[7] ^= 0x10;
    ct[CRYPTO_CIPHERTEXTBYTES - 1] ^= 0x01;   /* the salt */
    crypto_kem_dec(ss2, ct, sk);
    if (!memcmp(ss, ss2, CRYPTO_BYTES)) { puts("FAIL: changed salt accepted"); return 1; }
    ct[CRYPTO_CIPHERTEXTBYTES - 1] ^= 0x01;
    sk[CRYPTO_PUBLICKEYBYTES + 3] ^= 0x01;    /* seed_dk */
    crypto_kem_dec(ss2, ct, sk);
    if (!memcmp(ss, ss2, CRYPTO_BYTES)) { puts("FAIL: invalid secret key accepted"); return 1; }
    puts("ok");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: host_kat COUNT | host_kat -t\n");
        return 2;
    }
    if (!strcmp(argv[1], "-t")) return failure_cases();
    long count = strtol(argv[1], 0, 10);
    for (long i = 0; i < count; i++) {
        crypto_kem_keypair(pk, sk);
        crypto_kem_enc(ct, ss, pk);
        crypto_kem_dec(ss2, ct, sk);
        if (emit(pk, sizeof pk) || emit(sk, sizeof sk) || emit(ct, sizeof ct) ||
            emit(ss, sizeof ss) || emit(ss2, sizeof ss2))
            return 4;
    }
    return fflush(stdout) ? 4 : 0;
}
