#!/usr/bin/env bash
# The main job with defaults: the modulus of the published HQC-1 configuration
# (m = 32, l = 10, β = 0x00103674), derived and proven by running the FAFFT it describes.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run --release -q -p search -- modulus --m 32 --l 10 --beta 0x00103674 "$@"
