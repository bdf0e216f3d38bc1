#!/usr/bin/env bash
# Regenerate KAT entries 0 .. COUNT-1 of HQC-LEVEL / FLAVOUR on the emulated Cortex-M4 (QEMU
# mps2-an386) and compare their digests with the committed per-entry pins
# (hqc-verify/kat/entries/, see docs/kat.md).
#
#   run.sh LEVEL FLAVOUR COUNT        # LEVEL 1|3|5, FLAVOUR v5.0.0|2026-02, COUNT 1..100
#
# Environment:
#   MUL=portable|c-fafft   multiplier build (default portable; c-fafft serves the level of
#                          PARAMS_DIR, default the HQC-1 fixture; see build.sh)
#   PARAMS_DIR, BUILD_TAG  passed to build.sh (c-fafft)
#   NO_BUILD=1             use the existing ELF (ELF=path to name it)
#   BENCH=0|1              bench_start/bench_stop around entry 0's operations (default 1)
#   QEMU_TIMEOUT=seconds   (default 3600)
#   HQC_KAT_DIR            optional folder of the official KAT files: the digests are then
#                          also compared with the .rsp files (no folder is searched for)
# Board output is kept in <repo>/build/m4kem/run-<mul>-hqc<L>-<flavour>-<K>.out.
# Exit status 0 only if QEMU exited 0 and every entry matched its pin.
set -euo pipefail

if [ $# -ne 3 ]; then
    echo "usage: $0 LEVEL FLAVOUR COUNT   (e.g. $0 1 2026-02 10)" >&2
    exit 2
fi
level=$1 flavour=$2 count=$3
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
mul=${MUL:-portable}
case "$level" in 1|3|5) ;; *) echo "run.sh: LEVEL must be 1, 3 or 5" >&2; exit 2 ;; esac
case "$flavour" in v5.0.0|2026-02) ;; *) echo "run.sh: FLAVOUR must be v5.0.0 or 2026-02" >&2; exit 2 ;; esac
case "$count" in ''|*[!0-9]*) echo "run.sh: COUNT must be a number" >&2; exit 2 ;; esac
if [ "$count" -lt 1 ] || [ "$count" -gt 100 ]; then echo "run.sh: COUNT must be 1..100" >&2; exit 2; fi

if [ -n "${ELF:-}" ] && [ "${NO_BUILD:-0}" = 1 ]; then
    elf=$ELF
elif [ "${NO_BUILD:-0}" = 1 ]; then
    elf=$repo/build/m4kem/m4kem.elf
    [ "$mul" = portable ] || elf=$repo/build/m4kem/m4kem-$mul.elf
else
    elf=$("$here/build.sh" "$mul" | tail -n 1)
fi
[ -f "$elf" ] || { echo "run.sh: $elf missing" >&2; exit 1; }

out=$repo/build/m4kem/run-$mul-hqc$level-$flavour-$count.out
t0=$(date +%s.%N)
set +e
timeout "${QEMU_TIMEOUT:-3600}" qemu-system-arm -M mps2-an386 -display none -monitor none -serial none \
    -chardev stdio,id=sh0 -semihosting-config enable=on,target=native,chardev=sh0 \
    -kernel "$elf" -append "level=$level flavour=$flavour count=$count bench=${BENCH:-1}" | tee "$out"
rc=${PIPESTATUS[0]}
set -e
t1=$(date +%s.%N)
awk -v a="$t0" -v b="$t1" -v n="$count" 'BEGIN { printf "qemu: %.2f s wall for %d entries (%.3f s/entry incl. start-up)\n", b - a, n, (b - a) / n }'
if [ "$rc" != 0 ]; then
    echo "run.sh: QEMU exit status $rc (0 = all ok; 1 = a Decaps mismatch or error; 2 = bad configuration; 90 = Rust panic; 95-99 = fault; 124 = timeout)"
fi
set +e
python3 "$here/check.py" --level "$level" --flavour "$flavour" --count "$count" "$out"
crc=$?
set -e
[ "$rc" = 0 ] && [ "$crc" = 0 ]
