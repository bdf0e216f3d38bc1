"""The cells of notebook 03 (assembled by notebooks/build_notebooks.py)."""
from common import RUNTIME, FOOTER, md, code, setup

# ---------------------------------------------------------------------------------------------
# 03: CRT split plans for HQC-1/3/5 and the per-instruction cost table

CELLS = lambda: [
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
