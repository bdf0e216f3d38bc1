//! # fwgen: firmware code generation
//!
//! * [`thumb2`]: Cortex-M4 (Thumb-2) routines `void NAME(uint32_t *out, const uint32_t *in)`
//!   for straight-line XOR programs ([`algebra::slp::Slp`]), with register allocation over the
//!   14 general-purpose registers, s0-s31 as spill space, and an instruction-order search that
//!   minimises the whole instruction count (docs/thumb2.md).
//! * [`thumb2::sim`]: a host-side interpreter of the emitted subset, the test oracle.
//! * [`bs_tower`]: the firmware's beta-independent bitsliced tower-field header
//!   `bs_tower_gen.h` (written by fafft-config's binary `gen-bs-tower`).
//! * [`m4timing`]: the Cortex-M4 timing rules of docs/m4-timing.md, shared by the static model
//!   ([`thumb2::insn::cycles`]) and the board's cycle estimate (`hqc_board::m4cycles`).

pub mod bs_tower;
pub mod m4timing;
pub mod thumb2;

/// Errors of the code generator.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FwgenError {
    /// The input program is malformed.
    #[error("invalid straight-line program: {0}")]
    Slp(#[from] algebra::slp::SlpError),
    /// The routine name is not a C identifier.
    #[error("routine name `{0}` is not a C identifier ([A-Za-z_][A-Za-z0-9_]*)")]
    Name(String),
    /// More input or output words than the addressing supports.
    #[error("{what} has {got} words; at most {max} are supported")]
    TooLarge {
        /// `inputs` or `outputs`.
        what: &'static str,
        /// Words requested.
        got: usize,
        /// Limit.
        max: usize,
    },
    /// More values live at once than 14 registers, 32 s-registers and 256 stack words hold.
    #[error("spill space exhausted: more than 14 + 32 + 256 values live at once")]
    SpillSpace,
    /// [`thumb2::pool::emit_best`] was given no candidate program.
    #[error("no candidate program to emit")]
    EmptyPool,
    /// An internal invariant failed (a bug; please report with the program).
    #[error("internal allocator error: {0}")]
    Internal(String),
}
