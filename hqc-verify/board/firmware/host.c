/* Host build of the platform layer: the firmware's C compiled with gcc for fast debugging. */
#include <stdio.h>
#include <stdlib.h>
#include "platform.h"

void plat_puts(const char *s) { fputs(s, stdout); fflush(stdout); }
void plat_exit(int code) { exit(code); }
__attribute__((noinline)) void bench_start(void) { __asm__ volatile("" ::: "memory"); }
__attribute__((noinline)) void bench_stop(void) { __asm__ volatile("" ::: "memory"); }
