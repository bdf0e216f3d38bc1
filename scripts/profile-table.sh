#!/usr/bin/env bash
# The per-component profiles of results/board/: KeyGen, Encaps and Decaps of the best committed
# export of each level, per component, on the emulated Cortex-M4 (2026-02 flavour, EEA decoder,
# docs/board.md §14). Writes results/board/profile-hqc{1,3,5}.{json,svg} and prints the Markdown
# table of totals of results/board/README.md, computed from those files.
# Usage: scripts/profile-table.sh [--print-only]   (--print-only: only the table, from the files)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=("1 hqc1-joint" "3 hqc3-published" "5 hqc5-canonical")
if [ "${1:-}" != "--print-only" ]; then
  [ $# -eq 0 ] || { echo "profile-table.sh: unknown argument '$1' (only --print-only)" >&2; exit 2; }
  cargo build --release -q -p hqc-board
  bin="${CARGO_TARGET_DIR:-target}/release/hqc-verify"
  for r in "${runs[@]}"; do
    set -- $r
    echo "profile-table.sh: profiling $2" >&2
    "$bin" board --params "results/export/$2/params.json" --flavour 2026-02 --decoder eea --profile \
      --host-iterations 20 --out "results/board/profile-hqc$1.json" --svg "results/board/profile-hqc$1.svg" >/dev/null
  done
fi
python3 - "${runs[@]}" <<'PY'
import json, sys
print("| level (export) | operation | instructions | est. cycles | CPI | largest components (est. cycles) |")
print("|---|---|---:|---:|---:|---|")
for run in sys.argv[1:]:
    level, export = run.split()
    d = json.load(open(f"results/board/profile-hqc{level}.json"))
    for fl in d["flavours"]:
        for op in fl["operations"]:
            top = sorted((c for c in op["components"] if c["cycles"] > 0), key=lambda c: -c["cycles"])[:3]
            parts = ", ".join(f"{c['label']} {c['cycles']:,}" for c in top)
            print(f"| HQC-{level} (`{export}`, {fl['flavour']}) | {op['operation']} | {op['instructions']:,} "
                  f"| {op['cycles']:,} | {op['cpi']:.2f} | {parts} |")
    print(f"estimator: {d['timing']['version']}", file=sys.stderr)
PY
