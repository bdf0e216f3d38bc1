#!/usr/bin/env bash
# Support expansion on the emulated Cortex-M4 (QEMU mps2-an386): the on-board self-test of the
# expansion in use (support_expand.S unless built with EXPAND=rust) against the core's portable
# reference, and exact instruction counts of one expansion of each weight of LEVEL by both, with
# the TCG plugin on the harness's bench_start/bench_stop markers (harness.c, mode expand=1).
#
#   expand.sh [LEVEL]          # LEVEL 1|3|5 (default 1)
#
# Environment: MUL=portable|c-fafft (default c-fafft: its Rust library is shared with the
# `hqc-verify board` builds; the multiplier is not used here), NO_BUILD=1 with ELF=path, PLUGIN.
# Prints one line per weight:
#   expand level=L weight=W words64=N new=COUNT ref=COUNT new_per_step=X ref_per_step=Y \
#          new_region=K ref_region=K
# (per step = count / (words64 * weight), the instructions per output word and support entry;
# K = the index of the plugin's `main #K` region of that expansion) and
# "expand selftest mismatches=K". With PLUGIN_LOG=file the plugin log (with its per-region
# instruction classes, docs/m4-timing.md) is kept in that file, so that a caller can price the
# regions with hqc_board::m4cycles (tests/board_expand.rs does). Exit status 0 iff QEMU
# exited 0 (no mismatch).
set -euo pipefail

level=${1:-1}
case "$level" in 1|3|5) ;; *) echo "expand.sh: LEVEL must be 1, 3 or 5" >&2; exit 2 ;; esac
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
[ -f "$elf" ] || { echo "expand.sh: $elf missing" >&2; exit 1; }
S=$(arm-none-eabi-nm "$elf" | awk '$3=="bench_start"{print "0x"$1}')
E=$(arm-none-eabi-nm "$elf" | awk '$3=="bench_stop"{print "0x"$1}')
log=$(mktemp) out=$(mktemp)
trap 'rm -f "$log" "$out"' EXIT
set +e
timeout "${QEMU_TIMEOUT:-600}" qemu-system-arm -M mps2-an386 -display none -monitor none -serial none \
    -chardev stdio,id=sh0 -semihosting-config enable=on,target=native,chardev=sh0 \
    -plugin "$plugin,start=$S,stop=$E" -d plugin -D "$log" \
    -kernel "$elf" -append "level=$level expand=1" > "$out"
rc=$?
set -e
awk '
    NR==FNR { if ($1=="region") { sub("#","",$3); cnt[$3]=$4 } next }
    $1=="bench" { lab[$3]=cnt[$2]; idx[$3]=$2 }
    $1=="expand:" && $2=="selftest" { st=$3 }
    $1=="expand:" && $2 ~ /^level=/ {
        split($2,a,"="); split($4,b,"="); split($5,c,"="); split($6,d,"=")
        key=d[2]; sub(/^expand_(new|ref)_/,"",key)
        lv=a[2]; w[key]=b[2]; nw[key]=c[2]; if (!(key in seen)) { order[++k]=key; seen[key]=1 }
    }
    END {
        for (i=1;i<=k;i++) { x=order[i]; n=lab["expand_new_" x]; r=lab["expand_ref_" x]; s=nw[x]*w[x]
            printf "expand level=%s weight=%s words64=%s new=%d ref=%d new_per_step=%.3f ref_per_step=%.3f new_region=%s ref_region=%s\n", lv, w[x], nw[x], n, r, n/s, r/s, idx["expand_new_" x], idx["expand_ref_" x] }
        sub(/^mismatches=/,"",st); printf "expand selftest mismatches=%s\n", st
    }' "$log" "$out"
if [ -n "${PLUGIN_LOG:-}" ]; then cp "$log" "$PLUGIN_LOG"; fi
exit $rc
