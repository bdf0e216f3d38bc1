//! The counting plugin's instruction classes and the Cortex-M4 cycle estimate on hand-written
//! Thumb-2 snippets (`hqc-verify/board/plugin/tests/snippets.S`) run under QEMU mps2-an386.
//!
//! The snippets are assembled with arm-none-eabi-gcc and the plugin is compiled with the host
//! gcc into `CARGO_TARGET_TMPDIR/m4cycles/`; every snippet `NAME` is one marker pair
//! `pair=NAME:NAME_start:NAME_end`. The expected class counts are read off the snippet source
//! (they are written next to each snippet there), the expected cycles from the rules of
//! docs/m4-timing.md. `decoder_agrees_with_objdump` checks the plugin's decoder on every
//! instruction of the snippets and of the firmware's `bench_mul.elf` (HQC-1 fixture, built with
//! `hqc-verify/board/firmware/Makefile`) against arm-none-eabi-objdump (`hqc-verify/board/plugin/tests/decode_check.py`).
//! The toolchain comes from `scripts/install-board-deps.sh`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use hqc_board::m4cycles::{self, ClassCounts, PluginLog, TimingRules};

const ARCH: [&str; 4] = [
    "-mcpu=cortex-m4",
    "-mthumb",
    "-mfloat-abi=hard",
    "-mfpu=fpv4-sp-d16",
];

fn sources() -> PathBuf {
    hqc_board::built_repo().join(hqc_board::SOURCES_DIR)
}

fn out_dir() -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("m4cycles");
    std::fs::create_dir_all(&d).expect("create test output dir");
    d
}

fn run(cmd: &mut Command, what: &str) -> String {
    let out = cmd.stdin(Stdio::null()).output().unwrap_or_else(|e| {
        panic!("{what}: cannot run {cmd:?}: {e} (toolchain: scripts/install-board-deps.sh)")
    });
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn build_plugin(dir: &Path) -> PathBuf {
    let so = dir.join("libinsncount.so");
    run(
        Command::new("gcc")
            .args([
                "-O2", "-fPIC", "-shared", "-Wall", "-Wextra", "-Werror", "-o",
            ])
            .arg(&so)
            .arg(sources().join("plugin/insncount.c")),
        "plugin build",
    );
    so
}

fn build_snippets(dir: &Path) -> PathBuf {
    let src = sources().join("plugin/tests");
    let elf = dir.join("snippets.elf");
    run(
        Command::new("arm-none-eabi-gcc")
            .args(ARCH)
            .args([
                "-nostdlib",
                "-nostartfiles",
                "-Wl,--no-warn-execstack",
                "-T",
            ])
            .arg(src.join("snippets.ld"))
            .arg(src.join("snippets.S"))
            .arg("-o")
            .arg(&elf),
        "snippet build",
    );
    elf
}

/// `NAME -> (start, end)` from the `NAME_start` / `NAME_end` symbols.
fn markers(elf: &Path) -> Vec<(String, u64, u64)> {
    let text = run(Command::new("arm-none-eabi-nm").arg(elf), "nm");
    let sym = |name: &str| {
        text.lines().find_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() == 3 && f[2] == name)
                .then(|| u64::from_str_radix(f[0], 16).expect("nm address"))
        })
    };
    let mut v = Vec::new();
    for l in text.lines() {
        let f: Vec<&str> = l.split_whitespace().collect();
        if let Some(n) = f.get(2).and_then(|s| s.strip_suffix("_start")) {
            if let (Some(s), Some(e)) = (sym(&format!("{n}_start")), sym(&format!("{n}_end"))) {
                v.push((n.to_string(), s, e));
            }
        }
    }
    v.sort();
    v
}

struct Snippets {
    log: PluginLog,
    markers: Vec<(String, u64, u64)>,
}

/// Builds everything and runs the snippets once with every pair, plus `start=`/`stop=` (region
/// `main`) from `eor10_start` to `loop_end`.
fn snippets() -> &'static Snippets {
    static S: OnceLock<Snippets> = OnceLock::new();
    S.get_or_init(|| {
        let dir = out_dir();
        let so = build_plugin(&dir);
        let elf = build_snippets(&dir);
        let markers = markers(&elf);
        assert!(markers.len() >= 10, "snippet markers: {markers:?}");
        let find = |n: &str| markers.iter().find(|m| m.0 == n).expect("marker");
        let mut arg = format!(
            "{},start={:#x},stop={:#x}",
            so.display(),
            find("eor10").1,
            find("loop").2
        );
        for (n, s, e) in &markers {
            arg.push_str(&format!(",pair={n}:{s:#x}:{e:#x}"));
        }
        let log = dir.join("snippets.plugin");
        let _ = std::fs::remove_file(&log);
        run(
            Command::new("timeout")
                .args(["120", "qemu-system-arm", "-M", "mps2-an386", "-nographic"])
                .args(["-semihosting", "-kernel"])
                .arg(&elf)
                .arg("-plugin")
                .arg(arg)
                .args(["-d", "plugin", "-D"])
                .arg(&log),
            "snippets on QEMU",
        );
        let text = std::fs::read_to_string(&log).expect("plugin log");
        let log = m4cycles::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        Snippets { log, markers }
    })
}

fn classes(name: &str) -> ClassCounts {
    let r = snippets()
        .log
        .region(name, 0)
        .unwrap_or_else(|| panic!("no region {name} #0"));
    r.classes
        .unwrap_or_else(|| panic!("region {name}: no classes line"))
}

/// (snippet, expected classes, expected cycles with TimingRules::TRM)
fn expected() -> Vec<(&'static str, ClassCounts, u64)> {
    let mut all = expected_data();
    all.extend(expected_control());
    all
}

/// The ALU, load/store and floating-point snippets.
fn expected_data() -> Vec<(&'static str, ClassCounts, u64)> {
    let z = ClassCounts::default();
    vec![
        ("eor10", ClassCounts { alu: 10, ..z }, 10),
        (
            "ldm",
            ClassCounts {
                alu: 1,
                ldm: 2,
                ldm_regs: 9,
                stm: 2,
                stm_regs: 9,
                agu: 1,
                ..z
            },
            1 + (1 + 4) + (1 + 5) + (1 + 3) + (1 + 6) + 1,
        ),
        (
            "loop",
            ClassCounts {
                alu: 6,
                br: 5,
                br_taken: 4,
                br_untaken: 1,
                ..z
            },
            6 + 4 * 3 + 1,
        ),
        (
            "call",
            ClassCounts {
                alu: 1,
                br: 1,
                stm: 1,
                stm_regs: 5,
                ldm: 1,
                ldm_regs: 5,
                ldm_pc: 1,
                br_taken: 2,
                ..z
            },
            3 + 6 + 1 + (1 + 5 + 2),
        ),
        (
            "vmov",
            ClassCounts {
                vmov: 4,
                vmov2: 3,
                fpu: 2,
                fmac: 1,
                fdiv: 2,
                ..z
            },
            4 + 3 * 2 + 2 + 3 + 2 * 14,
        ),
        (
            "loads",
            ClassCounts {
                alu: 1,
                ldr: 9,
                ldr_pipe: 4,
                str: 3,
                ldrd: 1,
                strd: 1,
                ldr_lit: 1,
                agu: 1,
                ..z
            },
            1 + (5 * 2 + 4) + 3 + 3 + 3 + 1 + 1,
        ),
        (
            "vls",
            ClassCounts {
                vldr: 2,
                vldr_regs: 3,
                vstr: 1,
                vstr_regs: 1,
                vldm: 2,
                vldm_regs: 8,
                vstm: 2,
                vstm_regs: 8,
                ..z
            },
            (2 + 3) + 2 + 2 * (1 + 4) + 2 * (1 + 4),
        ),
    ]
}

/// The multiply/divide, branch and pipeline-rule snippets.
fn expected_control() -> Vec<(&'static str, ClassCounts, u64)> {
    let z = ClassCounts::default();
    vec![
        (
            "muldiv",
            ClassCounts {
                alu: 2,
                mul: 6,
                div: 2,
                ..z
            },
            2 + 6 + 2 * 12,
        ),
        (
            "brs",
            ClassCounts {
                alu: 9,
                it: 2,
                br: 6,
                tbb: 1,
                ldr_pc: 1,
                br_taken: 6,
                br_untaken: 2,
                agu: 2,
                it_fold: 2,
                ..z
            },
            9 + 2 + 6 + 2 + 2 + 6 * 2 + 2,
        ),
        (
            "xpage",
            ClassCounts {
                ldr: 4,
                ldr_pipe: 3,
                ..z
            },
            4 + 1,
        ),
        (
            "deps",
            ClassCounts {
                alu: 8,
                ldr: 10,
                ldr_pipe: 5,
                ldr_dep: 1,
                ldr_lit: 2,
                str: 6,
                str_reg: 2,
                ldm: 1,
                ldm_regs: 2,
                vldr: 1,
                vldr_regs: 1,
                vmov: 2,
                it: 2,
                it_fold: 1,
                agu: 5,
                ..z
            },
            // alu + it, loads (2 x 10 - 5 pipelined + 1 dependent), stores (6 + 2 with a
            // register offset), LDM 1 + 2, VLDR 1 + 1, VMOV, agu stalls, literal cycles
            (8 + 2) + (2 * 10 - 5 + 1) + (6 + 2) + 3 + 2 + 2 + 5 + 2,
        ),
        (
            "xagu",
            ClassCounts {
                alu: 1,
                ldr: 1,
                agu: 1,
                ..z
            },
            1 + 2 + 1,
        ),
        (
            "xstr",
            ClassCounts {
                ldr: 1,
                str: 1,
                ..z
            },
            2 + 1,
        ),
        (
            "xit",
            ClassCounts {
                alu: 2,
                it: 1,
                it_fold: 1,
                ..z
            },
            3,
        ),
    ]
}

#[test]
fn every_snippet_is_measured() {
    let names: Vec<&str> = snippets().markers.iter().map(|m| m.0.as_str()).collect();
    let mut want: Vec<&str> = expected().iter().map(|e| e.0).collect();
    want.sort();
    assert_eq!(names, want);
}

#[test]
fn snippet_classes_match_the_source() {
    for (name, want, _) in expected() {
        assert_eq!(classes(name), want, "snippet {name}");
        let r = snippets().log.region(name, 0).expect("region");
        assert_eq!(r.instructions, want.instructions(), "snippet {name}");
    }
}

#[test]
fn snippet_cycles_follow_the_rules() {
    for (name, _, cycles) in expected() {
        let c = classes(name);
        assert_eq!(m4cycles::estimate_cycles(&c), cycles, "snippet {name}");
        assert_eq!(
            snippets().log.region(name, 0).and_then(|r| r.cycles()),
            Some(cycles)
        );
        let fast = m4cycles::estimate_cycles_with(&c, &TimingRules::FAST);
        let slow = m4cycles::estimate_cycles_with(&c, &TimingRules::SLOW);
        assert!(fast <= cycles && cycles <= slow, "snippet {name}");
        let v1 = m4cycles::estimate_cycles_with(&c, &TimingRules::V1);
        assert!(v1 <= cycles, "snippet {name}");
    }
}

/// The range ends and the rules before the address rules on the snippets that exercise them,
/// read off the source: `deps` has 1 folded IT and 2 literal loads (FAST: 48 - 1 - 2), and
/// v1 had no `ldr_dep`, `agu`, `str_reg` or literal cycles (48 - 1 - 5 - 2 - 2).
#[test]
fn snippet_range_ends_and_v1() {
    let with = |name: &str, r: &TimingRules| m4cycles::estimate_cycles_with(&classes(name), r);
    assert_eq!(with("deps", &TimingRules::TRM), 48);
    assert_eq!(with("deps", &TimingRules::FAST), 45);
    assert_eq!(with("deps", &TimingRules::SLOW), 48);
    assert_eq!(with("deps", &TimingRules::V1), 38);
    assert_eq!(with("xit", &TimingRules::FAST), 2);
    assert_eq!(with("xagu", &TimingRules::V1), 3);
    // brs: two ITs after a 16-bit CMP fold in FAST (and P = 1: 6 taken branches, 6 cycles less)
    assert_eq!(with("brs", &TimingRules::FAST), 35 - 2 - 6);
}

#[test]
fn start_stop_region_and_totals_are_consistent() {
    let log = &snippets().log;
    // main runs from eor10_start to loop_end: the eor10, ldm and loop snippets
    let main = log.region("main", 0).expect("main region");
    let sum = classes("eor10").add(&classes("ldm")).add(&classes("loop"));
    assert_eq!(main.classes, Some(sum));
    assert_eq!(main.instructions, sum.instructions());
    let total = log.total.expect("total line");
    let tc = log.total_classes.expect("classes total line");
    assert_eq!(tc.instructions(), total);
    // the whole program holds every snippet
    let mut all = ClassCounts::default();
    for (name, _, _) in expected() {
        all = all.add(&classes(name));
    }
    assert!(total > all.instructions());
    for ((k, t), (_, a)) in tc.entries().into_iter().zip(all.entries()) {
        assert!(t >= a, "{k}: total {t} < snippets {a}");
    }
    assert!(log.notes.is_empty(), "{:?}", log.notes);
}

#[test]
fn decoder_agrees_with_objdump() {
    let dir = out_dir();
    let tests = sources().join("plugin/tests");
    let dec = dir.join("decode_host");
    run(
        Command::new("gcc")
            .args(["-O1", "-Wall", "-Wextra", "-Werror", "-o"])
            .arg(&dec)
            .arg(tests.join("decode_host.c")),
        "decoder harness build",
    );
    // its own folder: the other tests build snippets.elf in `dir` at the same time
    let odir = dir.join("objdump");
    std::fs::create_dir_all(&odir).expect("create dir");
    let elf = build_snippets(&odir);
    let fw = dir.join("fw");
    let bench = fw.join("bench_mul.elf");
    run(
        Command::new("make")
            .arg("-s")
            .arg("-C")
            .arg(sources().join("firmware"))
            .arg(format!("BUILD={}", fw.display()))
            .arg(&bench),
        "firmware build (bench_mul.elf, HQC-1 fixture)",
    );
    let out = run(
        Command::new("python3")
            .arg(tests.join("decode_check.py"))
            .arg(&dec)
            .arg(&elf)
            .arg(&bench),
        "decode_check.py",
    );
    // one summary line per file, each with its instruction count and no disagreement
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    for l in lines {
        assert!(l.contains(" 0 disagreements"), "{l}");
    }
}
