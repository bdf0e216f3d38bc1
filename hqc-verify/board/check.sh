#!/usr/bin/env bash
# Board checks in one command: toolchain, fixture, firmware tests on QEMU and on the host,
# board/host hash cross-check, and the HQC-1 instruction counts.
#   hqc-verify/board/check.sh [PARAMS_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
"$here/../../scripts/install-board-deps.sh" >/dev/null
cd "$here/firmware"
P=${1:-$here/fixtures/hqc1-artifact}
make -s PARAMS_DIR="$P" all
make -s PARAMS_DIR="$P" crosscheck
make -s PARAMS_DIR="$P" bench-stages
