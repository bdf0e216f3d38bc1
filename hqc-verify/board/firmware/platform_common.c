#include "platform.h"

void put_hex32(uint32_t x)
{
    char b[11];
    b[0] = '0'; b[1] = 'x';
    for (int i = 0; i < 8; i++) b[2 + i] = "0123456789abcdef"[(x >> (28 - 4 * i)) & 15];
    b[10] = 0;
    plat_puts(b);
}

void put_u32(uint32_t x)
{
    char b[12];
    int i = 11;
    b[i] = 0;
    do { b[--i] = (char)('0' + x % 10); x /= 10; } while (x);
    plat_puts(b + i);
}

void put_line(const char *s) { plat_puts(s); plat_puts("\n"); }

#define BENCH_MAX 192   /* a split product (fafft.c, split_product) records 41 regions, a two-moduli product (twomod.c) 54, twice in bench_mul */
static const char *bench_labels[BENCH_MAX];
static unsigned bench_n;

void bench_record(const char *label)
{
    if (bench_n < BENCH_MAX) bench_labels[bench_n] = label;
    bench_n++;
}

void bench_report(void)
{
    for (unsigned i = 0; i < bench_n && i < BENCH_MAX; i++) {
        plat_puts("bench "); put_u32(i); plat_puts(" "); put_line(bench_labels[i]);
    }
}
