"""What every notebook shares: the cell constructors, the setup and footer cells, the measured
wall times quoted in each first cell."""
from pathlib import Path

# Measured wall times (./scripts/notebooks.sh, 2 shared cores, release binaries up to date;
# the first cell's cargo build adds minutes when sources changed).
RUNTIME = {
    "01": "about 10–15 s",
    "02": "about 10 s",
    "03": "about 15 s",
    "04": "about 30–40 s",
}

# ---------------------------------------------------------------------------------------------
# Code shared by all notebooks (first code cell): repository root, binaries, command runner,
# table display. Kept inline so that every notebook is self-contained.

SETUP = r'''
import json, os, shlex, subprocess, sys, tempfile, time
from pathlib import Path
from IPython.display import display

T0 = time.time()


def find_root(start=None):
    """The workbench root: the nearest folder at or above the working directory (nbconvert runs
    notebooks in their own folder) holding Cargo.toml, search/ and hqc-verify/.
    $WORKBENCH_ROOT overrides the search."""
    if os.environ.get("WORKBENCH_ROOT"):
        return Path(os.environ["WORKBENCH_ROOT"]).resolve()
    here = Path(start or Path.cwd()).resolve()
    for d in (here, *here.parents):
        if all((d / f).is_file() for f in ("Cargo.toml", "search/Cargo.toml", "hqc-verify/Cargo.toml")):
            return d
    raise FileNotFoundError(f"no workbench root (Cargo.toml with search/ and hqc-verify/) at or above {here}")


ROOT = find_root()
SEARCH = ROOT / "target" / "release" / "search"
HQC_VERIFY = ROOT / "target" / "release" / "hqc-verify"
SCRATCH = Path(tempfile.mkdtemp(prefix="__NB__-"))   # this run's temporary files (removed by the last cell)
_SHOWN = {str(SCRATCH): "$TMP", str(ROOT) + "/": ""}


def shown(x):
    """x as printed in this notebook: paths relative to the root, the scratch folder as $TMP."""
    s = str(x)
    for a, b in _SHOWN.items():
        s = s.replace(a, b)
    return s


def sh(*cmd, env=None, cwd=None, quiet=False):
    """Run a command (check=True). On failure print its exit status, stdout tail and stderr,
    then raise, so that the cell fails. Returns the CompletedProcess."""
    cmd = [str(c) for c in cmd]
    line = "$ " + " ".join(shlex.quote(shown(c)) for c in cmd)
    t = time.time()
    try:
        p = subprocess.run(cmd, cwd=cwd or ROOT, env=None if env is None else {**os.environ, **env},
                           capture_output=True, text=True, check=True)
    except subprocess.CalledProcessError as e:
        print(line, file=sys.stderr)
        print(f"FAILED with exit status {e.returncode}", file=sys.stderr)
        if e.stdout:
            print("--- stdout (last 40 lines) ---\n" + "\n".join(e.stdout.splitlines()[-40:]), file=sys.stderr)
        print("--- stderr ---\n" + (e.stderr or "(empty)"), file=sys.stderr)
        raise
    if not quiet:
        print(f"{line}    [{time.time() - t:.1f} s]")
    return p


def sh_json(*cmd, **kw):
    """Run a command and parse its stdout as JSON."""
    return json.loads(sh(*cmd, **kw).stdout)


class Table:
    """A table that renders as HTML in Jupyter / on code hosts and as aligned text elsewhere
    (numeric columns right-aligned, the others left-aligned)."""

    _NUM = __import__("re").compile(r"^[-+]?[\d,.]+( ?%|×| \(.*\))?$|^-$|^$")

    def __init__(self, rows, headers, title=None):
        self.rows = [["" if v is None else str(v) for v in r] for r in rows]
        self.headers = [str(h) for h in headers]
        self.title = title
        cols = list(zip(*self.rows)) if self.rows else [[] for _ in self.headers]
        self.right = [bool(c) and all(self._NUM.match(v) for v in c) for c in cols]

    def _repr_html_(self):
        import html
        al = lambda i: ' style="text-align:right"' if self.right[i] else ' style="text-align:left"'
        head = "".join(f"<th{al(i)}>{html.escape(h)}</th>" for i, h in enumerate(self.headers))
        body = "".join("<tr>" + "".join(f"<td{al(i)}>{html.escape(v)}</td>" for i, v in enumerate(r)) + "</tr>"
                       for r in self.rows)
        cap = f"<caption>{html.escape(self.title)}</caption>" if self.title else ""
        return f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"

    def __repr__(self):
        w = [max(len(x) for x in col) for col in zip(self.headers, *self.rows)]
        fmt = lambda r: "  ".join(v.rjust(n) if self.right[i] else v.ljust(n) for i, (v, n) in enumerate(zip(r, w)))
        lines = ([self.title] if self.title else []) + [fmt(self.headers), fmt(["-" * n for n in w])]
        return "\n".join(lines + [fmt(r).rstrip() for r in self.rows])


def show(rows, headers, title=None):
    display(Table(rows, headers, title))


%matplotlib inline
import matplotlib.pyplot as plt
plt.rcParams.update({"figure.dpi": 100, "axes.grid": True, "grid.alpha": 0.3})

print("workbench root:", ROOT)
sh("cargo", "build", "--release", "-q", "-p", "search", "-p", "hqc-board")
assert SEARCH.is_file() and HQC_VERIFY.is_file(), "release binaries missing after cargo build"
print(sh(SEARCH, "--version", quiet=True).stdout.strip(), "|", sh(HQC_VERIFY, "--version", quiet=True).stdout.strip())
'''

FOOTER = r'''
import shutil
if os.environ.get("KEEP_SCRATCH"):
    print(f"scratch files kept in {SCRATCH}")
else:
    shutil.rmtree(SCRATCH, ignore_errors=True)   # set KEEP_SCRATCH=1 to keep them
print(f"notebook wall time: {time.time() - T0:.0f} s")
'''


def md(text):
    return ("markdown", text.strip("\n"))


def code(text):
    return ("code", text.strip("\n"))


def notebook(num, cells):
    out = []
    for k, (kind, src) in enumerate(cells):
        lines = src.split("\n")
        source = [l + "\n" for l in lines[:-1]] + [lines[-1]]
        cell = {"cell_type": kind, "id": f"nb{num}-c{k:02d}", "metadata": {}, "source": source}
        if kind == "code":
            cell["execution_count"] = None
            cell["outputs"] = []
        out.append(cell)
    return {
        "cells": out,
        "metadata": {
            "kernelspec": {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def setup(num):
    return code(SETUP.replace("__NB__", f"nb{num}"))
