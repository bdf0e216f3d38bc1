#!/usr/bin/env bash
# The whole test suite. Installs what it needs on a fresh machine (idempotent): the Cortex-M4
# cross toolchain and QEMU (apt), Debian's rustc-web for the no_std board build, a Python venv for
# the notebooks. Then runs every test of the workspace, the board KEM host check, the copy check
# (host KATs and one board run from a copy of the repository in a temporary folder, with no folder
# outside it and HQC_KAT_DIR unset: scripts/copy-check.sh), the Slurm check (scripts/slurm-check.sh:
# a real one-node cluster runs docs/cluster.md's job-array recipe) and the notebooks (their release
# binaries build in the background while the tests run). No official KAT file
# is needed (docs/kat.md).
# Used by CI (.ci/run) and by newcomers: ./scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
t0=$(date +%s)
step() { printf '\n== %s (%s, +%ss)\n' "$1" "$(date +%T)" "$(( $(date +%s) - t0 ))"; }

step "toolchain"
if ! command -v cargo >/dev/null 2>&1; then
  if [ -x "$HOME/.cargo/bin/cargo" ]; then export PATH="$HOME/.cargo/bin:$PATH"; else
    echo "cargo not found: install Rust (rustup) first" >&2; exit 1; fi
fi
cargo --version

step "board toolchain: arm-none-eabi-gcc, qemu-system-arm (apt)"
scripts/install-board-deps.sh
step "board toolchain: Debian rustc-web for thumbv7em-none-eabihf"
scripts/install-rust-web.sh

step "cargo test --workspace"
mkdir -p build
cargo test --workspace --no-run
# The release binaries of the notebooks and the Slurm check build in the background while the
# tests run: the emulated-board tests leave a core idle much of the time. The notebooks step
# waits for this build and stops on its failure.
(cargo build --release -q -p search -p hqc-board >build/release-build.log 2>&1
 echo $? >build/release-build.rc) &
release_build=$!
trap 'kill "$release_build" 2>/dev/null || true' EXIT
cargo test --workspace --no-fail-fast

step "board KEM entry points against the committed KAT pins (host)"
(cd hqc-verify/board/m4kem && cargo test --release --quiet)

step "copy check: host KATs and one board run from a copy with no outside folder"
scripts/copy-check.sh

step "release build of search and hqc-verify (started with the tests)"
wait "$release_build" || true
if [ "$(cat build/release-build.rc 2>/dev/null)" != 0 ]; then
  cat build/release-build.log >&2; echo "cargo build --release failed" >&2; exit 1
fi

step "notebooks (headless, fail on any failing cell)"
scripts/notebooks.sh

step "Slurm: one-node cluster (apt slurm-wlm, munge), 4-shard joint search, dependent merge == one unsharded run"
SEARCH="${CARGO_TARGET_DIR:-target}/release/search" scripts/slurm-check.sh   # built by notebooks.sh

step "done"
