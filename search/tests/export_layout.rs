//! `search export --layout artifact`: the drop-in file set of the published artifact.

mod common;

use algebra::bitmatrix::BitMatrix;
use common::export_files::{export_dir, hqc1, read_text};
use fafft_config::export::{artifact_routine_names, Layout};
use fafft_config::routines::{sim, Matrix};
use fafft_config::transform::{self, Chain};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use search::export::{self, ExportConfig};
use std::path::Path;

fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
    for e in std::fs::read_dir(dir).expect("read dir") {
        let p = e.expect("entry").path();
        if p.is_dir() {
            walk(root, &p, out);
        } else {
            let rel = p.strip_prefix(root).expect("prefix");
            out.push(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}

fn have_arm_gcc() -> bool {
    std::process::Command::new("arm-none-eabi-gcc")
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// `--layout artifact`: exactly the drop-in files, ASCII, every one in `files`, verify passes,
/// the headers and routines compile for the Cortex-M4, and each routine computes its matrix in
/// the Thumb-2 simulator (the lightest HQC-1 β is not in V_21: γ_11 is the placeholder).
#[test]
fn artifact_layout_is_the_drop_in_set() {
    let dir = export_dir("artifact");
    let out = dir.join("hqc1-lightest-artifact");
    let cfg = ExportConfig {
        beta: 0x0028_b51f,
        chain: Chain::Default,
        split: None,
        second: None,
        ..hqc1()
    };
    // the cheap programs and routines (`--quick`): the file set does not depend on them
    let e = export::export_effort(
        &cfg,
        &out,
        false,
        Layout::Artifact,
        false,
        &export::Effort::quick(),
    )
    .expect("export");
    let got = check_file_set(&out);
    check_listed_and_ascii(&out, &e, &got);
    check_verify_and_tamper(&out);
    check_routines_in_the_simulator(&out, &e);
    compile_for_the_cortex_m4(&dir, &out, &got);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Exactly the drop-in files, none that would clash with the firmware; returns them.
fn check_file_set(out: &Path) -> Vec<String> {
    let mut got = Vec::new();
    walk(out, out, &mut got);
    got.sort();
    let mut want: Vec<String> = vec![
        "README.md".into(),
        "gen/IL_defs.h".into(),
        "gen/encode_matrix_defs.h".into(),
        "gen/gft_mul_s_inv_i_beta_matrix_defs.h".into(),
        "gen/minpoly_mods_defs.h".into(),
        "params.json".into(),
    ];
    let names = artifact_routine_names();
    assert_eq!(names.len(), 13);
    want.extend(names.iter().map(|n| format!("m4f/{n}.S")));
    want.sort();
    assert_eq!(got, want);
    for f in [
        "btfy_consts_gft.h",
        "fafft_params.h",
        "gen/btfy_consts_gft.h",
    ] {
        assert!(
            !got.iter().any(|g| g == f),
            "{f} would clash with the firmware"
        );
    }
    got
}

/// Every file but params.json in `files`, ASCII; IL_defs.h does not include fafft_params.h.
fn check_listed_and_ascii(out: &Path, e: &export::Export, got: &[String]) {
    let params = &e.rendered.params;
    let listed: Vec<String> = params.files.keys().cloned().collect();
    let mut others: Vec<String> = got
        .iter()
        .filter(|f| *f != "params.json")
        .cloned()
        .collect();
    others.sort();
    assert_eq!(listed, others);
    for f in got {
        let bytes = std::fs::read(out.join(f)).expect("read");
        assert!(bytes.is_ascii(), "{f} is not ASCII");
    }
    let il = read_text(out, "gen/IL_defs.h");
    assert!(!il.contains("#include \"fafft_params.h\""));
}

/// Reload and verify; a changed routine is caught.
fn check_verify_and_tamper(out: &Path) {
    // reload and verify (detects the layout from `files`)
    let loaded = fafft_config::spec::load(&out.join("params.json")).expect("load");
    loaded.verify().expect("verify");
    // a changed routine is caught
    let r1 = out.join("m4f/gft_mul_s_inv_1_beta.S");
    let orig = std::fs::read_to_string(&r1).expect("read");
    std::fs::write(&r1, orig.replace("eor", "orr")).expect("write");
    assert!(fafft_config::spec::load(&out.join("params.json"))
        .expect("load")
        .verify()
        .is_err());
    std::fs::write(&r1, &orig).expect("write");
}

/// Each routine on its matrix in the simulator (γ_11 is the placeholder).
fn check_routines_in_the_simulator(out: &Path, e: &export::Export) {
    let d = &e.derived;
    assert!(d.routines.iter().all(|r| r.matrix != Matrix::Gamma(11)));
    let p11 = read_text(out, "m4f/gft_mul_s_inv_11_beta.S");
    assert!(p11.contains("PLACEHOLDER") && p11.contains("udf #11"));
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for j in 1..=10u32 {
        let text = read_text(out, &format!("m4f/gft_mul_s_inv_{j}_beta.S"));
        let m = transform::mul_matrix(32, d.tp.gammas[j as usize]);
        check_routine(&text, &format!("gft_mul_s_inv_{j}_beta"), &m, &mut rng);
    }
    check_routine(
        &read_text(out, "m4f/encode_to_gft_full_length.S"),
        "encode_to_gft_full_length",
        &d.tp.encode_matrix(),
        &mut rng,
    );
    check_routine(
        &read_text(out, "m4f/decode_from_gft_full_length.S"),
        "decode_from_gft_full_length",
        &d.tp.decode_matrix(),
        &mut rng,
    );
}

/// One routine on random inputs in the simulator against its matrix, lane by lane.
fn check_routine(text: &str, name: &str, m: &BitMatrix, rng: &mut ChaCha8Rng) {
    for _ in 0..4 {
        let input: Vec<u32> = (0..32).map(|_| rng.gen()).collect();
        let outw = sim::run(text, name, &input, 32).expect("simulate");
        for lane in 0..32 {
            let x = (0..32).fold(0u64, |acc, q| {
                acc | (u64::from((input[q] >> lane) & 1) << q)
            });
            let y = m.apply(x);
            for (i, o) in outw.iter().enumerate() {
                assert_eq!(
                    u64::from((o >> lane) & 1),
                    (y >> i) & 1,
                    "{name} output {i}"
                );
            }
        }
    }
}

/// Compile for the Cortex-M4: every .S, every header on its own (skipped without
/// arm-none-eabi-gcc).
fn compile_for_the_cortex_m4(dir: &Path, out: &Path, got: &[String]) {
    if !have_arm_gcc() {
        eprintln!("arm-none-eabi-gcc not found: compile checks skipped");
        return;
    }
    let arch = [
        "-mcpu=cortex-m4",
        "-mthumb",
        "-mfloat-abi=hard",
        "-mfpu=fpv4-sp-d16",
    ];
    for f in got.iter().filter(|f| f.ends_with(".S")) {
        let o = dir.join("x.o");
        let st = std::process::Command::new("arm-none-eabi-gcc")
            .args(arch)
            .arg("-c")
            .arg(out.join(f))
            .arg("-o")
            .arg(&o)
            .status()
            .expect("gcc");
        assert!(st.success(), "{f} does not assemble");
    }
    for f in got.iter().filter(|f| f.ends_with(".h")) {
        let c = dir.join("inc.c");
        std::fs::write(&c, format!("#include \"{f}\"\nint x;\n")).expect("write");
        let st = std::process::Command::new("arm-none-eabi-gcc")
            .args(arch)
            .args(["-std=gnu11", "-Wall", "-c", "-I"])
            .arg(out)
            .arg(&c)
            .arg("-o")
            .arg(dir.join("inc.o"))
            .status()
            .expect("gcc");
        assert!(st.success(), "{f} does not compile on its own");
    }
}
