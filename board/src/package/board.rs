//! The package's board harness (docs/pqm4.md): its sources compiled as pqm4 compiles them
//! (the flags of pqm4's `mps2-an386` setting, `-O3`, hard-float ABI), linked with the harness
//! `hqc-verify/pqm4/board/pqm4_harness.c` and the board start-up of `board/firmware/`, run
//! under QEMU mps2-an386 with the instruction-counting plugin. It reports, per operation,
//! instructions, estimated cycles ([`crate::m4cycles`]) and peak stack (painting), the
//! package's code size and static RAM, checks the KAT entries against the board pins and
//! pqm4's functional test, compares the instruction and data-address traces of enc and dec
//! regions with different secrets ([`CtFigures`]), and builds the sources once more with the
//! NUCLEO-L4R5ZI settings (build only; the linker script caps the image to that board's 2 MiB
//! flash and 640 KiB SRAM).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use thiserror::Error;

use hqc_verify::core::params::{Flavour, Level};

use super::readout::kat_matches;
pub use super::readout::{ct_groups, op_figures, render_text};

/// Flags of pqm4's build common to both settings (mupq/mk/config.mk, mk/config.mk, the
/// Cortex-M4 ARCH_FLAGS of mk/mps2-an386.mk and of the stm32l4 genlink data).
pub const PQM4_CFLAGS: [&str; 15] = [
    "-mcpu=cortex-m4",
    "-mthumb",
    "-mfloat-abi=hard",
    "-mfpu=fpv4-sp-d16",
    "-std=gnu99",
    "-O3",
    "-g3",
    "-Wall",
    "-Wextra",
    "-Wshadow",
    "-fno-common",
    "-DPQM4",
    "-DMUPQ",
    "-DMUPQ_NAMESPACE=",
    "-DMUPQ_ITERATIONS=1",
];
/// The `mps2-an386` setting's own definitions.
pub const MPS2_FLAGS: [&str; 1] = ["-DMPS2_AN386"];
/// The `nucleo-l4r5zi` setting's own definitions (libopencm3 genlink of stm32l4r5zi).
pub const NUCLEO_FLAGS: [&str; 2] = ["-DSTM32L4", "-DSTM32L4R5ZI"];

const HARNESS_C: &str = include_pqm4!("board/pqm4_harness.c");
const RANDOMBYTES_H: &str = include_pqm4!("host/randombytes.h");
const BOARD_C: &str = include_source!("firmware/board.c");
const PLATFORM_C: &str = include_source!("firmware/platform_common.c");
const PLATFORM_H: &str = include_source!("firmware/platform.h");
const LINK_LD: &str = include_source!("firmware/link.ld");
const PLUGIN_C: &str = include_source!("plugin/insncount.c");
const PLUGIN_DECODE_H: &str = include_source!("plugin/thumb2_decode.h");

/// Why the harness could not run (a failed check is not an error: it is in the report).
#[derive(Debug, Error)]
pub enum HarnessError {
    /// A program that cannot be started.
    #[error(
        "cannot start {program}: {source} (scripts/install-board-deps.sh installs the board tools)"
    )]
    Spawn {
        /// The program.
        program: String,
        /// The error.
        #[source]
        source: std::io::Error,
    },
    /// A build step that failed.
    #[error("{what} failed:\n{log}")]
    Build {
        /// The step.
        what: String,
        /// The tail of its output.
        log: String,
    },
    /// A file that cannot be written or read.
    #[error("cannot {action} {path}: {source}")]
    Io {
        /// What was attempted.
        action: &'static str,
        /// The path.
        path: PathBuf,
        /// The error.
        #[source]
        source: std::io::Error,
    },
    /// The run's output cannot be read.
    #[error("{0}")]
    Output(String),
}

fn io(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> HarnessError {
    let path = path.to_path_buf();
    move |source| HarnessError::Io {
        action,
        path,
        source,
    }
}

/// Figures of one operation on the board.
#[derive(Clone, Debug, serde::Serialize, PartialEq, Eq)]
pub struct OpFigures {
    /// `fafft_init`, `keypair`, `enc` or `dec`.
    pub op: String,
    /// Executed instructions (QEMU plugin).
    pub instructions: u64,
    /// Estimated Cortex-M4 cycles (docs/m4-timing.md).
    pub est_cycles: u64,
    /// Peak stack in bytes (painting).
    pub stack_bytes: u64,
}

/// Sizes of the package's objects (arm-none-eabi-size, Berkeley format).
#[derive(Clone, Copy, Debug, Default, serde::Serialize, PartialEq, Eq)]
pub struct Sizes {
    /// .text (code and read-only data).
    pub text: u64,
    /// .data.
    pub data: u64,
    /// .bss.
    pub bss: u64,
}

/// The constant-time trace comparison (the `-DCT_CHECK` image, plugin trace mode): regions
/// that must execute the same instruction addresses and touch the same data addresses.
#[derive(Clone, Debug, Default, serde::Serialize, PartialEq, Eq)]
pub struct CtFigures {
    /// enc regions traced (two messages, one key).
    pub enc_regions: usize,
    /// All enc traces identical.
    pub enc_identical: bool,
    /// dec regions traced (honest, flipped bit in u, flipped bits in v, random ciphertext).
    pub dec_regions: usize,
    /// All dec traces identical.
    pub dec_identical: bool,
}

/// The harness report.
#[derive(Clone, Debug, serde::Serialize)]
pub struct HarnessReport {
    /// The package folder.
    pub dir: String,
    /// Level and flavour.
    pub level: String,
    /// KAT flavour.
    pub flavour: String,
    /// Per operation (the first is the multiplier's one-time set-up).
    pub ops: Vec<OpFigures>,
    /// Package objects built with the mps2-an386 flags.
    pub sizes: Sizes,
    /// KAT entries checked against the board pins, and how many matched.
    pub kat_checked: usize,
    /// KAT entries that matched.
    pub kat_matched: usize,
    /// The functional test's verdict lines that said OK, and all of them.
    pub tests_ok: usize,
    /// All functional-test verdicts.
    pub tests_total: usize,
    /// The harness's exit status (0: every check on the board passed).
    pub exit_status: i32,
    /// The package objects also built with the NUCLEO-L4R5ZI flags and linked into an
    /// image within 2 MiB flash / 640 KiB SRAM.
    pub nucleo_build: bool,
    /// Compiler warnings of the package sources (mps2-an386 build).
    pub warnings: usize,
    /// The constant-time trace comparison.
    pub ct: CtFigures,
    /// Everything passed.
    pub passed: bool,
}

/// Runs the harness on the package folder `dir` (written for `level`, `flavour`), building in
/// `build`, with `kat_count` KAT entries; `timeout` seconds for the QEMU run.
pub fn run(
    dir: &Path,
    level: Level,
    flavour: Flavour,
    build: &Path,
    kat_count: usize,
    timeout: u64,
) -> Result<HarnessReport, HarnessError> {
    fs::create_dir_all(build).map_err(io("create", build))?;
    let support = build.join("support");
    write_support(&support)?;
    let (objs, warnings) = compile_package(dir, &support, &build.join("mps2"), &MPS2_FLAGS)?;
    let sizes = object_sizes(&objs)?;
    let link = |defines: &[String], name: &str| {
        link_harness(dir, &support, build, &objs, &MPS2_FLAGS, defines, name)
    };
    let elf = link(&[format!("-DKAT_COUNT={kat_count}")], "harness")?;
    let ct_elf = link(&["-DCT_CHECK".into()], "ct")?;
    let (nucleo_objs, _) = compile_package(dir, &support, &build.join("nucleo"), &NUCLEO_FLAGS)?;
    let nucleo_build = link_harness(
        dir,
        &support,
        build,
        &nucleo_objs,
        &NUCLEO_FLAGS,
        &[],
        "nucleo",
    )
    .is_ok();
    let plugin = build_plugin(&support)?;
    let (stdout, log, status) = run_qemu(&elf, &plugin, build, timeout, false)?;
    let (ct_out, ct_log, _) = run_qemu(&ct_elf, &plugin, build, timeout, true)?;
    let ct = ct_groups(&ct_out, &ct_log)?;
    let ops = op_figures(&stdout, &log)?;
    let (kat_checked, kat_matched) = kat_matches(&stdout, level, flavour)?;
    let verdicts: Vec<&str> = stdout.lines().filter(|l| l.starts_with("test ")).collect();
    let tests_ok = verdicts.iter().filter(|l| l.ends_with(" OK")).count();
    let passed = status == 0
        && kat_matched == kat_checked
        && kat_checked == kat_count
        && tests_ok == verdicts.len()
        && ct.enc_identical
        && ct.dec_identical
        && !verdicts.is_empty()
        && nucleo_build;
    Ok(HarnessReport {
        dir: dir.display().to_string(),
        level: level.name().into(),
        flavour: flavour.name().into(),
        ops,
        sizes,
        kat_checked,
        kat_matched,
        tests_ok,
        tests_total: verdicts.len(),
        exit_status: status,
        nucleo_build,
        warnings,
        ct,
        passed,
    })
}

fn write_support(support: &Path) -> Result<(), HarnessError> {
    fs::create_dir_all(support).map_err(io("create", support))?;
    for (name, text) in [
        ("pqm4_harness.c", HARNESS_C),
        ("randombytes.h", RANDOMBYTES_H),
        ("board.c", BOARD_C),
        ("platform_common.c", PLATFORM_C),
        ("platform.h", PLATFORM_H),
        ("link.ld", LINK_LD),
        ("insncount.c", PLUGIN_C),
        ("thumb2_decode.h", PLUGIN_DECODE_H),
    ] {
        let p = support.join(name);
        fs::write(&p, text).map_err(io("write", &p))?;
    }
    Ok(())
}

/// Runs `cmd`; its combined output, or an error naming `what` with the output's tail.
fn checked(cmd: &mut Command, what: &str) -> Result<String, HarnessError> {
    let program = cmd.get_program().to_string_lossy().into_owned();
    let out = cmd
        .stdin(Stdio::null())
        .output()
        .map_err(|source| HarnessError::Spawn { program, source })?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    if !out.status.success() {
        let tail: Vec<&str> = text.lines().rev().take(20).collect();
        let log = tail.into_iter().rev().collect::<Vec<_>>().join("\n");
        return Err(HarnessError::Build {
            what: what.into(),
            log,
        });
    }
    Ok(text)
}

/// Every .c and .S of the package, each compiled to an object as pqm4 would (the include
/// path of the framework's headers is the support folder's randombytes.h).
fn compile_package(
    dir: &Path,
    support: &Path,
    objdir: &Path,
    setting: &[&str],
) -> Result<(Vec<PathBuf>, usize), HarnessError> {
    fs::create_dir_all(objdir).map_err(io("create", objdir))?;
    let mut srcs: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(io("read", dir))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension()
                .is_some_and(|x| x == "c" || x == "S" || x == "s")
        })
        .collect();
    srcs.sort();
    let mut objs = Vec::new();
    let mut warnings = 0;
    for src in &srcs {
        let name = src
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let obj = objdir.join(format!("{name}.o"));
        let text = checked(
            Command::new("arm-none-eabi-gcc")
                .args(PQM4_CFLAGS)
                .args(setting)
                .arg(format!("-I{}", dir.display()))
                .arg(format!("-I{}", support.display()))
                .arg("-c")
                .arg(src)
                .arg("-o")
                .arg(&obj),
            &format!("compiling {name}"),
        )?;
        warnings += text.matches("warning:").count();
        objs.push(obj);
    }
    Ok((objs, warnings))
}

fn object_sizes(objs: &[PathBuf]) -> Result<Sizes, HarnessError> {
    let text = checked(
        Command::new("arm-none-eabi-size").arg("-B").args(objs),
        "arm-none-eabi-size",
    )?;
    let mut s = Sizes::default();
    for line in text.lines().skip(1) {
        let f: Vec<u64> = line
            .split_whitespace()
            .take(3)
            .filter_map(|x| x.parse().ok())
            .collect();
        if let [t, d, b] = f[..] {
            s.text += t;
            s.data += d;
            s.bss += b;
        }
    }
    Ok(s)
}

#[allow(clippy::too_many_arguments)]
fn link_harness(
    dir: &Path,
    support: &Path,
    build: &Path,
    objs: &[PathBuf],
    setting: &[&str],
    defines: &[String],
    name: &str,
) -> Result<PathBuf, HarnessError> {
    let elf = build.join(format!("{name}.elf"));
    checked(
        Command::new("arm-none-eabi-gcc")
            .args(PQM4_CFLAGS)
            .args(setting)
            .args(defines)
            .arg(format!("-I{}", dir.display()))
            .arg(format!("-I{}", support.display()))
            .args([
                "-nostdlib",
                "-nostartfiles",
                "-Wl,--gc-sections",
                "-Wl,--no-warn-execstack",
            ])
            .arg(format!("-T{}", support.join("link.ld").display()))
            .arg(support.join("pqm4_harness.c"))
            .arg(support.join("board.c"))
            .arg(support.join("platform_common.c"))
            .args(objs)
            .args(["-lc", "-lgcc", "-o"])
            .arg(&elf),
        &format!("linking the {name} image"),
    )?;
    Ok(elf)
}

fn build_plugin(support: &Path) -> Result<PathBuf, HarnessError> {
    let so = support.join("libinsncount.so");
    checked(
        Command::new("gcc")
            .args(["-O2", "-fPIC", "-shared", "-Wall", "-o"])
            .arg(&so)
            .arg(support.join("insncount.c")),
        "building the instruction-counting plugin",
    )?;
    Ok(so)
}

fn symbol(elf: &Path, name: &str) -> Result<String, HarnessError> {
    let text = checked(
        Command::new("arm-none-eabi-nm").arg(elf),
        "arm-none-eabi-nm",
    )?;
    text.lines()
        .find_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() == 3 && f[2] == name).then(|| format!("0x{}", f[0]))
        })
        .ok_or_else(|| HarnessError::Output(format!("{}: no {name} symbol", elf.display())))
}

/// QEMU with the plugin on the markers; (stdout, plugin log, exit status).
fn run_qemu(
    elf: &Path,
    plugin: &Path,
    build: &Path,
    timeout: u64,
    trace: bool,
) -> Result<(String, String, i32), HarnessError> {
    let start = symbol(elf, "bench_start")?;
    let stop = symbol(elf, "bench_stop")?;
    let log = build.join("plugin.log");
    let _ = fs::remove_file(&log);
    let out = Command::new("timeout")
        .arg(timeout.to_string())
        .args([
            "qemu-system-arm",
            "-M",
            "mps2-an386",
            "-display",
            "none",
            "-monitor",
            "none",
        ])
        .args(["-serial", "none", "-chardev", "stdio,id=sh0"])
        .args(["-semihosting-config", "enable=on,target=native,chardev=sh0"])
        .arg("-plugin")
        .arg(format!(
            "{},start={start},stop={stop}{}",
            plugin.display(),
            if trace { ",trace=1" } else { "" }
        ))
        .args(["-d", "plugin", "-D"])
        .arg(&log)
        .arg("-kernel")
        .arg(elf)
        .stdin(Stdio::null())
        .output()
        .map_err(|source| HarnessError::Spawn {
            program: "qemu-system-arm".into(),
            source,
        })?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let name = if trace { "ct.out" } else { "harness.out" };
    fs::write(build.join(name), &stdout).map_err(io("write", build))?;
    let text = fs::read_to_string(&log).map_err(io("read", &log))?;
    Ok((stdout, text, out.status.code().unwrap_or(-1)))
}
