#include "platform.h"

int main(void)
{
    put_line("hello from cortex-m4");
    volatile uint32_t n = 1000, acc = 0;
    bench_start();
    for (uint32_t i = 0; i < n; i++) acc = acc * 1664525u + i;
    BENCH_STOP("lcg-1000");
    plat_puts("acc = "); put_hex32(acc); put_line("");
    bench_report();
    return 42;
}
