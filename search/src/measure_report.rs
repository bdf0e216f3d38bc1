//! The `--measure` section of a `search crt` report (`search crt --n N --measure K`): each of the
//! top K plans with its modelled components beside the board's measurement, or why it was not
//! measured ([`MeasureReport`], filled by [`crate::measure::measure_plans`]), and its text
//! ([`render_measure`]).

use fafft_config::cost::fit::TableRow;
use serde::{Deserialize, Serialize};

/// One plan of `--measure`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MeasuredPlan {
    /// Modelled rank.
    pub rank: usize,
    /// Label.
    pub label: String,
    /// β.
    pub beta: String,
    /// Modelled cycles per component (calibrated model).
    pub modelled: Vec<(String, f64)>,
    /// The board's measurement (None when skipped).
    pub measured: Option<TableRow>,
    /// Measured rank among the measured plans (by estimated cycles of the product).
    pub measured_rank: Option<usize>,
    /// "not buildable on the board: <reason>", or a failure.
    pub skipped: Option<String>,
    /// The export already in the work folder was reused ([`crate::measure::same_configuration`]).
    pub reused_export: bool,
}

/// The `--measure` section of a report.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MeasureReport {
    /// K.
    pub top: usize,
    /// The hqc-verify used.
    pub hqc_verify: String,
    /// The board command per plan (with P = the plan's params.json).
    pub board_command: String,
    /// The plans, in modelled order.
    pub plans: Vec<MeasuredPlan>,
    /// Measured winner (label), if any plan was measured.
    pub measured_winner: Option<String>,
    /// Plan kinds that are neither ranked nor measured.
    pub not_covered: Vec<String>,
}

/// The plan kinds the planner does not rank, so `--measure` never measures them (none since
/// the 2-Karatsuba split became the plan kind `karatsuba2`; the board builds it with a split
/// export, `not_buildable` names what it cannot build).
pub const NOT_COVERED: [&str; 0] = [];

/// Side-by-side text of a `--measure` section.
pub fn render_measure(m: &MeasureReport) -> String {
    let mut s = format!(
        "measured on the emulated board ({}; estimated cycles, docs/m4-timing.md; model = calibrated model):\n",
        m.board_command
    );
    s += &format!(
        "{:>4} {:<26} {:<14} {:>11} {:>11} {:>11} {:>11} {:>11} {:>12} {:>12} {:>6}  {}\n",
        "rank",
        "plan",
        "",
        "forward",
        "pointwise",
        "inverse",
        "residue",
        "recon",
        "product",
        "instr",
        "m-rank",
        "checks"
    );
    for p in &m.plans {
        s += &render_plan(p);
    }
    s += &render_ranking(m);
    let skipped = m.plans.iter().filter(|p| p.measured.is_none()).count();
    if skipped > 0 {
        s += &format!(
            "{skipped} of the top {} plans NOT MEASURED (reasons above); the measured ranking covers only the measured plans\n",
            m.plans.len()
        );
    }
    for n in &m.not_covered {
        s += &format!("not covered: {n}\n");
    }
    s
}

/// The rows of one plan: the model, and the board's cycles and instructions or why it was not
/// measured.
fn render_plan(p: &MeasuredPlan) -> String {
    let mut s = String::new();
    let model = |n: &str| {
        p.modelled
            .iter()
            .find(|x| x.0 == n)
            .map(|x| x.1)
            .unwrap_or(0.0)
    };
    s += &format!(
        "{:>4} {:<26} {:<14} {:>11.0} {:>11.0} {:>11.0} {:>11.0} {:>11.0} {:>12.0} {:>12} {:>6}\n",
        p.rank,
        p.label,
        "model",
        model("forward"),
        model("pointwise"),
        model("inverse"),
        model("residue"),
        model("reconstruction"),
        model("product"),
        "",
        ""
    );
    match (&p.measured, &p.skipped) {
        (Some(r), _) => {
            let x = &r.measured;
            s += &format!(
                "{:>4} {:<26} {:<14} {:>11} {:>11} {:>11} {:>11} {:>11} {:>12} {:>12} {:>6}  firmware {}, KAT {}\n",
                "",
                "",
                "board cycles",
                x.forward.cycles,
                x.pointwise.cycles,
                x.inverse.cycles,
                x.residue.cycles,
                x.reconstruction.cycles,
                x.product.cycles,
                x.product.instructions,
                p.measured_rank.map(|r| r.to_string()).unwrap_or_default(),
                if r.firmware_checks_passed { "ok" } else { "FAILED" },
                r.kat
            );
            s += &format!(
                "{:>4} {:<26} {:<14} {:>11} {:>11} {:>11} {:>11} {:>11} {:>12}\n",
                "",
                "",
                "board instr",
                x.forward.instructions,
                x.pointwise.instructions,
                x.inverse.instructions,
                x.residue.instructions,
                x.reconstruction.instructions,
                x.product.instructions
            );
        }
        (None, Some(why)) => s += &format!("{:>4} {:<26} {why}\n", "", ""),
        (None, None) => {}
    }
    s
}

/// The measured ranking and winner (or that no plan was measured).
fn render_ranking(m: &MeasureReport) -> String {
    let mut s = String::new();
    match &m.measured_winner {
        Some(w) => {
            let ranking: Vec<String> = {
                let mut v: Vec<&MeasuredPlan> = m
                    .plans
                    .iter()
                    .filter(|p| p.measured_rank.is_some())
                    .collect();
                v.sort_by_key(|p| p.measured_rank);
                v.iter()
                    .map(|p| {
                        format!(
                            "{}. {} (model rank {}, {} cycles)",
                            p.measured_rank.unwrap_or(0),
                            p.label,
                            p.rank,
                            p.measured
                                .as_ref()
                                .map(|r| r.measured.product.cycles)
                                .unwrap_or(0)
                        )
                    })
                    .collect()
            };
            s += &format!(
                "measured ranking: {}\nmeasured winner: {w}\n",
                ranking.join("; ")
            );
        }
        None => s += "measured winner: none (no plan measured)\n",
    }
    s
}
