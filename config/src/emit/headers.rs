//! The exported C headers (docs/params-json.md, "Files"; `docs/firmware-layout.md`
//! §2–§9). [`files`] renders them from a [`Derived`] configuration; `search export`
//! writes them and [`crate::schema::spec::Loaded::verify`] renders them again to compare.
//!
//! | file | contents |
//! |---|---|
//! | `fafft_params.h` | `FAFFT_M`, `FAFFT_L`, `FAFFT_N`, `CRT_C`, `SPLIT_K` and `SPLIT_RW` (only with a split), `HQC_N`, `FAFFT_BETA`, `FAFFT_P`, `fafft_gamma[FAFFT_L + 1]`, `fafft_r[32]` |
//! | `minpoly_mods_defs.h` | `minpoly_mod_<r>` (e div 32, decreasing; zero-length arrays for empty classes, GNU C), `minpoly_mods[32]`, `minpoly_mod_lens[32]`; portable `minpoly_flat[]` + `minpoly_offsets[33]` |
//! | `IL_defs.h` | `IL_swapped_<N>[c/32]`, `IL_plain[CRT_C/32]`, `IL_swapped[CRT_C/32]`; only `FAFFT_HAVE_IL 0` when c = 0 |
//! | `encode_matrix_defs.h` | `encode_matrix[32][32]`, `decode_matrix[32][32]`, `[i][j]` = bit i of column j |
//! | `gft_mul_s_inv_i_beta_matrix_defs.h` | `gft_mul_s_inv_<j>_beta_matrix[32][32]`, column q = `gamma_j*2^q`, j = 1 … L, plus the `gamma_extra` ones |
//! | `btfy_consts_gft.h` | `s0_gft[2048]` |
//! | `gen_xor_programs.h` | `HAVE_GEN_XOR`, `gft_mul_gamma_<j>(uint32_t *x32)`, `encode_xor`, `encode_trunc_xor`, `decode_xor` |
//!
//! Every header is ASCII and starts with a banner naming the parameters, the command and the
//! `config_id` of params.json (not its checksum: the checksum covers the headers' SHA-256s).

use crate::model::derive::Derived;
use crate::model::layout::sha256_words;
use crate::model::transform;
use crate::model::xorprog::XorProgram;
use crate::schema::spec::{Provenance, SCHEMA_VERSION};
use algebra::gf2x::Poly;
use std::fmt::Write as _;

/// The names of the exported headers, in the order they are written.
pub const HEADER_FILES: [&str; 7] = [
    "fafft_params.h",
    "minpoly_mods_defs.h",
    "IL_defs.h",
    "encode_matrix_defs.h",
    "gft_mul_s_inv_i_beta_matrix_defs.h",
    "btfy_consts_gft.h",
    "gen_xor_programs.h",
];

/// The headers of a derivation, (name, text), in [`HEADER_FILES`] order. `config_id` is the
/// params.json `config_id` the banners name.
pub fn files(d: &Derived, prov: &Provenance, config_id: &str) -> Vec<(String, String)> {
    let h = Headers {
        d,
        prov,
        id: config_id,
    };
    let texts = [
        h.fafft_params_h(),
        h.minpoly_h(),
        h.il_h(),
        h.encode_h(),
        h.gft_h(),
        h.s0_h(),
        h.xor_h(),
    ];
    HEADER_FILES
        .iter()
        .zip(texts)
        .map(|(n, t)| (n.to_string(), t))
        .collect()
}

/// The `gen/` headers of the artifact layout (docs/firmware-layout.md, "The artifact
/// layout"), (name, text): the four β-dependent tables the published firmware includes, with
/// `IL_defs.h` self-contained.
pub fn artifact_files(d: &Derived, prov: &Provenance, config_id: &str) -> Vec<(String, String)> {
    let h = Headers {
        d,
        prov,
        id: config_id,
    };
    vec![
        ("gen/minpoly_mods_defs.h".into(), h.minpoly_h()),
        ("gen/IL_defs.h".into(), h.il_h_with(true)),
        ("gen/encode_matrix_defs.h".into(), h.encode_h()),
        ("gen/gft_mul_s_inv_i_beta_matrix_defs.h".into(), h.gft_h()),
    ]
}

/// `twomod_defs.h` of a two-moduli export (docs/firmware-layout.md §14): N1, N2, the exponents
/// of M1 and M2 (portable per-class form and, for the reductions, the low exponents of M2 in
/// decreasing order), W in plain words and `F2(W)` in the second instance's layout B.
pub fn twomod_h(
    d: &Derived,
    s2: &crate::model::derive::SecondDerived,
    prov: &Provenance,
    config_id: &str,
) -> String {
    let h = Headers {
        d,
        prov,
        id: config_id,
    };
    let b = &s2.block;
    let mut s = h.banner(
        crate::schema::spec::TWOMOD_FILE,
        "two-moduli CRT tables (docs/fafft.md sec. 9.8): N1, N2, the exponents of M1 and M2, W = M1^-1 mod M2 and its transform F2(W) in the second instance's layout B",
    );
    s += "#ifndef TWOMOD_DEFS_H\n#define TWOMOD_DEFS_H\n\n#include <stdint.h>\n\n";
    s += &format!("#define TWOMOD_N1 {}\n", d.big_n);
    s += &format!("#define TWOMOD_L1 {}\n", d.cfg.l);
    s += &format!("#define TWOMOD_N2 {}\n", b.big_n);
    s += &format!("#define TWOMOD_L2 {}\n", b.cfg.l);
    s += &format!("#define TWOMOD_BETA2 {}u\n", hex32(b.cfg.beta));
    s += &format!("#define TWOMOD_M1_WEIGHT {}\n", d.modulus.weight());
    s += &format!("#define TWOMOD_M2_WEIGHT {}\n", b.modulus.weight());
    s += &format!("#define TWOMOD_W_WEIGHT {}\n", s2.w.weight());
    s += &format!(
        "#define TWOMOD_W_GROUPS {}  /* stored groups of the second transform (FAFFT_NGSTORE) */\n\n",
        s2.stored_groups()
    );
    let classes = |m: &Poly| {
        let mut cl = vec![Vec::new(); 32];
        for e in m.exponents().into_iter().rev() {
            cl[e % 32].push(e / 32);
        }
        let flat: Vec<usize> = cl.iter().flatten().copied().collect();
        let mut offs = vec![0usize];
        for v in &cl {
            offs.push(offs.last().copied().unwrap_or(0) + v.len());
        }
        (flat, offs)
    };
    for (name, m) in [("m1", &d.modulus), ("m2", &b.modulus)] {
        let (flat, offs) = classes(m);
        s += &format!(
            "/* {}: exponents e by residue class r = e mod 32, storing e div 32 in decreasing order: class r = twomod_{name}_flat[twomod_{name}_offsets[r] .. twomod_{name}_offsets[r+1]) */\n",
            name.to_uppercase()
        );
        s += &c_int_array(
            &format!("static const int twomod_{name}_flat[{}]", flat.len()),
            &flat,
        );
        s += &c_int_array(
            &format!("static const int twomod_{name}_offsets[33]"),
            &offs,
        );
        s += "\n";
    }
    let low: Vec<usize> = b
        .modulus
        .exponents()
        .into_iter()
        .rev()
        .filter(|&e| e < b.big_n as usize)
        .collect();
    s += "/* M2 = x^N2 + L: the exponents of L in decreasing order (the reductions mod M2) */\n";
    s += &format!("#define TWOMOD_M2_LOW_TERMS {}\n", low.len());
    s += &format!(
        "#define TWOMOD_M2_LOW_DEGREE {}  /* deg L */\n",
        low.first().copied().unwrap_or(0)
    );
    s += &c_int_array("static const int twomod_m2_low[TWOMOD_M2_LOW_TERMS]", &low);
    s += &format!(
        "\n/* W = M1^-1 mod M2, plain words (bit b of word w = x^(32w+b)); SHA-256 {} */\n",
        sha256_words(&s2.w_plain)
    );
    s += &c_u32_array(
        "static const uint32_t twomod_w_plain[TWOMOD_N2 / 32]",
        &s2.w_plain,
        4,
    );
    s += &format!(
        "\n/* F2(W), the second transform of W (algebra::crt2::TwoModuliCrt::w_evals) in layout B:\n   group g, word k at index 32 g + k (point i = 32 b + t, b = 32 bh + bl: group 32 bh + t, bit bl);\n   SHA-256 {} */\n",
        sha256_words(&s2.w_evals)
    );
    s += &c_u32_array(
        "static const uint32_t twomod_w_evals[TWOMOD_W_GROUPS * 32]",
        &s2.w_evals,
        4,
    );
    s += "\n#endif /* TWOMOD_DEFS_H */\n";
    s
}

/// Text safe inside a C comment and ASCII: printable ASCII kept, `*/` broken up, anything
/// else written as `\u{..}`.
pub fn comment_safe(s: &str) -> String {
    let mut out = String::new();
    for ch in s.chars() {
        if ch == ' ' || ch.is_ascii_graphic() {
            out.push(ch);
        } else {
            let _ = write!(out, "\\u{{{:x}}}", ch as u32);
        }
    }
    out.replace("*/", "*\\/").replace("/*", "/\\*")
}

fn hex32(x: u32) -> String {
    format!("{x:#010x}")
}

struct Headers<'a> {
    d: &'a Derived,
    prov: &'a Provenance,
    id: &'a str,
}

impl Headers<'_> {
    fn banner(&self, file: &str, what: &str) -> String {
        let c = &self.d.cfg;
        format!(
            "/*\n * {file}: {what}\n * Generated by: {}\n * Parameters: m = {}, l = {}, N = {}, c = {}, n = {}, beta = {} (tower hex; Cantor top {}), chain = {}\n * search {} (params.json schema {}); params.json config_id (SHA-256) = {}\n * Layout: docs/params-json.md (Files). Do not edit by hand.\n */\n",
            comment_safe(&self.prov.command),
            c.m,
            c.l,
            self.d.big_n,
            c.c,
            c.n,
            hex32(c.beta),
            hex32(algebra::cantor::TOWER_CANTOR_TOP),
            comment_safe(&c.chain.name()),
            comment_safe(&self.prov.tool_version),
            SCHEMA_VERSION,
            self.id,
        )
    }

    fn fafft_params_h(&self) -> String {
        let c = &self.d.cfg;
        let mut s = self.banner("fafft_params.h", "FAFFT and CRT parameters");
        let p_word = self.d.p.words().first().copied().unwrap_or(0);
        s += "#ifndef FAFFT_PARAMS_H\n#define FAFFT_PARAMS_H\n\n#include <stdint.h>\n\n";
        s += &format!("#define FAFFT_M {}\n", c.m);
        s += &format!("#define FAFFT_L {}\n", c.l);
        s += &format!("#define FAFFT_N {}\n", self.d.big_n);
        s += &format!(
            "#define CRT_C {}{}\n",
            c.c,
            if c.c == 0 {
                "  /* no residue ring */"
            } else {
                ""
            }
        );
        if let Some(sp) = &c.split {
            s += &format!(
                "#define SPLIT_K {}  /* 2-Karatsuba split point k (bits), docs/fafft.md sec. 9.11 */\n",
                sp.k
            );
            s += &format!(
                "#define SPLIT_RW {}  /* words of the residual product f1*g1 */\n",
                sp.residual_words
            );
        }
        if let Some(s2) = &self.d.second {
            s += &format!(
                "#define TWOMOD_L2 {}  /* two moduli (docs/fafft.md sec. 9.8): l of the second transform, tables in {} */\n",
                s2.block.cfg.l,
                crate::schema::spec::TWOMOD_FILE
            );
            s += &format!(
                "#define TWOMOD_N2 {}  /* N2 = 32 * 2^l2 */\n",
                s2.block.big_n
            );
        }
        s += &format!("#define HQC_N {}\n", c.n);
        s += &format!("#define FAFFT_BETA {}u\n", hex32(c.beta));
        s += &format!(
            "#define FAFFT_P {p_word:#x}ULL  /* minimal polynomial of beta, bit i = y^i */\n"
        );
        s += &format!("#define FAFFT_M_WEIGHT {}\n", self.d.modulus.weight());
        s += &format!(
            "#define FAFFT_CANTOR_TOP {}u\n\n",
            hex32(algebra::cantor::TOWER_CANTOR_TOP)
        );
        s += &format!(
            "/* gamma chain ({}): index j = gamma_j, index 0 = beta, index FAFFT_L = shift a */\n",
            c.chain.name()
        );
        s += &c_u32_array(
            "static const uint32_t fafft_gamma[FAFFT_L + 1]",
            &self.d.tp.gammas,
            4,
        );
        s += "\n/* Encode columns r_j = X_j(beta) (tower hex) */\n";
        s += &c_u32_array(
            "static const uint32_t fafft_r[32]",
            &self.d.tp.encode_cols,
            4,
        );
        s += "\n#endif /* FAFFT_PARAMS_H */\n";
        s
    }

    fn classes(&self) -> Vec<Vec<usize>> {
        let mut cl = vec![Vec::new(); 32];
        for e in self.d.modulus.exponents().into_iter().rev() {
            cl[e % 32].push(e / 32);
        }
        cl
    }

    fn minpoly_h(&self) -> String {
        let mut s = self.banner(
            "minpoly_mods_defs.h",
            "the modulus M = P(s_L(x)): exponents e grouped by e mod 32, storing e div 32 in decreasing order (artifact layout; empty classes are zero-length arrays, a GNU C extension), plus a portable flat form",

        );
        s += "#ifndef MINPOLY_MODS_DEFS_H\n#define MINPOLY_MODS_DEFS_H\n\n";
        let cl = self.classes();
        for (r, v) in cl.iter().enumerate() {
            s += &c_int_array(&format!("static const int minpoly_mod_{r}[{}]", v.len()), v);
            s += "\n";
        }
        s += "static const int *minpoly_mods[32] = {\n";
        for r in 0..32 {
            s += &format!("    minpoly_mod_{r},\n");
        }
        s += "};\n\n";
        let lens: Vec<usize> = cl.iter().map(|v| v.len()).collect();
        s += &c_int_array("static const int minpoly_mod_lens[32]", &lens);
        s += "\n/* Portable form: minpoly_flat[minpoly_offsets[r] .. minpoly_offsets[r+1]) = minpoly_mod_<r> */\n";
        let flat: Vec<usize> = cl.iter().flatten().copied().collect();
        s += &c_int_array(
            &format!("static const int minpoly_flat[{}]", flat.len()),
            &flat,
        );
        let mut offs = vec![0usize];
        for v in &cl {
            offs.push(offs.last().copied().unwrap_or(0) + v.len());
        }
        s += &c_int_array("static const int minpoly_offsets[33]", &offs);
        s += "\n#endif /* MINPOLY_MODS_DEFS_H */\n";
        s
    }

    fn il_h(&self) -> String {
        self.il_h_with(false)
    }

    /// `self_contained`: no `#include "fafft_params.h"`, sizes written as numbers (the
    /// artifact layout, whose build has no fafft_params.h).
    fn il_h_with(&self, self_contained: bool) -> String {
        let mut s = self.banner(
            "IL_defs.h",
            "IL = M^(-1) mod x^CRT_C: plain words (bit b of word w = x^(32w+b)) and swap32 words (radix-16 layout)",

        );
        if self_contained {
            s += "#ifndef IL_DEFS_H\n#define IL_DEFS_H\n\n/* self-contained: includes only <stdint.h> */\n#include <stdint.h>\n\n";
        } else {
            s += "#ifndef IL_DEFS_H\n#define IL_DEFS_H\n\n#include <stdint.h>\n#include \"fafft_params.h\"\n\n";
        }
        let words = if self_contained {
            self.d.il_plain.len().to_string()
        } else {
            "CRT_C / 32".to_string()
        };
        if self.d.cfg.c == 0 {
            s += "/* CRT_C = 0: no residue ring, no IL. */\n#define FAFFT_HAVE_IL 0\n";
        } else {
            s += "#define FAFFT_HAVE_IL 1\n\n";
            s += &format!(
                "/* artifact name: swap32 layout (SHA-256 {}) */\n",
                sha256_words(&self.d.il_swapped)
            );
            s += &c_u32_array(
                &format!(
                    "static const uint32_t IL_swapped_{}[{}]",
                    self.d.big_n,
                    self.d.il_swapped.len()
                ),
                &self.d.il_swapped,
                4,
            );
            s += &format!(
                "\n/* plain layout (SHA-256 {}) */\n",
                sha256_words(&self.d.il_plain)
            );
            s += &c_u32_array(
                &format!("static const uint32_t IL_plain[{words}]"),
                &self.d.il_plain,
                4,
            );
            s += "\n/* swap32 layout (same values as the artifact-named array) */\n";
            s += &c_u32_array(
                &format!("static const uint32_t IL_swapped[{words}]"),
                &self.d.il_swapped,
                4,
            );
        }
        s += "\n#endif /* IL_DEFS_H */\n";
        s
    }

    fn encode_h(&self) -> String {
        let mut s = self.banner(
            "encode_matrix_defs.h",
            "Encode (column j = r_j = X_j(beta)) and Decode = Encode^(-1); [i][j] = bit i of column j",

        );
        s +=
            "#ifndef ENCODE_MATRIX_DEFS_H\n#define ENCODE_MATRIX_DEFS_H\n\n#include <stdint.h>\n\n";
        s += &c_matrix(
            "static const uint8_t encode_matrix[32][32]",
            &self.d.tp.encode_cols,
        );
        s += "\n";
        s += &c_matrix(
            "static const uint8_t decode_matrix[32][32]",
            &self.d.tp.decode_cols,
        );
        s += "\n#endif /* ENCODE_MATRIX_DEFS_H */\n";
        s
    }

    fn gft_h(&self) -> String {
        let mut s = self.banner(
            "gft_mul_s_inv_i_beta_matrix_defs.h",
            "butterfly constants: multiplication by gamma_j, column q = gamma_j * 2^q, row = tower bit",

        );
        s += "#ifndef GFT_MUL_S_INV_I_BETA_MATRIX_DEFS_H\n#define GFT_MUL_S_INV_I_BETA_MATRIX_DEFS_H\n\n#include <stdint.h>\n\n";
        let total = self.d.cfg.l as usize + self.d.gamma_extra.len();
        s += &format!("/* {} */\n", self.d.gamma_extra_note);
        s += &format!("#define FAFFT_GFT_MATRICES {total}\n");
        let has11 = self.d.cfg.l >= 11 || self.d.gamma_extra.iter().any(|g| g.j == 11);
        s += &format!("#define FAFFT_HAVE_GAMMA_11 {}\n\n", u8::from(has11));
        let mut all: Vec<(u32, u32)> = self.d.tp.gammas[1..]
            .iter()
            .enumerate()
            .map(|(i, &g)| (i as u32 + 1, g))
            .collect();
        all.extend(self.d.gamma_extra.iter().map(|g| (g.j, g.value)));
        for (j, g) in all {
            let cols: Vec<u32> = transform::mul_matrix(32, g)
                .cols()
                .iter()
                .map(|&c| c as u32)
                .collect();
            s += &format!("/* gamma_{j} = {} */\n", hex32(g));
            s += &c_matrix(
                &format!("static const uint8_t gft_mul_s_inv_{j}_beta_matrix[32][32]"),
                &cols,
            );
            s += "\n";
        }
        s += "#endif /* GFT_MUL_S_INV_I_BETA_MATRIX_DEFS_H */\n";
        s
    }

    fn s0_h(&self) -> String {
        let mut s = self.banner(
            "btfy_consts_gft.h",
            "beta-independent butterfly table s0_gft[k] = sum_t k_t v_(t+1), k < 2048 ",
        );
        s += "#ifndef BTFY_CONSTS_GFT_H\n#define BTFY_CONSTS_GFT_H\n\n#include <stdint.h>\n\n";
        s += &format!(
            "/* SHA-256 of the 8192 little-endian bytes: {} */\n",
            sha256_words(&self.d.s0_gft)
        );
        s += &c_u32_array_w("static const uint32_t s0_gft[2048]", &self.d.s0_gft, 8, 3);
        s += "\n#endif /* BTFY_CONSTS_GFT_H */\n";
        s
    }

    fn xor_h(&self) -> String {
        let mut s = self.banner(
            "gen_xor_programs.h",
            "straight-line bitsliced XOR programs (word q = bit q of 32 elements) for the gamma_j, Encode and Decode matrices (SLP optimiser)",

        );
        s += &format!(
            "/* programs: {} */\n",
            comment_safe(&self.d.programs_method)
        );
        s += "#ifndef GEN_XOR_PROGRAMS_H\n#define GEN_XOR_PROGRAMS_H\n\n#include <stdint.h>\n\n#define HAVE_GEN_XOR 1\n\n";
        let mut progs: Vec<(u32, u32, &XorProgram)> = self
            .d
            .tp
            .gamma_programs
            .iter()
            .enumerate()
            .map(|(i, p)| (i as u32 + 1, self.d.tp.gammas[i + 1], p))
            .collect();
        progs.extend(
            self.d
                .gamma_extra
                .iter()
                .map(|g| (g.j, g.value, &g.program)),
        );
        for (j, g, p) in progs {
            s += &format!(
                "/* x32 <- gamma_{j} * x32, gamma_{j} = {}: {} XORs */\nstatic inline void gft_mul_gamma_{j}(uint32_t *x32)\n{{\n",
                hex32(g),
                p.xor_count()
            );
            s += &p.c_body("x32", "x32", "    ");
            s += "}\n\n";
        }
        for (name, p, n_in, what) in [
            (
                "encode_xor",
                &self.d.tp.encode,
                32,
                "Encode (all 32 columns)",
            ),
            (
                "encode_trunc_xor",
                &self.d.tp.encode_trunc,
                16,
                "truncated Encode (inputs 0..15, operands of at most N/2 bits)",
            ),
            ("decode_xor", &self.d.tp.decode, 32, "Decode"),
        ] {
            s += &format!(
                "/* {what}: out32[i] = XOR of in32[q] with matrix[i][q] = 1 ({n_in} inputs); {} XORs; in32 == out32 allowed */\nstatic inline void {name}(const uint32_t *in32, uint32_t *out32)\n{{\n",
                p.xor_count()
            );
            s += &p.c_body("in32", "out32", "    ");
            s += "}\n\n";
        }
        s += "#endif /* GEN_XOR_PROGRAMS_H */\n";
        s
    }
}

fn c_u32_array(decl: &str, v: &[u32], per_line: usize) -> String {
    let mut s = format!("{decl} = {{\n");
    for chunk in v.chunks(per_line) {
        s += "    ";
        s += &chunk
            .iter()
            .map(|&x| format!("{x:#010x},"))
            .collect::<Vec<_>>()
            .join(" ");
        s += "\n";
    }
    s += "};\n";
    s
}

fn c_u32_array_w(decl: &str, v: &[u32], per_line: usize, digits: usize) -> String {
    let mut s = format!("{decl} = {{\n");
    for chunk in v.chunks(per_line) {
        s += "    ";
        s += &chunk
            .iter()
            .map(|&x| format!("0x{x:0digits$x},"))
            .collect::<Vec<_>>()
            .join(" ");
        s += "\n";
    }
    s += "};\n";
    s
}

fn c_int_array(decl: &str, v: &[usize]) -> String {
    let mut s = format!("{decl} = {{\n");
    for chunk in v.chunks(8) {
        s += "    ";
        s += &chunk
            .iter()
            .map(|&x| format!("{x:>4},"))
            .collect::<Vec<_>>()
            .join(" ");
        s += "\n";
    }
    s += "};\n";
    s
}

fn c_matrix(decl: &str, cols: &[u32]) -> String {
    let mut s = format!("{decl} = {{\n");
    for i in 0..32 {
        let row: Vec<String> = (0..32).map(|j| ((cols[j] >> i) & 1).to_string()).collect();
        let _ = writeln!(s, "    {{{}}},", row.join(","));
    }
    s += "};\n";
    s
}
