//! Comparing the traced instances of each region, and naming the first difference.

use std::collections::BTreeMap;
use std::path::Path;

use super::driver::{parse_cases, run_driver};
use super::symbols::Symbols;
use super::trace::{
    dump_file, first_divergence, hash_insns, hash_mems, read_dump, MemAccess, TraceLine,
};
use super::{
    choose_cases, progress, BoardError, CaseChoice, CtCase, CtFlavour, CtOptions, CtRegion,
    Divergence, Site,
};
use crate::export_input::Config;
use crate::paths::Paths;
use crate::runs::{exit_meaning, tail};
use hqc_verify::core::params::{Flavour, Hqc1, Hqc3, Hqc5, Level, ParamSet};

/// Region r of case j is instance 4j + r.
pub(super) const OPS: [&str; 4] = [
    "keygen",
    "encaps",
    "decaps (valid ct)",
    "decaps (tampered ct)",
];

/// One flavour's trace run: what the comparison of every region and the re-runs need.
struct Traced<'a> {
    p: &'a Paths,
    elf: &'a Path,
    syms: &'a Symbols,
    markers: (u32, u32),
    level: Level,
    f: Flavour,
    timeout: u64,
    choices: Vec<CaseChoice>,
    /// The run's name (its log files).
    name: String,
    code: Option<i32>,
    text: String,
    by_k: BTreeMap<u64, TraceLine>,
}

/// The instances one region compares: (region name, instances as (case, op), counted, note).
type Group = (String, Vec<(usize, usize)>, bool, Option<String>);

#[allow(clippy::too_many_arguments)]
pub(super) fn check_flavour(
    p: &Paths,
    cfg: &Config,
    elf: &Path,
    syms: &Symbols,
    markers: (u32, u32),
    f: Flavour,
    timeout: u64,
    opt: CtOptions,
) -> Result<CtFlavour, BoardError> {
    progress(&format!(
        "{} {}: choosing {} KAT entries whose keygen sampler rejects no candidate",
        cfg.level,
        f.name(),
        opt.cases
    ));
    let choices = choose_cases(cfg.level, f, opt.cases)?;
    let entries: Vec<usize> = choices.iter().map(|c| c.entry).collect();
    progress(&format!(
        "{} {}: tracing entries {entries:?} on the board",
        cfg.level,
        f.name()
    ));
    let name = format!("ct-{}-{}", cfg.level.digit(), f.name());
    let (code, text, traces) = run_driver(
        p, elf, markers, cfg.level, f, &entries, None, &name, timeout,
    )?;
    let cases = case_results(&choices, &text);
    let t = Traced {
        p,
        elf,
        syms,
        markers,
        level: cfg.level,
        f,
        timeout,
        by_k: traces.iter().map(|t| (t.k, *t)).collect(),
        choices,
        name,
        code,
        text,
    };
    let mut regions = Vec::new();
    for group in region_groups(t.level, &t.choices) {
        if let Some(region) = compare_region(&t, group, opt)? {
            regions.push(region);
        }
    }
    Ok(CtFlavour {
        flavour: f.name().into(),
        qemu_exit: t.code,
        cases,
        regions,
    })
}

/// The driver's verdict per case (its `ct case=..` lines).
fn case_results(choices: &[CaseChoice], text: &str) -> Vec<CtCase> {
    let lines = parse_cases(text);
    choices
        .iter()
        .enumerate()
        .map(|(j, c)| {
            let (kind, valid, rejected) = lines.get(&j).cloned().unwrap_or_default();
            CtCase {
                case: j,
                choice: c.clone(),
                tamper: kind,
                valid,
                rejected,
            }
        })
        .collect()
}

/// The regions compared, and the instances of each.
fn region_groups(level: Level, choices: &[CaseChoice]) -> Vec<Group> {
    let clean: Vec<usize> = (0..choices.len())
        .filter(|&j| choices[j].no_rejection)
        .collect();
    let all: Vec<usize> = (0..choices.len()).collect();
    // Decaps samples y again (the first keygen draw): comparable when y's sampler rejected none.
    let y_clean: Vec<usize> = (0..choices.len())
        .filter(|&j| choices[j].keygen_draws[0] == w_of(level))
        .collect();
    let mut groups: Vec<Group> = vec![
        (
            "keygen".into(),
            clean.iter().map(|&j| (j, 0)).collect(),
            true,
            Some("seeds without rejected sampler candidates (see excluded)".into()),
        ),
        (
            "encaps".into(),
            all.iter().map(|&j| (j, 1)).collect(),
            true,
            None,
        ),
        (
            "decaps".into(),
            y_clean.iter().flat_map(|&j| [(j, 2), (j, 3)]).collect(),
            true,
            Some(
                "valid and tampered ciphertexts (implicit rejection) together; seeds whose y \
                 sampler rejects no candidate (Decaps re-derives y from seed_dk with the keygen \
                 sampler, see excluded)"
                    .into(),
            ),
        ),
    ];
    if let (Some(&c0), Some(rj)) = (
        clean.first(),
        all.iter().find(|&&j| !choices[j].no_rejection),
    ) {
        groups.push((
            "keygen-rejecting".into(),
            vec![(c0, 0), (*rj, 0)],
            false,
            Some(format!(
                "a seed whose sampler rejects candidates (entry {}, {:?} draws for w = {}) \
                 against one that rejects none: expected to differ (excluded, see excluded)",
                choices[*rj].entry,
                choices[*rj].keygen_draws,
                w_of(level)
            )),
        ));
    }
    groups
}

/// One region: its instances' traces compared (`None` when it has no instance), and with
/// `opt.diagnose` the first difference named.
fn compare_region(
    t: &Traced,
    (rname, members, counted, note): Group,
    opt: CtOptions,
) -> Result<Option<CtRegion>, BoardError> {
    let mut tl = Vec::new();
    for &(j, r) in &members {
        match t.by_k.get(&((4 * j + r) as u64)).copied() {
            Some(tr) => tl.push(((j, r), tr)),
            None => {
                return Err(BoardError::PluginLog {
                    path: t.p.logs.join(format!("{}.plugin", t.name)),
                    why: format!(
                        "no trace line for case {j} {} (instance {}); QEMU exit {:?} ({}); last output: {}",
                        OPS[r],
                        4 * j + r,
                        t.code,
                        exit_meaning(t.code),
                        tail(&t.text, 3).replace('\n', " | ")
                    ),
                })
            }
        }
    }
    let Some(&(_, t0)) = tl.first() else {
        return Ok(None);
    };
    let ins_same = tl.iter().all(|(_, t)| t.same_insns(&t0));
    let mem_same = tl.iter().all(|(_, t)| t.same_mems(&t0));
    let distinct = [
        tl.iter()
            .map(|(_, t)| (t.insns, t.ihash))
            .collect::<std::collections::BTreeSet<_>>()
            .len(),
        tl.iter()
            .map(|(_, t)| (t.mems, t.mhash))
            .collect::<std::collections::BTreeSet<_>>()
            .len(),
    ];
    let mut region = CtRegion {
        name: rname.clone(),
        instances: tl.len(),
        verdict: if ins_same && mem_same {
            "identical"
        } else {
            "differs"
        }
        .into(),
        instructions_identical: ins_same,
        memory_identical: mem_same,
        instructions: t0.insns,
        memory_accesses: t0.mems,
        distinct,
        counted,
        first_difference: None,
        differing_sites: Vec::new(),
        note,
    };
    if opt.diagnose && !(ins_same && mem_same) {
        let other = tl
            .iter()
            .find(|(_, t)| !t.same_insns(&t0))
            .or_else(|| tl.iter().find(|(_, t)| !t.same_mems(&t0)));
        if let Some(&(b, tb)) = other {
            progress(&format!(
                "{} {}: region {rname} differs; dumping the full traces of two instances",
                t.level,
                t.f.name()
            ));
            diagnose(t, [(tl[0].0, t0), (b, tb)], &mut region)?;
        }
    }
    Ok(Some(region))
}

pub(super) fn w_of(level: Level) -> usize {
    match level {
        Level::Hqc1 => Hqc1::W,
        Level::Hqc3 => Hqc3::W,
        Level::Hqc5 => Hqc5::W,
    }
}

pub(super) fn label(choices: &[CaseChoice], (j, r): (usize, usize)) -> String {
    format!("case {j} (entry {}) {}", choices[j].entry, OPS[r])
}

/// Re-runs the two instances alone with full dumps and fills `first_difference` and
/// `differing_sites` of `region`.
fn diagnose(
    t: &Traced,
    pair: [((usize, usize), TraceLine); 2],
    region: &mut CtRegion,
) -> Result<(), BoardError> {
    let dumps = dump_pair(t, pair, region)?;
    let labels = [label(&t.choices, pair[0].0), label(&t.choices, pair[1].0)];
    let (a, b) = (&dumps[0], &dumps[1]);
    if let Some(i) = first_divergence(&a.0, &b.0) {
        region.first_difference = Some(instruction_difference(t.syms, (&a.0, &b.0), i, labels));
        return Ok(());
    }
    if let Some(i) = first_divergence(&a.1, &b.1) {
        memory_difference(t.syms, (&a.1, &b.1), i, labels, region);
    }
    Ok(())
}

/// The full streams of one instance: executed instruction addresses, memory accesses.
type Dump = (Vec<u32>, Vec<MemAccess>);

/// The full streams (instructions, memory accesses) of the two instances, each re-run alone;
/// notes in `region` when a rerun does not reproduce its trace hashes.
fn dump_pair(
    t: &Traced,
    pair: [((usize, usize), TraceLine); 2],
    region: &mut CtRegion,
) -> Result<Vec<Dump>, BoardError> {
    let (p, level, f, choices) = (t.p, t.level, t.f, &t.choices);
    let dir = p.logs.join("ct-dumps");
    std::fs::create_dir_all(&dir).map_err(|e| BoardError::io("create", &dir, e))?;
    let mut dumps = Vec::new();
    for (i, &((j, r), want)) in pair.iter().enumerate() {
        let base = dir.join(format!("{}-{}-{i}", level.digit(), f.name()));
        let name = format!("ct-dump-{}-{}-{i}", level.digit(), f.name());
        let (_, _, tr) = run_driver(
            p,
            t.elf,
            t.markers,
            level,
            f,
            &[choices[j].entry],
            Some((r, &base)),
            &name,
            t.timeout,
        )?;
        let (insns, mems) = read_dump(&base)?;
        let _ = std::fs::remove_file(dump_file(&base, "insn"));
        let _ = std::fs::remove_file(dump_file(&base, "mem"));
        // the single-case rerun must reproduce the instance of the full run, and the dump its
        // own hashes
        let got = tr.iter().find(|t| t.k == r as u64);
        let dump_line = TraceLine {
            k: r as u64,
            insns: insns.len() as u64,
            ihash: hash_insns(&insns),
            mems: mems.len() as u64,
            mhash: hash_mems(&mems),
        };
        let same = |a: &TraceLine, b: &TraceLine| a.same_insns(b) && a.same_mems(b);
        if got.is_none_or(|g| !same(g, &want) || !same(g, &dump_line)) {
            region.note = Some(format!(
                "{}; the single-case rerun of {} did not reproduce its trace hashes",
                region.note.clone().unwrap_or_default(),
                label(choices, (j, r))
            ));
        }
        dumps.push((insns, mems));
    }
    Ok(dumps)
}

fn hex(v: Option<u32>) -> String {
    v.map_or("end".to_string(), |x| format!("{x:#010x}"))
}

/// The first difference of two instruction streams, at index `i`.
fn instruction_difference(
    syms: &Symbols,
    (a, b): (&[u32], &[u32]),
    i: usize,
    labels: [String; 2],
) -> Divergence {
    let pcs = [a.get(i).copied(), b.get(i).copied()];
    let prev = i.checked_sub(1).and_then(|k| a.get(k).copied());
    let want: Vec<u32> = pcs.iter().flatten().copied().chain(prev).collect();
    let loc = syms.locations(&want);
    let name = |pc: Option<u32>| pc.map_or("end of trace".into(), |x| syms.name(x));
    let at = |pc: Option<u32>| pc.and_then(|x| loc.get(&x).cloned()).unwrap_or_default();
    Divergence {
        stream: "instructions".into(),
        instances: labels,
        index: i,
        pc: [hex(pcs[0]), hex(pcs[1])],
        symbol: [name(pcs[0]), name(pcs[1])],
        location: [at(pcs[0]), at(pcs[1])],
        access: None,
        previous: prev.map(|x| format!("{x:#010x} {} ({})", syms.name(x), at(Some(x)))),
    }
}

/// The first difference of two memory streams, at index `i`, and (aligned streams) every
/// differing access site by function.
fn memory_difference(
    syms: &Symbols,
    (a, b): (&[MemAccess], &[MemAccess]),
    i: usize,
    labels: [String; 2],
    region: &mut CtRegion,
) {
    let ms = [a.get(i).copied(), b.get(i).copied()];
    let pcs = [ms[0].map(|m| m.pc), ms[1].map(|m| m.pc)];
    // aligned streams: every differing access, grouped by function
    let mut per_fn: BTreeMap<String, (usize, std::collections::BTreeSet<u32>)> = BTreeMap::new();
    if a.len() == b.len() {
        for (x, y) in a.iter().zip(b) {
            if x != y {
                let f = syms.function(x.pc).unwrap_or("?").to_string();
                let e = per_fn.entry(f).or_default();
                e.0 += 1;
                e.1.insert(x.pc);
            }
        }
    }
    let firsts: Vec<u32> = per_fn
        .values()
        .filter_map(|(_, s)| s.first().copied())
        .chain(pcs.iter().flatten().copied())
        .collect();
    let loc = syms.locations(&firsts);
    let at = |pc: Option<u32>| pc.and_then(|x| loc.get(&x).cloned()).unwrap_or_default();
    let acc = |m: Option<MemAccess>| {
        m.map_or("end of trace".into(), |m| {
            format!(
                "{} {:#010x} ({} bytes)",
                m.kind(),
                m.addr,
                1u32 << (m.info & 3)
            )
        })
    };
    region.first_difference = Some(Divergence {
        stream: "memory".into(),
        instances: labels,
        index: i,
        pc: [hex(pcs[0]), hex(pcs[1])],
        symbol: [
            pcs[0].map_or("end of trace".into(), |x| syms.name(x)),
            pcs[1].map_or("end of trace".into(), |x| syms.name(x)),
        ],
        location: [at(pcs[0]), at(pcs[1])],
        access: Some([acc(ms[0]), acc(ms[1])]),
        previous: None,
    });
    region.differing_sites = per_fn
        .into_iter()
        .map(|(function, (accesses, set))| Site {
            location: at(set.first().copied()),
            instructions: set.len(),
            accesses,
            function,
        })
        .collect();
}
