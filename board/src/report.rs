//! The report of `hqc-verify board`: its JSON form (schema [`SCHEMA_VERSION`], docs/board.md;
//! the serde types are `fafft_config::schema::board_report`'s, shared with the report's readers
//! in `search`), the static counts of the exported routines ([`routine_counts`]) and the list of
//! checks it is assembled from ([`Checks`]). The types are re-exported here under the names the
//! board's modules use.

pub use fafft_config::schema::board_report::{
    Anchor, BoardReport, CalibratedComparison, CalibratedRow, Check, Counts, CycleAnchors,
    CycleComparison, EstimatorCheck, KatRun, KemCounts, ModelComparison, ModelRow, ParamsInfo,
    RoutineCount, StageFigures, Stages, Timing, Toolchain, SCHEMA_VERSION,
};

/// The counts of the routines of a verified export, and their sum.
pub fn routine_counts(d: &fafft_config::derive::Derived) -> (Vec<RoutineCount>, RoutineCount) {
    use fafft_config::routines::Matrix;
    let ng = (1u64 << d.cfg.l) / 32;
    // transforms per product: 2 forwards and 1 inverse, twice that with a split export (a
    // two-moduli export: these are the first transform's routines; the second instance's
    // are counted in its own regions)
    let per = if d.cfg.split.is_some() { 2 } else { 1 };
    let v: Vec<RoutineCount> = d
        .routines
        .iter()
        .map(|r| {
            let st = r.stats();
            let calls = match r.matrix {
                Matrix::Gamma(j) if j <= d.cfg.l => per * 3 * ng / 2,
                Matrix::Gamma(_) => 0,
                Matrix::Encode => per * 2 * ng,
                Matrix::Decode => per * ng,
            };
            RoutineCount {
                name: r.routine.name.clone(),
                xors: r.slp.xor_count(),
                eor: st.eor,
                vmov: st.vmov,
                load: st.load,
                store: st.store,
                total: st.total,
                calls_per_product: calls,
                per_product: calls * st.total as u64,
            }
        })
        .collect();
    let mut all = RoutineCount {
        name: "all".into(),
        ..RoutineCount::default()
    };
    for r in &v {
        all.xors += r.xors;
        all.eor += r.eor;
        all.vmov += r.vmov;
        all.load += r.load;
        all.store += r.store;
        all.total += r.total;
        all.calls_per_product += r.calls_per_product;
        all.per_product += r.per_product;
    }
    (v, all)
}

/// The checks of one run, in order; a failure is also reported on stderr as it happens.
#[derive(Default)]
pub(crate) struct Checks(pub(crate) Vec<Check>);

impl Checks {
    pub(crate) fn push(&mut self, name: String, passed: bool, detail: String) {
        if !passed {
            crate::progress::progress(&format!("FAIL {name}: {detail}"));
        }
        self.0.push(Check {
            name,
            passed,
            detail,
        });
    }

    /// Names of the failed checks.
    pub(crate) fn failed(&self) -> Vec<String> {
        self.0
            .iter()
            .filter(|c| !c.passed)
            .map(|c| c.name.clone())
            .collect()
    }
}
