//! Time management: how long a search may run, from the `go` limits.

use crate::moves::Move;
use std::time::{Duration, Instant};

/// What `go` asked for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<i32>,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u32>,
    /// USI's byoyomi: each move's time once the main clock is used up
    /// (never banked), for both sides.
    pub byoyomi: Option<u64>,
    pub mate: Option<i32>,
    pub infinite: bool,
    pub ponder: bool,
    pub searchmoves: Vec<String>,
    /// Milliseconds kept back from the move's time (option `Move
    /// Overhead`); `None`: [`DEFAULT_MOVE_OVERHEAD_MS`].
    pub move_overhead: Option<u64>,
    /// A strength level below full strength (set by the engine from its
    /// options, with the level's node budget in `nodes`).
    pub skill: Option<Box<crate::search::skill::SkillChoice>>,
}

impl Limits {
    pub fn depth(d: i32) -> Self {
        Limits { depth: Some(d), ..Default::default() }
    }
    /// Whether the clock limits the search at all.
    pub fn timed(&self) -> bool {
        self.movetime.is_some() || self.wtime.is_some() || self.btime.is_some() || self.byoyomi.is_some()
    }
}

/// How a variant spreads its clock over the game's moves
/// (`EngineVariant::TIME_PLAN`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimePlan {
    /// The clock shared evenly over the moves left (`movestogo`, or this
    /// many) and two more as a bank, plus three quarters of the increment;
    /// at most a quarter of the clock, the hard limit three times that.
    Even { moves: u32 },
    /// Stockfish's: the clock and the increments of the next 49 moves, a
    /// share of it that grows with the game's ply (the opening is cheap),
    /// a hard limit of several times that within four fifths of the clock.
    ByPly,
}

/// Soft limit (do not start another iteration past it) and hard limit (stop now).
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    pub start: Instant,
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
    /// Another iteration starts while the time spent is below this fraction
    /// of the soft limit (scaled by the best move's instability).
    start_fraction: f64,
}

/// Milliseconds kept back from each move's time for the protocol round
/// trip and the GUI's lag (option `Move Overhead`; Stockfish's default).
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 10;
/// The most `Move Overhead` may keep back (Stockfish's bound).
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5000;
/// [`TimePlan::Even`]: moves planned beyond those left (a bank against a
/// long game).
const EVEN_EXTRA_MOVES: u64 = 2;
/// [`TimePlan::ByPly`]: the longest horizon the clock is planned over, in moves (without
/// `movestogo`, or with more than this).
const PLAN_HORIZON: u64 = 50;
/// Below one second on the clock the horizon shrinks to this many moves a
/// second, so the last of the clock is not spread over 50 moves.
const LOW_CLOCK_MOVES_PER_SECOND: f64 = 50.0;
/// Sudden death (no `movestogo`): the share of the planned time a move
/// may use, `PLY_SHARE_BASE + PLY_SHARE_RATE * (ply + 3)^PLY_SHARE_POWER`,
/// grows with the game's ply (the opening is cheap, the middlegame where
/// games are decided gets more), at most `MAX_CLOCK_SHARE` of the clock.
const PLY_SHARE_BASE: f64 = 0.0120;
const PLY_SHARE_RATE: f64 = 0.0039;
const PLY_SHARE_POWER: f64 = 0.45;
const MAX_CLOCK_SHARE: f64 = 0.2;
/// The hard limit: `HARD_BASE + ply / HARD_PLIES_PER_STEP` times the
/// optimum (at most `HARD_MAX`), within `HARD_CLOCK_SHARE` of the clock.
const HARD_BASE: f64 = 4.0;
const HARD_PLIES_PER_STEP: f64 = 12.0;
const HARD_MAX: f64 = 7.0;
const HARD_CLOCK_SHARE: f64 = 0.8;
/// Another iteration starts while the time spent is below this fraction of
/// the soft limit (scaled by the best move's instability): it usually takes
/// longer than all iterations before it. [`TimePlan::ByPly`]'s soft limit is
/// the optimum move time; [`TimePlan::Even`]'s a larger share of the clock.
const BY_PLY_START_FRACTION: f64 = 0.8;
const EVEN_START_FRACTION: f64 = 0.48;
/// The instability scale: its value for a best move that has not changed
/// lately, what each recent change adds, and its ceiling.
const STABLE_SCALE: f64 = 1.0;
const SCALE_PER_CHANGE: f64 = 1.0;
const MAX_SCALE: f64 = 2.5;

impl TimeManager {
    /// `side` is the side to move and `ply` the game's ply (0 at the
    /// start; [`TimePlan::ByPly`] gives a move more of the clock as it grows).
    pub fn new(limits: &Limits, side: usize, ply: u32, time_plan: TimePlan) -> Self {
        let start = Instant::now();
        let overhead = limits.move_overhead.unwrap_or(DEFAULT_MOVE_OVERHEAD_MS);
        if let Some(mt) = limits.movetime {
            return Self::fixed(start, mt, overhead);
        }
        let (time, inc) = if side == 0 { (limits.wtime, limits.winc) } else { (limits.btime, limits.binc) };
        let byoyomi = limits.byoyomi.unwrap_or(0);
        if byoyomi > 0 && time.is_none_or(|t| t == 0) {
            // The main clock is used up: the byoyomi is this move's time,
            // lost if it is not spent.
            return Self::fixed(start, byoyomi, overhead);
        }
        let Some(time) = time else {
            return TimeManager { start, soft: None, hard: None, start_fraction: BY_PLY_START_FRACTION };
        };
        // A byoyomi is this move's on top of the clock (less the overhead
        // the clock could not cover): three quarters of it in the soft
        // limit, as an increment would be, and all of it in the hard limit.
        // (Saturating: a clock from input may be as large as u64 holds.)
        let byo = time.saturating_add(byoyomi).saturating_sub(overhead) - time.saturating_sub(overhead);
        let inc = inc.unwrap_or(0);
        let (soft, hard, start_fraction) = match time_plan {
            TimePlan::Even { moves } => {
                let (soft, hard) = plan_even(time, inc, byo, limits.movestogo.unwrap_or(moves), overhead);
                (soft, hard, EVEN_START_FRACTION)
            }
            TimePlan::ByPly => {
                let (optimum, hard) = plan_by_ply(time, inc, limits.movestogo, overhead, ply);
                let optimum = optimum.min(hard).saturating_add(byo.saturating_mul(3) / 4);
                (optimum, hard.saturating_add(byo), BY_PLY_START_FRACTION)
            }
        };
        TimeManager {
            start,
            soft: Some(Duration::from_millis(soft)),
            hard: Some(Duration::from_millis(hard)),
            start_fraction,
        }
    }
    /// A fixed time to use up, at most half of it kept back as the move
    /// overhead: no soft limit, only the hard stop.
    fn fixed(start: Instant, ms: u64, overhead: u64) -> Self {
        let t = Duration::from_millis(ms.saturating_sub(overhead.min(ms / 2)).max(1));
        TimeManager { start, soft: None, hard: Some(t), start_fraction: BY_PLY_START_FRACTION }
    }
    /// Whether another iteration is worth starting, given how unsettled the
    /// best move is (see [`Stability`]) and a further `scale` of the time.
    pub fn may_start_iteration(&self, stability: &Stability, scale: f64) -> bool {
        self.soft.is_none_or(|s| {
            self.elapsed().as_secs_f64() < s.as_secs_f64() * self.start_fraction * stability.scale() * scale
        })
    }
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
    pub fn past_hard(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }
}

/// [`TimePlan::Even`]'s soft and hard limits of one move, in milliseconds,
/// from the clock `time` less the move overhead, the increment, the
/// byoyomi (planned as an increment, inside the hard limit in full) and
/// the moves left. Planning a few moves more than are left keeps a bank,
/// so with an increment the clock settles at several increments instead
/// of near zero.
fn plan_even(time: u64, inc: u64, byo: u64, moves_left: u32, overhead: u64) -> (u64, u64) {
    let mtg = u64::from(moves_left.clamp(1, 80));
    let avail = time.saturating_sub(overhead);
    let soft = (avail / (mtg + EVEN_EXTRA_MOVES))
        .saturating_add(inc.saturating_add(byo).saturating_mul(3) / 4)
        .min((avail / 4).saturating_add(byo.saturating_mul(3) / 4));
    let hard = soft.saturating_mul(3).min((avail / 4).saturating_add(byo)).max(soft);
    (soft.max(1), hard.max(1))
}

/// [`TimePlan::ByPly`]'s optimum and hard limit of one move, in
/// milliseconds, from the clock `time`, the increment, `movestogo`, the
/// move overhead and the game's ply. The clock is planned as what is left
/// over the horizon: the clock plus the increments to come, less an
/// overhead for each move.
fn plan_by_ply(time: u64, inc: u64, movestogo: Option<u32>, overhead: u64, ply: u32) -> (u64, u64) {
    let mut mtg = movestogo.map_or(PLAN_HORIZON, |m| u64::from(m).clamp(1, PLAN_HORIZON));
    if time < 1000 {
        mtg = mtg.min((time as f64 * LOW_CLOCK_MOVES_PER_SECOND / 1000.0) as u64).max(1);
    }
    let left = time.saturating_add(inc.saturating_mul(mtg - 1)).saturating_sub(overhead * (2 + mtg)).max(1) as f64;
    let (time, ply) = (time as f64, f64::from(ply));
    let (share, hard_scale) = match movestogo {
        None => (
            (PLY_SHARE_BASE + PLY_SHARE_RATE * (ply + 3.0).powf(PLY_SHARE_POWER)).min(MAX_CLOCK_SHARE * time / left),
            (HARD_BASE + ply / HARD_PLIES_PER_STEP).min(HARD_MAX),
        ),
        // A fixed number of moves: the moves left share the clock evenly,
        // a little more as the game goes on.
        Some(_) => {
            let mtg = mtg as f64;
            (((0.88 + ply / 116.4) / mtg).min(0.88 * time / left), (1.5 + 0.11 * mtg).min(6.3))
        }
    };
    let optimum = (share * left).max(1.0);
    let hard = (hard_scale * optimum).min(HARD_CLOCK_SHARE * time - overhead as f64).max(1.0);
    (optimum as u64, hard as u64)
}

/// How often the main thread's best move changed in recent iterations
/// (each iteration halves the count): an unsettled choice earns more time.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stability {
    changes: f64,
    last: Option<Move>,
}

impl Stability {
    /// After an iteration whose best move is `best`.
    pub fn update(&mut self, best: Move) {
        self.changes /= 2.0;
        if self.last.is_some_and(|m| m != best) {
            self.changes += 1.0;
        }
        self.last = Some(best);
    }
    /// The factor on the soft limit.
    pub fn scale(&self) -> f64 {
        (STABLE_SCALE + SCALE_PER_CHANGE * self.changes).min(MAX_SCALE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn by_ply_fast_control_leaves_most_time() {
        let l = Limits { wtime: Some(1000), winc: Some(10), ..Default::default() };
        let tm = TimeManager::new(&l, 0, 0, TimePlan::ByPly);
        // The clock plus 49 increments less 52 overheads of 10 ms: 970 ms,
        // of which the first move gets 0.0120 + 0.0039 * 3^0.45 (1.8%),
        // and at most four times that.
        assert_eq!(tm.soft.unwrap().as_millis(), 17);
        assert_eq!(tm.hard.unwrap().as_millis(), 71);
        // Nearly out of time: the horizon shrinks to 3 moves.
        let low = Limits { wtime: Some(70), winc: Some(10), ..Default::default() };
        let tm = TimeManager::new(&low, 0, 0, TimePlan::ByPly);
        assert_eq!((tm.soft.unwrap().as_millis(), tm.hard.unwrap().as_millis()), (1, 4));
        let m = Limits { movetime: Some(500), ..Default::default() };
        assert_eq!(TimeManager::new(&m, 1, 0, TimePlan::ByPly).hard.unwrap().as_millis(), 490);
        assert!(TimeManager::new(&Limits::depth(3), 0, 0, TimePlan::ByPly).hard.is_none());
    }

    /// The share of the clock grows with the game's ply: 10 s + 0.1 s at
    /// the first move, at move 11 with 8.5 s left, at move 31 with 4 s and
    /// at move 51 with 1.5 s; the hard limit 4 + ply / 12 times the optimum.
    #[test]
    fn the_middlegame_gets_more_than_the_opening() {
        let budget = |clock: u64, ply: u32| {
            let l = Limits { wtime: Some(clock), winc: Some(100), ..Default::default() };
            let tm = TimeManager::new(&l, 0, ply, TimePlan::ByPly);
            (tm.soft.unwrap().as_millis(), tm.hard.unwrap().as_millis())
        };
        assert_eq!(budget(10_000, 0), (264, 1058));
        assert_eq!(budget(8_500, 20), (360, 2042));
        assert_eq!(budget(4_000, 60), (311, 2180));
        assert_eq!(budget(1_500, 100), (255, 1190));
        // `movestogo`: the moves left share the clock (20 moves: 4.4% of
        // it); the last one gets four fifths of the clock, the hard limit.
        let mtg = |n: u32| {
            let l = Limits { wtime: Some(60_000), movestogo: Some(n), ..Default::default() };
            let tm = TimeManager::new(&l, 0, 0, TimePlan::ByPly);
            (tm.soft.unwrap().as_millis(), tm.hard.unwrap().as_millis())
        };
        assert_eq!(mtg(20), (2630, 9732));
        assert_eq!(mtg(1), (47990, 47990));
    }

    /// `Move Overhead` is taken off the clock once for each move planned
    /// (and twice more), and off a fixed move time (at most half of it).
    #[test]
    fn by_ply_move_overhead_is_kept_back() {
        let budget = |overhead: Option<u64>, clock: u64, ply: u32| {
            let l = Limits { btime: Some(clock), move_overhead: overhead, ..Default::default() };
            let tm = TimeManager::new(&l, 1, ply, TimePlan::ByPly);
            (tm.soft.unwrap().as_millis(), tm.hard.unwrap().as_millis())
        };
        assert_eq!(budget(Some(0), 60_000, 0), (1103, 4414));
        assert_eq!(budget(None, 60_000, 0), (1094, 4376));
        assert_eq!(budget(Some(10), 60_000, 0), (1094, 4376));
        assert_eq!(budget(Some(0), 60_000, 40), (1991, 13939));
        // 52 overheads above the clock leave the least there is.
        assert_eq!(budget(Some(5000), 60_000, 0), (1, 4));
        assert_eq!(budget(Some(5000), 3000, 0), (1, 1));
        // A fixed move time is the same under either plan.
        for plan in [TimePlan::ByPly, EVEN] {
            let fixed = |overhead: Option<u64>, mt: u64| {
                let l = Limits { movetime: Some(mt), move_overhead: overhead, ..Default::default() };
                let tm = TimeManager::new(&l, 0, 0, plan);
                (tm.soft, tm.hard.unwrap().as_millis())
            };
            assert_eq!(fixed(Some(0), 1000), (None, 1000));
            assert_eq!(fixed(None, 1000), (None, 990));
            assert_eq!(fixed(Some(400), 1000), (None, 600));
            assert_eq!(fixed(Some(5000), 1000), (None, 500));
        }
    }

    /// USI's byoyomi: the move's time once the side's main clock is empty,
    /// whatever the other side's; on top of a main clock, three quarters
    /// of it in the optimum and all of it in the hard limit.
    #[test]
    fn by_ply_byoyomi_is_the_moves_time_past_the_main_clock() {
        let budget = |btime: u64, byoyomi: u64| {
            let l = Limits { wtime: Some(60_000), btime: Some(btime), byoyomi: Some(byoyomi), ..Default::default() };
            let tm = TimeManager::new(&l, 1, 30, TimePlan::ByPly);
            (tm.soft.map(|s| s.as_millis()), tm.hard.unwrap().as_millis())
        };
        assert_eq!(budget(0, 3000), (None, 2990));
        // 50 ms of clock: a horizon of 2 moves, 1 ms planned of it (and 6
        // at most), + 2250 and + 3000 of the byoyomi.
        assert_eq!(budget(50, 3000), (Some(2251), 3006));
        // 5 ms of clock: the byoyomi carries the other 5 of the overhead.
        assert_eq!(budget(5, 3000), (Some(2247), 2996));
        // A long main clock at ply 30: 3.4% of 59480 + 75; the hard limit
        // 6.5 times the clock's share + 100.
        assert_eq!(budget(60_000, 100), (Some(1907), 12011));
        // Clocks as large as input can give do not overflow.
        let huge =
            Limits { btime: Some(u64::MAX), binc: Some(u64::MAX), byoyomi: Some(u64::MAX), ..Default::default() };
        // (No byoyomi is left past such a clock; the hard limit is 6.5 times
        // 3.4% of it.)
        let hard = TimeManager::new(&huge, 1, 30, TimePlan::ByPly).hard.unwrap().as_millis();
        assert!(hard > (u64::MAX / 5) as u128 && hard < (u64::MAX / 4) as u128, "{hard}");
        let only = Limits { byoyomi: Some(1000), ..Default::default() };
        assert!(only.timed());
        assert_eq!(TimeManager::new(&only, 0, 30, TimePlan::ByPly).hard.unwrap().as_millis(), 990);
    }

    /// The even plan over 30 moves (the variants outside the chess family but Ita).
    const EVEN: TimePlan = TimePlan::Even { moves: 30 };

    #[test]
    fn even_fast_control_leaves_most_time() {
        let l = Limits { wtime: Some(1000), winc: Some(10), ..Default::default() };
        let tm = TimeManager::new(&l, 0, 0, EVEN);
        // Another iteration while under 0.48 of the soft limit (times the
        // best move's instability), as before the plans were two.
        assert_eq!(tm.start_fraction, EVEN_START_FRACTION);
        // 990 ms (the default overhead of 10 kept back) to plan with over
        // 32 moves, plus three quarters of the increment.
        assert_eq!(tm.soft.unwrap().as_millis(), 30 + 7);
        assert_eq!(tm.hard.unwrap().as_millis(), 111);
        // Nearly out of time: a quarter of what is left after the overhead.
        let low = Limits { wtime: Some(70), winc: Some(10), ..Default::default() };
        assert_eq!(TimeManager::new(&low, 0, 0, EVEN).hard.unwrap().as_millis(), 15);
        let m = Limits { movetime: Some(500), ..Default::default() };
        assert_eq!(TimeManager::new(&m, 1, 0, EVEN).hard.unwrap().as_millis(), 490);
        assert!(TimeManager::new(&Limits::depth(3), 0, 0, EVEN).hard.is_none());
    }

    /// `Move Overhead` is taken off the clock before the budget is planned,
    /// and off a fixed move time (at most half of it).
    #[test]
    fn even_move_overhead_is_kept_back() {
        let budget = |overhead: Option<u64>, clock: u64| {
            let l = Limits { btime: Some(clock), move_overhead: overhead, ..Default::default() };
            let tm = TimeManager::new(&l, 1, 0, EVEN);
            (tm.soft.unwrap().as_millis(), tm.hard.unwrap().as_millis())
        };
        // One minute over 30 + 2 moves; the hard limit three times the soft.
        assert_eq!(budget(Some(0), 60_000), (1875, 5625));
        assert_eq!(budget(None, 60_000), (1874, 5622)); // 59990 / 32
        assert_eq!(budget(Some(10), 60_000), (1874, 5622));
        assert_eq!(budget(Some(5000), 60_000), (1718, 5154)); // 55000 / 32
        // An overhead above the clock leaves the least there is: 1 ms.
        assert_eq!(budget(Some(5000), 3000), (1, 1));
    }

    /// USI's byoyomi: the move's time once the side's main clock is empty,
    /// whatever the other side's; on top of a main clock, inside the hard
    /// limit in full.
    #[test]
    fn even_byoyomi_is_the_moves_time_past_the_main_clock() {
        let budget = |btime: u64, byoyomi: u64| {
            let l = Limits { wtime: Some(60_000), btime: Some(btime), byoyomi: Some(byoyomi), ..Default::default() };
            let tm = TimeManager::new(&l, 1, 0, EVEN);
            (tm.soft.map(|s| s.as_millis()), tm.hard.unwrap().as_millis())
        };
        assert_eq!(budget(0, 3000), (None, 2990));
        // 40 ms of clock after the overhead: 1 + 2250 planned, the hard
        // limit 10 + 3000.
        assert_eq!(budget(50, 3000), (Some(2251), 3010));
        // 5 ms of clock: the byoyomi carries the other 5 of the overhead.
        assert_eq!(budget(5, 3000), (Some(2246), 2995));
        // A long main clock: 59990 / 32 + 75; the hard limit three times it.
        assert_eq!(budget(60_000, 100), (Some(1949), 5847));
        // Clocks as large as input can give do not overflow.
        let huge =
            Limits { btime: Some(u64::MAX), binc: Some(u64::MAX), byoyomi: Some(u64::MAX), ..Default::default() };
        // (No byoyomi is left past such a clock; a quarter of it is the hard limit.)
        assert_eq!(TimeManager::new(&huge, 1, 0, EVEN).hard.unwrap().as_millis(), ((u64::MAX - 10) / 4) as u128);
        let only = Limits { byoyomi: Some(1000), ..Default::default() };
        assert!(only.timed());
        assert_eq!(TimeManager::new(&only, 0, 0, EVEN).hard.unwrap().as_millis(), 990);
    }

    #[test]
    fn a_changing_best_move_earns_time() {
        let mut s = Stability::default();
        s.update(Move(1));
        s.update(Move(1));
        assert_eq!(s.scale(), STABLE_SCALE);
        s.update(Move(2)); // one change: 1
        assert_eq!(s.scale(), STABLE_SCALE + SCALE_PER_CHANGE);
        s.update(Move(2)); // halved: 0.5
        assert_eq!(s.scale(), STABLE_SCALE + SCALE_PER_CHANGE / 2.0);
        s.update(Move(3));
        s.update(Move(4)); // 0.25 + 1 halved, + 1: 1.625
        assert_eq!(s.scale(), MAX_SCALE);
    }
}
