/* Host harness for the plugin's Thumb-2 decoder (decode_check.py): reads lines
   "<addr hex> <hw1 hex> [<hw2 hex>]" and prints "<addr hex> <class> <regs> <pcw> <ldm_pc> <wr hex>
   <addr hex> <mem> <lit> <str_reg>" (the last five: the register decoder, struct dep).
   It includes the plugin source for its static decoder and stubs the QEMU API functions,
   which are never called:  gcc -O1 -o decode_host decode_host.c */
#include "../insncount.c"

static void never(void) { fprintf(stderr, "decode_host: QEMU API called\n"); abort(); }
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb)
{ (void)id; (void)cb; never(); }
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb) { (void)tb; never(); return 0; }
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx)
{ (void)tb; (void)idx; never(); return NULL; }
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn) { (void)insn; never(); return 0; }
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn) { (void)insn; never(); return NULL; }
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn) { (void)insn; never(); return 0; }
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_udata_cb_t cb,
                                            enum qemu_plugin_cb_flags flags, void *userdata)
{ (void)insn; (void)cb; (void)flags; (void)userdata; never(); }
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn, enum qemu_plugin_op op,
                                                void *ptr, uint64_t imm)
{ (void)insn; (void)op; (void)ptr; (void)imm; never(); }
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *userdata)
{ (void)id; (void)cb; (void)userdata; never(); }
void qemu_plugin_outs(const char *string) { (void)string; never(); }

static const char *const class_names[NPRIMARY] = {
    [C_ALU] = "alu", [C_IT] = "it", [C_MUL] = "mul", [C_DIV] = "div", [C_LDR] = "ldr",
    [C_LDR_PIPE] = "ldr", [C_LDR_PC] = "ldr_pc", [C_STR] = "str", [C_LDRD] = "ldrd",
    [C_STRD] = "strd", [C_LDM] = "ldm", [C_STM] = "stm", [C_VLDR] = "vldr", [C_VSTR] = "vstr",
    [C_VLDM] = "vldm", [C_VSTM] = "vstm", [C_VMOV] = "vmov", [C_VMOV2] = "vmov2",
    [C_FPU] = "fpu", [C_FMAC] = "fmac", [C_FDIV] = "fdiv", [C_BR] = "br", [C_TBB] = "tbb",
};

int main(void)
{
    char line[256];
    while (fgets(line, sizeof line, stdin)) {
        unsigned a, h1, h2;
        int n = sscanf(line, "%x %x %x", &a, &h1, &h2);
        if (n < 2) continue;
        uint8_t b[4] = { (uint8_t)h1, (uint8_t)(h1 >> 8), 0, 0 };
        size_t len = 2;
        if (n == 3) { b[2] = (uint8_t)h2; b[3] = (uint8_t)(h2 >> 8); len = 4; }
        if (thumb_len(b) != len) { printf("%x badlen 0 0 0 0 0 0 0 0\n", a); continue; }
        struct klass k = decode(b, len);
        struct dep d = deps(b, len);
        printf("%x %s %u %d %d %x %x %d %d %d\n", a, class_names[k.c], k.regs, (int)k.pcw,
               (int)k.ldm_pc, d.wr, d.addr, (int)d.mem, (int)d.lit, (int)d.str_reg);
    }
    return 0;
}
