//! keccak_f1600.S is what gen_keccak.py prints (the committed routine is generated).

use std::process::Command;

#[test]
fn committed_routine_is_the_generator_output() {
    let here = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("python3")
        .arg(format!("{here}/gen_keccak.py"))
        .output()
        .expect("python3 runs gen_keccak.py");
    assert!(out.status.success(), "gen_keccak.py failed");
    let committed = std::fs::read(format!("{here}/keccak_f1600.S")).expect("keccak_f1600.S");
    assert!(
        out.stdout == committed,
        "keccak_f1600.S differs from `python3 gen_keccak.py` (regenerate it)"
    );
}
