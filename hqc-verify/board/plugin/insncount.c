/*
 * insncount: exact guest-instruction counts, and counts per Cortex-M4 instruction class,
 * between marker addresses, for QEMU 7.2 (TCG plugin API v1; Debian ships no plugin header, so
 * the few declarations used are written out here).
 *
 * Build:  gcc -O2 -fPIC -shared -Wall -o libinsncount.so insncount.c
 * Use:    qemu-system-arm ... -plugin ./libinsncount.so,start=0xS,stop=0xE -d plugin -D counts.log
 *
 * Arguments (key=value, comma separated after the .so path):
 *   start=0xADDR   address of the first instruction of the start marker (nm value, Thumb bit clear)
 *   stop=0xADDR    address of the first instruction of the stop marker
 *   pair=NAME:0xS:0xE   (repeatable, up to 16) an extra, independently named marker pair
 *
 * Semantics.  Every start hit pushes the current counters on a small stack, every stop hit pops
 * them and prints one line "region <name> #<k> <count>" (k = 0, 1, ... per name, in the order the
 * stops happen), followed by "classes <name> #<k> key=value ..." (below), so start/stop pairs may
 * nest (an outer region then also contains the inner markers).  A stop without a start is
 * reported as an error line.  Boundary (inline counting, QEMU 7.2): the exec callbacks of an
 * instruction run before its inline adds, so a region contains every instruction of the start
 * marker and none of the stop marker.  With one-instruction markers (a single `bx lr`) the
 * overhead is the start marker, the call glue and the `bl` to the stop marker.
 * At exit a line "total <n>" gives the whole-program count, then "classes total key=value ...".
 *
 * Classes.  Each instruction is decoded once, at translation time, from its Thumb-2 bytes
 * (qemu_plugin_insn_data) into exactly one primary class, whose counter gets an inline add; the
 * primary classes sum to the instruction count.  Keys, in output order:
 *   alu       data processing, shifts, compares, moves, extends, bit fields, hints, barriers,
 *             MRS/MSR, BKPT/SVC/UDF, PLD: everything not listed below
 *   it        IT
 *   mul       MUL/MLA/MLS, SMULL/UMULL/SMLAL/UMLAL/UMAAL, the DSP multiplies (and USAD8/USADA8)
 *   div       SDIV/UDIV
 *   ldr       single loads LDR/LDRB/LDRH/LDRSB/LDRSH/LDREX* (any addressing, literal included),
 *             not to pc
 *   ldr_pipe  the part of ldr whose previous executed instruction was also a single load
 *             (not LDRD, not LDR pc, not LDM), whatever its registers
 *   ldr_pc    LDR pc, [..] (a load that writes pc)
 *   str       single stores STR/STRB/STRH/STREX*
 *   ldrd strd LDRD / STRD
 *   ldm       LDM/LDMDB/POP (16 and 32 bit); ldm_regs = registers transferred; ldm_pc = the part
 *             of ldm whose list holds pc
 *   stm       STM/STMDB/PUSH; stm_regs = registers transferred
 *   vldr vstr VLDR / VSTR; *_regs = 32-bit words transferred (1 for S, 2 for D)
 *   vldm vstm VLDM/VPOP / VSTM/VPUSH; *_regs = 32-bit words transferred
 *   vmov      VMOV between one core register and one S register (or a D scalar), VMOV S<-S,
 *             VMOV immediate
 *   vmov2     VMOV of two core registers to/from two S registers or one D register
 *   fpu       other FP data processing (VADD/VSUB/VMUL/VNMUL/VABS/VNEG/VCMP/VCVT), VMRS/VMSR
 *   fmac      VMLA/VMLS/VNMLA/VNMLS/VFMA/VFMS/VFNMA/VFNMS
 *   fdiv      VDIV/VSQRT
 *   br        B, B<cond>, BL, BX, BLX (register), CBZ/CBNZ, MOV pc / ADD pc (16-bit high-register forms)
 *   tbb       TBB/TBH
 *   br_taken br_untaken   outcome of every executed instruction that may write pc (br, tbb,
 *             ldr_pc, ldm_pc): taken when the next executed instruction is not at addr+size.
 * The address rules (docs/m4-timing.md; each instruction's registers are decoded at translation
 * time, "the previous instruction" is the previous executed one):
 *   ldr_dep   the part of ldr_pipe whose base or offset register is the previous load's
 *             destination (such a load does not pipeline)
 *   agu       loads and stores of every kind (and TBB/TBH) whose base or offset register the
 *             previous instruction wrote as a result (a data-processing or transfer result, or
 *             the destination of a single load), except single loads after a single load
 *             (counted by ldr_dep instead)
 *   str_reg   single stores with a register offset whose previous instruction is not a single load
 *   ldr_lit   the part of ldr that is a literal (pc-relative) load
 *   it_fold   IT whose previous instruction is a 16-bit instruction
 * Outcomes: such an instruction always ends its translation block, so it gets an exec callback
 * that records its fall-through address, and the first instruction of every block gets an exec
 * callback (registered before the marker callbacks) that compares its address with it.  A
 * branch to its own fall-through address counts as untaken; an exception taken right after a
 * branch (no interrupts are used by the firmware) would count as taken.
 * ldr_pipe and the address rules: decided at translation time from the previous instruction of
 * the same block.  The first instruction of a block is counted as if nothing preceded it (right
 * after a branch).  A block that ends without a pc writer (a page end, the block-size limit)
 * records its fall-through address and its last instruction's registers in an exec callback;
 * the next block, when it starts at that address, corrects its first instruction's counts (ldr
 * to ldr_pipe, ldr_dep, agu, str_reg, it_fold) in a callback after the marker callbacks.
 *
 * Trace mode (constant-time check, docs/board.md section 13).  Only with the arguments
 *   trace=1              hash, per region instance, the executed instruction addresses and the
 *                        data-memory accesses (qemu_plugin_register_vcpu_mem_cb)
 *   dump=NAME:K:PATH     (implies trace=1) also write the full streams of the K-th started
 *                        instance (0-based) of pair NAME to PATH.insn and PATH.mem
 * every instruction gets an exec callback (after the marker callbacks, so a traced region holds
 * exactly the instructions it counts) and every load/store a memory callback.  After each
 * "region" and "classes" line it prints
 *   trace <name> #<k> insns=<N> ihash=<16 hex> mems=<M> mhash=<16 hex>
 * ihash: 64-bit FNV-1a (offset basis 0xcbf29ce484222325, prime 0x100000001b3) over the
 * instruction records, 4 bytes each: the address, little-endian.  mhash: the same over the
 * memory records, 9 bytes each: the address of the accessing instruction (4, LE), the data
 * address (4, LE), and one byte (bit 7 = store, bits 0..1 = log2 of the access size).  The
 * dump files hold the same records.  Without trace=/dump= nothing of this is registered and
 * the output is unchanged.  An instruction that fails its IT condition still appears in the
 * instruction stream (the callback runs before the condition test); its access does not.
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
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_udata_cb_t cb,
                                            enum qemu_plugin_cb_flags flags, void *userdata);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn, enum qemu_plugin_op op,
                                                void *ptr, uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata);
typedef uint32_t qemu_plugin_meminfo_t;
enum qemu_plugin_mem_rw { QEMU_PLUGIN_MEM_R = 1, QEMU_PLUGIN_MEM_W, QEMU_PLUGIN_MEM_RW };
typedef void (*qemu_plugin_vcpu_mem_cb_t)(unsigned int vcpu_index, qemu_plugin_meminfo_t info,
                                          uint64_t vaddr, void *userdata);
void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_mem_cb_t cb,
                                      enum qemu_plugin_cb_flags flags, enum qemu_plugin_mem_rw rw,
                                      void *userdata);
unsigned int qemu_plugin_mem_size_shift(qemu_plugin_meminfo_t info);
bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info);
void qemu_plugin_outs(const char *string);
/* ---------------------------------------------------------------------------------------------- */

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

/* Counter slots.  Primary classes first (one per instruction; they sum to the count), then the
   register/word counts and branch outcomes.  C_LDR counts single loads that are not pipelined,
   C_LDR_PIPE the pipelined ones; the output key "ldr" is their sum. */
enum {
    C_ALU, C_IT, C_MUL, C_DIV, C_LDR, C_LDR_PIPE, C_LDR_PC, C_STR, C_LDRD, C_STRD,
    C_LDM, C_STM, C_VLDR, C_VSTR, C_VLDM, C_VSTM, C_VMOV, C_VMOV2, C_FPU, C_FMAC, C_FDIV,
    C_BR, C_TBB,
    NPRIMARY,
    S_LDM_REGS = NPRIMARY, S_LDM_PC, S_STM_REGS, S_VLDR_REGS, S_VSTR_REGS, S_VLDM_REGS,
    S_VSTM_REGS, S_TAKEN, S_UNTAKEN,
    S_LDR_DEP, S_AGU, S_STR_REG, S_LDR_LIT, S_IT_FOLD,
    NCNT
};

/* the "_regs" slot of a primary class, or -1 */
static int regs_slot(int c)
{
    switch (c) {
    case C_LDM: return S_LDM_REGS;
    case C_STM: return S_STM_REGS;
    case C_VLDR: return S_VLDR_REGS;
    case C_VSTR: return S_VSTR_REGS;
    case C_VLDM: return S_VLDM_REGS;
    case C_VSTM: return S_VSTM_REGS;
    default: return -1;
    }
}

#define MAX_PAIRS 16
#define MAX_DEPTH 64

struct pair {
    char name[32];
    uint64_t start, stop;
    uint64_t hits;                 /* completed regions */
    uint64_t stack[MAX_DEPTH][NCNT];
    int depth;
    uint64_t starts;               /* started instances (trace mode: the dump= index) */
    struct tframe *tf[MAX_DEPTH];  /* trace mode: one frame per open instance */
};

/* ---- trace mode: per open region instance, FNV-1a of the two address streams ---- */
#define FNV_BASIS 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL
struct tframe {
    uint64_t ih, in, mh, mn;       /* hashes and record counts */
    FILE *di, *dm;                 /* dump files, or NULL */
};
static bool trace_on;
static char dump_name[32];
static uint64_t dump_k = UINT64_MAX;
static char dump_path[4096];
static struct tframe *active[MAX_PAIRS * MAX_DEPTH];
static int nactive;

static uint64_t fnv_bytes(uint64_t h, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++) { h ^= b[i]; h *= FNV_PRIME; }
    return h;
}

static void le32(uint8_t *b, uint32_t v)
{
    b[0] = (uint8_t)v; b[1] = (uint8_t)(v >> 8); b[2] = (uint8_t)(v >> 16); b[3] = (uint8_t)(v >> 24);
}

static struct pair pairs[MAX_PAIRS];
static int npairs;
static uint64_t cnt[NCNT];         /* single vCPU (Cortex-M): one set of counters is enough */
static uint64_t pend_branch;       /* fall-through address of the last executed pc writer, 0 = none */
static uint64_t pend_tail;         /* packed tail() of a block that ended without a pc writer, 0 = none */
static unsigned head_adj;          /* ADJ_* moves for the current block's first instruction */

#include "thumb2_decode.h"

/* ------------------------------------- exec callbacks ------------------------------------- */

static void on_pcw(unsigned int vcpu, void *ud)
{
    (void)vcpu;
    pend_branch = (uint64_t)(uintptr_t)ud;
}

/* tail of a block that ends without a pc writer: ud = tail_pack(fall-through address, prev) */
static void on_tail(unsigned int vcpu, void *ud)
{
    (void)vcpu;
    pend_tail = (uint64_t)(uintptr_t)ud;
}

/* packed prev, with the address the next instruction must have for it to apply (bits 0..31) */
static uint64_t tail_pack(uint64_t next, struct prev p)
{
    return (next & 0xFFFFFFFFu) | (uint64_t)p.wr << 32 | (uint64_t)p.sload << 48 |
           (uint64_t)p.is16 << 49 | (uint64_t)1 << 50;
}

/* packed first instruction of a block: address, dep.addr, and the flags rules_after reads */
static uint64_t head_pack(uint64_t va, struct klass k, struct dep d)
{
    return (va & 0xFFFFFFFFu) | (uint64_t)d.addr << 32 | (uint64_t)k.sload << 48 |
           (uint64_t)d.mem << 49 | (uint64_t)d.str_reg << 50 | (uint64_t)(k.c == C_IT) << 51;
}

/* ud = head_pack(..) of the block's first instruction */
static void on_head(unsigned int vcpu, void *ud)
{
    (void)vcpu;
    uint64_t v = (uint64_t)(uintptr_t)ud, va = v & 0xFFFFFFFFu;
    if (pend_branch) {
        cnt[va != (pend_branch & 0xFFFFFFFFu) ? S_TAKEN : S_UNTAKEN]++;
        pend_branch = 0;
    }
    head_adj = 0;
    if (pend_tail && va == (pend_tail & 0xFFFFFFFFu)) {
        struct prev p = { (pend_tail >> 48) & 1, (uint16_t)(pend_tail >> 32), (pend_tail >> 49) & 1 };
        struct klass k = K((v >> 51) & 1 ? C_IT : C_ALU);
        k.sload = (v >> 48) & 1;
        struct dep d = DM(0, (uint16_t)(v >> 32));
        d.mem = (v >> 49) & 1;
        d.str_reg = (v >> 50) & 1;
        /* the inline adds assumed no previous instruction (a block reached by a branch) */
        struct prev none = { false, 0, false };
        head_adj = rules_after(p, k, d) ^ rules_after(none, k, d);
    }
    pend_tail = 0;
}

/* first instruction of a block that a rule may concern: registered after the marker callbacks,
   so that the moves land on the same side of a region boundary as the inline adds */
static void on_head_adj(unsigned int vcpu, void *ud)
{
    (void)vcpu; (void)ud;
    if (!head_adj) return;
    if (head_adj & ADJ_PIPE) { cnt[C_LDR]--; cnt[C_LDR_PIPE]++; }
    if (head_adj & ADJ_DEP) cnt[S_LDR_DEP]++;
    if (head_adj & ADJ_AGU) cnt[S_AGU]++;
    if (head_adj & ADJ_STR_REG) cnt[S_STR_REG]--;   /* a store after a load: pipelined */
    if (head_adj & ADJ_FOLD) cnt[S_IT_FOLD]++;
}

static void on_trace_insn(unsigned int vcpu, void *ud)
{
    (void)vcpu;
    if (!nactive) return;
    uint8_t b[4];
    le32(b, (uint32_t)(uintptr_t)ud);
    for (int i = 0; i < nactive; i++) {
        struct tframe *t = active[i];
        t->ih = fnv_bytes(t->ih, b, 4);
        t->in++;
        if (t->di) fwrite(b, 1, 4, t->di);
    }
}

static void on_trace_mem(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *ud)
{
    (void)vcpu;
    if (!nactive) return;
    uint8_t b[9];
    le32(b, (uint32_t)(uintptr_t)ud);
    le32(b + 4, (uint32_t)vaddr);
    b[8] = (uint8_t)((qemu_plugin_mem_is_store(info) ? 0x80 : 0) | (qemu_plugin_mem_size_shift(info) & 3));
    for (int i = 0; i < nactive; i++) {
        struct tframe *t = active[i];
        t->mh = fnv_bytes(t->mh, b, 9);
        t->mn++;
        if (t->dm) fwrite(b, 1, 9, t->dm);
    }
}

static FILE *open_dump(const char *ext)
{
    char path[4200];
    snprintf(path, sizeof path, "%s.%s", dump_path, ext);
    FILE *f = fopen(path, "wb");
    if (!f) {
        snprintf(path, sizeof path, "insncount: cannot write the dump %s.%s\n", dump_path, ext);
        qemu_plugin_outs(path);
    }
    return f;
}

static void trace_open(struct pair *p)
{
    if (p->depth >= MAX_DEPTH || nactive >= MAX_PAIRS * MAX_DEPTH) return;
    struct tframe *t = calloc(1, sizeof *t);
    if (!t) return;
    t->ih = t->mh = FNV_BASIS;
    if (p->starts == dump_k && strcmp(p->name, dump_name) == 0) {
        t->di = open_dump("insn");
        t->dm = open_dump("mem");
    }
    p->tf[p->depth] = t;
    active[nactive++] = t;
}

static void trace_close(struct pair *p, uint64_t k)
{
    if (p->depth >= MAX_DEPTH) return;
    struct tframe *t = p->tf[p->depth];
    if (!t) return;
    p->tf[p->depth] = NULL;
    for (int i = 0; i < nactive; i++)
        if (active[i] == t) { active[i] = active[--nactive]; break; }
    if (t->di) fclose(t->di);
    if (t->dm) fclose(t->dm);
    char buf[192];
    snprintf(buf, sizeof buf, "trace %.31s #%" PRIu64 " insns=%" PRIu64 " ihash=%016" PRIx64
             " mems=%" PRIu64 " mhash=%016" PRIx64 "\n", p->name, k, t->in, t->ih, t->mn, t->mh);
    qemu_plugin_outs(buf);
    free(t);
}

static void on_start(unsigned int vcpu, void *ud)
{
    (void)vcpu;
    struct pair *p = ud;
    if (p->depth < MAX_DEPTH) memcpy(p->stack[p->depth], cnt, sizeof cnt);
    if (trace_on) trace_open(p);
    p->starts++;
    p->depth++;
}

static uint64_t sum_primary(const uint64_t *c)
{
    uint64_t s = 0;
    for (int i = 0; i < NPRIMARY; i++) s += c[i];
    return s;
}

/* "classes <name> ..." line for the counter differences d */
static void print_classes(const char *head, const uint64_t *d)
{
    char buf[2048];
    snprintf(buf, sizeof buf,
             "classes %s alu=%" PRIu64 " it=%" PRIu64 " mul=%" PRIu64 " div=%" PRIu64
             " ldr=%" PRIu64 " ldr_pipe=%" PRIu64 " ldr_pc=%" PRIu64 " str=%" PRIu64
             " ldrd=%" PRIu64 " strd=%" PRIu64 " ldm=%" PRIu64 " ldm_regs=%" PRIu64
             " ldm_pc=%" PRIu64 " stm=%" PRIu64 " stm_regs=%" PRIu64 " vldr=%" PRIu64
             " vldr_regs=%" PRIu64 " vstr=%" PRIu64 " vstr_regs=%" PRIu64 " vldm=%" PRIu64
             " vldm_regs=%" PRIu64 " vstm=%" PRIu64 " vstm_regs=%" PRIu64 " vmov=%" PRIu64
             " vmov2=%" PRIu64 " fpu=%" PRIu64 " fmac=%" PRIu64 " fdiv=%" PRIu64 " br=%" PRIu64
             " tbb=%" PRIu64 " br_taken=%" PRIu64 " br_untaken=%" PRIu64 " ldr_dep=%" PRIu64
             " agu=%" PRIu64 " str_reg=%" PRIu64 " ldr_lit=%" PRIu64 " it_fold=%" PRIu64 "\n",
             head, d[C_ALU], d[C_IT], d[C_MUL], d[C_DIV], d[C_LDR] + d[C_LDR_PIPE], d[C_LDR_PIPE],
             d[C_LDR_PC], d[C_STR], d[C_LDRD], d[C_STRD], d[C_LDM], d[S_LDM_REGS], d[S_LDM_PC],
             d[C_STM], d[S_STM_REGS], d[C_VLDR], d[S_VLDR_REGS], d[C_VSTR], d[S_VSTR_REGS],
             d[C_VLDM], d[S_VLDM_REGS], d[C_VSTM], d[S_VSTM_REGS], d[C_VMOV], d[C_VMOV2],
             d[C_FPU], d[C_FMAC], d[C_FDIV], d[C_BR], d[C_TBB], d[S_TAKEN], d[S_UNTAKEN],
             d[S_LDR_DEP], d[S_AGU], d[S_STR_REG], d[S_LDR_LIT], d[S_IT_FOLD]);
    qemu_plugin_outs(buf);
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
    uint64_t d[NCNT] = { 0 };
    if (p->depth < MAX_DEPTH)
        for (int i = 0; i < NCNT; i++) d[i] = cnt[i] - p->stack[p->depth][i];
    snprintf(buf, sizeof buf, "region %.31s #%" PRIu64 " %" PRIu64 "\n", p->name, p->hits, sum_primary(d));
    qemu_plugin_outs(buf);
    snprintf(buf, sizeof buf, "%.31s #%" PRIu64, p->name, p->hits);
    print_classes(buf, d);
    if (trace_on) trace_close(p, p->hits);
    p->hits++;
}

/* ----------------------------------- translation ------------------------------------------ */

static void inline_add(struct qemu_plugin_insn *insn, int slot, uint64_t v)
{
    qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &cnt[slot], v);
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    size_t n = qemu_plugin_tb_n_insns(tb);
    struct prev p = { false, 0, false };   /* the block's first instruction: none is assumed */
    for (size_t i = 0; i < n; i++) {
        struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
        uint64_t va = qemu_plugin_insn_vaddr(insn);
        size_t got = qemu_plugin_insn_size(insn);
        const uint8_t *bytes = qemu_plugin_insn_data(insn);
        size_t sz = (bytes && got >= 2) ? thumb_len(bytes) : got;
        bool ok = bytes && got >= sz && sz >= 2;
        struct klass k = ok ? decode(bytes, sz) : K(C_ALU);
        struct dep d = ok ? deps(bytes, sz) : D(0);
        /* outcome of the previous pc writer first, then the markers, then the inline adds */
        if (i == 0)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_head, QEMU_PLUGIN_CB_NO_REGS,
                                                   (void *)(uintptr_t)head_pack(va, k, d));
        for (int q = 0; q < npairs; q++) {
            if (va == pairs[q].start)
                qemu_plugin_register_vcpu_insn_exec_cb(insn, on_start, QEMU_PLUGIN_CB_NO_REGS, &pairs[q]);
            if (va == pairs[q].stop)
                qemu_plugin_register_vcpu_insn_exec_cb(insn, on_stop, QEMU_PLUGIN_CB_NO_REGS, &pairs[q]);
        }
        if (i == 0 && (d.mem || k.c == C_IT))
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_head_adj, QEMU_PLUGIN_CB_NO_REGS, NULL);
        if (trace_on) {
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_trace_insn, QEMU_PLUGIN_CB_NO_REGS,
                                                   (void *)(uintptr_t)va);
            qemu_plugin_register_vcpu_mem_cb(insn, on_trace_mem, QEMU_PLUGIN_CB_NO_REGS,
                                             QEMU_PLUGIN_MEM_RW, (void *)(uintptr_t)va);
        }
        struct prev here = { k.sload, d.wr, sz == 2 };
        if (k.pcw)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_pcw, QEMU_PLUGIN_CB_NO_REGS,
                                                   (void *)(uintptr_t)(va + sz));
        else if (i + 1 == n)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_tail, QEMU_PLUGIN_CB_NO_REGS,
                                                   (void *)(uintptr_t)tail_pack(va + sz, here));
        unsigned adj = rules_after(p, k, d);
        int c = (adj & ADJ_PIPE) ? C_LDR_PIPE : k.c;
        inline_add(insn, c, 1);
        int rs = regs_slot(c);
        if (rs >= 0 && k.regs) inline_add(insn, rs, k.regs);
        if (k.ldm_pc) inline_add(insn, S_LDM_PC, 1);
        if (adj & ADJ_DEP) inline_add(insn, S_LDR_DEP, 1);
        if (adj & ADJ_AGU) inline_add(insn, S_AGU, 1);
        if (adj & ADJ_STR_REG) inline_add(insn, S_STR_REG, 1);
        if (adj & ADJ_FOLD) inline_add(insn, S_IT_FOLD, 1);
        if (k.sload && d.lit) inline_add(insn, S_LDR_LIT, 1);
        p = here;
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
    snprintf(buf, sizeof buf, "total %" PRIu64 "\n", sum_primary(cnt));
    qemu_plugin_outs(buf);
    print_classes("total", cnt);
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
            if (!c1 || c1 == s || c1 - s >= (long)sizeof p->name) return -1;
            memcpy(p->name, s, (size_t)(c1 - s));
            if (strcmp(p->name, "total") == 0) {
                fprintf(stderr, "insncount: 'total' is reserved and cannot name a pair\n");
                return -1;
            }
            char *end;
            p->start = strtoull(c1 + 1, &end, 0);
            if (*end != ':') return -1;
            p->stop = strtoull(end + 1, NULL, 0);
            npairs++;
        } else if (strcmp(a, "trace=1") == 0) {
            trace_on = true;
        } else if (strcmp(a, "trace=0") == 0) {
            /* the default */
        } else if (strncmp(a, "dump=", 5) == 0) {
            const char *s = a + 5, *c1 = strchr(s, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
            char *end;
            if (!c1 || c1 == s || c1 - s >= (long)sizeof dump_name || !c2 || !c2[1] ||
                strlen(c2 + 1) >= sizeof dump_path) {
                fprintf(stderr, "insncount: dump= needs NAME:K:PATH\n");
                return -1;
            }
            memcpy(dump_name, s, (size_t)(c1 - s));
            dump_name[c1 - s] = 0;
            dump_k = strtoull(c1 + 1, &end, 10);
            if (end != c2) {
                fprintf(stderr, "insncount: dump= needs NAME:K:PATH\n");
                return -1;
            }
            strcpy(dump_path, c2 + 1);
            trace_on = true;
        } else {
            fprintf(stderr, "insncount: unknown argument '%s'\n", a);
            return -1;
        }
    }
    qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
    qemu_plugin_register_atexit_cb(id, at_exit, NULL);
    return 0;
}
