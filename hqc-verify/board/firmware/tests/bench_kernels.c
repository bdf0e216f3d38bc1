/* Instruction counts of single kernels (one call each) for tuning. */
#include <string.h>
#include "fafft.h"
#include "bs_tower_gen.h"
#include "testutil.h"
#if __has_include("gen_xor_programs.h")
#include "gen_xor_programs.h"
#endif

static uint32_t a[128], b[128], c[128], lv[128];

int main(void)
{
    fafft_init();
    for (unsigned i = 0; i < 128; i++) { a[i] = rnd32(); b[i] = rnd32(); lv[i] = rnd32(); }
    uint32_t *pa = a, *pb = b, *pc = c, *pl = lv;
    bench_start(); PIN(pa); BENCH_STOP("empty region");
#ifdef HAVE_GEN_XOR
    bench_start(); PIN(pa); gft_mul_gamma_5(pa); PIN(pa); BENCH_STOP("gft_mul_gamma_5 (XOR program)");
#ifdef GEN_XOR_INOUT
    bench_start(); PIN(pa); encode_xor(pa, pa); PIN(pa); BENCH_STOP("encode_xor");
#else
    bench_start(); PIN(pa); encode_xor(pa); PIN(pa); BENCH_STOP("encode_xor");
#endif
#endif
#ifdef HAVE_GEN_XOR_ACC
    bench_start(); PIN(pa); PIN(pb); gft_mulacc_gamma_5(pa, pb); PIN(pa); BENCH_STOP("gft_mulacc_gamma_5");
#endif
    bench_start(); PIN(pa); PIN(pb); bs_mulacc_s0_7(pa, pb); PIN(pa); BENCH_STOP("bs_mulacc_s0_7");
    bench_start(); PIN(pa); PIN(pb); PIN(pl); bs_mulacc8(pa, pb, pl); PIN(pa); BENCH_STOP("bs_mulacc8");
    bench_start(); PIN(pa); PIN(pb); PIN(pl); bs_mulacc16(pa, pb, pl); PIN(pa); BENCH_STOP("bs_mulacc16");
    bench_start(); PIN(pa); PIN(pb); PIN(pc); bs_mul32(pc, pa, pb); PIN(pc); BENCH_STOP("bs_mul32");
    bench_start(); PIN(pa); PIN(pb); PIN(pc); clmul_full(pc, pa, pb, 1); PIN(pc); BENCH_STOP("clmul_full n=1");
    bench_start(); PIN(pa); PIN(pb); PIN(pc); clmul_full(pc, pa, pb, 3); PIN(pc); BENCH_STOP("clmul_full n=3");
    bench_start(); PIN(pa); PIN(pb); PIN(pc); clmul_full(pc, pa, pb, 48); PIN(pc); BENCH_STOP("clmul_full n=48");
    bench_start(); PIN(pa); PIN(pb); PIN(pc); clmul_low(pc, pa, pb, 96); PIN(pc); BENCH_STOP("clmul_low n=96");
    bench_report();
    return 0;
}
