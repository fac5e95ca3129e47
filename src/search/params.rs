//! The search's tunable numbers, each named for what it does.
//!
//! The pruning and reduction margins are declared once in [`tunables!`]: in
//! the default build each is a `const`; built with the cargo feature `tune`
//! (`cargo build --release --features tune`), the search reads them at run
//! time from [`tune`], and the engine offers each as a UCI spin option
//! `TUNE_<NAME>` (for an SPSA tuning run, `calvin-match --spsa`). The search
//! names them through [`tp!`], which is the `const` itself in the default build.

/// Declares the tunable numbers: `NAME: type = default[ / scale], min..=max;`.
/// An option's value is an integer; a number with a scale is the option's
/// value divided by it (`LMR_BASE: f64 = 50 / 100` is 0.5, option value 50).
macro_rules! tunables {
    ($($(#[$m:meta])* $name:ident : $ty:ty = $default:literal $(/ $scale:literal)?, $min:literal ..= $max:literal;)*) => {
        $(
            $(#[$m])*
            #[allow(clippy::unnecessary_cast)]
            pub const $name: $ty = $default as $ty $(/ ($scale as $ty))?;
        )*

        /// The tunable numbers as run-time values (the `tune` build).
        #[cfg(feature = "tune")]
        pub mod tune {
            use std::sync::atomic::{AtomicI32, Ordering::Relaxed};

            /// One tunable number: its option name, default and bounds (as
            /// the option's integer).
            pub struct Tunable {
                pub name: &'static str,
                pub default: i32,
                pub min: i32,
                pub max: i32,
                cell: &'static AtomicI32,
            }

            impl Tunable {
                pub fn get(&self) -> i32 {
                    self.cell.load(Relaxed)
                }

                /// Sets the value (the caller checks the bounds) and rebuilds
                /// what depends on it.
                pub fn set(&self, v: i32) {
                    self.cell.store(v, Relaxed);
                    super::rebuild_reductions();
                }
            }

            #[allow(non_upper_case_globals)]
            mod cells {
                use std::sync::atomic::AtomicI32;
                $(pub static $name: AtomicI32 = AtomicI32::new($default);)*
            }

            $(
                #[allow(non_snake_case, clippy::unnecessary_cast)]
                #[inline]
                pub fn $name() -> $ty {
                    cells::$name.load(Relaxed) as $ty $(/ ($scale as $ty))?
                }
            )*

            /// Every tunable number, in the order they are declared.
            pub static TUNABLES: &[Tunable] = &[$(Tunable {
                name: concat!("TUNE_", stringify!($name)),
                default: $default,
                min: $min,
                max: $max,
                cell: &cells::$name,
            }),*];

            /// The tunable of an option name (case-insensitive).
            pub fn find(name: &str) -> Option<&'static Tunable> {
                TUNABLES.iter().find(|t| t.name.eq_ignore_ascii_case(name))
            }
        }
    };
}

/// A tunable number as the search reads it: the `const` in the default
/// build, the run-time value in the `tune` build.
#[cfg(not(feature = "tune"))]
macro_rules! tp {
    ($name:ident) => {
        $crate::search::params::$name
    };
}
#[cfg(feature = "tune")]
macro_rules! tp {
    ($name:ident) => {
        $crate::search::params::tune::$name()
    };
}
pub(crate) use tp;

/// Deepest ply the search goes (iterations stop 10 plies short of it).
pub const MAX_PLY: usize = 120;
/// Iterations stop this many plies short of [`MAX_PLY`].
pub const MAX_DEPTH_MARGIN: i32 = 10;

/// Nodes between two looks at the clock (a power of two, minus one, as a mask).
pub const CLOCK_CHECK_MASK: u64 = 1023;

/// Aspiration windows: first iteration that uses one, half-width
/// ([`ASPIRATION_DELTA`], tunable below), and the width past which the window
/// opens fully.
pub const ASPIRATION_MIN_DEPTH: i32 = 4;
pub const ASPIRATION_MAX_DELTA: i32 = 1000;

/// Reverse futility pruning: deepest depth ([`RFP_MARGIN`] per ply below).
pub const RFP_MAX_DEPTH: i32 = 6;

/// Razoring: deepest depth ([`RAZOR_MARGIN`] below).
pub const RAZOR_MAX_DEPTH: i32 = 3;

/// Null move: shallowest depth (reductions and margin below).
pub const NMP_MIN_DEPTH: i32 = 3;

/// Internal iterative reduction: shallowest depth where a node without a
/// move from the table is searched one ply less deep.
pub const IIR_MIN_DEPTH: i32 = 4;

/// ProbCut: shallowest depth, and how much shallower its search is.
pub const PROBCUT_MIN_DEPTH: i32 = 5;
pub const PROBCUT_REDUCTION: i32 = 4;

/// History pruning of quiet moves: deepest (reduced) depth.
pub const HISTORY_PRUNE_MAX_DEPTH: i32 = 4;

/// Late move pruning: deepest depth (move counts below).
pub const LMP_MAX_DEPTH: i32 = 6;

/// Futility pruning of quiet moves: deepest (reduced) depth (margins below).
pub const FUTILITY_MAX_DEPTH: i32 = 8;

/// SEE pruning: deepest depth (margins below).
pub const SEE_PRUNE_MAX_DEPTH: i32 = 8;

/// Late move reductions apply from this depth and move number on (the
/// formula's numbers below).
pub const LMR_MIN_DEPTH: i32 = 3;
pub const LMR_MIN_MOVE: usize = 3;

/// Singular extensions: how much shallower the table's entry may be than
/// the node (the shallowest depth and the margin are tunable, below).
pub const SE_TT_DEPTH_MARGIN: i32 = 3;

tunables! {
    /// Aspiration windows: half-width of the first window.
    ASPIRATION_DELTA: i32 = 30, 5..=200;
    /// Reverse futility pruning: margin per ply.
    RFP_MARGIN: i32 = 90, 20..=300;
    /// Razoring: margin per ply below alpha past which quiescence decides the node.
    RAZOR_MARGIN: i32 = 250, 50..=800;
    /// Null move: base reduction, depth divisor of the extra reduction, and
    /// evaluation margin over beta per extra ply (at most 3).
    NMP_BASE_REDUCTION: i32 = 3, 1..=6;
    NMP_DEPTH_DIVISOR: i32 = 4, 1..=12;
    NMP_EVAL_DIVISOR: i32 = 200, 50..=800;
    /// Late move pruning: the quiet moves tried at depth d before the rest are
    /// skipped (`(LMP_BASE + LMP_PER_DEPTH * d * d)`, halved when the position
    /// is not improving).
    LMP_BASE: usize = 3, 0..=20;
    LMP_PER_DEPTH: usize = 1, 0..=4;
    /// Futility pruning of quiet moves: the margin the evaluation must miss
    /// alpha by (`FUTILITY_BASE + FUTILITY_MARGIN * depth`).
    FUTILITY_BASE: i32 = 100, 0..=400;
    FUTILITY_MARGIN: i32 = 120, 20..=400;
    /// SEE pruning: captures losing more than `SEE_CAPTURE_MARGIN * depth^2`,
    /// quiets losing more than `SEE_QUIET_MARGIN * depth`.
    SEE_CAPTURE_MARGIN: i32 = 25, 0..=200;
    SEE_QUIET_MARGIN: i32 = 60, 0..=300;
    /// Late move reductions: `LMR_BASE + ln(depth) ln(move number) / LMR_DIVISOR`
    /// (both in hundredths as options: `TUNE_LMR_BASE` 50 is 0.5).
    LMR_BASE: f64 = 50 / 100, 0..=200;
    LMR_DIVISOR: f64 = 225 / 100, 100..=500;
    /// History (butterfly plus continuation, up to 3 x HISTORY_MAX) per ply of reduction less.
    LMR_HISTORY_DIVISOR: i32 = 8192, 1024..=32768;
    /// Late move reductions: plies more at a node expected to fail high.
    LMR_CUT_NODE: i32 = 0, 0..=3;
    /// Late move reductions: 1 reduces late captures that lose by exchange
    /// as late quiet moves (0: captures are never reduced).
    LMR_BAD_CAPTURE: i32 = 0, 0..=1;
    /// Late move reductions: 1 reduces quiet moves one ply more where the
    /// table's move is a capture.
    LMR_TT_CAPTURE: i32 = 0, 0..=1;
    /// Late move reductions: plies less at a node off the PV that the table
    /// saw on one (PV nodes reduce one ply less already).
    LMR_TT_PV: i32 = 0, 0..=2;
    /// ProbCut: margin over beta a capture must show in a shallow search
    /// for the node to be cut (0: off).
    PROBCUT_MARGIN: i32 = 0, 0..=600;
    /// Quiet moves with a history below `-HISTORY_PRUNE_MARGIN * depth`
    /// are skipped at depth 4 and below (0: off).
    HISTORY_PRUNE_MARGIN: i32 = 0, 0..=16384;
    /// Singular extensions: the margin below the table's value per ply of depth.
    SE_MARGIN_PER_DEPTH: i32 = 2, 0..=10;
    /// Singular extensions: the shallowest depth that tries one.
    SE_MIN_DEPTH: i32 = 8, 4..=12;
    /// Time: the time for another iteration scaled by `(NODE_TM_BASE -
    /// share) * NODE_TM_WEIGHT` (both in hundredths), the share being the
    /// nodes spent below the best move (weight 0: not scaled).
    NODE_TM_BASE: i32 = 150, 100..=300;
    NODE_TM_WEIGHT: i32 = 0, 0..=300;
}

/// Quiescence: the quiet evasions searched at most in check, once a move
/// has kept the side out of mate.
pub const QS_QUIET_EVASIONS: usize = 2;

/// Check extensions stop past this ply (so checks cannot extend forever).
pub const CHECK_EXTENSION_MAX_PLY: usize = MAX_PLY / 2;

/// History: a cut-off at depth d gives `HISTORY_BONUS_PER_DEPTH * d -
/// HISTORY_BONUS_OFFSET`, at most `HISTORY_BONUS_MAX`; `HISTORY_MAX` is the
/// bound the gravity formula keeps every entry within.
pub const HISTORY_BONUS_PER_DEPTH: i32 = 300;
pub const HISTORY_BONUS_OFFSET: i32 = 250;
pub const HISTORY_BONUS_MAX: i32 = 2500;
pub const HISTORY_MAX: i32 = 16384;

/// Correction history: entries per side (a power of two), the fraction of
/// the evaluation's unit an entry counts in, the bound of an entry (in
/// those fractions: 64 units), and the largest weight (of 256) one search's
/// result gets.
pub const CORRECTION_SIZE: usize = 16384;
pub const CORRECTION_GRAIN: i32 = 256;
pub const CORRECTION_MAX: i32 = 64 * CORRECTION_GRAIN;
pub const CORRECTION_WEIGHT_MAX: i32 = 16;

/// Lazy SMP: helper thread `id` skips iteration `d` when `(d + id) % SKIP_PERIOD == 0`.
pub const HELPER_SKIP_PERIOD: i32 = 3;

/// Stack of each search thread (the engine's main search thread too: deep
/// recursion with large frames).
pub const THREAD_STACK_BYTES: usize = 16 << 20;

/// Late-move reduction by depth and move number.
pub fn reduction(depth: i32, n: usize) -> i32 {
    if depth < LMR_MIN_DEPTH || n < LMR_MIN_MOVE {
        return 0;
    }
    match REDUCTIONS.get(depth as usize).and_then(|row| row.get(n)) {
        Some(r) => entry(r),
        None => reduction_formula(depth, n),
    }
}

fn reduction_formula(depth: i32, n: usize) -> i32 {
    let r = tp!(LMR_BASE) + (depth as f64).ln() * (n as f64).ln() / tp!(LMR_DIVISOR);
    r as i32
}

/// A cell of the reduction table: a plain number, or in the `tune` build one
/// the options can set while searches read it.
#[cfg(not(feature = "tune"))]
type Cell = i32;
#[cfg(feature = "tune")]
type Cell = std::sync::atomic::AtomicI32;

/// [`reduction_formula`] for the depths and move numbers most nodes see,
/// computed once (the logarithms cost more than the lookup); in the `tune`
/// build computed again whenever a tunable number is set ([`rebuild_reductions`]).
static REDUCTIONS: once_cell::sync::Lazy<Box<[[Cell; 256]; 64]>> = once_cell::sync::Lazy::new(|| {
    Box::new(std::array::from_fn(|depth| std::array::from_fn(|n| Cell::from(reduction_formula(depth as i32, n)))))
});

#[cfg(not(feature = "tune"))]
#[inline(always)]
fn entry(r: &Cell) -> i32 {
    *r
}

#[cfg(feature = "tune")]
#[inline(always)]
fn entry(r: &Cell) -> i32 {
    r.load(std::sync::atomic::Ordering::Relaxed)
}

/// Computes the reduction table again from the current tunable numbers.
#[cfg(feature = "tune")]
pub fn rebuild_reductions() {
    for (depth, row) in REDUCTIONS.iter().enumerate() {
        for (n, r) in row.iter().enumerate() {
            r.store(reduction_formula(depth as i32, n), std::sync::atomic::Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reduction_table_is_the_formula() {
        assert_eq!((reduction(2, 40), reduction(10, 2)), (0, 0));
        assert_eq!((reduction(3, 3), reduction(10, 20), reduction(40, 200)), (1, 3, 9));
        for depth in LMR_MIN_DEPTH..80 {
            for n in LMR_MIN_MOVE..300 {
                assert_eq!(reduction(depth, n), reduction_formula(depth, n), "depth {depth}, move {n}");
            }
        }
    }
}
