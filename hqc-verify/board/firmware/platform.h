/* Platform layer shared by the board (QEMU mps2-an386, semihosting) and host builds. */
#ifndef PLATFORM_H
#define PLATFORM_H
#include <stdint.h>

void plat_puts(const char *s);                 /* no newline added */
void plat_exit(int code) __attribute__((noreturn));

/* small formatting helpers (no printf on the board) */
void put_hex32(uint32_t x);                    /* 0x%08x */
void put_u32(uint32_t x);                      /* decimal */
void put_line(const char *s);                  /* s + "\n" */

/* Measurement markers: empty noinline functions; the insncount plugin counts instructions
   between the first instruction of bench_start and the first of bench_stop. Regions may nest.
   BENCH_STOP(label) records the label of the k-th completed region; bench_report() prints
   "bench <k> <label>" for every completed region, to pair with the plugin's "region main #k N". */
void bench_start(void);
void bench_stop(void);
void bench_record(const char *label);
void bench_report(void);
#define BENCH_STOP(label) do { bench_stop(); bench_record(label); } while (0)

/* Compiler barriers that pin a value (pointer) between the markers (docs/board.md section 5). */
#define PIN(x) __asm__ volatile("" : "+r"(x) :: "memory")

#endif
