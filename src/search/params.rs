//! The search's tunable numbers, each named for what it does.

/// Deepest ply the search goes (iterations stop 10 plies short of it).
pub const MAX_PLY: usize = 120;
/// Iterations stop this many plies short of [`MAX_PLY`].
pub const MAX_DEPTH_MARGIN: i32 = 10;

/// Nodes between two looks at the clock (a power of two, minus one, as a mask).
pub const CLOCK_CHECK_MASK: u64 = 1023;

/// Aspiration windows: first iteration that uses one, half-width, and the
/// width past which the window opens fully.
pub const ASPIRATION_MIN_DEPTH: i32 = 4;
pub const ASPIRATION_DELTA: i32 = 30;
pub const ASPIRATION_MAX_DELTA: i32 = 1000;

/// Reverse futility pruning: deepest depth and margin per ply.
pub const RFP_MAX_DEPTH: i32 = 6;
pub const RFP_MARGIN: i32 = 90;

/// Razoring: deepest depth, and the margin per ply below alpha past which
/// quiescence decides the node.
pub const RAZOR_MAX_DEPTH: i32 = 3;
pub const RAZOR_MARGIN: i32 = 250;

/// Null move: shallowest depth, base reduction, depth divisor of the extra
/// reduction, and evaluation margin over beta per extra ply (at most 3).
pub const NMP_MIN_DEPTH: i32 = 3;
pub const NMP_BASE_REDUCTION: i32 = 3;
pub const NMP_DEPTH_DIVISOR: i32 = 4;
pub const NMP_EVAL_DIVISOR: i32 = 200;

/// Internal iterative reduction: shallowest depth where a node without a
/// move from the table is searched one ply less deep.
pub const IIR_MIN_DEPTH: i32 = 4;

/// Late move pruning: deepest depth, and the quiet moves tried at depth d
/// before the rest are skipped (`(LMP_BASE + LMP_PER_DEPTH * d * d)`, halved
/// when the position is not improving).
pub const LMP_MAX_DEPTH: i32 = 6;
pub const LMP_BASE: usize = 3;
pub const LMP_PER_DEPTH: usize = 1;

/// Futility pruning of quiet moves: deepest (reduced) depth, and the margin
/// the evaluation must miss alpha by (`FUTILITY_BASE + FUTILITY_MARGIN * depth`).
pub const FUTILITY_MAX_DEPTH: i32 = 8;
pub const FUTILITY_BASE: i32 = 100;
pub const FUTILITY_MARGIN: i32 = 120;

/// SEE pruning: deepest depth; captures losing more than
/// `SEE_CAPTURE_MARGIN * depth^2`, quiets losing more than `SEE_QUIET_MARGIN * depth`.
pub const SEE_PRUNE_MAX_DEPTH: i32 = 8;
pub const SEE_CAPTURE_MARGIN: i32 = 25;
pub const SEE_QUIET_MARGIN: i32 = 60;

/// Late move reductions: `LMR_BASE + ln(depth) ln(move number) / LMR_DIVISOR`,
/// from this depth and move number on.
pub const LMR_MIN_DEPTH: i32 = 3;
pub const LMR_MIN_MOVE: usize = 3;
pub const LMR_BASE: f64 = 0.5;
pub const LMR_DIVISOR: f64 = 2.25;
/// History (butterfly plus continuation, up to 3 x HISTORY_MAX) per ply of reduction less.
pub const LMR_HISTORY_DIVISOR: i32 = 8192;

/// Singular extensions: shallowest depth, how much shallower the table's
/// entry may be, and the margin below its value per ply of depth.
pub const SE_MIN_DEPTH: i32 = 8;
pub const SE_TT_DEPTH_MARGIN: i32 = 3;
pub const SE_MARGIN_PER_DEPTH: i32 = 2;

/// Check extensions stop past this ply (so checks cannot extend forever).
pub const CHECK_EXTENSION_MAX_PLY: usize = MAX_PLY / 2;

/// History: the largest bonus (reached at depth 20) and the bound the
/// gravity formula keeps every entry within.
pub const HISTORY_BONUS_MAX: i32 = 400;
pub const HISTORY_MAX: i32 = 16384;

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
        Some(&r) => r,
        None => reduction_formula(depth, n),
    }
}

fn reduction_formula(depth: i32, n: usize) -> i32 {
    let r = LMR_BASE + (depth as f64).ln() * (n as f64).ln() / LMR_DIVISOR;
    r as i32
}

/// [`reduction_formula`] for the depths and move numbers most nodes see,
/// computed once (the logarithms cost more than the lookup).
static REDUCTIONS: once_cell::sync::Lazy<Box<[[i32; 256]; 64]>> = once_cell::sync::Lazy::new(|| {
    let mut t = Box::new([[0; 256]; 64]);
    for (depth, row) in t.iter_mut().enumerate() {
        for (n, r) in row.iter_mut().enumerate() {
            *r = reduction_formula(depth as i32, n);
        }
    }
    t
});

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
