#!/usr/bin/env python3
"""Compare the m4kem board output with the committed KAT pins (Python 3 stdlib only).

    check.py [--kat-dir DIR] [--level L] [--flavour F] [--count K] BOARD_OUTPUT

BOARD_OUTPUT holds the firmware's lines
    count=<i> level=<L> flavour=<F> digest=<hex> ok=<0|1>
(other lines are ignored). Each digest SHA3-256(pk || sk || ct || ss) must equal the one
pinned for that entry in hqc-verify/kat/entries/<flavour>-hqc-<L>.txt (last column; found
relative to this script, see docs/kat.md). With --level/--flavour every line must have that
level/flavour; with --count the lines must be exactly the entries 0 .. K-1 (or the first
entry given by the board, then K consecutive ones).

The official files are optional: with --kat-dir DIR (or $HQC_KAT_DIR set explicitly) the
digest is also recomputed from the entry with the same count in
DIR/<flavour folder>/hqc-<L>.rsp (fields taken by name, `key = value`). No folder is
searched for.

Exit status 0 only if every entry matches and has ok=1; otherwise the first differing entry
is named and the status is 1 (2 for usage or file errors).
"""
import argparse
import hashlib
import os
import re
import sys

FOLDERS = {"v5.0.0": "v5.0.0", "2026-02": "2026-02-sampling-update"}
ALIASES = {"v5.0.0": "v5.0.0", "v5": "v5.0.0", "5.0.0": "v5.0.0", "0": "v5.0.0",
           "2026-02": "2026-02", "2026-02-sampling-update": "2026-02", "next-release": "2026-02",
           "1": "2026-02"}
SIZES = {1: (2241, 2321, 4433), 3: (4514, 4602, 8978), 5: (7237, 7333, 14421)}
LINE = re.compile(r"^count=(\d+) level=(\d) flavour=(\S+) digest=([0-9a-f]{64}) ok=([01])\s*$")


def fail(msg, code=2):
    print(f"check.py: {msg}", file=sys.stderr)
    sys.exit(code)


PINS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "kat", "entries")


def locate_kat_dir(explicit):
    """The official KAT folder named by --kat-dir or $HQC_KAT_DIR, else None."""
    if explicit:
        if not os.path.isdir(explicit):
            fail(f"KAT folder {explicit} (from --kat-dir) does not exist")
        return explicit
    env = os.environ.get("HQC_KAT_DIR")
    if env:
        if not os.path.isdir(env):
            fail(f"KAT folder {env} (from HQC_KAT_DIR) does not exist")
        return env
    return None


def read_pins(flavour, level):
    """The pinned board digests {count: hex} of one flavour and level."""
    path = os.path.normpath(os.path.join(PINS, f"{flavour}-hqc-{level}.txt"))
    pins = {}
    try:
        with open(path, encoding="ascii") as f:
            for lineno, raw in enumerate(f, 1):
                line = raw.strip()
                if not line or line.startswith("#"):
                    continue
                cols = line.split()
                if len(cols) != 7 or not cols[0].isdigit() or not re.fullmatch(r"[0-9a-f]{64}", cols[6]):
                    fail(f"{path}:{lineno}: expected `count seed pk sk ct ss board`")
                pins[int(cols[0])] = cols[6]
    except OSError as e:
        fail(f"{path}: {e}")
    return path, pins


def parse_rsp(path, wanted):
    """Entries of an .rsp file as {count: {field: bytes}} for the counts in `wanted`
    (stops reading after the largest wanted count)."""
    entries, cur, header = {}, None, None
    last = max(wanted)
    with open(path, encoding="ascii") as f:
        for lineno, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if line.startswith("#"):
                header = header or line[1:].strip()
                continue
            if not line.strip():
                continue
            if " = " not in line:
                fail(f"{path}:{lineno}: not a 'key = value' line")
            key, val = line.split(" = ", 1)
            key = key.strip()
            if key == "count":
                c = int(val)
                if c > last:
                    break
                cur = (c, {})
                if c in wanted:
                    entries[c] = cur[1]
            elif cur is not None and cur[0] in wanted:
                try:
                    cur[1][key] = bytes.fromhex(val.strip())
                except ValueError:
                    fail(f"{path}:{lineno}: field {key} is not hexadecimal")
    return header, entries


def entry_digest(e):
    h = hashlib.sha3_256()
    for k in ("pk", "sk", "ct", "ss"):
        h.update(e[k])
    return h.hexdigest()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("board_output")
    ap.add_argument("--kat-dir")
    ap.add_argument("--level", type=int, choices=(1, 3, 5))
    ap.add_argument("--flavour")
    ap.add_argument("--count", type=int)
    a = ap.parse_args()
    want_flavour = None
    if a.flavour is not None:
        want_flavour = ALIASES.get(a.flavour)
        if want_flavour is None:
            fail(f"unknown flavour {a.flavour!r}")

    try:
        with open(a.board_output, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError as e:
        fail(f"{a.board_output}: {e}")
    lines = []
    for raw in text.splitlines():
        m = LINE.match(raw)
        if m:
            c, lv, fl, dg, ok = m.groups()
            fl = ALIASES.get(fl, fl)
            lines.append((int(c), int(lv), fl, dg, ok == "1"))
    if not lines:
        print("FAIL: the board printed no entry line", file=sys.stderr)
        tail = text.strip().splitlines()[-5:]
        for t in tail:
            print(f"    {t}", file=sys.stderr)
        return 1

    combos = {(lv, fl) for _, lv, fl, _, _ in lines}
    if len(combos) != 1:
        fail(f"the board output mixes level/flavour combinations {sorted(combos)}", 1)
    level, flavour = combos.pop()
    if level not in SIZES or flavour not in FOLDERS:
        fail(f"unknown level/flavour {level}/{flavour} in the board output", 1)
    if a.level is not None and level != a.level:
        print(f"FAIL: board ran HQC-{level}, expected HQC-{a.level}")
        return 1
    if want_flavour is not None and flavour != want_flavour:
        print(f"FAIL: board ran flavour {flavour}, expected {want_flavour}")
        return 1

    counts = [c for c, *_ in lines]
    if a.count is not None:
        expect = list(range(counts[0], counts[0] + a.count))
        if counts != expect:
            missing = sorted(set(expect) - set(counts))
            extra = sorted(set(counts) - set(expect))
            print(f"FAIL: expected entries {expect[0]}..{expect[-1]}, board printed {len(counts)} lines"
                  + (f"; first missing count = {missing[0]}" if missing else "")
                  + (f"; unexpected count = {extra[0]}" if extra else ""))
            return 1

    pin_path, pins = read_pins(flavour, level)
    kat = locate_kat_dir(a.kat_dir)
    entries = None
    if kat is not None:
        path = os.path.join(kat, FOLDERS[flavour], f"hqc-{level}.rsp")
        if not os.path.isfile(path):
            fail(f"{path} does not exist")
        header, entries = parse_rsp(path, set(counts))
        if header != f"HQC-{level}":
            fail(f"{path}: header {header!r}, expected 'HQC-{level}'")
        print(f"checked against the committed pins and {path}")
    else:
        print("checked against committed per-entry pins; pass --kat-dir for whole-file comparison")

    passed = 0
    first_bad = None
    for c, lv, fl, dg, ok in lines:
        reason = None
        want = pins.get(c)
        if want is None:
            reason = f"no pinned entry count = {c} in {pin_path}"
        elif want != dg:
            reason = f"digest {dg} differs from the pinned {want}"
        if reason is None and entries is not None:
            e = entries.get(c)
            if e is None:
                reason = f"the official file has no entry count = {c}"
            elif any(k not in e for k in ("pk", "sk", "ct", "ss")):
                reason = "the official entry lacks one of pk, sk, ct, ss"
            else:
                pk, sk, ct = SIZES[level]
                if (len(e["pk"]), len(e["sk"]), len(e["ct"]), len(e["ss"])) != (pk, sk, ct, 32):
                    reason = "the official entry has unexpected field sizes"
                elif entry_digest(e) != dg:
                    reason = f"digest {dg} differs from the official {entry_digest(e)}"
        if reason is None and not ok:
            reason = "digest matches but Decaps did not reproduce ss on the board (ok=0)"
        if reason is None:
            passed += 1
        elif first_bad is None:
            first_bad = (c, reason)

    failed = len(lines) - passed
    name = f"HQC-{level}/{flavour}"
    if first_bad:
        print(f"FAIL: {name}: first differing entry count = {first_bad[0]}: {first_bad[1]}")
    print(f"{name}: {passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
