#!/usr/bin/env bash
# The main job with defaults: the modulus of the published HQC-1 configuration
# (m = 32, l = 10, β = 0x00103674), derived and proven by running the FAFFT it describes.
# Extra arguments are passed on (e.g. --json, --out FILE).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "run.sh: building search (cargo build --release -p search; the first build takes a minute or two, later ones are instant)" >&2
if [ -t 2 ]; then
    cargo build --release -p search        # cargo shows its progress bar on a terminal
else
    cargo build --release -q -p search
fi
exec "${CARGO_TARGET_DIR:-target}/release/search" modulus --m 32 --l 10 --beta 0x00103674 "$@"
