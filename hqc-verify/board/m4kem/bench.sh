#!/usr/bin/env bash
# Exact guest-instruction counts of KeyGen, Encaps and Decaps of KAT entry 0 on QEMU
# mps2-an386, with the project's TCG plugin (../plugin/insncount.c) on the harness's
# bench_start/bench_stop markers.
#
#   bench.sh LEVEL FLAVOUR            # prints "<count>  <label>" lines
#
# Environment: ARGS="cache=1" (extra harness arguments; cache=1 adds the four cached
# operations of entry 0 under its reused key, see harness.c), MUL=portable|c-fafft (default portable), PARAMS_DIR/BUILD_TAG (c-fafft, see
# build.sh), NO_BUILD=1 (ELF=path to name the ELF), PLUGIN=path.so
# (default <repo>/build/board/libinsncount.so, built from ../plugin/insncount.c if missing).
# Boundary (inline counting, QEMU 7.2): a region holds the start marker's instructions, the
# call glue and the operation, not the stop marker; the glue is a few instructions.
set -euo pipefail

if [ $# -ne 2 ]; then echo "usage: $0 LEVEL FLAVOUR" >&2; exit 2; fi
level=$1 flavour=$2
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../../.." && pwd)
mul=${MUL:-portable}
plugin=${PLUGIN:-$repo/build/board/libinsncount.so}
if [ ! -f "$plugin" ]; then
    mkdir -p "$(dirname "$plugin")"
    gcc -O2 -fPIC -shared -Wall -o "$plugin" "$here/../plugin/insncount.c"
fi
if [ -n "${ELF:-}" ] && [ "${NO_BUILD:-0}" = 1 ]; then
    elf=$ELF
elif [ "${NO_BUILD:-0}" = 1 ]; then
    elf=$repo/build/m4kem/m4kem.elf
    [ "$mul" = portable ] || elf=$repo/build/m4kem/m4kem-$mul.elf
else
    elf=$("$here/build.sh" "$mul" | tail -n 1)
fi
S=$(arm-none-eabi-nm "$elf" | awk '$3=="bench_start"{print "0x"$1}')
E=$(arm-none-eabi-nm "$elf" | awk '$3=="bench_stop"{print "0x"$1}')
log=$(mktemp) out=$(mktemp)
trap 'rm -f "$log" "$out"' EXIT
set +e
qemu-system-arm -M mps2-an386 -display none -monitor none -serial none \
    -chardev stdio,id=sh0 -semihosting-config enable=on,target=native,chardev=sh0 \
    -plugin "$plugin,start=$S,stop=$E" -d plugin -D "$log" \
    -kernel "$elf" -append "level=$level flavour=$flavour count=1 bench=1${ARGS:+ $ARGS}" > "$out"
rc=$?
set -e
grep -E '^(m4kem|count=|stack)' "$out" || true
awk -v mul="$mul" -v lv="$level" -v fl="$flavour" '
    NR==FNR { if ($1=="region") { sub("#","",$3); cnt[$3]=$4 } else if ($1=="total") total=$2; next }
    $1=="bench" { printf "%12d  %s (HQC-%s %s, %s)\n", cnt[$2], $3, lv, fl, mul }
    END { printf "%12d  whole program (1 entry)\n", total }' "$log" "$out"
exit $rc
