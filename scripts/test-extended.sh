#!/usr/bin/env bash
# The extended suite: the checks too long for scripts/test.sh's CI budget (2 cores, < 20 min).
# Run it after (or instead of) ./scripts/test.sh; it installs the same toolchain first.
#   1. every #[ignore]d test of the workspace that is an extended check (release build), i.e.
#      all but the timing smoke tests of hqc-verify/tests/timing.rs, which are noisy on shared
#      machines and run by hand (docs/kat.md);
#   2. the full board KAT sets (100 entries per flavour) of the committed exports;
#   3. the whole HQC-1 joint search (64 orbits x 32 conjugates x 2^10 offsets), timed.
# (The Slurm check, scripts/slurm-check.sh, is quick and runs in scripts/test.sh.)
# Usage: ./scripts/test-extended.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
t0=$(date +%s)
step() { printf '\n== %s (%s, +%ss)\n' "$1" "$(date +%T)" "$(( $(date +%s) - t0 ))"; }
if [ "$#" -gt 0 ]; then echo "unknown argument: $1 (usage: $0)" >&2; exit 2; fi

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
cargo build --release -p hqc-board -p search
for p in results/export/*/params.json; do
  case "$p" in *-artifact/*) continue ;; esac
  echo "-- $p"
  "${CARGO_TARGET_DIR:-target}/release/hqc-verify" board --params "$p" --count 100
done

step "joint search, HQC-1, whole space (docs/joint-search.md; 2-3 min on 2 cores, results/joint/README.md)"
tmp=$(mktemp -d)
/usr/bin/time -f "joint search: %e s wall, %U s user" \
  "${CARGO_TARGET_DIR:-target}/release/search" moduli --m 32 --l 10 --objective product \
  --threads 2 --optimise 1 --top 20 --checkpoint "$tmp/ckpt.json" --out "$tmp/hqc1-joint.json"
rm -rf "$tmp"

step "done"
