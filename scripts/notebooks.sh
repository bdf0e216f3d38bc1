#!/usr/bin/env bash
# Execute every notebook headlessly in a virtual environment that this script creates.
#   ./scripts/notebooks.sh            check: run each notebook into build/notebooks/, fail if a cell fails
#   ./scripts/notebooks.sh --update   also store the executed notebooks (with outputs) in notebooks/
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=build/venv
if [ ! -x "$VENV/bin/jupyter-nbconvert" ] || ! "$VENV/bin/python" -c "import matplotlib, nbclient, ipykernel" 2>/dev/null; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q --disable-pip-version-check nbconvert nbclient ipykernel matplotlib
fi
"$VENV/bin/python" -m ipykernel install --user --name workbench --display-name "workbench (venv)" >/dev/null
cargo build --release -q -p search -p hqc-board
mkdir -p build/notebooks
status=0
shopt -s nullglob
nbs=(notebooks/[0-9][0-9]-*.ipynb)
if [ ${#nbs[@]} -eq 0 ]; then echo "no notebooks found" >&2; exit 1; fi
for nb in "${nbs[@]}"; do
  name=$(basename "$nb")
  start=$(date +%s)
  if "$VENV/bin/jupyter-nbconvert" --to notebook --execute --ExecutePreprocessor.timeout=1800 \
       --ExecutePreprocessor.kernel_name=workbench --output-dir build/notebooks "$nb" >build/notebooks/"$name".log 2>&1; then
    echo "notebook $name: ok ($(( $(date +%s) - start )) s)"
    if [ "${1:-}" = "--update" ]; then cp build/notebooks/"$name" "$nb"; fi
  else
    echo "notebook $name: FAILED (log: build/notebooks/$name.log)"; tail -30 build/notebooks/"$name".log; status=1
  fi
done
exit $status
