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


# ---------------------------------------------------------------------------------------------
# 01: published moduli

NB01 = lambda: [
    md(f"""
# 01 — The published HQC moduli, and where Jang et al.'s 109 stands

**Question.** Can the workbench reproduce every published FAFFT modulus weight for HQC
(m = 32, N = 32·2^l), and where does the weight **109** that Jang et al. report for HQC-1
(l = 10, their β is unpublished) stand in the exhaustive search — how many orbits are at most
that light, and in which restricted range `β ∈ V_K` is 109 exactly the optimum?

**Runtime:** {RUNTIME['01']} on a loaded 2-core machine with up-to-date binaries (the `cargo build` in the first cell adds minutes after source changes);
the last cell prints the measured time.

**Commands:** `search modulus --m 32 --l L --beta B --json` (published and canonical β),
`search moduli --m 32 --l L [--within K] --top T` (exhaustive scans; JSON on stdout — `moduli`
has no `--json` flag), and `results/moduli-m32-l10.json` when it is committed (compared with the
fresh scan).

Reminder: an FAFFT over F_{{2^m}} with 2^l points and shift β multiplies modulo
`M_β = P_β(s_l(x))` of degree N = m·2^l; the CRT reconstruction costs about `wt(M)·c` bit
operations, so light moduli matter. One admissible β per Frobenius orbit is scanned
(β ∈ V_{{m−l}} \\ V_{{m/2}}, `(2^{{m−l}} − 2^{{m/2}})/m` orbits).
"""),
    setup("01"),
    md("""
## 1. The published moduli

| l | N | β | published wt(M) | source |
|---|---|---|---|---|
| 10 | 2^15 | `0x00103674` (artifact) | 165 | HQC-1 artifact, 2^15 + x^3072 (ePrint 2026/739) |
| 11 | 2^16 | `0x00103674` (artifact) | 199 | HQC-3 artifact, 2^16 + x^8192 |
| 10 / 11 / 12 | 2^15 / 2^16 / 2^17 | `0x00012f9a` = v_16 (canonical) | 501 / 473 / 821 | canonical shift; HQC-5 uses 2^17 alone |

Each `search modulus` call derives P (minimal polynomial of β) and M = P(s_l(x)), and proves
M by running the FAFFT for β as a black box (`verified`).
"""),
    code(r'''
PUBLISHED = [  # (l, beta, published wt(M), what)
    (10, "0x00103674", 165, "HQC-1 artifact β"),
    (11, "0x00103674", 199, "HQC-3 artifact β"),
    (10, "0x00012f9a", 501, "canonical β = v_16"),
    (11, "0x00012f9a", 473, "canonical β = v_16"),
    (12, "0x00012f9a", 821, "canonical β = v_16 (HQC-5)"),
]
single = {}
for l, beta, want, what in PUBLISHED:
    r = sh_json(SEARCH, "modulus", "--m", 32, "--l", l, "--beta", beta, "--json")
    single[(l, beta)] = r
canon = sh_json(SEARCH, "modulus", "--m", 32, "--l", 10, "--beta", "canonical", "--json")
assert canon["beta"] == "0x00012f9a", canon["beta"]

rows = []
for l, beta, want, what in PUBLISHED:
    r = single[(l, beta)]
    ok = r["verified"] and r["weight"] == want
    rows.append([l, r["n"], r["beta"], r["beta_coords"], r["p"], len(r["minpoly_exponents"]),
                 r["weight"], want, r["residues_mod_32"], "yes" if r["verified"] else "NO",
                 "✓" if ok else "✗", what])
show(rows, ["l", "N", "β", "Cantor coords", "P", "wt(P)", "wt(M)", "published", "residues mod 32",
            "FAFFT-verified", "match", "what"], "search modulus, m = 32")
bad = [r for r in rows if r[10] != "✓"]
assert not bad, f"published weights not reproduced: {bad}"
print("all five published weights reproduced and proven by running the FAFFT;",
      "`--beta canonical` resolves to", canon["beta"])
'''),
    md("""
## 2. The full l = 10 scan and the weight 109

`search moduli --m 32 --l 10` enumerates every admissible Frobenius orbit (β ∈ V_22 \\ V_16)
and returns the weight histogram and the lightest moduli (each re-proven by running its FAFFT).
It takes about a second. If `results/moduli-m32-l10.json` is committed, it must agree with the
fresh scan.
"""),
    code(r'''
def scan(l, within=None, top=20):
    args = [SEARCH, "moduli", "--m", 32, "--l", l, "--top", top]
    if within is not None:
        args += ["--within", within]
    d = sh_json(*args)
    d["hist"] = {int(w): c for w, c in d["histogram"].items()}
    return d

full10 = scan(10)
committed = ROOT / "results" / "moduli-m32-l10.json"
if committed.exists():
    c = json.loads(committed.read_text())
    same = (c["histogram"] == full10["histogram"] and c["min_weight"] == full10["min_weight"]
            and [e["p"] for e in c["best"]] == [e["p"] for e in full10["best"]])
    print(f"{shown(committed)} (committed): {'same histogram and optimum as the fresh scan' if same else 'DIFFERS from the fresh scan'}")
    assert same, "the committed scan and a fresh scan disagree"
else:
    print("results/moduli-m32-l10.json is not committed (yet): using the fresh scan only")

H = full10["hist"]
total = full10["orbits"]
assert sum(H.values()) == total and full10["space"]["covered"] == "exhaustive"

def position(w, hist):
    below = sum(c for x, c in hist.items() if x < w)
    at = hist.get(w, 0)
    return below, at, below + at

rows = []
for w, what in [(full10["min_weight"], "optimum of the full scan"), (109, "Jang et al. (β unpublished)"),
                (165, "artifact β 0x00103674"), (501, "canonical β = v_16")]:
    below, at, le = position(w, H)
    rows.append([w, what, below, at, le, f"{100 * le / total:.3f} %"])
show(rows, ["wt(M)", "what", "orbits lighter", "orbits of this weight", "orbits ≤ wt", "share of all orbits"],
     f"m = 32, l = 10: {total} admissible orbits, exhaustive")
best = full10["best"][0]
print(f"lightest: wt(M) = {full10['min_weight']} at β = {best['beta']} (coords {best['beta_coords']}, P = {best['p']})")
print("the 12 lightest:", ", ".join(f"{e['weight']} ({e['beta']})" for e in full10["top"][:12]))
'''),
    md("""
### Restricted ranges `--within K`

`--within K` restricts β to `V_K \\ V_16` (16 < K ≤ 22 for l = 10). The optimum can only
decrease as K grows. In which K is 109 exactly the minimum?
"""),
    code(r'''
ARTIFACT_COORDS = int(single[(10, "0x00103674")]["beta_coords"], 16)
within = {K: scan(10, within=K, top=5) for K in range(17, 23)}
rows = []
for K, d in within.items():
    below, at, le = position(109, d["hist"])
    e = d["best"][0]
    rows.append([K, d["orbits"], d["min_weight"], e["beta"], e["beta_coords"], le,
                 "yes" if ARTIFACT_COORDS < (1 << K) else "no"])
show(rows, ["K", "orbits in V_K \\ V_16", "min wt(M)", "lightest β", "coords", "orbits ≤ 109", "artifact β ∈ V_K"],
     "search moduli --m 32 --l 10 --within K")

K109 = min((K for K, d in within.items() if d["min_weight"] == 109), default=None)
assert K109 is not None, "109 is the optimum of no V_K"
d = within[K109]
n109 = d["hist"][109]
e = d["best"][0]
proof = sh_json(SEARCH, "modulus", "--m", 32, "--l", 10, "--beta", e["beta"], "--json")
assert proof["weight"] == 109 and proof["verified"]
print(f"\nsmallest K with optimum 109: K = {K109} ({d['orbits']} orbits; {n109} orbit(s) of weight 109, "
      f"β = {e['beta']}, P = {e['p']}, proven by `search modulus`)")
print(f"the artifact β has coordinates {ARTIFACT_COORDS:#x} < 2^{ARTIFACT_COORDS.bit_length()}: "
      f"it lies in V_{ARTIFACT_COORDS.bit_length()} too")
'''),
    code(r'''
import numpy as np

def bars(ax, hist, **kw):
    w = np.array(sorted(hist)); c = np.array([hist[x] for x in w])
    ax.bar(w, c, width=2.0, **kw)

def vmark(ax, x, label, color, slot):
    """A dashed vertical line with its label in the headroom of the axes (slot 0 = top)."""
    ax.axvline(x, color=color, ls="--", lw=1)
    ax.text(x, 0.97 - 0.085 * slot, " " + label, color=color, fontsize=8, va="top",
            transform=ax.get_xaxis_transform(), bbox=dict(fc="white", ec="none", alpha=0.8, pad=1))

fig, ax = plt.subplots(figsize=(12, 4.8))
bars(ax, H, color="#9bb7d4", label=f"all of V_22 \\ V_16 ({total} orbits)")
bars(ax, within[K109]["hist"], color="#2b5d8a", label=f"V_{K109} \\ V_16 ({within[K109]['orbits']} orbits)")
ax.set_yscale("log"); ax.set_ylim(0.7, max(H.values()) * 60)
for slot, (w, lab, col) in enumerate([(full10["min_weight"], f"optimum {full10['min_weight']}", "green"),
                                      (109, f"Jang et al. 109 = optimum of V_{K109}", "red"),
                                      (165, "artifact β: 165", "purple"), (501, "canonical v_16: 501", "black")]):
    vmark(ax, w, lab, col, slot)
ax.set(xlabel="wt(M)", ylabel="orbits (log scale)",
       title="m = 32, l = 10 (N = 2^15): weight of M = P(s_10(x)) over all admissible orbits")
ax.legend(loc="upper right")
plt.show()

fig, (a1, a2) = plt.subplots(1, 2, figsize=(12, 4))
for hist, lab, col in [(H, "V_22 (full)", "#9bb7d4"), (within[K109]["hist"], f"V_{K109}", "#2b5d8a")]:
    w = sorted(hist); cum = np.cumsum([hist[x] for x in w])
    a1.step(w, cum, where="post", label=lab, color=col, lw=2)
vmark(a1, 109, "109", "red", 0); vmark(a1, 165, "165", "purple", 0)
a1.set(xlim=(80, 260), ylim=(0.7, 5000), yscale="log", xlabel="w", ylabel="orbits with wt(M) ≤ w (log scale)",
       title="cumulative: how many orbits are at most this light")
a1.legend(loc="lower right")
ks = list(within)
a2.plot(ks, [within[K]["min_weight"] for K in ks], "o-", color="#2b5d8a")
for K in ks:
    a2.annotate(str(within[K]["min_weight"]), (K, within[K]["min_weight"]), textcoords="offset points", xytext=(6, 4), fontsize=8)
a2.axhline(109, color="red", ls="--", lw=1, label="109 (Jang et al.)")
a2.axhline(165, color="purple", ls="--", lw=1, label="165 (artifact β)")
a2.set(xlabel="K (β restricted to V_K \\ V_16)", ylabel="lightest wt(M)", title="optimum of --within K, l = 10")
a2.legend()
plt.tight_layout(); plt.show()
'''),
    md("""
## 3. HQC-3 (l = 11) and HQC-5 (l = 12)

For l = 11 the full range is V_21 (m − l = 21): 199 is the optimum there; the artifact β is one of
the optimal orbits. For l = 12 (HQC-5 uses 2^17 alone, canonical β, where the modulus does not
matter because the product fits) the canonical 821 is far from the lightest.
"""),
    code(r'''
scans = {10: full10, 11: scan(11), 12: scan(12)}
rows = []
for l, beta, want, what in PUBLISHED:
    d = scans[l]
    below, at, le = position(want, d["hist"])
    p = single[(l, beta)]["p"]
    in_top = next((i + 1 for i, e in enumerate(d["top"]) if e["p"] == p), None)
    rows.append([l, what, want, d["orbits"], d["min_weight"], d["best"][0]["beta"], below,
                 f"{below + 1}" + (f"–{le}" if at > 1 else ""), in_top or "-"])
show(rows, ["l", "β", "wt(M)", "orbits", "optimum", "lightest β", "orbits lighter", "rank (ties)", "position in top 20"],
     "published weights against the exhaustive scans (m = 32)")
assert scans[11]["min_weight"] == 199
assert single[(11, "0x00103674")]["p"] in [e["p"] for e in scans[11]["best"]], "artifact β not optimal at l = 11"

fig, axs = plt.subplots(1, 2, figsize=(12, 3.8))
for ax, l, ws in [(axs[0], 11, [(199, "optimum 199 = artifact β", "green"), (473, "canonical 473", "black")]),
                  (axs[1], 12, [(scans[12]["min_weight"], f"optimum {scans[12]['min_weight']}", "green"),
                                (821, "canonical 821", "black")])]:
    bars(ax, scans[l]["hist"], color="#9bb7d4")
    ax.set_yscale("log"); ax.set_ylim(0.7, max(scans[l]["hist"].values()) * 30)
    for slot, (w, lab, col) in enumerate(ws):
        vmark(ax, w, lab, col, slot)
    ax.set(xlabel="wt(M)", ylabel="orbits", title=f"m = 32, l = {l} ({scans[l]['orbits']} orbits)")
plt.tight_layout(); plt.show()
'''),
    md("""
## Summary

* All five published weights (165, 199 for the artifact β; 501, 473, 821 for the canonical
  β = v_16) are reproduced and proven by running the FAFFT (table in §1).
* The exhaustive l = 10 scan (129 024 orbits) has optimum **85**; **109** is not optimal there:
  the tables in §2 give how many orbits are at most that light (a few dozen, i.e. about 0.02 % of
  all orbits).
* Restricted to `V_21` (`--within 21`), the optimum is **exactly 109**, with a single orbit of that
  weight; for K ≤ 20 the optimum is heavier (201 or more). V_21 is also the range that holds the
  artifact β (Cantor coordinates 0x13b761) and where γ_11 exists in the artifact's 11-matrix
  layout — Jang et al.'s 109 is consistent with an exhaustive search restricted to V_21. This is an
  inference from the numbers, not something the paper states.
* For HQC-3 (l = 11), 199 is the optimum of the full range; for HQC-5 the canonical 821 is far
  from the lightest, which does not matter because 2^17 alone needs no CRT.
"""),
    code(FOOTER),
]


# ---------------------------------------------------------------------------------------------
# 02: alternative moduli for a size the user picks

NB02 = lambda: [
    md(f"""
# 02 — Moduli for another size (default: BIKE's r = 12323)

**Question.** For an operand length n of your choice (default BIKE-1's r = 12323; any n works),
which FAFFT sizes (m, l) can hold the product (2n − 1 bits), which modulus should a
FAFFT + x^c CRT multiplier use, and how much does the modulus weight cost in the reconstruction?

**Runtime:** {RUNTIME['02']} for the default n on a loaded 2-core machine with up-to-date binaries (the `cargo build` in the first cell adds minutes after source changes);
the last cell prints the measured time. Small n need small l, and the number of orbits grows as 2^(m−l): scans larger
than `MAX_SCAN_ORBITS` are restricted with `--within K` (the planner `search crt` still scans
everything it needs and can take longer for small n).

**Commands:** `search moduli --m 32 --l L [--within K] --top T`,
`search crt --n N --m 32 --json` (ranked split plans under the cost model),
`search plot cost --n N --m 32 --l L --c C --data-out FILE --out FILE.svg` (reconstruction
cycles of every orbit of the scan; the notebook plots the data with matplotlib).
"""),
    setup("02"),
    md("""
## Parameters — change these
"""),
    code(r'''
N_OPERAND = 12323              # operand length n in bits: BIKE-1 r = 12323 (HQC-1 would be 17669)
LABEL = "BIKE-1, r = 12323"
MAX_SCAN_ORBITS = 1_500_000     # larger scans are restricted with --within K (runtime)
TOP = 15                        # how many of the lightest moduli to list
'''),
    md("""
## 1. Which (m, l) fit

The product has `2n − 1` bits. A single FAFFT needs `N = m·2^l ≥ 2n − 1`; a FAFFT + x^c CRT
needs `N + c ≥ 2n − 1` (the planner only considers `c ≤ N`); two coprime FAFFT moduli need
`N1 + N2 ≥ 2n − 1`. Always `l < m/2`. The number of admissible orbits is
`(2^{m−l} − 2^{m/2})/m`. Only for the CRT plans does the modulus weight matter.
"""),
    code(r'''
need = 2 * N_OPERAND - 1
orbits = lambda m, hi: (2 ** hi - 2 ** (m // 2)) // m
SUPPORT = {8: "planner + scans", 16: "planner + scans", 32: "planner + scans + export (Cortex-M4)",
           64: "`search modulus`, sparse-P scans only (no planner)"}
rows, plans_m32 = [], {}
for m in (8, 16, 32, 64):
    ls = range(1, m // 2)
    l_single = next((l for l in ls if (m << l) >= need), None)
    l_res = l_single - 1 if l_single is not None else max(ls)
    fitted = False
    if l_single is not None:
        rows.append([m, l_single, m << l_single, "single FAFFT", 0, orbits(m, m - l_single), "modulus irrelevant (product fits)", SUPPORT[m]])
        fitted = True
        if m == 32: plans_m32["single"] = l_single
    if l_res >= 1 and (m << l_res) < need <= 2 * (m << l_res):
        N = m << l_res
        rows.append([m, l_res, N, "FAFFT + x^c", f"c ≥ {need - N}", orbits(m, m - l_res), "wt(M) enters the reconstruction", SUPPORT[m]])
        l2 = next(l for l in range(1, l_res + 1) if N + (m << l) >= need)
        rows.append([m, f"{l_res} ⊕ {l2}", f"{N} + {m << l2}", "two FAFFT moduli", "-", f"{orbits(m, m - l_res)} / {orbits(m, m - l2)}",
                     "wt(M1) enters the reconstruction", SUPPORT[m]])
        fitted = True
        if m == 32: plans_m32.update(residue=l_res, second=l2)
    if not fitted:
        rows.append([m, "-", f"≤ {m << max(ls)}", "does not fit", "-", "-", f"2N < 2n − 1 = {need} for every l < {m // 2}", SUPPORT[m]])
show(rows, ["m", "l", "N", "plan", "residue c", "admissible orbits", "modulus", "tools"],
     f"{LABEL}: n = {N_OPERAND}, product 2n − 1 = {need} bits")
assert "residue" in plans_m32, "no FAFFT + x^c plan for m = 32 at this n"
print("m = 32 sizes used below:", plans_m32)
'''),
    md("""
## 2. The lightest moduli for the CRT plans (m = 32)

One exhaustive scan per l that needs a modulus (restricted with `--within K` if it would exceed
`MAX_SCAN_ORBITS` orbits). The estimate in the last column is the dominant reconstruction term:
`wt(M)·⌈c_min/32⌉` word XORs.
"""),
    code(r'''
def scan(l, top=TOP):
    hi = 32 - l
    K = hi
    while orbits(32, K) > MAX_SCAN_ORBITS and K > 17:
        K -= 1
    args = [SEARCH, "moduli", "--m", 32, "--l", l, "--top", top] + (["--within", K] if K < hi else [])
    d = sh_json(*args)
    d["hist"] = {int(w): c for w, c in d["histogram"].items()}
    if K < hi:
        print(f"  l = {l}: restricted to V_{K} ({d['orbits']} of {orbits(32, hi)} orbits) to keep the runtime modest")
    return d

scans = {l: scan(l) for l in sorted({plans_m32["residue"], plans_m32["second"]})}
L = plans_m32["residue"]
c_min = need - (32 << L)
words = -(-c_min // 32)
d = scans[L]
rows = [[i + 1, e["beta"], e["beta_coords"], e["p"], len(e["minpoly_exponents"]), e["weight"], e["residues_mod_32"],
         e["weight"] * words] for i, e in enumerate(d["top"])]
show(rows, ["#", "β", "coords", "P", "wt(P)", "wt(M)", "residues mod 32", f"≈ word XORs wt·{words}"],
     f"m = 32, l = {L} (N = {32 << L}): the {len(rows)} lightest of {d['orbits']} orbits ({d['space']['covered']})")
for l, s in scans.items():
    print(f"l = {l}: optimum wt(M) = {s['min_weight']} at β = {s['best'][0]['beta']}; median orbit weight "
          f"{sorted(w for w, c in s['hist'].items() for _ in range(c))[s['orbits'] // 2]}")
'''),
    md("""
## 3. Split plans under the cost model

`search crt` enumerates single-FAFFT, FAFFT + x^c (several residue sizes c and multipliers) and
two-moduli plans, picks the β of each CRT plan among the lightest orbits of its own scan, and
ranks everything by modelled Cortex-M4 cycles (`cost_model_version` in the JSON).
"""),
    code(r'''
crt = sh_json(SEARCH, "crt", "--n", N_OPERAND, "--m", 32, "--json")
T = crt["cost_table"]
rows = []
for p in crt["plans"][:12]:
    t0 = p["transforms"][0]
    c = p["cost"]
    rows.append([p["rank"], p["label"], t0["beta"], t0["weight"], p["c"]] +
                [f"{c[k]['cycles']:,.0f}" for k in ("forward", "pointwise", "inverse", "residue", "reconstruction")] +
                [f"{c['total_cycles']:,.0f}", f"{c['total_cycles'] / crt['plans'][0]['cost']['total_cycles']:.2f}×"])
show(rows, ["rank", "plan", "β (M1)", "wt(M1)", "c", "forward", "pointwise", "inverse", "residue", "recon", "total", "vs best"],
     f"search crt --n {N_OPERAND}: {len(crt['plans'])} plans, table {T['name']}, model {crt['cost_model_version']}")
print(crt["summary"])
'''),
    md("""
## 4. Reconstruction cost against the modulus weight

For the residue size c of the best FAFFT + x^c plan, `search plot cost` prices the CRT
reconstruction (the sparse solve for u and `M·u`, docs/fafft.md §9.4) of **every** orbit of the
scan with the reconstruction component of the calibrated model the planner ranks by
(docs/cost-model.md); the band is the spread at equal weight (it depends on how the exponents
fall into residues mod 32 and how many lie below c).
"""),
    code(r'''
res_plans = [p for p in crt["plans"] if p["kind"] == "residue" and p["transforms"][0]["l"] == L]
assert res_plans, f"search crt returned no FAFFT + x^c plan with l = {L}"
bp = res_plans[0]
C = bp["c"]
data_file, svg = SCRATCH / "cost.json", SCRATCH / "cost.svg"
sh(SEARCH, "plot", "cost", "--n", N_OPERAND, "--m", 32, "--l", L, "--c", C, "--data-out", data_file, "--out", svg)
cd = json.loads(data_file.read_text())
assert cd["cost_model_version"] == crt["cost_model_version"], "the plot and the planner use different models"
by_w = {int(w): v for w, v in cd["by_weight"].items()}
ws = sorted(by_w)
lo = [by_w[w][0] for w in ws]; hi = [by_w[w][1] for w in ws]; cnt = [by_w[w][2] for w in ws]

fig, ax = plt.subplots(figsize=(12, 4.8))
ax.fill_between(ws, lo, hi, color="#9bb7d4", step="mid", label="all orbits: min–max at each weight")
ax.plot(ws, lo, color="#2b5d8a", lw=1)
t0 = bp["transforms"][0]
rec = bp["cost"]["reconstruction"]["cycles"]
ax.plot([t0["weight"]], [rec], "o", color="red", label=f"β chosen by search crt: {t0['beta']}, wt {t0['weight']}")
ax2 = ax.twinx(); ax2.bar(ws, cnt, width=2, color="gray", alpha=0.25); ax2.set_ylabel("orbits of this weight"); ax2.grid(False)
ax.set_xlim(min(ws) - 10, min(max(ws), 6 * min(ws) + 400))
ax.set(xlabel="wt(M)", ylabel="CRT reconstruction (modelled cycles)",
       title=f"{LABEL}: 2^{L + 5} + x^{C} — reconstruction cost vs wt(M) (model {cd['cost_model_version']})")
ax.legend(loc="upper left"); plt.show()

# the planner's figure for its chosen β lies in the plotted band of that weight
lo_w, hi_w, _ = by_w[t0["weight"]]
assert lo_w - 1e-6 <= rec <= hi_w + 1e-6, (rec, lo_w, hi_w)
med = sorted(w for w, c in scans[L]["hist"].items() for _ in range(c))[scans[L]["orbits"] // 2]
print(f"reconstruction at the lightest orbit (wt {ws[0]}): {lo[0]:,.0f} cycles; at the median weight {med}: "
      f"{by_w[med][0]:,.0f}–{by_w[med][1]:,.0f} cycles ({by_w[med][0] / lo[0]:.1f}× more)")
print(f"best FAFFT + x^c plan (rank {bp['rank']} of {len(crt['plans'])}): {bp['label']}, {bp['cost']['total_cycles']:,.0f} cycles; "
      f"its reconstruction {rec:,.0f} cycles ({100 * rec / bp['cost']['total_cycles']:.1f} % of the plan)")
print(f"preferred plan overall: {crt['plans'][0]['label']} ({crt['plans'][0]['cost']['total_cycles']:,.0f} cycles)")
'''),
    md("""
## Summary
"""),
    code(r'''
best = crt["plans"][0]
fill = need / (32 << plans_m32["single"])
print(f"{LABEL}: the product has {need} bits; one 2^{plans_m32['single'] + 5} FAFFT is {100 * fill:.0f} % full.")
print(f"preferred plan: {best['label']} ({best['cost']['total_cycles']:,.0f} modelled cycles).")
if best["kind"] == "single":
    print(f"The modulus plays no role in it. The CRT plans at l = {L} need c ≥ {c_min} bits; the residue product and the "
          f"β-independent part of the reconstruction at that size cost more than the halved transform saves "
          f"(best FAFFT + x^c: {bp['cost']['total_cycles'] / best['cost']['total_cycles']:.2f}×).")
else:
    print(f"It uses β = {best['transforms'][0]['beta']} (wt(M) = {best['transforms'][0]['weight']}), the lightest "
          f"candidate the planner found; the scan's optimum at l = {L} is {scans[L]['min_weight']}.")
print(f"Within the CRT plans the weight still matters: the lightest l = {L} modulus (wt {ws[0]}) makes the reconstruction "
      f"{by_w[med][0] / lo[0]:.1f}× cheaper than a median orbit (wt {med}).")
'''),
    code(FOOTER),
]


# ---------------------------------------------------------------------------------------------
# 03: CRT split plans for HQC-1/3/5 and the per-instruction cost table

NB03 = lambda: [
    md(f"""
# 03 — CRT split plans for HQC-1/3/5 under the cost model

**Question.** For the three HQC sizes, how do the split plans (one FAFFT alone, FAFFT + x^c,
two coprime FAFFT moduli) compare under the Cortex-M4 cost model, where does each plan spend its
cycles (forward, pointwise, inverse, residue, reconstruction), where do the published choices
rank — and does the ranking depend on the per-instruction cycle table `--cost-table`?

**Runtime:** {RUNTIME['03']} on a loaded 2-core machine with up-to-date binaries (the `cargo build` in the first cell adds minutes after source changes) — 4 scans and 10
planner runs; the last cell prints the measured time.

**Commands:** `search crt --n 17669|35851|57637 --m 32 --json` and the same with
`--cost-table FILE` (format: `search/src/cost.rs`, `CostTable`).
"""),
    setup("03"),
    md("""
## 1. Plans under the default table (`cortex-m4-default`)
"""),
    code(r'''
LEVELS = {"HQC-1": 17669, "HQC-3": 35851, "HQC-5": 57637}
PARTS = ["forward", "pointwise", "inverse", "residue", "reconstruction"]
COLORS = dict(zip(PARTS, ["#2b5d8a", "#7fb3d5", "#e67e22", "#27ae60", "#c0392b"]))

# The planner scans every l it needs by itself; an HQC-1 run spends ~20 s scanning l = 7 (a
# million orbits) in-process. `search moduli` scans faster, so the notebook scans each l once and
# hands the lightest moduli to every planner run with --moduli (only `top`: the planner reads
# `best` and `top` and does not remove repeated entries). §1 checks on HQC-3 that this gives the
# same plans as the planner's own scan.
def needed_ls(n, m=32):
    need = 2 * n - 1
    l1 = next(l for l in range(1, m // 2) if (m << l) >= need) - 1      # FAFFT + x^c, and M1
    l2 = next(l for l in range(1, l1 + 1) if (m << l1) + (m << l) >= need)  # M2 of two moduli
    return sorted({l1, l2})

MODULI = {}
for l in sorted({l for n in LEVELS.values() for l in needed_ls(n)}):
    d = sh_json(SEARCH, "moduli", "--m", 32, "--l", l, "--top", 16)
    MODULI[l] = SCRATCH / f"moduli-m32-l{l}-top.json"
    MODULI[l].write_text(json.dumps({"m": d["m"], "l": d["l"], "top": d["top"]}))

def crt(n, table=None, files=True):
    args = [SEARCH, "crt", "--n", n, "--m", 32, "--json"]
    for l in (needed_ls(n) if files else []):
        args += ["--moduli", MODULI[l]]
    return sh_json(*args + (["--cost-table", table] if table else []))

def key(p):
    """Identity of a plan across cost tables."""
    return (p["label"], p["transforms"][0]["beta"], (p["residue"] or {}).get("label", ""))

def plan_rows(r, top=8):
    best = r["plans"][0]["cost"]["total_cycles"]
    keep = [p for p in r["plans"] if p["rank"] <= top or p["published"]]
    rows = []
    for p in keep:
        t0, c = p["transforms"][0], p["cost"]
        rows.append([p["rank"], p["label"], t0["beta"], t0["weight"], (p["residue"] or {}).get("label", "-")] +
                    [f"{c[k]['cycles']:,.0f}" for k in PARTS] +
                    [f"{c['total_cycles']:,.0f}", f"{c['total_cycles'] / best:.3f}", "published" if p["published"] else ""])
    return rows

HEAD = ["rank", "plan", "β (M1)", "wt(M1)", "residue multiplier"] + PARTS + ["total", "vs best", ""]
default = {lv: crt(n) for lv, n in LEVELS.items()}

own = crt(LEVELS["HQC-3"], files=False)     # cross-check: the planner's own scan
sig = lambda r: [(key(p), p["cost"]["total_cycles"]) for p in r["plans"]]
assert sig(own) == sig(default["HQC-3"]), "plans from --moduli files differ from the planner's own scan"
print("HQC-3 cross-check: the planner's own scan gives the same", len(own["plans"]), "plans and costs\n")

for lv, r in default.items():
    show(plan_rows(r), HEAD, f"{lv}: n = {r['n']}, {len(r['plans'])} plans, table {r['cost_table']['name']}, "
                             f"model {r['cost_model_version']}")
    for pr in r["published"]:
        print(f"  {pr['label']} → rank {pr['rank']}")
    print("  " + r["summary"])
'''),
    md("""
### Where the cycles go

Each bar is one plan (the five cheapest within 3× of the best, plus the published one); the
stack is the modelled cycles per component. The published HQC-1/3 plans are FAFFT + x^c with the artifact β; HQC-5 is
a single 2^17 FAFFT.
"""),
    code(r'''
def breakdown(axs, reports, top=5, title="", cap=3.0):
    """Stacked bars: the `top` cheapest plans within `cap`× the best, plus the published one."""
    for ax, (lv, r) in zip(axs, reports.items()):
        best = r["plans"][0]["cost"]["total_cycles"]
        ps = [p for p in r["plans"] if p["rank"] <= top and p["cost"]["total_cycles"] <= cap * best]
        ps += [p for p in r["plans"] if p["published"] and p not in ps]
        x = range(len(ps))
        bottom = [0.0] * len(ps)
        for part in PARTS:
            v = [p["cost"][part]["cycles"] / 1e6 for p in ps]
            ax.bar(x, v, bottom=bottom, color=COLORS[part], label=part, width=0.7)
            bottom = [b + y for b, y in zip(bottom, v)]
        for i, p in enumerate(ps):
            ax.text(i, bottom[i], f"{bottom[i]:.2f}", ha="center", va="bottom", fontsize=7)
        ax.set_xticks(list(x))
        ax.set_xticklabels([f"#{p['rank']} {p['label']}\nβ {p['transforms'][0]['beta']} wt {p['transforms'][0]['weight']}"
                            + ("\n(published)" if p["published"] else "") for p in ps], fontsize=7, rotation=30, ha="right")
        ax.set_title(f"{lv} {title}", fontsize=10)
        ax.set_ylabel("modelled Mcycles")
        ax.set_ylim(0, max(bottom) * 1.1)

def legend(fig):
    handles = [plt.Rectangle((0, 0), 1, 1, color=COLORS[p]) for p in PARTS]
    fig.legend(handles, PARTS, loc="upper center", ncol=5, fontsize=9, frameon=False)

fig, axs = plt.subplots(1, 3, figsize=(15, 5.2))
breakdown(axs, default, title="(cortex-m4-default)")
legend(fig)
plt.tight_layout(rect=(0, 0, 1, 0.95)); plt.show()
'''),
    md("""
## 2. A different per-instruction table

The ranking (`cost`, and the `model` terms of every plan) is the **calibrated** model
(docs/cost-model.md): coefficients fitted on board-estimated cycles of the firmware's own code,
with no per-instruction table in it. `--cost-table FILE` re-weights only the operation-count model
`m4-bitsliced-v1`, which every plan still reports as `cost_v1` (and which prices the components
listed in a plan's `uncalibrated`). The file is a JSON object with the fields of `CostTable` in
`search/src/cost.rs`: `name`, `xor`, `and`, `shift`, `mul32`, `load`, `store`.

Two what-if tables, to show what they do and do not move:

* **`mul32-expensive`**: a core without a single-cycle 32×32→64 multiply, `mul32 = 16`.
* **`xor-cheap`**: cheap logic, `xor = and = shift = 0.25`, `load = 1`.
"""),
    code(r'''
TABLES = {
    "mul32-expensive": {"name": "mul32-expensive", "mul32": 16.0},
    "xor-cheap": {"name": "xor-cheap", "xor": 0.25, "and": 0.25, "shift": 0.25, "load": 1.0},
}
runs = {"cortex-m4-default": default}
for name, t in TABLES.items():
    path = SCRATCH / f"{name}.json"
    path.write_text(json.dumps(t, indent=2) + "\n")
    print(f"{shown(path)}: {json.dumps(t)}")
    runs[name] = {lv: crt(n, path) for lv, n in LEVELS.items()}
    for r in runs[name].values():
        assert r["cost_table"]["name"] == name
'''),
    code(r'''
names = list(runs)
for lv in LEVELS:
    ranks = {nm: {key(p): p for p in runs[nm][lv]["plans"]} for nm in names}
    keys = sorted(ranks[names[0]], key=lambda k: ranks[names[0]][k]["rank"])
    keys = [k for k in keys if ranks[names[0]][k]["rank"] <= 5 or ranks[names[0]][k]["published"]]
    rows = []
    for k in keys:
        p0 = ranks[names[0]][k]
        row = [p0["rank"], k[0], k[1], k[2] or "-", f"{p0['cost']['total_cycles'] / 1e6:.3f}"]
        for nm in names:
            p = ranks[nm].get(k)
            row.append("-" if p is None else f"{p['cost_v1']['total_cycles'] / 1e6:.3f}")
        rows.append(row + ["published" if p0["published"] else ""])
    show(rows, ["rank", "plan", "β (M1)", "residue multiplier", "calibrated Mcycles"]
         + [f"cost_v1 under {nm}" for nm in names] + [""],
         f"{lv}: the ranking (calibrated) and the operation-count model under the three tables")
    # the ranking does not depend on the table: same plans, same ranks, same calibrated cycles
    sig = lambda r: [(key(p), p["rank"], p["cost"]["total_cycles"]) for p in r["plans"]]
    same = all(sig(runs[nm][lv]) == sig(runs[names[0]][lv]) for nm in names)
    print(f"  ranking identical under all {len(names)} tables: {same}")
    assert same, f"{lv}: the calibrated ranking changed with --cost-table"
'''),
    md("""
## Reading the results

Computed from the planner runs above (the figures change when the model is refitted):
"""),
    code(r'''
for lv, r in default.items():
    best = r["plans"][0]
    tot = best["cost"]["total_cycles"]
    parts = sorted(((best["cost"][k]["cycles"], k) for k in PARTS), reverse=True)
    pub = [p for p in r["plans"] if p["published"]]
    print(f"{lv}: best {best['label']} (β {best['transforms'][0]['beta']}, wt {best['transforms'][0]['weight']}), "
          f"{tot:,.0f} modelled cycles; largest parts: "
          + ", ".join(f"{k} {100 * c / tot:.0f} %" for c, k in parts[:3]))
    for p in pub:
        print(f"    published {p['label']} (β {p['transforms'][0]['beta']}, wt {p['transforms'][0]['weight']}): "
              f"rank {p['rank']}, {p['cost']['total_cycles'] / tot:.3f}× the best")
print(f"model {default['HQC-1']['cost_model_version']}; error band: docs/cost-model.md")
'''),
    code(FOOTER),
]


# ---------------------------------------------------------------------------------------------
# 04: export a parameter set, host KATs, emulated board

NB04 = lambda: [
    md(f"""
# 04 — Export a parameter set, then verify it on the host and on the emulated Cortex-M4

**Question.** Does a parameter set chosen with the workbench (here the published HQC-1 one:
m = 32, l = 10, β = 0x00103674, c = 3072, n = 17669) export to firmware tables that pass the
HQC KATs on the host and on the emulated Cortex-M4 board, and how many instructions does the
board spend per stage of one HQC ring product and per KEM operation — against the cost model
and against the published firmware?

**Runtime:** {RUNTIME['04']} on a loaded 2-core machine with up-to-date binaries (the `cargo
build` in the first cell adds minutes after source changes), most of it compiling the firmware
and running QEMU; the last cell prints the measured time. Needs the board toolchain
(`arm-none-eabi-gcc`, `qemu-system-arm`; `hqc-verify board` installs what is missing via
`scripts/install-board-deps.sh`).

**Commands:**
`search export --m 32 --l 10 --beta 0x00103674 --c 3072 --n 17669 --out DIR --force`,
`hqc-verify kat --level 1 --params DIR/params.json --count 2 --json` (the fafft-crt multiplier
built from the export) and `hqc-verify kat --level 1 --multiplier reference --count 2 --json`,
`hqc-verify board --params DIR/params.json --count 1 --json`.
"""),
    setup("04"),
    md("""
## 1. Export

DIR is `build/notebooks/nb04-export/hqc1-published` (git-ignored). A fixed folder rather than a
fresh temporary one: `hqc-verify board` names its firmware and `m4kem` builds after the folder, so a
fixed folder is rebuilt in place on every run instead of leaving one more build behind.
"""),
    code(r'''
import hashlib
M, L, BETA, C, N = 32, 10, "0x00103674", 3072, 17669
EXP = ROOT / "build" / "notebooks" / "nb04-export" / "hqc1-published"
EXP.parent.mkdir(parents=True, exist_ok=True)
print(shown(sh(SEARCH, "export", "--m", M, "--l", L, "--beta", BETA, "--c", C, "--n", N, "--out", EXP, "--force").stdout.strip()))

show([[f.name, f"{f.stat().st_size:,}"] for f in sorted(EXP.iterdir())], ["file", "bytes"], f"{shown(EXP)}")
params = json.loads((EXP / "params.json").read_text())
body = {k: v for k, v in params.items() if k != "checksum"}
canon = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
digest = hashlib.sha256(canon.encode()).hexdigest()
assert digest == params["checksum"], f"params.json checksum mismatch: {digest} != {params['checksum']}"
show([[k, shown(params[k]) if not isinstance(params[k], (dict, list)) else json.dumps(params[k], ensure_ascii=False)[:100]]
      for k in ("command", "m", "l", "n", "c", "N", "beta", "beta_coords", "weight", "residues", "chain", "xor_counts")
      if k in params], ["key", "value"], "params.json (selected keys)")
print(f"checksum {params['checksum']} recomputed in Python (SHA-256 of the canonical JSON without `checksum`)")
assert params["weight"] == 165
'''),
    md("""
## 2. Host KATs

`hqc-verify kat` regenerates KAT entries from their seeds and compares them with the per-entry
pins committed in the repository (`hqc-verify/kat/`; the official `.rsp` files are optional,
`--kat-dir`). `--params` selects the **fafft-crt**
multiplier, built at run time from the exported `params.json` (FAFFT over F_2^32 with this β,
CRT with x^3072); the reference multiplier runs as a baseline. Both flavours (v5.0.0, 2026-02),
entries 0–1. A mismatch makes `kat` exit with status 1, which fails the cell.
"""),
    code(r'''
def kat_table(outcomes, title):
    show([[o["level"], o["flavour"], o["multiplier"], o["count"], o["digest"][:16] + "…", o["expected_source"],
           "OK" if o["matches"] else "MISMATCH", "yes" if o["decaps_ok"] else "NO", f"{o['seconds']:.3f}"] for o in outcomes],
         ["level", "flavour", "multiplier", "entries", "digest", "expected from", "KAT", "decaps ok", "s"], title)
    assert all(o["matches"] and o["decaps_ok"] for o in outcomes)

fc = sh_json(HQC_VERIFY, "kat", "--level", 1, "--params", EXP / "params.json", "--count", 2, "--json")
kat_table(fc, "hqc-verify kat --params (fafft-crt multiplier from the export)")
ref = sh_json(HQC_VERIFY, "kat", "--level", 1, "--multiplier", "reference", "--count", 2, "--json")
kat_table(ref, "hqc-verify kat --multiplier reference (baseline)")
assert [o["digest"] for o in fc] == [o["digest"] for o in ref]
print("fafft-crt and reference regenerate identical entries (same digests) and both match the committed pins")
'''),
    md("""
## 3. The emulated Cortex-M4 (QEMU mps2-an386)

`hqc-verify board` does everything with the exported folder in one call: it validates
`params.json` and the headers against it, builds the C FAFFT+CRT firmware from the headers, runs
the on-board field and product tests (among them the black-box extraction of the modulus from
the FAFFT and random products against an on-board schoolbook product, plus board/host hash
agreement), builds the HQC KEM (`m4kem`, Rust `no_std`) with the exported multiplier and
regenerates KAT entry 0 of both flavours on the board, counts instructions with a TCG plugin,
estimates Cortex-M4 cycles from the counted instruction classes, and sets the cost model beside
the counts. A failed check makes it exit with
status 1, which fails the cell. (The same steps by hand: `hqc-verify/board/check.sh DIR`,
`PARAMS_DIR=DIR MUL=c-fafft hqc-verify/board/m4kem/bench.sh 1 2026-02`.)

QEMU is a functional model: the counts are executed **instructions**; the cycle figures are an
estimate from the instruction classes with the Cortex-M4 timing rules of `docs/m4-timing.md`.
"""),
    code(r'''
rep = sh_json(HQC_VERIFY, "board", "--params", EXP / "params.json", "--count", 1, "--json")
p = rep["params"]
print(f"{p['level']}: l = {p['l']}, N = {p['N']}, c = {p['c']}, β = {p['beta']} ({p['chain']} chain), wt(M) = {p['modulus_weight']}, "
      f"config_id {p['config_id'][:16]}…, {len(p['verified_files'])} exported files verified by SHA-256")
print("tools:", "; ".join(rep["toolchain"].values()))
show([[c["name"], "PASS" if c["passed"] else "FAIL", shown(c["detail"])[:90]] for c in rep["checks"]],
     ["check", "result", "detail"], f"hqc-verify board: {sum(c['passed'] for c in rep['checks'])}/{len(rep['checks'])} checks passed")
show([[k["flavour"], k["requested"], k["run"], k["passed"], k["qemu_exit"], k["first_failure"] or ""] for k in rep["kat"]],
     ["flavour", "entries requested", "run", "passed", "QEMU exit", "first failure"], "HQC-1 KAT entries regenerated on the board")
assert rep["passed"], rep["failed"]
'''),
    md("""
### Instruction counts
"""),
    code(r'''
def nest(pairs):
    """Stage regions as (label, count, depth) in pre-order. The counter prints a region when it
    closes (post-order); keep the last occurrence of each label and rebuild the nesting from the
    stage names."""
    last = {}
    for i, (lab, cnt) in enumerate(pairs):
        last[lab] = (i, cnt)
    order = sorted(last, key=lambda lab: last[lab][0])
    def depth(lab):
        for pre, d in (("hqc_ring_mul", 0), ("(whole", 0), ("bc.", 4), ("fwd.", 3), ("inv.", 3),
                       ("forward(", 2), ("pointwise", 2), ("inverse", 2)):
            if lab.startswith(pre):
                return d
        return 1
    stack = []
    for lab in order:
        node = (lab, last[lab][1], depth(lab), [])
        while stack and stack[-1][2] > node[2]:
            node[3].insert(0, stack.pop())
        stack.append(node)
    out = []
    def walk(n):
        out.append(n[:3])
        for c in n[3]:
            walk(c)
    for n in stack:
        walk(n)
    return out

cnt, anchor, model = rep["counts"], rep["anchor"], rep["model"]
stg = cnt["stages"]
st = nest([tuple(x) for x in stg["regions"]])
total = stg["instrumented_total"]
show([["\u2003" * d + lab, f"{c:,}", f"{100 * c / total:.1f} %"] for lab, c, d in st],
     ["stage", "instructions", "share"], "one HQC-1 ring product f·g mod x^n − 1 on the emulated Cortex-M4, exported tables")
print(f"ring product without stage markers: {cnt['ring_product']:,} instructions; {anchor['source']}: "
      f"{anchor['ring_product']:,} (ours / published = {anchor['ring_product_ratio']:.3f})")
print(f"butterflies {stg['butterflies']:,} ({100 * stg['butterflies_share']:.1f} %), basis conversion {stg['basis_cvt']:,}, "
      f"Encode/Decode {stg['encode_decode']:,}, reconstruction {stg['reconstruction']:,} ({100 * stg['reconstruction_share']:.1f} %)")

ops = ("keygen", "encaps", "decaps")
rows = [[f, *(f"{k[o]:,}" for o in ops), *(f"{r:.3f}" for r in anchor["kem_ratios"].get(f, [None] * 3))]
        for f, k in cnt["kem"].items()]
if anchor["kem"]:
    rows.append(["published firmware", *(f"{x:,}" for x in anchor["kem"]), "", "", ""])
show(rows, ["", "KeyGen", "Encaps", "Decaps", "KeyGen / published", "Encaps / published", "Decaps / published"],
     "HQC-1 KEM operations (KAT entry 0) on the emulated Cortex-M4, exported multiplier")

show([[r["component"], f"{r['modelled_ops']:,}", f"{r['modelled_cycles']:,.0f}",
       f"{r['counted_instructions']:,}" if r["counted_instructions"] is not None else "-",
       f"{r['ratio_to_ops']:.2f}" if r["ratio_to_ops"] is not None else "-",
       f"{r['ratio_to_cycles']:.2f}" if r["ratio_to_cycles"] is not None else "-"] for r in model["rows"]],
     ["component", "model: ops", "model: cycles", "QEMU: instructions", "instr. / ops", "instr. / cycles"],
     f"cost model {model['cost_model_version']} (table {model['cost_table']}, residue {model['residue_method']}) against the emulator")
print(f"ring product: {cnt['ring_product']:,} instructions, {cnt['ring_product_cycles']:,} estimated cycles "
      f"({rep['timing']['version']}: {rep['timing']['rules']})")
show([[r["component"], f"{r['estimated_cycles']:,}" if r.get("estimated_cycles") is not None else "-",
       f"{r['model_to_estimated']:.2f}" if r.get("model_to_estimated") is not None else "-"] for r in model["rows"]],
     ["component", "estimated cycles", "model / estimated"], "the cost model against the cycle estimate of the counted classes")
rt = rep["routines_total"]
print(f"exported Thumb-2 routines: {rt['eor']:,} EOR + {rt['vmov']:,} VMOV, {rt['total']:,} instructions in all; "
      f"{rt['calls_per_product']} calls per product = {rt['per_product']:,} instructions")

top = [(lab, c) for lab, c, d in st if d in (1, 2) and lab != "fafft_mul"]
comps = [r for r in model["rows"] if r["counted_instructions"] and not r["component"].startswith("product")]
fig, (a1, a2) = plt.subplots(1, 2, figsize=(14, 4.2), gridspec_kw={"width_ratios": [3, 2]})
a1.barh([lab for lab, _ in top][::-1], [c / 1e3 for _, c in top][::-1], color="#2b5d8a")
for i, (lab, c) in enumerate(top[::-1]):
    a1.text(c / 1e3, i, f" {c / 1e3:,.0f} k", va="center", fontsize=8)
a1.set(xlabel="thousand instructions", title=f"HQC-1 ring product stages ({total:,} instructions)",
       xlim=(0, max(c for _, c in top) / 1e3 * 1.15))
x = range(len(comps))
a2.bar([i - 0.27 for i in x], [r["modelled_cycles"] / 1e3 for r in comps], 0.27, label="model: cycles", color="#9bb7d4")
a2.bar([i for i in x], [r["modelled_ops"] / 1e3 for r in comps], 0.27, label="model: ops", color="#7fb3d5")
a2.bar([i + 0.27 for i in x], [r["counted_instructions"] / 1e3 for r in comps], 0.27, label="QEMU: instructions", color="#2b5d8a")
a2.set_xticks(list(x)); a2.set_xticklabels([r["component"].split(" f·g")[0].split(" (")[0] for r in comps], rotation=20, fontsize=8)
a2.set(ylabel="thousands", title="cost model against the emulator"); a2.legend(fontsize=8)
plt.tight_layout(); plt.show()
'''),
    md("""
## Notes

* `params.json` carries a SHA-256 checksum over its canonical JSON; the notebook recomputes it
  independently in Python, and `hqc-verify board` checks it again, together with the headers.
* On the host, the fafft-crt multiplier built from the export regenerates exactly the entries of
  the reference multiplier; on the board, the C multiplier compiled from the same folder passes
  the firmware's own product tests and, inside the whole HQC-1 KEM, the pinned KAT digests.
* Model against emulator: the model counts operations and weighs them in Cortex-M4 *cycles* (a
  load weighs 2); QEMU counts *instructions*, so ratios below 1 are expected where the firmware
  moves several words per LDM/STM. The outlier is the reconstruction: the model prices
  `u = t·IL mod x^c` as a truncated c-bit product, while the firmware solves for u with a sparse
  triangular solve unrolled from M (`hqc-verify/board/README.md`; the IL product is the
  `CRT_U_IL` variant) — much cheaper for a light M. The pointwise products go the other way: the
  firmware executes more instructions than the model counts for its bitsliced tower products.
"""),
    code(FOOTER),
]


NOTEBOOKS = {
    "01-published-moduli.ipynb": ("01", NB01),
    "02-alternative-moduli.ipynb": ("02", NB02),
    "03-crt-plans.ipynb": ("03", NB03),
    "04-export-and-verify.ipynb": ("04", NB04),
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
