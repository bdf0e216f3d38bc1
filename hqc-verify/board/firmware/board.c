/* Cortex-M4 startup (vector table, .data copy, .bss zero, FPU enable), fault handlers and
   semihosting for QEMU mps2-an386.  No assembly file: everything is C (docs/board.md sections 5, 6). */
#include <stdint.h>
#include "platform.h"

extern uint32_t __data_start__, __data_end__, __data_load__, __bss_start__, __bss_end__, __stack_top__;
int main(void);

/* ---- semihosting ---- */
static inline uint32_t semihost(uint32_t op, const void *arg)
{
    register uint32_t r0 __asm__("r0") = op;
    register const void *r1 __asm__("r1") = arg;
    __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}
#define SYS_WRITE0 0x04
#define SYS_EXIT_EXTENDED 0x20
#define ADP_Stopped_ApplicationExit 0x20026u

void plat_puts(const char *s) { semihost(SYS_WRITE0, s); }

void plat_exit(int code)
{
    static uint32_t block[2];
    block[0] = ADP_Stopped_ApplicationExit;
    block[1] = (uint32_t)code;
    semihost(SYS_EXIT_EXTENDED, block);
    for (;;) {}
}

/* ---- markers ---- */
__attribute__((noinline)) void bench_start(void) { __asm__ volatile("" ::: "memory"); }
__attribute__((noinline)) void bench_stop(void) { __asm__ volatile("" ::: "memory"); }

/* ---- faults: exit with distinctive codes ---- */
static void fault_exit(int code) { plat_exit(code); }
void hardfault_handler(void) { fault_exit(98); }
void memmanage_handler(void) { fault_exit(97); }
void busfault_handler(void) { fault_exit(96); }
void usagefault_handler(void) { fault_exit(95); }
void default_handler(void) { fault_exit(99); }

/* ---- reset ---- */
__attribute__((noreturn)) void reset_handler(void)
{
    uint32_t *src = &__data_load__, *dst = &__data_start__;
    while (dst < &__data_end__) *dst++ = *src++;
    for (dst = &__bss_start__; dst < &__bss_end__; dst++) *dst = 0;
    /* FPU: CP10 and CP11 full access (CPACR bits 20-23). No FP code before this point. */
    *(volatile uint32_t *)0xE000ED88u |= 0xFu << 20;
    __asm__ volatile("dsb\n\tisb" ::: "memory");
    plat_exit(main());
}

typedef void (*vector_t)(void);
__attribute__((section(".vectors"), used)) static const vector_t vectors[16] = {
    (vector_t)(uintptr_t)&__stack_top__,
    reset_handler,
    default_handler,     /* NMI */
    hardfault_handler,
    memmanage_handler,
    busfault_handler,
    usagefault_handler,
    0, 0, 0, 0,
    default_handler,     /* SVCall */
    default_handler,     /* DebugMon */
    0,
    default_handler,     /* PendSV */
    default_handler,     /* SysTick */
};
