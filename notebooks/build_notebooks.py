#!/usr/bin/env python3
"""Generate the workbench notebooks (nbformat 4) from the cell sources below.

    python3 notebooks/build_notebooks.py        # rewrite notebooks/NN-*.ipynb without outputs
    ./scripts/notebooks.sh --update             # then execute them and store the outputs

Only the json module is used, so this runs with any Python 3. Cell ids are deterministic
(nbNN-cKK) so that regenerated notebooks diff cleanly. The runtimes quoted in the first cell of
each notebook were measured with ./scripts/notebooks.sh on the (loaded, 2-core) development
machine; every notebook also prints its own wall time in its last cell.
"""
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "cells"))
from common import notebook  # noqa: E402
import nb01, nb02, nb03, nb04  # noqa: E402

NOTEBOOKS = {
    "01-published-moduli.ipynb": ("01", nb01.CELLS),
    "02-alternative-moduli.ipynb": ("02", nb02.CELLS),
    "03-crt-plans.ipynb": ("03", nb03.CELLS),
    "04-export-and-verify.ipynb": ("04", nb04.CELLS),
}


def main(argv):
    only = set(argv[1:])
    for name, (num, cells) in NOTEBOOKS.items():
        if only and name not in only and num not in only:
            continue
        path = HERE / name
        path.write_text(json.dumps(notebook(num, cells()), indent=1, ensure_ascii=False) + "\n")
        print("wrote", path.relative_to(HERE.parent))


if __name__ == "__main__":
    main(sys.argv)
