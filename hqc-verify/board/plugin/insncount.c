/*
 * insncount: exact guest-instruction counts between marker addresses, for QEMU 7.2
 * (TCG plugin API v1; Debian ships no plugin header, so the few declarations used are
 * written out here, see docs board.md §9.3).
 *
 * Build:  gcc -O2 -fPIC -shared -Wall -o libinsncount.so insncount.c
 * Use:    qemu-system-arm ... -plugin ./libinsncount.so,start=0xS,stop=0xE -d plugin -D counts.log
 *
 * Arguments (key=value, comma separated after the .so path):
 *   start=0xADDR   address of the first instruction of the start marker (nm value, Thumb bit clear)
 *   stop=0xADDR    address of the first instruction of the stop marker
 *   pair=NAME:0xS:0xE   (repeatable, up to 16) an extra, independently named marker pair
 *
 * Semantics.  Every start hit pushes the current instruction counter on a small stack, every
 * stop hit pops it and prints one line "region <name> #<k> <count>" (k = 0, 1, ... per name,
 * in the order the stops happen), so start/stop pairs may nest (an outer region then also
 * contains the inner markers).  A stop without a start is reported as an error line.
 * Boundary (inline counting, QEMU 7.2): the exec callback of an instruction runs before its
 * inline add, so a region contains every instruction of the start marker and none of the
 * stop marker.  With one-instruction markers (a single `bx lr`) the overhead is the start
 * marker, the call glue and the `bl` to the stop marker.
 * At exit a line "total <n>" gives the whole-program count.
 */
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <inttypes.h>

/* ---- hand-written QEMU plugin API v1 declarations (QEMU 7.2 include/qemu/qemu-plugin.h) ---- */
typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t;           /* opaque: no field is read */
struct qemu_plugin_tb;
struct qemu_plugin_insn;
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void *userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void *userdata);
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_CB_R_REGS, QEMU_PLUGIN_CB_RW_REGS };
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_udata_cb_t cb,
                                            enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn, enum qemu_plugin_op op,
                                                void *ptr, uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);
void qemu_plugin_outs(const char *string);
/* ---------------------------------------------------------------------------------------------- */

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

#define MAX_PAIRS 16
#define MAX_DEPTH 64

struct pair {
    char name[32];
    uint64_t start, stop;
    uint64_t hits;                 /* completed regions */
    uint64_t stack[MAX_DEPTH];
    int depth;
};

static struct pair pairs[MAX_PAIRS];
static int npairs;
static uint64_t counter;           /* single vCPU (Cortex-M): one counter is enough */

static void on_start(unsigned int vcpu, void *ud)
{
    (void)vcpu;
    struct pair *p = ud;
    if (p->depth < MAX_DEPTH) p->stack[p->depth] = counter;
    p->depth++;
}

static void on_stop(unsigned int vcpu, void *ud)
{
    (void)vcpu;
    struct pair *p = ud;
    char buf[128];
    if (p->depth <= 0) {
        snprintf(buf, sizeof buf, "insncount: stop without start for region %.31s\n", p->name);
        qemu_plugin_outs(buf);
        return;
    }
    p->depth--;
    uint64_t n = p->depth < MAX_DEPTH ? counter - p->stack[p->depth] : 0;
    snprintf(buf, sizeof buf, "region %.31s #%" PRIu64 " %" PRIu64 "\n", p->name, p->hits, n);
    p->hits++;
    qemu_plugin_outs(buf);
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    size_t n = qemu_plugin_tb_n_insns(tb);
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint64_t va = qemu_plugin_insn_vaddr(insn);
        for (int k = 0; k < npairs; k++) {
            if (va == pairs[k].start)
                qemu_plugin_register_vcpu_insn_exec_cb(insn, on_start, QEMU_PLUGIN_CB_NO_REGS, &pairs[k]);
            if (va == pairs[k].stop)
                qemu_plugin_register_vcpu_insn_exec_cb(insn, on_stop, QEMU_PLUGIN_CB_NO_REGS, &pairs[k]);
        }
        qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &counter, 1);
    }
}

static void at_exit(qemu_plugin_id_t id, void *ud)
{
    (void)id; (void)ud;
    char buf[128];
    for (int k = 0; k < npairs; k++)
        if (pairs[k].depth > 0) {
            snprintf(buf, sizeof buf, "insncount: region %.31s left open (%d)\n", pairs[k].name, pairs[k].depth);
            qemu_plugin_outs(buf);
        }
    snprintf(buf, sizeof buf, "total %" PRIu64 "\n", counter);
    qemu_plugin_outs(buf);
}

static struct pair *get_default(void)
{
    for (int k = 0; k < npairs; k++)
        if (strcmp(pairs[k].name, "main") == 0) return &pairs[k];
    if (npairs >= MAX_PAIRS) return NULL;
    struct pair *p = &pairs[npairs++];
    memset(p, 0, sizeof *p);
    strcpy(p->name, "main");
    p->start = p->stop = UINT64_MAX;
    return p;
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
    (void)info;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strncmp(a, "start=", 6) == 0 || strncmp(a, "stop=", 5) == 0) {
            struct pair *p = get_default();
            if (!p) return -1;
            if (a[2] == 'a') p->start = strtoull(a + 6, NULL, 0);
            else p->stop = strtoull(a + 5, NULL, 0);
        } else if (strncmp(a, "pair=", 5) == 0) {
            if (npairs >= MAX_PAIRS) return -1;
            struct pair *p = &pairs[npairs];
            memset(p, 0, sizeof *p);
            const char *s = a + 5, *c1 = strchr(s, ':');
            if (!c1 || c1 - s >= (long)sizeof p->name) return -1;
            memcpy(p->name, s, (size_t)(c1 - s));
            char *end;
            p->start = strtoull(c1 + 1, &end, 0);
            if (*end != ':') return -1;
            p->stop = strtoull(end + 1, NULL, 0);
            npairs++;
        } else {
            fprintf(stderr, "insncount: unknown argument '%s'\n", a);
            return -1;
        }
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
    qemu_plugin_register_atexit_cb(id, at_exit, NULL);
    return 0;
}
