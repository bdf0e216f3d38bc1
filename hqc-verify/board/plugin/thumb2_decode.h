/*
 * Thumb-2 decoding for the insncount plugin (insncount.c): the instruction class of every
 * instruction (struct klass, decode) and the registers of the address rules (struct dep, deps,
 * rules_after), both from the instruction's bytes alone.  docs/m4-timing.md section 1 lists the
 * classes and rules.  Not a standalone header: insncount.c includes it once, after its counter
 * enum (C_*), and decode_host.c (tests) reaches it through insncount.c.
 */
#ifndef INSNCOUNT_THUMB2_DECODE_H
#define INSNCOUNT_THUMB2_DECODE_H

/* ------------------------------------ Thumb-2 decoding ------------------------------------ */

struct klass {
    int c;          /* primary class */
    unsigned regs;  /* registers / words transferred (multiple, VLDR/VSTR) */
    bool pcw;       /* may write pc */
    bool sload;     /* single load eligible for pipelining */
    bool ldm_pc;    /* LDM/POP with pc in its list */
};

static struct klass K(int c) { struct klass k = { c, 0, false, false, false }; return k; }
static struct klass KB(int c) { struct klass k = { c, 0, true, false, false }; return k; }
static struct klass KL(void) { struct klass k = { C_LDR, 0, false, true, false }; return k; }
static struct klass KR(int c, unsigned regs) { struct klass k = { c, regs, false, false, false }; return k; }

static struct klass decode16(uint32_t hw)
{
    if ((hw & 0xFC00) == 0x4000)                       /* data processing (register) */
        return K(((hw >> 6) & 0xF) == 0xD ? C_MUL : C_ALU);
    if ((hw & 0xFC00) == 0x4400) {                     /* special data processing, BX/BLX */
        unsigned op = (hw >> 8) & 3, rd = ((hw >> 4) & 8) | (hw & 7);
        if (op == 3 || (op != 1 && rd == 15)) return KB(C_BR);
        return K(C_ALU);
    }
    if ((hw & 0xF800) == 0x4800) return KL();          /* LDR literal */
    if ((hw & 0xF000) == 0x5000)                       /* load/store register offset */
        return ((hw >> 9) & 7) < 3 ? K(C_STR) : KL();
    if ((hw & 0xE000) == 0x6000 || (hw & 0xF000) == 0x8000 || (hw & 0xF000) == 0x9000)
        return (hw & 0x0800) ? KL() : K(C_STR);        /* immediate / halfword / SP-relative */
    if ((hw & 0xF000) == 0xB000) {                     /* miscellaneous */
        if ((hw & 0xFE00) == 0xB400) return KR(C_STM, (unsigned)__builtin_popcount(hw & 0x1FF));
        if ((hw & 0xFE00) == 0xBC00) {
            struct klass k = KR(C_LDM, (unsigned)__builtin_popcount(hw & 0x1FF));
            if (hw & 0x100) k.pcw = k.ldm_pc = true;
            return k;
        }
        if ((hw & 0xF500) == 0xB100) return KB(C_BR);  /* CBZ/CBNZ */
        if ((hw & 0xFF00) == 0xBF00 && (hw & 0xF)) return K(C_IT);
        return K(C_ALU);
    }
    if ((hw & 0xF800) == 0xC000) return KR(C_STM, (unsigned)__builtin_popcount(hw & 0xFF));
    if ((hw & 0xF800) == 0xC800) return KR(C_LDM, (unsigned)__builtin_popcount(hw & 0xFF));
    if ((hw & 0xF000) == 0xD000)                       /* B<cond>, UDF, SVC */
        return ((hw >> 8) & 0xF) < 14 ? KB(C_BR) : K(C_ALU);
    if ((hw & 0xF800) == 0xE000) return KB(C_BR);      /* B */
    return K(C_ALU);                                   /* shifts, add/sub/mov/cmp imm, ADR, ... */
}

/* coprocessor space (hw1 0xEC00..0xEFFF); only coprocessors 10/11 (the FPU) are classified */
static struct klass decode_cp(uint32_t hw1, uint32_t hw2)
{
    unsigned cp = (hw2 >> 8) & 0xF, op1 = (hw1 >> 4) & 0x3F;
    if ((cp & 0xE) != 0xA) return K(C_ALU);
    if ((op1 & 0x20) == 0) {
        if ((op1 & 0x3E) == 0x04) return K(C_VMOV2);   /* 64-bit transfers */
        if ((op1 & 0x3A) == 0x00) return K(C_ALU);     /* undefined */
        bool p = (hw1 >> 8) & 1, w = (hw1 >> 5) & 1, l = (hw1 >> 4) & 1;
        if (p && !w) return KR(l ? C_VLDR : C_VSTR, cp == 0xB ? 2 : 1);
        return KR(l ? C_VLDM : C_VSTM, hw2 & 0xFF);    /* imm8 = words */
    }
    if ((op1 & 0x30) != 0x20) return K(C_ALU);
    if (hw2 & 0x10) {                                  /* 8/16/32-bit core <-> FP transfers */
        unsigned a = (hw1 >> 5) & 7, c = (hw2 >> 8) & 1;
        return K(!c && a == 7 ? C_FPU : C_VMOV);       /* VMRS/VMSR : VMOV */
    }
    unsigned opc1 = (((hw1 >> 7) & 1) << 2) | ((hw1 >> 4) & 3), opc2 = hw1 & 0xF, opc3 = (hw2 >> 6) & 3;
    switch (opc1) {
    case 0: case 1: case 5: case 6: return K(C_FMAC);
    case 4: return K(C_FDIV);
    case 7:
        if (!(opc3 & 1) || (opc2 == 0 && opc3 == 1)) return K(C_VMOV);  /* VMOV imm / reg */
        if (opc2 == 1 && opc3 == 3) return K(C_FDIV);                   /* VSQRT */
        return K(C_FPU);
    default: return K(C_FPU);
    }
}

static struct klass decode32(uint32_t hw1, uint32_t hw2)
{
    unsigned op1 = (hw1 >> 11) & 3;
    if (op1 == 1) {
        if ((hw1 & 0x0640) == 0x0000) {                /* load/store multiple */
            unsigned op = (hw1 >> 7) & 3;
            if (op != 1 && op != 2) return K(C_ALU);   /* SRS/RFE: not in M profile */
            if (hw1 & 0x10) {
                struct klass k = KR(C_LDM, (unsigned)__builtin_popcount(hw2 & 0xFFFF));
                if (hw2 & 0x8000) k.pcw = k.ldm_pc = true;
                return k;
            }
            return KR(C_STM, (unsigned)__builtin_popcount(hw2 & 0xFFFF));
        }
        if ((hw1 & 0x0640) == 0x0040) {                /* dual, exclusive, table branch */
            unsigned o1 = (hw1 >> 7) & 3, o2 = (hw1 >> 4) & 3;
            if (o1 == 0 && o2 == 0) return K(C_STR);   /* STREX */
            if (o1 == 0 && o2 == 1) return KL();       /* LDREX */
            if (o1 == 1 && o2 == 0) return K(C_STR);   /* STREXB/H */
            if (o1 == 1 && o2 == 1) return ((hw2 >> 4) & 0xF) <= 1 ? KB(C_TBB) : KL();
            return K((o2 & 1) ? C_LDRD : C_STRD);
        }
        if ((hw1 & 0x0600) == 0x0200) return K(C_ALU); /* data processing (shifted register) */
        return decode_cp(hw1, hw2);
    }
    if (op1 == 2) {
        if (!(hw2 & 0x8000)) return K(C_ALU);          /* data processing (immediate) */
        unsigned o = hw2 & 0x5000;
        if (o == 0x0000) return ((hw1 >> 7) & 7) != 7 ? KB(C_BR) : K(C_ALU); /* B<cond>.W / misc */
        if (o == 0x1000 || o == 0x5000) return KB(C_BR);                     /* B.W, BL */
        return K(C_ALU);
    }
    /* op1 == 3 */
    if ((hw1 & 0xFF10) == 0xF800) return K(C_STR);     /* store single */
    if ((hw1 & 0xFE10) == 0xF810) {                    /* load byte/halfword/word, hints */
        unsigned size = (hw1 >> 5) & 3, rt = hw2 >> 12;
        if (size == 3) return K(C_ALU);
        if (rt == 15) return size == 2 ? KB(C_LDR_PC) : K(C_ALU);  /* LDR pc : PLD/PLI */
        return KL();
    }
    if ((hw1 & 0xFF00) == 0xFA00) return K(C_ALU);     /* data processing (register) */
    if ((hw1 & 0xFF80) == 0xFB00) return K(C_MUL);     /* multiply, multiply accumulate */
    if ((hw1 & 0xFF80) == 0xFB80) {                    /* long multiply, divide */
        unsigned o = (hw1 >> 4) & 7;
        return K(o == 1 || o == 3 ? C_DIV : C_MUL);
    }
    return K(C_ALU);
}

/* Thumb instruction length from its first halfword (32-bit when hw1[15:11] is 0b11101..0b11111).
   The length reported by qemu_plugin_insn_size is not used for this: QEMU 7.2 appends the bytes
   of its page-crossing look-ahead (the next halfword) to a 16-bit instruction that ends 2 bytes
   before a page boundary, which then reports size 4. */
static size_t thumb_len(const uint8_t *b)
{
    uint32_t hw1 = (uint32_t)b[0] | (uint32_t)b[1] << 8;
    return (hw1 & 0xF800) >= 0xE800 ? 4 : 2;
}

static struct klass decode(const uint8_t *b, size_t len)
{
    uint32_t hw1 = (uint32_t)b[0] | (uint32_t)b[1] << 8;
    if (len < 4) return decode16(hw1);
    return decode32(hw1, (uint32_t)b[2] | (uint32_t)b[3] << 8);
}

/* ------------------------------- register dependencies ---------------------------------- */

/* What the address rules (docs/m4-timing.md section 2) need of one instruction: the core
   registers it writes as a result, the registers that form its address, and three flags.
   wr: for a data-processing or transfer instruction (not a load or store) its destination
   registers; for a single load its destination Rt; for every other load or store nothing (a
   base written back is not a result here).  pc never appears in a mask. */
struct dep {
    uint16_t wr;    /* registers written as a result */
    uint16_t addr;  /* base and offset registers of a load or store */
    bool mem;       /* a load or store (any size, core or FP, TBB/TBH), not a preload hint */
    bool lit;       /* a single load relative to pc (literal) */
    bool str_reg;   /* a single store with a register offset */
};

static uint16_t R(unsigned r) { return (uint16_t)((1u << (r & 15)) & 0x7FFF); }
static struct dep D(uint16_t wr) { struct dep d = { wr, 0, false, false, false }; return d; }
static struct dep DM(uint16_t wr, uint16_t addr) { struct dep d = { wr, addr, true, false, false }; return d; }

static struct dep deps16(uint32_t hw)
{
    unsigned lo = hw & 7, hi8 = (hw >> 8) & 7;
    if ((hw & 0xE000) == 0x0000) return D(R(lo));                        /* shift imm, add/sub */
    if ((hw & 0xE000) == 0x2000) return D(((hw >> 11) & 3) == 1 ? 0 : R(hi8)); /* mov/cmp/add/sub imm8 */
    if ((hw & 0xFC00) == 0x4000) {                                       /* data processing */
        unsigned op = (hw >> 6) & 0xF;
        return D(op == 8 || op == 10 || op == 11 ? 0 : R(lo));           /* TST CMP CMN: none */
    }
    if ((hw & 0xFC00) == 0x4400) {                                       /* ADD/CMP/MOV high, BX */
        unsigned op = (hw >> 8) & 3;
        return D(op == 0 || op == 2 ? R(((hw >> 4) & 8) | lo) : 0);
    }
    if ((hw & 0xF800) == 0x4800) {                                       /* LDR literal */
        struct dep d = DM(R(hi8), 0);
        d.lit = true;
        return d;
    }
    if ((hw & 0xF000) == 0x5000) {                                       /* register offset */
        struct dep d = DM(0, R((hw >> 3) & 7) | R((hw >> 6) & 7));
        if (((hw >> 9) & 7) < 3) d.str_reg = true; else d.wr = R(lo);
        return d;
    }
    if ((hw & 0xE000) == 0x6000 || (hw & 0xF000) == 0x8000)              /* immediate offset */
        return DM((hw & 0x0800) ? R(lo) : 0, R((hw >> 3) & 7));
    if ((hw & 0xF000) == 0x9000) return DM((hw & 0x0800) ? R(hi8) : 0, R(13)); /* SP relative */
    if ((hw & 0xF000) == 0xA000) return D(R(hi8));                       /* ADR, ADD Rd, SP, #imm */
    if ((hw & 0xFF00) == 0xB000) return D(R(13));                        /* ADD/SUB SP, SP, #imm */
    if ((hw & 0xFF00) == 0xB200 || (hw & 0xFF00) == 0xBA00) return D(R(lo)); /* extend, reverse */
    if ((hw & 0xF600) == 0xB400) return DM(0, R(13));                    /* PUSH, POP */
    if ((hw & 0xF000) == 0xC000) return DM(0, R(hi8));                   /* STM, LDM */
    return D(0);                                                         /* branches, hints, IT, ... */
}

static struct dep deps_cp(uint32_t hw1, uint32_t hw2)
{
    unsigned cp = (hw2 >> 8) & 0xF, op1 = (hw1 >> 4) & 0x3F;
    bool l = (hw1 >> 4) & 1;
    if ((cp & 0xE) != 0xA) return D(0);
    if ((op1 & 0x20) == 0) {
        if ((op1 & 0x3E) == 0x04) return D(l ? R(hw2 >> 12) | R(hw1 & 15) : 0); /* VMOV 2 core regs */
        if ((op1 & 0x3A) == 0x00) return D(0);
        return DM(0, R(hw1 & 15));                                       /* VLDR/VSTR/VLDM/VSTM */
    }
    if ((op1 & 0x30) == 0x20 && (hw2 & 0x10)) return D(l ? R(hw2 >> 12) : 0); /* VMOV/VMRS to core */
    return D(0);
}

static struct dep deps32(uint32_t hw1, uint32_t hw2)
{
    unsigned op1 = (hw1 >> 11) & 3, rn = hw1 & 15, rt = hw2 >> 12, rd = (hw2 >> 8) & 15;
    if (op1 == 1) {
        if ((hw1 & 0x0640) == 0x0000) return DM(0, R(rn));               /* LDM/STM */
        if ((hw1 & 0x0640) == 0x0040) {                                  /* dual, exclusive, TBB */
            unsigned o1 = (hw1 >> 7) & 3, o2 = (hw1 >> 4) & 3;
            if (o1 == 0 && o2 == 1) return DM(R(rt), R(rn));             /* LDREX */
            if (o1 == 1 && o2 == 1) {
                if (((hw2 >> 4) & 0xF) <= 1) return DM(0, R(rn) | R(hw2 & 15)); /* TBB/TBH */
                return DM(R(rt), R(rn));                                 /* LDREXB/H */
            }
            return DM(0, R(rn));                                         /* STREX*, LDRD, STRD */
        }
        if ((hw1 & 0x0600) == 0x0200) return D(R(rd));                   /* shifted register */
        return deps_cp(hw1, hw2);
    }
    if (op1 == 2) {
        if (!(hw2 & 0x8000)) return D(R(rd));                            /* data processing imm */
        if ((hw1 & 0xFFE0) == 0xF3E0 && (hw2 & 0xD000) == 0x8000) return D(R(rd)); /* MRS */
        return D(0);
    }
    bool regoff = !(hw1 & 0x80) && !(hw2 & 0x800);
    if ((hw1 & 0xFF10) == 0xF800) {                                      /* store single */
        struct dep d = DM(0, R(rn) | (regoff ? R(hw2 & 15) : 0));
        d.str_reg = regoff;
        return d;
    }
    if ((hw1 & 0xFE10) == 0xF810) {                                      /* load single, hints */
        if (((hw1 >> 5) & 3) == 3) return D(0);
        if (rt == 15 && ((hw1 >> 5) & 3) != 2) return D(0);              /* PLD/PLI */
        struct dep d = DM(R(rt), rn == 15 ? 0 : R(rn) | (regoff ? R(hw2 & 15) : 0));
        d.lit = rn == 15;
        return d;
    }
    if ((hw1 & 0xFF00) == 0xFA00 || (hw1 & 0xFF80) == 0xFB00) return D(R(rd)); /* DP reg, multiply */
    if ((hw1 & 0xFF80) == 0xFB80) {                                      /* long multiply, divide */
        unsigned o = (hw1 >> 4) & 7;
        return D(o == 1 || o == 3 ? R(rd) : R(rt) | R(rd));
    }
    return D(0);
}

static struct dep deps(const uint8_t *b, size_t len)
{
    uint32_t hw1 = (uint32_t)b[0] | (uint32_t)b[1] << 8;
    if (len < 4) return deps16(hw1);
    return deps32(hw1, (uint32_t)b[2] | (uint32_t)b[3] << 8);
}

/* The executed instruction before another, as the rules need it. */
struct prev {
    bool sload;     /* a single load (class ldr) */
    uint16_t wr;    /* dep.wr */
    bool is16;      /* a 16-bit encoding */
};

/* The moves of the rules for instruction (k, d) after p (docs/m4-timing.md section 1). */
enum { ADJ_PIPE = 1, ADJ_DEP = 2, ADJ_AGU = 4, ADJ_STR_REG = 8, ADJ_FOLD = 16 };
static unsigned rules_after(struct prev p, struct klass k, struct dep d)
{
    unsigned a = 0;
    bool hit = (p.wr & d.addr) != 0;
    if (k.sload && p.sload) a |= ADJ_PIPE | (hit ? ADJ_DEP : 0);
    else if (d.mem && hit) a |= ADJ_AGU;
    if (d.str_reg && !p.sload) a |= ADJ_STR_REG;
    if (k.c == C_IT && p.is16) a |= ADJ_FOLD;
    return a;
}

#endif
