//! What the firmware can build: the rules a plan must meet before `search crt --measure`
//! exports it ([`not_buildable`]), the export flags of a plan ([`export_split`],
//! [`export_second`], [`export_c`]) and the firmware's Karatsuba scratch ([`kara_scratch`]).

use crate::crt_plan::{Plan, PlanKind};

/// Transform sizes the firmware builds (the one definition, `fafft_config::rules`).
pub use fafft_config::rules::FIRMWARE_L;

/// Least words of the firmware's Karatsuba scratch (`8 * KARA_MAX`, `KARA_MAX = 192`, in
/// `hqc-verify/board/firmware/fafft/fafft.c`).
pub const KARA_SCRATCH_WORDS: u64 = 8 * 192;

/// Words of the firmware's Karatsuba scratch for a residue ring of `c_words` words
/// (`KSCRATCH_WORDS` in `hqc-verify/board/firmware/fafft/fafft.c`: at least
/// [`KARA_SCRATCH_WORDS`], and 4 words per residue word, which bounds [`kara_scratch`]).
pub fn kara_scratch_words(c_words: u64) -> u64 {
    KARA_SCRATCH_WORDS.max(4 * c_words)
}

/// Why a plan cannot be built by the board firmware (None: buildable).
pub fn not_buildable(p: &Plan, m: u32) -> Option<String> {
    match p.kind {
        PlanKind::TwoModuli => {
            // The firmware's two-moduli driver (fafft/twomod.c, docs/firmware-layout.md §14)
            // takes the second modulus from the export (params.json `second`); the rule is the
            // exporter's, coprimality and β2 are checked when it derives.
            let (Some(t1), Some(t2)) = (p.transforms.first(), p.transforms.get(1)) else {
                return Some("a two-moduli plan without its two transforms".into());
            };
            let beta2 = match fafft_config::beta::parse_u32(&t2.beta) {
                Ok(b) => b,
                Err(e) => return Some(format!("second modulus beta {}: {e}", t2.beta)),
            };
            let second = fafft_config::rules::Second {
                l: t2.l,
                beta: beta2,
            };
            // the planner's plans satisfy N1 + N2 >= 2n - 1; the rest of the rule needs no n
            // (n = (N1 + N2 + 1) / 2 is the largest the pair holds)
            let n_max = (t1.n_bits + t2.n_bits).div_ceil(2);
            if let Err(e) = fafft_config::rules::check_second(&second, m, t1.l, n_max, 0, None) {
                return Some(format!(
                    "the second modulus l = {}, beta = {}: {e}",
                    t2.l, t2.beta
                ));
            }
        }
        PlanKind::Karatsuba2 => {
            // The firmware's split driver (split_product in fafft.c) takes k and the residual
            // size from the export (params.json `split`); the rule is the exporter's.
            let Some(s) = &p.split else {
                return Some("a karatsuba2 plan without its split (k, residual words)".into());
            };
            let big_n = p.transforms[0].n_bits;
            let split = fafft_config::rules::Split {
                k: s.k,
                residual_words: s.residual_words,
            };
            let n = s.k + s.residual_bits;
            if let Err(e) = fafft_config::rules::check_split(&split, n, big_n, 0) {
                return Some(format!(
                    "the 2-Karatsuba split k = {}, {} residual words: {e}",
                    s.k, s.residual_words
                ));
            }
        }
        PlanKind::Single | PlanKind::Residue => {}
    }
    if m != 32 {
        return Some(format!("m = {m}: the firmware's field is the m = 32 tower"));
    }
    let l = p.transforms[0].l;
    if !FIRMWARE_L.contains(&l) {
        return Some(format!(
            "l = {l}: the firmware builds l in {}..={} (hqc-verify/board/firmware/fafft/fafft.h)",
            FIRMWARE_L.start(),
            FIRMWARE_L.end()
        ));
    }
    // (a karatsuba2 plan's c is its residual size; the firmware sizes that scratch itself; a
    // two-moduli plan's c is N2 and it has no residue ring)
    if p.c > 0 && p.kind != PlanKind::Karatsuba2 && p.kind != PlanKind::TwoModuli {
        let need = kara_scratch(p.c / 32);
        let have = kara_scratch_words(p.c / 32);
        if need > have {
            return Some(format!(
                "c = {}: the firmware's Karatsuba needs {need} scratch words for {} words, it has {have} (kscratch in hqc-verify/board/firmware/fafft/fafft.c)",
                p.c,
                p.c / 32
            ));
        }
    }
    None
}

/// The split a plan is exported with (`search export --split-k K --split-words W`): Some for
/// a karatsuba2 plan.
pub fn export_split(p: &Plan) -> Option<fafft_config::rules::Split> {
    p.split.as_ref().map(|s| fafft_config::rules::Split {
        k: s.k,
        residual_words: s.residual_words,
    })
}

/// The second modulus a plan is exported with (`search export --second-l L --second-beta B`):
/// Some for a two-moduli plan (its second transform).
pub fn export_second(p: &Plan) -> Option<fafft_config::rules::Second> {
    if p.kind != PlanKind::TwoModuli {
        return None;
    }
    let t2 = p.transforms.get(1)?;
    let beta = fafft_config::beta::parse_u32(&t2.beta).ok()?;
    Some(fafft_config::rules::Second { l: t2.l, beta })
}

/// The residue size a plan is exported with: 0 for a karatsuba2 plan (its `c` is the
/// residual's size, and a split export has no residue ring) and for a two-moduli plan (its `c`
/// is N2), else the plan's c.
pub fn export_c(p: &Plan) -> u64 {
    if p.kind == PlanKind::Karatsuba2 || p.kind == PlanKind::TwoModuli {
        0
    } else {
        p.c
    }
}

fn kara_full_scratch(n: u64) -> u64 {
    if n <= 3 || n % 2 == 1 {
        0
    } else {
        2 * n + kara_full_scratch(n / 2)
    }
}

/// Scratch words of the firmware's `kara_low` on n words.
pub fn kara_scratch(n: u64) -> u64 {
    if n >= 6 && n.is_multiple_of(3) {
        // kara_low3: as, bs, m, s, lw (7t words), then a full or a truncated t-word product
        let t = n / 3;
        return 7 * t + kara_full_scratch(t).max(kara_scratch(t));
    }
    if n <= 3 || n % 2 == 1 {
        0
    } else {
        2 * n + kara_full_scratch(n / 2).max(kara_scratch(n / 2))
    }
}
