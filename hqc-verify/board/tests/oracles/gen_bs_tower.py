#!/usr/bin/env python3
# TEST ORACLE of fwgen::bs_tower (Rust), which writes the firmware's bs_tower_gen.h; nothing builds
# from this script. Used by fwgen/tests/bs_tower.rs (header_matches_python_oracle_byte_for_byte),
# which compares the two headers byte for byte.
"""Generate bs_tower_gen.h: straight-line bitsliced tower-field code (beta-independent).

Bitsliced form (docs/fafft.md §2.1): word k holds bit k of 32 field elements.
Emitted functions (all static inline):
  bs_mul32(out, a, b)          out = a*b in F_2^32, 32 words each (out may alias neither input)
  bs_leaves8(lv, s)            27 "leaf" words of an F_256 operand s (8 words, e.g. broadcast masks)
  bs_mulacc8(acc, y, lv)       acc ^= s*y in F_256, y/acc 8 words, s given by its leaves
  bs_leaves16(lv, s)           81 leaves of an F_2^16 operand
  bs_mulacc16(acc, y, lv)      acc ^= s*y in F_2^16
  bs_mulacc8x4, bs_mulacc16x2  the same on 32 words (one s), one call, the Thumb-2 body once per block
The leaves are the Karatsuba-tree linear combinations of s used at the AND gates, so that a
product with a fixed (per block) operand s costs only the y side.  Run: python3 gen_bs_tower.py (prints the header)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xorsched  # noqa: E402  (xorsched.py beside this file)

C_H = {1: 0x1, 2: 0x2, 4: 0x8, 8: 0x80, 16: 0x8000}


def tmul(a, b, k):
    if k == 1:
        return a & b
    h = k // 2
    m = (1 << h) - 1
    a0, a1, b0, b1 = a & m, a >> h, b & m, b >> h
    p00, p11, pmx = tmul(a0, b0, h), tmul(a1, b1, h), tmul(a0 ^ a1, b0 ^ b1, h)
    return (p00 ^ tmul(p11, C_H[h], h)) | ((pmx ^ p00) << h)


class Prog:
    def __init__(self):
        self.lines = []
        self.ops = []
        self.cache = {}
        self.n = 0
        self.nxor = 0
        self.nand = 0

    def op(self, o, a, b):
        if o == "^":
            if a == "0":
                return b
            if b == "0":
                return a
        key = (o,) + tuple(sorted((a, b)))
        if key in self.cache:
            return self.cache[key]
        v = f"t{self.n}"
        self.n += 1
        self.lines.append(f"    uint32_t {v} = {a} {o} {b};")
        self.ops.append((v, o, a, b))
        self.cache[key] = v
        if o == "^":
            self.nxor += 1
        else:
            self.nand += 1
        return v

    def xor(self, a, b):
        return self.op("^", a, b)

    def xorv(self, a, b):
        return [self.xor(x, y) for x, y in zip(a, b)]

    def mulconst(self, vec, cst, k):
        """vec * cst in F_2^k (cst a tower constant)"""
        out = ["0"] * k
        for j in range(k):
            col = tmul(cst, 1 << j, k)
            for i in range(k):
                if (col >> i) & 1:
                    out[i] = self.xor(out[i], vec[j])
        return out


def mul(p, a, b, k):
    if k == 1:
        return [p.op("&", a[0], b[0])]
    h = k // 2
    p00 = mul(p, a[:h], b[:h], h)
    p11 = mul(p, a[h:], b[h:], h)
    pmx = mul(p, p.xorv(a[:h], a[h:]), p.xorv(b[:h], b[h:]), h)
    lo = p.xorv(p00, p.mulconst(p11, C_H[h], h))
    hi = p.xorv(pmx, p00)
    return lo + hi


def leaves(p, b, k, out):
    """Emit the leaf combinations of operand b in the order mul() consumes them."""
    if k == 1:
        out.append(b[0])
        return
    h = k // 2
    leaves(p, b[:h], h, out)
    leaves(p, b[h:], h, out)
    leaves(p, p.xorv(b[:h], b[h:]), h, out)


class LeafIter:
    def __init__(self, names):
        self.names = names
        self.i = 0


def mul_leaves(p, a, it, k):
    if k == 1:
        v = it.names[it.i]
        it.i += 1
        return [p.op("&", a[0], v)]
    h = k // 2
    p00 = mul_leaves(p, a[:h], it, h)
    p11 = mul_leaves(p, a[h:], it, h)
    pmx = mul_leaves(p, p.xorv(a[:h], a[h:]), it, h)
    lo = p.xorv(p00, p.mulconst(p11, C_H[h], h))
    hi = p.xorv(pmx, p00)
    return lo + hi


def emit_mul32():
    p = Prog()
    a = [f"a{i}" for i in range(32)]
    b = [f"b{i}" for i in range(32)]
    out = mul(p, a, b, 32)
    inputs = {f"a{i}": f"a[{i}]" for i in range(32)}
    inputs.update({f"b{i}": f"b[{i}]" for i in range(32)})
    return xorsched.emit("bs_mul32", "uint32_t *restrict out, const uint32_t *restrict a, const uint32_t *restrict b",
                         inputs, p.ops, [(f"out[{i}]", v, "=") for i, v in enumerate(out)], do_schedule=False,
                         comment="out = a * b in F_2^32 (bitsliced): %d AND, %d XOR" % (p.nand, p.nxor))


def emit_leaves(k):
    p = Prog()
    b = [f"s{i}" for i in range(k)]
    out = []
    leaves(p, b, k, out)
    inputs = {f"s{i}": f"s[{i}]" for i in range(k)}
    txt = xorsched.emit(f"bs_leaves{k}", "uint32_t *restrict lv, const uint32_t *restrict s", inputs, p.ops,
                        [(f"lv[{i}]", v, "=") for i, v in enumerate(out)],
                        comment=f"leaves of an F_2^{k} operand: {len(out)} words, {p.nxor} XOR")
    return txt, len(out)


def emit_mulacc(k, nleaves):
    p = Prog()
    a = [f"y{i}" for i in range(k)]
    it = LeafIter([f"l{i}" for i in range(nleaves)])
    out = mul_leaves(p, a, it, k)
    inputs = {f"y{i}": f"y[{i}]" for i in range(k)}
    inputs.update({f"l{i}": f"lv[{i}]" for i in range(nleaves)})
    return xorsched.emit(f"bs_mulacc{k}", "uint32_t *restrict acc, const uint32_t *restrict y, const uint32_t *restrict lv",
                         inputs, p.ops, [(f"acc[{i}]", v, "^=") for i, v in enumerate(out)], do_schedule=False,
                         comment=f"acc ^= s * y in F_2^{k} (bitsliced, s by its leaves): {p.nand} AND, {p.nxor} XOR")


def emit_blocks(base, k, n, nleaves):
    """bs_mulacc{k}x{n}: the Thumb-2 body of bs_mulacc{k} once per block, r0/r1 advanced between."""
    lines = base.split("\n")
    i = lines.index("    __asm__ volatile(") + 1
    insns = []
    for ln in lines[i:]:
        t = ln.strip()
        if not t.startswith('"'):
            break
        t = t[1:]
        if t.endswith('\\n\\t"'):
            insns.append(t[:-len('\\n\\t"')])
        elif t.endswith('\\n\\t");'):
            insns.append(t[:-len('\\n\\t");')])
            break
        else:
            break
    assert insns[0] == "push {r4-r11, lr}" and insns[-1] == "pop {r4-r11, pc}"
    lo, hi = 1, len(insns) - 1
    if insns[lo].startswith("sub sp, sp, #"):
        lo, hi = lo + 1, hi - 1
    for x in insns[lo:hi]:
        parts = x.split()
        assert not (len(parts) > 1 and parts[1] in ("r0,", "r1,", "r2,") and not x.startswith("str ")), x
    ns = min(nleaves, 32)  # leaves 0..ns-1 once into s0.. (VLDM), then VMOV per block

    def leaf(x):
        if x.startswith("ldr ") and ", [r2, #" in x and x.endswith("]"):
            rd, o = x[4:].split(", [r2, #")
            o = int(o[:-1])
            if o % 4 == 0 and o // 4 < ns:
                return f"vmov {rd}, s{o // 4}"
        return x

    asm = [insns[0]]
    if ns > 16:
        asm.append(f"vpush {{s16-s{ns - 1}}}")
    asm += insns[1:lo]
    asm.append(f"vldm r2, {{s0-s{ns - 1}}}")
    for b in range(n):
        if b > 0:
            asm += [f"add r0, r0, #{4 * k}", f"add r1, r1, #{4 * k}"]
        asm += [leaf(x) for x in insns[lo:hi]]
    asm += insns[hi:-1]
    if ns > 16:
        asm.append(f"vpop {{s16-s{ns - 1}}}")
    asm.append(insns[-1])
    sig = ("uint32_t *acc __attribute__((unused)), const uint32_t *y __attribute__((unused)), "
           "const uint32_t *lv __attribute__((unused))")
    return "\n".join([
        "#if defined(__arm__) && !defined(HOST_BUILD)",
        f"/* acc[0..{n * k}) ^= s * y[0..{n * k}) in F_2^{k}, {n} blocks of bs_mulacc{k} in one call, "
        f"leaves 0..{ns - 1} in s0..: "
        f"Thumb-2, {len(asm)} instructions */",
        f"__attribute__((naked, noinline, unused)) static void bs_mulacc{k}x{n}({sig})",
        "{",
        "    __asm__ volatile(",
        "\n".join(fp_guard(x, f'        "{x}\\n\\t"') for x in asm) + ");",
        "}",
        "#else",
        f"static inline __attribute__((unused)) void bs_mulacc{k}x{n}(uint32_t *restrict acc, "
        "const uint32_t *restrict y, const uint32_t *restrict lv)",
        "{",
        f"    for (unsigned b = 0; b < {n}; b++) bs_mulacc{k}(acc + {k} * b, y + {k} * b, lv);",
        "}",
        "#endif",
    ])



def fp_guard(insn, line):
    """the FPU register save is left out where the caller saved s16-s31 (FAFFT_FP_SAVED)"""
    if insn.startswith(("vpush", "vpop")):
        return f"#ifndef FAFFT_FP_SAVED\n{line}\n#endif"
    return line


V = [0x00000001, 0x00000002, 0x00000005, 0x00000009, 0x00000013, 0x0000002c, 0x00000057, 0x00000092,
     0x0000012f, 0x000002e5, 0x00000522, 0x000009b1]


def paar(rows_bits, n):
    """greedy CSE: rows_bits[i] = set of inputs of output i; returns (temps, rows)"""
    rows = [set(r) for r in rows_bits]
    temps = []
    nxt = n
    while True:
        cnt = {}
        for r in rows:
            rl = sorted(r)
            for x in range(len(rl)):
                for y in range(x + 1, len(rl)):
                    cnt[(rl[x], rl[y])] = cnt.get((rl[x], rl[y]), 0) + 1
        if not cnt:
            break
        (a, b), c = max(cnt.items(), key=lambda kv: (kv[1], -kv[0][0], -kv[0][1]))
        if c < 2:
            break
        temps.append((a, b))
        for r in rows:
            if a in r and b in r:
                r -= {a, b}
                r.add(nxt)
        nxt += 1
    return temps, rows


def emit_s0(k):
    """acc ^= s0[k] * y for the uniform constant s0[k] = sum_t k_t v_{t+1} in F_256 (acts on each byte)."""
    c = 0
    for t in range(11):
        if (k >> t) & 1:
            c ^= V[t + 1]
    assert c < 256
    inputs, ops, outputs = {}, [], []
    for byte in range(4):
        base = 8 * byte
        rows = []
        for i in range(8):
            rows.append({j for j in range(8) if (tmul(c, 1 << j, 8) >> i) & 1})
        temps, rr = paar(rows, 8)
        name = lambda x: f"y{base + x}" if x < 8 else f"u{byte}_{x}"
        for j in range(8):
            inputs[f"y{base + j}"] = f"y[{base + j}]"
        for q, (a, b) in enumerate(temps):
            ops.append((f"u{byte}_{8 + q}", "^", name(a), name(b)))
        for i, r in enumerate(rr):
            r = sorted(r)
            if not r:
                continue
            cur = name(r[0])
            for q, x in enumerate(r[1:]):
                nv = f"w{base + i}_{q}"
                ops.append((nv, "^", cur, name(x)))
                cur = nv
            outputs.append((f"acc[{base + i}]", cur, "^="))
    return xorsched.emit(f"bs_mulacc_s0_{k}", "uint32_t *restrict acc, const uint32_t *restrict y", inputs, ops, outputs,
                         comment=f"acc ^= s0[{k}] * y, s0[{k}] = {c:#04x} (uniform, bytewise)")


def main():
    parts = ["/* bs_tower_gen.h: generated by gen_bs_tower.py (beta-independent). Do not edit. */",
             "#ifndef BS_TOWER_GEN_H", "#define BS_TOWER_GEN_H", "#include <stdint.h>", ""]
    parts.append(emit_mul32())
    for k in (8, 16):
        txt, n = emit_leaves(k)
        parts.append(f"#define BS_LEAVES{k} {n}")
        parts.append(txt)
        base = emit_mulacc(k, n)
        parts.append(base)
        parts.append(emit_blocks(base, k, 32 // k, n))
    for k in range(1, 64):        # cross layers need k < n'/64 (l <= 12)
        parts.append(emit_s0(k))
    parts.append("#endif")
    sys.stdout.write("\n\n".join(parts) + "\n")


if __name__ == "__main__":
    main()
