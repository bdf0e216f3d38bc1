#!/usr/bin/env bash
# Keccak-f[1600] on the emulated Cortex-M4 (QEMU mps2-an386): the on-board self-test of the
# permutation and sponge in use (keccak_f1600.S unless built with EXPAND=rust) against the core's
# portable ones, and exact instruction counts of one permutation by each path, with the TCG
# plugin on the harness's bench_start/bench_stop markers (harness.c, mode keccak=1).
#
#   keccak.sh
#
# Environment: MUL=portable|c-fafft (default c-fafft: its Rust library is shared with the
# `hqc-verify board` builds; the multiplier is not used here), NO_BUILD=1 with ELF=path, PLUGIN.
# Prints "keccak new=COUNT ref=COUNT portable=COUNT" (new: the permutation in use; ref: the
# portable permutation with the interleaving around it; portable: the portable permutation
# alone), "keccak regions new=K ref=K portable=K" (the plugin's `main #K` region of each),
# "keccak selftest mismatches=K" and "mem selftest mismatches=K" (the memory routines of
# mem_m4.S against byte loops, harness.c). With PLUGIN_LOG=file the plugin log (with its per-region
# instruction classes, docs/m4-timing.md) is kept in that file, so that a caller can price the
# regions with hqc_board::m4cycles. Exit status 0 iff QEMU exited 0 (no mismatch).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
mul=${MUL:-c-fafft}
plugin=${PLUGIN:-$repo/build/board/libinsncount.so}
if [ ! -f "$plugin" ]; then
    mkdir -p "$(dirname "$plugin")"
    gcc -O2 -fPIC -shared -Wall -o "$plugin" "$here/../plugin/insncount.c"
fi
if [ "${NO_BUILD:-0}" = 1 ] && [ -n "${ELF:-}" ]; then
    elf=$ELF
else
    elf=$("$here/build.sh" "$mul" | tail -n 1)
fi
[ -f "$elf" ] || { echo "keccak.sh: $elf missing" >&2; exit 1; }
S=$(arm-none-eabi-nm "$elf" | awk '$3=="bench_start"{print "0x"$1}')
E=$(arm-none-eabi-nm "$elf" | awk '$3=="bench_stop"{print "0x"$1}')
log=$(mktemp) out=$(mktemp)
trap 'rm -f "$log" "$out"' EXIT
set +e
timeout "${QEMU_TIMEOUT:-600}" qemu-system-arm -M mps2-an386 -display none -monitor none -serial none \
    -chardev stdio,id=sh0 -semihosting-config enable=on,target=native,chardev=sh0 \
    -plugin "$plugin,start=$S,stop=$E" -d plugin -D "$log" \
    -kernel "$elf" -append "keccak=1" > "$out"
rc=$?
set -e
awk '
    NR==FNR { if ($1=="region") { sub("#","",$3); cnt[$3]=$4 } next }
    $1=="bench" { lab[$3]=cnt[$2]; idx[$3]=$2 }
    $1=="keccak:" && $2=="selftest" { st=$3 }
    $1=="mem:" && $2=="selftest" { mt=$3 }
    END {
        printf "keccak new=%d ref=%d portable=%d\n", lab["keccak_new"], lab["keccak_ref"], lab["keccak_portable"]
        printf "keccak regions new=%s ref=%s portable=%s\n", idx["keccak_new"], idx["keccak_ref"], idx["keccak_portable"]
        sub(/^mismatches=/,"",st); printf "keccak selftest mismatches=%s\n", st
        sub(/^mismatches=/,"",mt); printf "mem selftest mismatches=%s\n", mt
    }' "$log" "$out"
if [ -n "${PLUGIN_LOG:-}" ]; then cp "$log" "$PLUGIN_LOG"; fi
exit $rc
