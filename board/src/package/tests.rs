//! Unit tests of the pqm4 package.

use super::*;

/// The package's `NAME_nosave.S` wrappers make the same three definitions as the board
/// Makefile's `NOSAVE` rule.
#[test]
fn nosave_wrapper_matches_the_makefile_rule() {
    let mk = include_source!("firmware/Makefile");
    let rule = mk
        .lines()
        .find(|l| l.starts_with("NOSAVE = "))
        .expect("the Makefile defines NOSAVE");
    assert!(rule.contains("-D$(1)=$(1)_nosave"), "{rule}");
    assert!(rule.contains("'-Dvpush=sub sp, sp, \\#64 @'"), "{rule}");
    assert!(rule.contains("'-Dvpop=add sp, sp, \\#64 @'"), "{rule}");
    let w = nosave_wrapper("gft_mul_s_inv_3_beta");
    assert!(w.contains("#define gft_mul_s_inv_3_beta gft_mul_s_inv_3_beta_nosave\n"));
    assert!(w.contains("#define vpush sub sp, sp, #64 @\n"));
    assert!(w.contains("#define vpop add sp, sp, #64 @\n"));
    assert!(w.ends_with("#include \"gft_mul_s_inv_3_beta.S\"\n"));
}

/// Every header `fafft.c` and its stage files include with quotes is one the package writes
/// (`platform.h` only under `FAFFT_BENCH_STAGES`, which the package never sets).
#[test]
fn fafft_c_includes_are_in_the_package() {
    let written: Vec<&str> = TEMPLATES
        .iter()
        .map(|(n, _)| *n)
        .chain(EXPORT_HEADERS)
        .chain(["fafft.h", "bs_sub10.h", "bs_tower_gen.h", "platform.h"])
        .chain(FAFFT_STAGES.iter().map(|(n, _)| *n))
        .collect();
    let stages = FAFFT_STAGES.iter().flat_map(|(_, t)| t.lines());
    for line in FAFFT_C.lines().chain(stages) {
        if let Some(rest) = line.trim().strip_prefix("#include \"") {
            let name = rest.split('"').next().unwrap_or_default();
            assert!(
                written.contains(&name),
                "fafft.c includes {name}, not in the package"
            );
        }
    }
}

/// The package carries exactly the kernels the firmware links (`KERNEL_OBJ` of its Makefile).
#[test]
fn kernels_are_the_firmware_makefiles() {
    let mk = include_source!("firmware/Makefile");
    let line = mk
        .lines()
        .find(|l| l.starts_with("KERNEL_OBJ"))
        .unwrap_or_default();
    let mut from_make: Vec<String> = line
        .split_whitespace()
        .filter_map(|w| w.strip_prefix("$(BUILD)/kern/"))
        .map(|w| w.replace(".o", ".S"))
        .collect();
    let mut ours: Vec<String> = FIRMWARE_KERNELS
        .iter()
        .map(|(n, _)| n.to_string())
        .collect();
    from_make.sort();
    ours.sort();
    assert!(!ours.is_empty());
    assert_eq!(ours, from_make);
}

#[test]
fn api_sizes_are_the_core_sizes() {
    let t = api_h(Level::Hqc1);
    assert!(t.contains("#define CRYPTO_SECRETKEYBYTES 2321\n"));
    assert!(t.contains("#define CRYPTO_PUBLICKEYBYTES 2241\n"));
    assert!(t.contains("#define CRYPTO_CIPHERTEXTBYTES 4433\n"));
    assert!(t.contains("\"HQC-1\""));
    assert!(api_h(Level::Hqc5).contains("#define CRYPTO_CIPHERTEXTBYTES 14421\n"));
}

#[test]
fn fafft_preamble_follows_the_export() {
    let a = fafft_c(true, true);
    assert!(a.contains("#define FAFFT_ASM_ROUTINES 1") && a.contains("#define GEN_XOR_INOUT 1"));
    assert!(a.ends_with(FAFFT_C));
    let b = fafft_c(false, false);
    assert!(!b.contains("#define FAFFT_ASM_ROUTINES") && !b.contains("#define GEN_XOR_INOUT"));
}
