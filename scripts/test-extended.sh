#!/usr/bin/env bash
# The extended suite: the checks too long for scripts/test.sh's CI budget (2 cores, < 20 min).
# Run it after (or instead of) ./scripts/test.sh; it installs the same toolchain first.
#   1. every #[ignore]d test of the workspace that is an extended check (release build), i.e.
#      all but the timing smoke tests of hqc-verify/tests/timing.rs, which are noisy on shared
#      machines and run by hand (docs/kat.md);
#   2. the full board KAT sets (100 entries per flavour) of the committed exports;
#   3. a real one-node Slurm cluster running the joint search as a 4-shard job array
#      (scripts/slurm-check.sh; needs root for apt and the daemons).
# Usage: ./scripts/test-extended.sh [--no-slurm]
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
t0=$(date +%s)
step() { printf '\n== %s (%s, +%ss)\n' "$1" "$(date +%T)" "$(( $(date +%s) - t0 ))"; }
slurm=1
for a in "$@"; do
  case "$a" in
    --no-slurm) slurm=0 ;;
    *) echo "unknown argument: $a (usage: $0 [--no-slurm])" >&2; exit 2 ;;
  esac
done

step "board toolchain"
scripts/install-board-deps.sh
scripts/install-rust-web.sh

step "ignored (extended) tests, release"
cargo test --workspace --release --no-fail-fast -- --ignored \
  --skip decaps_valid_vs_invalid_ciphertexts \
  --skip encryption_sampler_fixed_vs_random_seed \
  --skip support_expansion_fixed_vs_random_support \
  --skip rs_decode_no_errors_vs_delta_errors \
  --skip rm_decode_clean_vs_noisy

step "board: 100 KAT entries per flavour for every committed project-layout export"
cargo build --release -p hqc-verify
for p in results/export/*/params.json; do
  case "$p" in *-artifact/*) continue ;; esac
  echo "-- $p"
  "${CARGO_TARGET_DIR:-target}/release/hqc-verify" board --params "$p" --count 100
done

if [ "$slurm" = 1 ]; then
  step "Slurm: one-node cluster, 4-shard joint search, dependent merge"
  scripts/slurm-check.sh
fi

step "done"
