#!/usr/bin/env bash
# The whole test suite. Installs what it needs on a fresh machine (idempotent), then runs every
# test of the workspace. Used by CI (.ci/run) and by newcomers: ./scripts/test.sh
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

step() { printf '\n== %s (%s)\n' "$1" "$(date +%T)"; }

step "toolchain"
if ! command -v cargo >/dev/null 2>&1; then
  if [ -x "$HOME/.cargo/bin/cargo" ]; then export PATH="$HOME/.cargo/bin:$PATH"; else
    echo "cargo not found: install Rust (rustup) first" >&2; exit 1; fi
fi
cargo --version

if [ -x scripts/install-board-deps.sh ]; then
  step "board toolchain (arm-none-eabi-gcc, qemu-system-arm)"
  scripts/install-board-deps.sh
fi

step "cargo test (workspace, release-like test profile)"
mkdir -p build && cargo test --workspace --no-fail-fast

step "benchmarks compile"
cargo bench --workspace --no-run >/dev/null
echo "all steps passed"
