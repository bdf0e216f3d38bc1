/* Board test of generated routines void NAME(uint32_t *out, const uint32_t *in).
 *
 * fw_cases.h (written on the host) defines FW_N_CASES, FW_N_VEC, FW_MAX_WORDS, the table
 * fw_cases[] = { name, function, n_in, n_out, offset into fw_in, offset into fw_exp }, and the
 * arrays fw_in (FW_N_VEC input vectors per case) and fw_exp (the expected outputs, computed on
 * the host from the matrix).
 *
 * 1. Every case runs on every vector; each output word is compared (out is pre-filled with a
 *    pattern, so an unwritten word shows). A mismatch prints "FAIL <name> vec <v> word <i>".
 * 2. Each routine (and fw_empty first, for calibration) runs once more between bench_start and
 *    bench_stop through the same call site, so the plugin's regions differ only by the routine.
 * Exit status: 0 when every case matched, 1 otherwise. */
#include <stdint.h>
#include "platform.h"

typedef void (*fw_fn)(uint32_t *out, const uint32_t *in);
struct fw_case {
    const char *name;
    fw_fn fn;
    uint32_t n_in, n_out, in_off, exp_off;
};
void fw_empty(uint32_t *out, const uint32_t *in);

#include "fw_cases.h"

static uint32_t buf_in[FW_MAX_WORDS], buf_out[FW_MAX_WORDS];

int main(void)
{
    unsigned fails = 0;
    for (unsigned c = 0; c < FW_N_CASES; c++) {
        const struct fw_case *k = &fw_cases[c];
        for (unsigned v = 0; v < FW_N_VEC; v++) {
            const uint32_t *src = &fw_in[k->in_off + v * k->n_in];
            const uint32_t *exp = &fw_exp[k->exp_off + v * k->n_out];
            for (unsigned q = 0; q < k->n_in; q++) buf_in[q] = src[q];
            for (unsigned i = 0; i < k->n_out; i++) buf_out[i] = 0xa5a5a5a5u ^ i;
            k->fn(buf_out, buf_in);
            for (unsigned i = 0; i < k->n_out; i++) {
                if (buf_out[i] != exp[i]) {
                    plat_puts("FAIL "); plat_puts(k->name); plat_puts(" vec "); put_u32(v);
                    plat_puts(" word "); put_u32(i); plat_puts(" got "); put_hex32(buf_out[i]);
                    plat_puts(" want "); put_hex32(exp[i]); plat_puts("\n");
                    fails++;
                }
            }
        }
    }
    for (unsigned c = 0; c <= FW_N_CASES; c++) {
        fw_fn fn = c == 0 ? fw_empty : fw_cases[c - 1].fn;
        uint32_t *o = buf_out;
        const uint32_t *i = buf_in;
        __asm__ volatile("" : "+r"(fn) :: "memory");
        bench_start();
        PIN(o);
        PIN(i);
        fn(o, i);
        PIN(o);
        BENCH_STOP(c == 0 ? "fw_empty" : fw_cases[c - 1].name);
    }
    bench_report();
    plat_puts("fwgen board: "); put_u32(FW_N_CASES); plat_puts(" routines, ");
    put_u32(FW_N_VEC); plat_puts(" vectors each, "); put_u32(fails); put_line(" mismatches");
    return fails ? 1 : 0;
}
