#!/usr/bin/env bash
# Run an ELF on QEMU mps2-an386 with the insncount plugin on bench_start/bench_stop and print
# one line per measured region: "<count> <label>" (labels come from the firmware's bench_report).
# Usage: count.sh file.elf [plugin.so]
set -euo pipefail
elf=$1
here=$(cd "$(dirname "$0")" && pwd)
plugin=${2:-$here/../../../build/board/libinsncount.so}
S=$(arm-none-eabi-nm "$elf" | awk '$3=="bench_start"{print "0x"$1}')
E=$(arm-none-eabi-nm "$elf" | awk '$3=="bench_stop"{print "0x"$1}')
log=$(mktemp); out=$(mktemp)
set +e
qemu-system-arm -M mps2-an386 -display none -monitor none -serial none \
    -chardev stdio,id=sh0 -semihosting-config enable=on,target=native,chardev=sh0 \
    -plugin "$plugin,start=$S,stop=$E" -d plugin -D "$log" -kernel "$elf" > "$out" < /dev/null
rc=$?
set -e
grep -v '^bench ' "$out" || true
echo "exit status: $rc"
# pair "region main #k N" with "bench k label"
awk 'NR==FNR { if ($1=="region") { sub("#","",$3); cnt[$3]=$4 } else if ($1=="total") total=$2; next }
     $1=="bench" { lab=$3; for (i=4;i<=NF;i++) lab=lab" "$i; printf "%12d  %s\n", cnt[$2], lab }
     END { printf "%12d  %s\n", total, "(whole program)" }' "$log" "$out"
rm -f "$log" "$out"
exit $rc
