"""The cells of notebook 02 (assembled by notebooks/build_notebooks.py)."""
from common import RUNTIME, FOOTER, md, code, setup

# ---------------------------------------------------------------------------------------------
# 02: alternative moduli for a size the user picks

CELLS = lambda: [
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
