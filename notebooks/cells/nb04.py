"""The cells of notebook 04 (assembled by notebooks/build_notebooks.py)."""
from common import RUNTIME, FOOTER, md, code, setup

# ---------------------------------------------------------------------------------------------
# 04: export a parameter set, host KATs, emulated board

CELLS = lambda: [
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
