#!/usr/bin/env python3
"""Cross-check of the insncount plugin's Thumb-2 decoder against the GNU disassembler.

    decode_check.py DECODER FILE...

FILE is an ELF or object file for the Cortex-M4; DECODER is decode_host (decode_host.c). Every
instruction that arm-none-eabi-objdump disassembles is classified twice: by its mnemonic and
operands (the table below, written from the class list of docs/m4-timing.md) and by the plugin's
decoder on its bytes; the register count of LDM/STM/PUSH/POP is compared too, and so are the
registers of the address rules (docs/m4-timing.md): the core registers an instruction writes as a
result, the base and offset registers of a load or store, and the literal and register-offset
store flags, read off the operands. Prints one summary
line per file and every disagreement; exits 1 on any disagreement or when a file has no
instructions."""
import collections
import re
import subprocess
import sys

CONDS = '(eq|ne|cs|hs|cc|lo|mi|pl|vs|vc|hi|ls|ge|lt|gt|le|al)?'
SUFFIX = r'(\.w|\.n|\.f32|\.f64|\.32|\.64|\.[su]32\.f32|\.f32\.[su]32)?'
MUL = ['mul', 'mla', 'mls', 'umull', 'smull', 'umlal', 'smlal', 'umaal', 'usada8', 'usad8',
       'smul[bt][bt]', 'smulw[bt]', 'smla[bt][bt]', 'smlaw[bt]', 'smlal[bt][bt]', 'smladx?',
       'smlaldx?', 'smlsdx?', 'smlsldx?', 'smmulr?', 'smmlar?', 'smmlsr?', 'smuadx?', 'smusdx?']
# (class, mnemonic bases); the first match wins
TABLE = [
    ('tbb', ['tbb', 'tbh']),
    ('br', ['cbz', 'cbnz', 'blx', 'bx', 'bl', 'b']),
    ('ldrd', ['ldrd']),
    ('strd', ['strd']),
    ('ldr', ['ldrexb', 'ldrexh', 'ldrex', 'ldrsbt?', 'ldrsht?', 'ldrbt?', 'ldrht?', 'ldrt', 'ldr']),
    ('str', ['strexb', 'strexh', 'strex', 'strbt?', 'strht?', 'strt', 'str']),
    ('ldm', ['ldmia', 'ldmdb', 'ldmfd', 'ldmea', 'ldm', 'pop']),
    ('stm', ['stmia', 'stmdb', 'stmfd', 'stmea', 'stm', 'push']),
    ('vldr', ['vldr']),
    ('vstr', ['vstr']),
    ('vldm', ['vldmia', 'vldmdb', 'vldm', 'vpop']),
    ('vstm', ['vstmia', 'vstmdb', 'vstm', 'vpush']),
    ('vmov', ['vmov']),
    ('fmac', ['vmla', 'vmls', 'vnmla', 'vnmls', 'vfma', 'vfms', 'vfnma', 'vfnms']),
    ('fdiv', ['vdiv', 'vsqrt']),
    ('div', ['sdiv', 'udiv']),
]


def matches(base, mn, flags=False):
    return re.fullmatch(base + ('s?' if flags else '') + CONDS + SUFFIX, mn) is not None


def operands(ops):
    return [x.strip() for x in re.split(r',(?![^{]*})', ops)] if ops else []


def expect(mn, ops):
    o = operands(ops)
    if re.fullmatch(r'it[te]{0,3}', mn):
        return 'it'
    for cls, bases in TABLE:
        if any(matches(b, mn) for b in bases):
            if cls == 'ldr' and o and o[0] == 'pc':
                return 'ldr_pc'
            if cls == 'vmov' and len(o) >= 3:
                return 'vmov2'
            return cls
    if mn.startswith('v'):
        return 'fpu'
    if any(matches(b, mn, flags=True) for b in MUL):
        return 'mul'
    if (matches('mov', mn) or matches('add', mn)) and o and o[0] == 'pc':
        return 'br'
    return 'alu'


def reglist_len(ops):
    regs = ops[ops.index('{') + 1:ops.index('}')]
    n = 0
    for part in regs.split(','):
        part = part.strip()
        if '-' in part:
            lo, hi = part.split('-')
            n += int(hi.strip()[1:]) - int(lo.strip()[1:]) + 1
        else:
            n += 1
    return n


REGS = {'sb': 9, 'sl': 10, 'fp': 11, 'ip': 12, 'sp': 13, 'lr': 14, 'pc': 15}
MEM = {'ldr', 'ldr_pc', 'str', 'ldrd', 'strd', 'ldm', 'stm', 'vldr', 'vstr', 'vldm', 'vstm', 'tbb'}
NO_RESULT = ['cmp', 'cmn', 'tst', 'teq', 'nop', 'wfi', 'wfe', 'sev', 'yield', 'dsb', 'dmb', 'isb',
             'bkpt', 'svc', 'udf', 'cpsie', 'cpsid', 'msr', 'pld', 'pli', 'pldw']
LONG_MUL = ['umull', 'smull', 'umlal', 'smlal', 'umaal', 'smlal[bt][bt]', 'smlaldx?', 'smlsldx?']


def reg(tok):
    """The core register number of an operand token, or None."""
    t = tok.strip().rstrip('!').lower()
    if t in REGS:
        return REGS[t]
    m = re.fullmatch(r'r(\d+)', t)
    return int(m.group(1)) if m and int(m.group(1)) < 16 else None


def mask(regs):
    return sum(1 << r for r in set(regs) if r is not None and r != 15)


def expect_deps(cls, mn, ops):
    """(wr, addr, mem, lit, str_reg) of the register decoder, from the disassembly."""
    o = operands(ops)
    if cls in MEM:
        br = re.search(r'\[([^\]]*)\]', ops)
        if br:
            inside = [reg(t) for t in br.group(1).split(',')]
            addr = [r for r in inside if r is not None]
        elif re.fullmatch(r'(v?push|v?pop)' + CONDS + SUFFIX, mn):
            addr = [13]
        else:
            addr = [reg(o[0])]
        lit = cls == 'ldr' and addr[:1] == [15]
        str_reg = cls == 'str' and len(addr) == 2
        wr = [reg(o[0])] if cls == 'ldr' else []
        return mask(wr), mask(addr), 1, int(lit), int(str_reg)
    if cls in ('br', 'it') or any(matches(b, mn, flags=True) for b in NO_RESULT):
        return 0, 0, 0, 0, 0
    if cls in ('vmov', 'vmov2') or matches('vmrs', mn):
        wr = []
        for t in o:
            if reg(t) is None:
                break
            wr.append(reg(t))
        return mask(wr), 0, 0, 0, 0
    if mn.startswith('v'):
        return 0, 0, 0, 0, 0
    if any(matches(b, mn, flags=True) for b in LONG_MUL):
        return mask([reg(o[0]), reg(o[1])]), 0, 0, 0, 0
    return mask([reg(o[0])] if o else []), 0, 0, 0, 0


def check(decoder, path):
    dis = subprocess.run(['arm-none-eabi-objdump', '-d', path], capture_output=True, text=True,
                         check=True).stdout
    rows = []
    for line in dis.splitlines():
        m = re.match(r'^\s+([0-9a-f]+):\t([0-9a-f]{4}(?: [0-9a-f]{4})?)\s*\t(\S+)\s*(.*)$', line)
        if not m:
            continue
        addr, hexs, mn, ops = m.groups()
        ops = ops.split('@')[0].split(';')[0].strip()
        if mn.startswith('.') or mn == 'udf' or 'UNDEFINED' in line:
            continue
        rows.append((addr, hexs.split(), mn, ops))
    text = ''.join('%s %s\n' % (a, ' '.join(h)) for a, h, _, _ in rows)
    out = subprocess.run([decoder], input=text, capture_output=True, text=True,
                         check=True).stdout.splitlines()
    bad = collections.Counter()
    example = {}
    if len(out) != len(rows):
        print('%s: decoder answered %d of %d instructions' % (path, len(out), len(rows)))
        return False
    hist = collections.Counter()
    for (addr, h, mn, ops), ans in zip(rows, out):
        f = ans.split()
        got, want = f[1], expect(mn, ops)
        hist[got] += 1
        key = None
        if got != want:
            key = (want, got, mn)
        elif got in ('ldm', 'stm') and int(f[2]) != reglist_len(ops):
            key = ('regs %d' % reglist_len(ops), 'regs ' + f[2], mn)
        else:
            d = (int(f[5], 16), int(f[6], 16), int(f[7]), int(f[8]), int(f[9]))
            e = expect_deps(want, mn, ops)
            if d != e:
                key = ('deps %x %x %d %d %d' % e, 'deps %x %x %d %d %d' % d, mn)
        if key:
            bad[key] += 1
            example.setdefault(key, '%s: %s %s %s' % (addr, ' '.join(h), mn, ops))
    print('%s: %d instructions, %d disagreements; %s' % (
        path, len(rows), sum(bad.values()),
        ' '.join('%s=%d' % kv for kv in sorted(hist.items()))))
    for key, n in bad.most_common():
        print('  %d x objdump %s, decoder %s (%s), e.g. %s' % (n, key[0], key[1], key[2], example[key]))
    return not bad and len(rows) > 0


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    ok = all([check(sys.argv[1], p) for p in sys.argv[2:]])
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
