#!/usr/bin/env bash
# The main job: the user's path through the workbench for one HQC level, on defaults.
#   1. scan every admissible shift β for the light moduli (search moduli);
#   2. rank the CRT plans by modelled Cortex-M4 cycles (search crt);
#   3. plot the weight histogram, the cost against c and the plan breakdown (search plot);
#   4. export the preferred plan into a fresh folder (search export);
#   5. verify it on the host: the HQC KATs with that multiplier (hqc-verify kat);
#   6. run it on the emulated Cortex-M4 when the board toolchain is present (hqc-verify board);
# then print what was produced and where. docs/README.md explains each step.
#
# Usage: scripts/run.sh [--level 1|3|5] [--out DIR] [--no-board]
#   --level   HQC level (default 1: n = 17669, l = 10);
#   --out     a folder that does not exist yet (default build/run/hqc<level>-<date>-<time>);
#   --no-board  skip step 6 even when the toolchain is installed.
set -euo pipefail
cd "$(dirname "$0")/.."

level=1 out="" board=auto
usage() { sed -n '11,14p' "$0" | sed 's/^# \{0,1\}//'; }
bad() { echo "run.sh: $1" >&2; usage >&2; exit 2; }
while [ "$#" -gt 0 ]; do
  case "$1" in
    --level) [ "$#" -ge 2 ] || bad "--level needs a value (1, 3 or 5)"; level="$2"; shift 2 ;;
    --out) [ "$#" -ge 2 ] || bad "--out needs a folder"; out="$2"; shift 2 ;;
    --no-board) board=no; shift ;;
    -h|--help) usage; exit 0 ;;
    *) bad "unknown argument '$1'" ;;
  esac
done
case "$level" in
  1) n=17669 l=10 ;;
  3) n=35851 l=11 ;;
  5) n=57637 l=12 ;;
  *) echo "run.sh: --level must be 1, 3 or 5 (got '$level')" >&2; exit 2 ;;
esac
[ -n "$out" ] || out="build/run/hqc$level-$(date +%Y%m%d-%H%M%S)"
if [ -e "$out" ]; then echo "run.sh: $out already exists; name a new folder with --out" >&2; exit 2; fi
mkdir -p "$out"

t0=$(date +%s)
step() { printf '\n== [%s] %s (+%ss)\n' "$1" "$2" "$(( $(date +%s) - t0 ))" >&2; }
bin="${CARGO_TARGET_DIR:-target}/release"

step 0/6 "building search and hqc-verify (cargo build --release; minutes the first time, then instant)"
if [ -t 2 ]; then cargo build --release -p search -p hqc-board
else cargo build --release -q -p search -p hqc-board; fi

step 1/6 "scan: search moduli --m 32 --l $l"
"$bin/search" moduli --m 32 --l "$l" --out "$out/moduli.json"

step 2/6 "plans: search crt --n $n --moduli $out/moduli.json"
"$bin/search" crt --n "$n" --moduli "$out/moduli.json" --out "$out/crt.json"

step 3/6 "plots: search plot histogram | cost | breakdown"
"$bin/search" plot histogram --input "$out/moduli.json" --out "$out/histogram.svg"
"$bin/search" plot cost --n "$n" --out "$out/cost.svg"
"$bin/search" plot breakdown --input "$out/crt.json" --out "$out/breakdown.svg"
echo "written: $out/histogram.svg, $out/cost.svg, $out/breakdown.svg" >&2

step 4/6 "export: the preferred plan's configuration (search export --plan)"
# The best plan the host KATs of step 5 run: a residue plan (FAFFT + x^c) or a single FAFFT
# (docs/cli.md §2.6); its one-line summary names the plan's rank and label.
exported=$("$bin/search" export --plan "$out/crt.json" --rank first-residue-or-single \
  --out "$out/export")
echo "$exported" >&2

step 5/6 "host: hqc-verify kat --params $out/export/params.json"
"$bin/hqc-verify" kat --params "$out/export/params.json" | tee "$out/kat.txt" | tail -n 4

board_line="skipped (--no-board)"
if [ "$board" = auto ]; then
  if command -v arm-none-eabi-gcc >/dev/null 2>&1 && command -v qemu-system-arm >/dev/null 2>&1; then
    step 6/6 "board: hqc-verify board --params $out/export/params.json --count 1"
    "$bin/hqc-verify" board --params "$out/export/params.json" --count 1 --out "$out/board.json" \
      >"$out/board.txt"
    sed -n '/beside published board cycles/,/^$/p' "$out/board.txt" >&2
    board_line="$out/board.txt (report), $out/board.json (JSON)"
  else
    step 6/6 "board: skipped (no arm-none-eabi-gcc or qemu-system-arm: scripts/install-board-deps.sh installs them)"
    board_line="skipped (toolchain not installed)"
  fi
fi

cat >&2 <<EOF

== done in $(( $(date +%s) - t0 )) s: HQC-$level, all in $out/
  ${exported% to *}
  moduli.json     the exhaustive scan of l = $l
  crt.json        the ranked CRT plans (estimated Cortex-M4 cycles, with the model's error)
  *.svg           histogram.svg, cost.svg, breakdown.svg
  export/         the firmware export (params.json, headers, Thumb-2 routines): docs/firmware-layout.md
  kat.txt         host KATs with the exported multiplier
  board           $board_line
EOF
