#!/usr/bin/env bash
# Regenerate the board-measured table of the calibrated cost model, results/model/measured.json
# (docs/cost-model.md §2, results/model/README.md), from scratch:
#   1. `search crt --n N --measure 5` for HQC-1, HQC-3, HQC-5 (exports, builds, KAT-checks and
#      counts the buildable top-5 plans; results/model/<timing rules>/crt-N.json, crt-N.txt);
#   2. the extra configurations below (`search export` + `hqc-verify board --count 2 --flavour
#      v5.0.0 --json`), for at least 5 distinct beta per level;
#   3. `search calibrate` on all of them into results/model/measured.json (one row per
#      configuration; the rows of the search crt runs are the ones the coefficients are fitted on,
#      the extra rows are held out unless listed in FITTED), and the fit of that table into the
#      model's generated coefficient module config/src/cost/calibrated_coef.rs. Then rebuild
#      and run `search calibrate --fit --write-coefficients config/src/cost/calibrated_coef.rs`
#      until it says "unchanged" (a few features are priced at the built coefficients); the
#      test the_coefficient_module_is_generated_from_the_committed_table checks that fixed point.
#
# The extra rows run in order of need: the fitted ones first, then the planner's held-out
# plans, then the other held-out configurations, so that an interrupted run still has what the
# fit needs (rerun to finish: everything made is reused).
#
# Idempotent and resumable: everything is kept in $MODEL_TABLE_DIR (default build/model-table).
# An export is reused when this script already ran the same export command into its folder (the
# committed export of the same configuration, by config_id, is named); a board report is reused when it was made
# from the same export (params checksum) by the same firmware (git tree of hqc-verify/board,
# clean) and the same hqc-verify binary. Delete the folder to start over.
#
# MODEL_TABLE_EXPORTS_ONLY=1 makes the exports only (no board run, no table).
# MODEL_TABLE_MEASURED_ONLY=1 builds the table from the extra rows already measured under the
# current firmware and leaves the others out (no export, no board run for them): a table for a
# deadline, which a later run without it completes.
# MODEL_TABLE_COEF names the generated coefficient module (default
# config/src/cost/calibrated_coef.rs).
# Binaries: $SEARCH and $HQC_VERIFY, default $CARGO_TARGET_DIR/release (or target/release);
# build them first: cargo build --release -p search -p hqc-board.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
REL=${CARGO_TARGET_DIR:-$ROOT/target}/release
SEARCH=${SEARCH:-$REL/search}
HQC_VERIFY=${HQC_VERIFY:-$REL/hqc-verify}
WORK=${MODEL_TABLE_DIR:-$ROOT/build/model-table}
OUT=${MODEL_TABLE_OUT:-results/model}
for b in "$SEARCH" "$HQC_VERIFY"; do
    [ -x "$b" ] || { echo "model-table: $b not found (cargo build --release -p search -p hqc-board)" >&2; exit 2; }
done
command -v python3 >/dev/null || { echo "model-table: python3 is needed" >&2; exit 2; }
# the board reports and crt runs of the table go to a folder named after the timing rules of
# their estimated cycles (docs/m4-timing.md), so reports of other rules stay apart
TV=$(sed -n 's/^pub const TIMING_VERSION: &str = "\(.*\)";/\1/p' fwgen/src/m4timing.rs)
[ -n "$TV" ] || { echo "model-table: no TIMING_VERSION in fwgen/src/m4timing.rs" >&2; exit 2; }
REP=${MODEL_TABLE_REPORTS:-$OUT/$TV}
mkdir -p "$WORK/exp" "$WORK/board" "$OUT" "$REP/board"

# The firmware stamp: board reports are reused only under the same firmware and hqc-verify.
if git diff --quiet HEAD -- hqc-verify/board 2>/dev/null; then
    FW=$(git rev-parse HEAD:hqc-verify/board)
else
    FW="dirty-$(date +%s)"
fi
FW="$FW $(sha256sum "$HQC_VERIFY" | cut -c1-16)"

# Extra rows: NAME|LEVEL|N|L|C|BETA|CHAIN|SOURCE[|L2:BETA2[|K:W]]. Betas from the committed scans
# (results/moduli-m32-l1{0,1,2}.json, "lightest orbit k") and the joint search. With L2:BETA2 the
# row is a two-moduli export (c = 0, `--second-l L2 --second-beta BETA2`; the second betas are
# light moduli of `search moduli --m 32 --l L2`, and the planner's own choices). With K:W (and
# an empty L2:BETA2) the row is a 2-Karatsuba split export (c = 0, `--split-k K --split-words
# W`): the planner's HQC-1 and HQC-3 split plans (canonical beta; the HQC-5 one is a top-5 plan,
# so the crt step measures it) and four more split points (v7).
EXTRA=(
"tm-h1-l7a|HQC-1|17669|10|0|0x0028b51f|default|two-moduli configuration for the v6 fit|7:0x00012d42"
"tm-h1-l9|HQC-1|17669|10|0|0x0028b51f|default|two-moduli configuration for the v6 fit|9:0x005dda23"
"tm-h3-l9|HQC-3|35851|11|0|0x00112c53|default|two-moduli configuration for the v6 fit|9:0x005dda23"
"tm-h3-l10|HQC-3|35851|11|0|0x00112c53|default|two-moduli configuration for the v6 fit|10:0x0028b51f"
"tm-h5-l11b|HQC-5|57637|11|0|0x00112c53|default|two-moduli configuration for the v6 fit|11:0x00112cc1"
"sp-s1-k12288|HQC-1|17669|10|0|0x00012f9a|default|2-Karatsuba split of HQC-1 at k = 12288, 192 residual words||12288:192"
"sp-s1-k9216|HQC-1|17669|10|0|0x00012f9a|default|2-Karatsuba split of HQC-1 at k = 9216, 384 residual words||9216:384"
"sp-s3-k24576|HQC-3|35851|11|0|0x00012f9a|default|2-Karatsuba split of HQC-3 at k = 24576, 384 residual words||24576:384"
"sp-s5-k32768|HQC-5|57637|11|0|0x00012f9a|default|2-Karatsuba split of HQC-5 at k = 32768, 1024 residual words||32768:1024"
"h1-lightest|HQC-1|17669|10|3072|0x0028b51f|default|lightest orbit 1 of l = 10 (results/moduli-m32-l10.json)"
"h1-joint|HQC-1|17669|10|3072|0x002a3260|gamma:0x8f3fe14b|joint-search winner (results/joint/README.md, results/export/hqc1-joint)"
"sp-s1-plan|HQC-1|17669|10|0|0x00012f9a|default|2-Karatsuba plan of search crt --n 17669 (k = 16160, 48 residual words)||16160:48"
"sp-s3-plan|HQC-3|35851|11|0|0x00012f9a|default|2-Karatsuba plan of search crt --n 35851 (k = 31776, 128 residual words)||31776:128"
"v8-h1-c4096|HQC-1|17669|10|4096|0x0028b4f3|default|rank 4 of search crt --n 17669 under m4-firmware-fit-v8, not in the top 5 of v7"
"v8-h1-c2880-b51f|HQC-1|17669|10|2880|0x0028b51f|default|rank 5 of search crt --n 17669 under m4-firmware-fit-v8, not in the top 5 of v7"
"h3-b112cc1-c8192|HQC-3|35851|11|8192|0x00112cc1|default|lightest orbit 1 of l = 11 (results/moduli-m32-l11.json)"
"h5-b8f377|HQC-5|57637|12|0|0x0008f377|default|lightest orbit 1 of l = 12 (results/moduli-m32-l12.json)"
"h3-b112c52-c8192|HQC-3|35851|11|8192|0x00112c52|default|lightest orbit 3 of l = 11 (results/moduli-m32-l11.json)"
"h5-b8e514|HQC-5|57637|12|0|0x0008e514|default|lightest orbit 2 of l = 12 (results/moduli-m32-l12.json)"
"tm-h1-plan|HQC-1|17669|10|0|0x0028b51f|default|the planner's HQC-1 two-moduli plan|7:0x0001037b"
"tm-h3-plan|HQC-3|35851|11|0|0x00112c53|default|the planner's HQC-3 two-moduli plan|8:0x0093b187"
"tm-h5-plan|HQC-5|57637|11|0|0x00112c53|default|the planner's HQC-5 two-moduli plan|11:0x00112c52"
"h1-b28b612-c3072|HQC-1|17669|10|3072|0x0028b612|default|lightest orbit 2 of l = 10 (results/moduli-m32-l10.json)"
"h3-b112cb1-c8192|HQC-3|35851|11|8192|0x00112cb1|default|lightest orbit 4 of l = 11 (results/moduli-m32-l11.json)"
"h5-b8c9ac|HQC-5|57637|12|0|0x0008c9ac|default|lightest orbit 3 of l = 12 (results/moduli-m32-l12.json)"
"h1-b28b613-c3072|HQC-1|17669|10|3072|0x0028b613|default|lightest orbit 4 of l = 10 (results/moduli-m32-l10.json)"
"h3-b112ae7-c8192|HQC-3|35851|11|8192|0x00112ae7|default|lightest orbit 5 of l = 11 (results/moduli-m32-l11.json)"
"h5-b8f572|HQC-5|57637|12|0|0x0008f572|default|lightest orbit 4 of l = 12 (results/moduli-m32-l12.json)"
"tm-h1-l8|HQC-1|17669|10|0|0x0028b51f|default|two-moduli configuration for the v6 fit|8:0x0093b187"
"tm-h3-l8b|HQC-3|35851|11|0|0x00112c53|default|two-moduli configuration for the v6 fit|8:0x00563f28"
)
# The rows the coefficients are fitted on: every row of the search crt runs (the planner's
# top plans, --fit-crt-rows); the extra rows above are held out (their other beta were never
# seen by the fit), unless named here (row name, or configuration L:BETA:C): five of the
# two-moduli rows (the reductions mod M2 and the general CRT have no crt row of their own at
# HQC-1 and HQC-3, where the planner ranks the two-moduli plan below the top 5).
# The split rows: the four extra split points (the HQC-5 split plan is the crt row at rank 3,
# fitted as every crt row is); the HQC-1 and HQC-3 split plans are held out.
FITTED=(tm-h1-l7a tm-h1-l9 tm-h3-l9 tm-h3-l10 tm-h5-l11b
        sp-s1-k12288 sp-s1-k9216 sp-s3-k24576 sp-s5-k32768)

# same_export DIR: the committed export (results/export/*) of the same configuration as DIR, by
# config_id (docs/params-json.md section 3: the same configuration, derivation and effort,
# wherever and in whichever layout it was written); exit 1 when there is none.
same_export() {
    python3 - "$1" <<'EOF'
import json, os, sys, glob
want = json.load(open(os.path.join(sys.argv[1], "params.json")))["config_id"]
for p in sorted(glob.glob("results/export/*/params.json")):
    try:
        if json.load(open(p))["config_id"] == want:
            print(os.path.dirname(p)); sys.exit(0)
    except (OSError, ValueError, KeyError):
        pass
sys.exit(1)
EOF
}

# ensure_export DIR COMMAND-WITHOUT-OUT: reuse DIR when this script already ran this very
# command into it (its params.json records `COMMAND --out DIR`), else export. Then name the
# committed export of the same configuration, by config_id.
ensure_export() {
    local dir=$1 cmd=$2
    if [ -f "$dir/params.json" ] && python3 -c "import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))['command'] == sys.argv[2] else 1)" "$dir/params.json" "$cmd --out $dir"; then
        echo "  export: reused $dir"
    else
        rm -rf "$dir"
        echo "  export: $cmd"
        local t0=$SECONDS
        # shellcheck disable=SC2086
        "$SEARCH" ${cmd#search } --out "$dir" >/dev/null
        echo "  export: done in $((SECONDS - t0)) s"
    fi
    local same
    if same=$(same_export "$dir"); then
        echo "  export: the same configuration as $same (config_id)"
    fi
}

# stamp of an export + firmware
stamp() { echo "$FW $(python3 -c "import json; print(json.load(open('$1/params.json'))['checksum'])")"; }

# 1. search crt --measure 5 per level.
CRT_ARGS=()
for N in 17669 35851 57637; do
    d="$WORK/crt-$N"
    mkdir -p "$d"
    echo "model-table: search crt --n $N --measure 5"
    # a finished run under the same firmware and hqc-verify is kept (delete $d to re-rank
    # after a change of the model)
    if [ -f "$d/crt.json" ] && [ "$(cut -d' ' -f1-2 "$d/stamp" 2>/dev/null)" = "$FW" ]; then
        echo "  reused $d/crt.json (same firmware and hqc-verify)"
        cp "$d/crt.json" "$REP/crt-$N.json"
        cp "$d/crt.txt" "$REP/crt-$N.txt"
        CRT_ARGS+=(--crt "$REP/crt-$N.json")
        continue
    fi
    "$SEARCH" crt --n "$N" --json > "$d/plan.json"
    # export the single-modulus plans of the top 5 into rank-R first (search crt --measure
    # reuses a matching export, and skips what the firmware cannot build)
    while IFS='|' read -r rank cmd; do
        echo "  rank $rank:"
        ensure_export "$d/rank-$rank" "$cmd"
    done < <(python3 - "$d/plan.json" <<'EOF'
import json, sys
plan = json.load(open(sys.argv[1]))
for p in plan["plans"][:5]:
    if len(p["transforms"]) != 1 or p["c"] >= 32768:
        continue
    t = p["transforms"][0]
    print("%d|search export --m 32 --l %d --beta %s --c %d --n %d --chain %s"
          % (p["rank"], t["l"], t["beta"], p["c"], plan["n"], t["chain"]))
EOF
)
    [ -n "${MODEL_TABLE_EXPORTS_ONLY:-}" ] && continue
    s="$FW $(sha256sum "$d/plan.json" | cut -c1-16) $(cat "$d"/rank-*/params.json 2>/dev/null | sha256sum | cut -c1-16)"
    if [ -f "$d/crt.json" ] && [ "$(cat "$d/stamp" 2>/dev/null)" = "$s" ]; then
        echo "  reused $d/crt.json (same plans, exports and firmware)"
    else
        t0=$SECONDS
        "$SEARCH" crt --n "$N" --measure 5 --measure-dir "$d" --hqc-verify "$HQC_VERIFY" \
            --out "$d/crt.json" > "$d/crt.txt"
        # the stamp covers the exports as they are after the run
        s="$FW $(sha256sum "$d/plan.json" | cut -c1-16) $(cat "$d"/rank-*/params.json 2>/dev/null | sha256sum | cut -c1-16)"
        echo "$s" > "$d/stamp"
        echo "  done in $((SECONDS - t0)) s"
    fi
    cp "$d/crt.json" "$REP/crt-$N.json"
    cp "$d/crt.txt" "$REP/crt-$N.txt"
    CRT_ARGS+=(--crt "$REP/crt-$N.json")
done

# 2. the extra rows.
BOARD_ARGS=()
i=0
for row in "${EXTRA[@]}"; do
    i=$((i + 1))
    IFS='|' read -r name level n l c beta chain source second split <<< "$row"
    echo "model-table: [$i/${#EXTRA[@]}] $name ($level, beta $beta, c = $c, chain $chain${second:+, second $second}${split:+, split $split})"
    dir="$WORK/exp/$name"
    cmd="search export --m 32 --l $l --beta $beta --c $c --n $n"
    [ -n "$second" ] && cmd="$cmd --second-l ${second%%:*} --second-beta ${second#*:}"
    [ -n "$split" ] && cmd="$cmd --split-k ${split%%:*} --split-words ${split#*:}"
    if [ -n "${MODEL_TABLE_MEASURED_ONLY:-}" ] && ! { [ -f "$dir/params.json" ] \
        && [ "$(cat "$WORK/board/$name.json.stamp" 2>/dev/null)" = "$(stamp "$dir")" ]; }; then
        echo "  not measured under this firmware: left out (MODEL_TABLE_MEASURED_ONLY)"
        continue
    fi
    ensure_export "$dir" "$cmd --chain $chain"
    [ -n "${MODEL_TABLE_EXPORTS_ONLY:-}" ] && continue
    rep="$WORK/board/$name.json"
    s=$(stamp "$dir")
    if [ -f "$rep" ] && [ "$(cat "$rep.stamp" 2>/dev/null)" = "$s" ]; then
        echo "  board: reused $rep"
    else
        t0=$SECONDS
        "$HQC_VERIFY" board --params "$dir/params.json" --count 2 --flavour v5.0.0 --json \
            --build-dir "$WORK/build" > "$rep.tmp" || true
        python3 -c "import json; json.load(open('$rep.tmp'))" 2>/dev/null \
            || { echo "  board: no JSON report for $name (see $rep.tmp)" >&2; exit 1; }
        mv "$rep.tmp" "$rep"
        echo "$s" > "$rep.stamp"
        echo "  board: done in $((SECONDS - t0)) s"
    fi
    cp "$rep" "$REP/board/$name.json"
    BOARD_ARGS+=(--board "$name|$source|$REP/board/$name.json")
done
[ -n "${MODEL_TABLE_EXPORTS_ONLY:-}" ] && { echo "model-table: exports done (MODEL_TABLE_EXPORTS_ONLY)"; exit 0; }

# 3. the table.
FIT_ARGS=(--fit-crt-rows --drop-kat-failures)
for f in "${FITTED[@]}"; do FIT_ARGS+=(--fitted "$f"); done
echo "model-table: search calibrate -> $OUT/measured.json"
"$SEARCH" calibrate "${CRT_ARGS[@]}" "${BOARD_ARGS[@]}" "${FIT_ARGS[@]}" --out "$OUT/measured.json" --fit \
    --write-coefficients "${MODEL_TABLE_COEF:-config/src/cost/calibrated_coef.rs}"
