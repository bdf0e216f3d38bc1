#!/usr/bin/env bash
# Board checks in one command: toolchain, firmware tests on QEMU and on the host,
# board/host hash cross-check, and the HQC-1 instruction counts.
#   hqc-verify/board/check.sh [PARAMS_DIR]   (default: results/export/hqc1-joint)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
"$here/../../scripts/install-board-deps.sh" >/dev/null
cd "$here/firmware"
P=${1:-$here/../../results/export/hqc1-joint}
make -s PARAMS_DIR="$P" all
make -s PARAMS_DIR="$P" crosscheck
make -s PARAMS_DIR="$P" bench-stages
