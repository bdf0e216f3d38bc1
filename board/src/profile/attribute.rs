//! A profiled run's plugin log attributed to operations and components: instructions, classes,
//! estimated cycles, shares.

use std::collections::BTreeMap;

use super::{expected_components, ComponentFigures, OperationProfile, OPERATIONS};
use crate::m4cycles::{self, ClassCounts};
use crate::report::Checks;
use hqc_verify::core::probe::Component;

#[derive(Clone, Debug, Default)]
pub(super) struct Acc {
    regions: u64,
    instructions: u64,
    classes: ClassCounts,
}

impl Acc {
    fn add(&mut self, instructions: u64, c: &ClassCounts) {
        self.regions += 1;
        self.instructions += instructions;
        self.classes = self.classes.add(c);
    }
}

/// The regions of a plugin log attributed to operations: for each `main` region (index k),
/// the component regions that stopped before it and after the previous `main` region.
/// Errors name the problem (a region without classes, an unknown pair name).
pub(super) fn attribute(
    log: &m4cycles::PluginLog,
) -> Result<BTreeMap<u64, (Acc, Vec<Acc>)>, String> {
    let mut out = BTreeMap::new();
    let mut pending = vec![Acc::default(); Component::COUNT];
    for r in &log.regions {
        let classes = r
            .classes
            .as_ref()
            .ok_or_else(|| format!("region {} #{} has no classes line", r.name, r.index))?;
        if r.name == "main" {
            let mut op = Acc::default();
            op.add(r.instructions, classes);
            let comps = std::mem::replace(&mut pending, vec![Acc::default(); Component::COUNT]);
            out.insert(r.index, (op, comps));
        } else {
            let c = Component::from_key(&r.name)
                .ok_or_else(|| format!("region {} is not a component", r.name))?;
            pending[c.index()].add(r.instructions, classes);
        }
    }
    Ok(out)
}

pub(super) fn share(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// Estimated cycles per instruction, to 3 decimals (0 without instructions).
pub(super) fn cpi(cycles: u64, instructions: u64) -> f64 {
    if instructions == 0 {
        return 0.0;
    }
    (cycles as f64 / instructions as f64 * 1e3).round() / 1e3
}

/// Builds an operation's rows from its region and its components' regions; checks that
/// the components fit in the operation class by class (pushes the result).
pub(super) fn operation_profile(
    name: &str,
    op: &Acc,
    comps: &[Acc],
    check_prefix: &str,
    ck: &mut Checks,
) -> OperationProfile {
    let total_cycles = m4cycles::estimate_cycles(&op.classes);
    let mut sum = ClassCounts::default();
    let mut rows = Vec::new();
    for c in Component::ALL {
        let a = &comps[c.index()];
        sum = sum.add(&a.classes);
        let cycles = m4cycles::estimate_cycles(&a.classes);
        rows.push(ComponentFigures {
            key: c.key().into(),
            label: c.label().into(),
            regions: a.regions,
            instructions: a.instructions,
            cycles,
            cpi: cpi(cycles, a.instructions),
            share_instructions: share(a.instructions, op.instructions),
            share_cycles: share(cycles, total_cycles),
            host_us: None,
            host_share: None,
        });
    }
    // The remainder, class by class; a component outside its operation would make a class
    // of `sum` exceed the operation's.
    let over: Vec<String> = op
        .classes
        .entries()
        .iter()
        .zip(sum.entries())
        .filter(|((_, t), (_, s))| s > t)
        .map(|((k, t), (_, s))| format!("{k}: components {s} > operation {t}"))
        .collect();
    let other = op.classes.sub(&sum);
    let other_cycles = m4cycles::estimate_cycles(&other);
    let comp_instr: u64 = rows.iter().map(|r| r.instructions).sum();
    let comp_cycles: u64 = rows.iter().map(|r| r.cycles).sum();
    let exact = over.is_empty()
        && comp_instr + other.instructions() == op.instructions
        && comp_cycles + other_cycles == total_cycles
        && sum.instructions() == comp_instr;
    ck.push(
        format!("{check_prefix} {name}: components + other = total"),
        exact,
        if exact {
            format!(
                "{comp_instr} + {} = {} instructions, {comp_cycles} + {other_cycles} = {total_cycles} estimated cycles",
                other.instructions(),
                op.instructions
            )
        } else {
            format!(
                "components {comp_instr} instructions / {comp_cycles} cycles, operation {} / {total_cycles}; {}",
                op.instructions,
                over.join(", ")
            )
        },
    );
    let missing: Vec<&str> = expected_components(name)
        .into_iter()
        .filter(|c| comps[c.index()].instructions == 0)
        .map(|c| c.key())
        .collect();
    ck.push(
        format!("{check_prefix} {name}: every expected component counted"),
        missing.is_empty(),
        if missing.is_empty() {
            "all non-zero".into()
        } else {
            format!("zero: {}", missing.join(", "))
        },
    );
    rows.push(ComponentFigures {
        key: "other".into(),
        label: "other".into(),
        regions: 0,
        instructions: other.instructions(),
        cycles: other_cycles,
        cpi: cpi(other_cycles, other.instructions()),
        share_instructions: share(other.instructions(), op.instructions),
        share_cycles: share(other_cycles, total_cycles),
        host_us: None,
        host_share: None,
    });
    OperationProfile {
        operation: name.into(),
        instructions: op.instructions,
        cycles: total_cycles,
        cpi: cpi(total_cycles, op.instructions),
        host_median_us: None,
        host_dropped: None,
        components: rows,
    }
}

/// The profile of one plugin log and board output (the parsing half of a profiled run).
pub(crate) fn profile_from_logs(
    plugin_log: &str,
    board_out: &str,
    check_prefix: &str,
    ck: &mut Checks,
) -> Result<Vec<OperationProfile>, String> {
    let log = m4cycles::parse(plugin_log).map_err(|e| e.to_string())?;
    let by_index = attribute(&log)?;
    let mut labels = BTreeMap::new();
    for l in board_out.lines() {
        if let Some((k, label)) = l.strip_prefix("bench ").and_then(|r| r.split_once(' ')) {
            if let Ok(k) = k.parse::<u64>() {
                labels.insert(label.trim().to_string(), k);
            }
        }
    }
    let mut ops = Vec::new();
    for (name, _) in OPERATIONS {
        let (op, comps) = labels
            .get(name)
            .and_then(|k| by_index.get(k))
            .ok_or_else(|| format!("no counted {name} region"))?;
        ops.push(operation_profile(name, op, comps, check_prefix, ck));
    }
    Ok(ops)
}
