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

/// Soft limit (do not start another iteration past it) and hard limit (stop now).
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    pub start: Instant,
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
}

/// Milliseconds kept back from each move's time for the protocol round
/// trip and the GUI's lag (option `Move Overhead`; Stockfish's default).
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 10;
/// The most `Move Overhead` may keep back (Stockfish's bound).
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5000;
/// Moves planned beyond those left (a bank against a long game).
const PLAN_EXTRA_MOVES: u64 = 2;
/// Another iteration starts while the time spent is below this fraction of
/// the soft limit (scaled by the best move's instability): it usually takes
/// longer than all iterations before it.
const ITERATION_START_FRACTION: f64 = 0.6;
/// The instability scale: its value for a best move that has not changed
/// lately, what each recent change adds, and its ceiling.
const STABLE_SCALE: f64 = 0.8;
const SCALE_PER_CHANGE: f64 = 0.8;
const MAX_SCALE: f64 = 2.0;

impl TimeManager {
    /// `side` is the side to move; `moves_hint` the expected number of
    /// moves left when `movestogo` is absent (the variant's guess).
    pub fn new(limits: &Limits, side: usize, moves_hint: u32) -> Self {
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
            return TimeManager { start, soft: None, hard: None };
        };
        let inc = inc.unwrap_or(0);
        let mtg = limits.movestogo.unwrap_or(moves_hint).clamp(1, 80) as u64;
        // What may be spent: the clock less the move overhead. Planning a
        // few moves more than are left keeps a bank, so with an increment the
        // clock settles at several increments instead of near zero.
        let avail = time.saturating_sub(overhead);
        // A byoyomi is this move's on top of the clock (less the overhead
        // the clock could not cover): planned as an increment, and inside
        // the hard limit in full.
        // (Saturating: a clock from input may be as large as u64 holds.)
        let byo = time.saturating_add(byoyomi).saturating_sub(overhead) - avail;
        let soft = (avail / (mtg + PLAN_EXTRA_MOVES))
            .saturating_add(inc.saturating_add(byo).saturating_mul(3) / 4)
            .min((avail / 4).saturating_add(byo.saturating_mul(3) / 4));
        let hard = soft.saturating_mul(3).min((avail / 4).saturating_add(byo)).max(soft);
        TimeManager {
            start,
            soft: Some(Duration::from_millis(soft.max(1))),
            hard: Some(Duration::from_millis(hard.max(1))),
        }
    }
    /// A fixed time to use up, at most half of it kept back as the move
    /// overhead: no soft limit, only the hard stop.
    fn fixed(start: Instant, ms: u64, overhead: u64) -> Self {
        let t = Duration::from_millis(ms.saturating_sub(overhead.min(ms / 2)).max(1));
        TimeManager { start, soft: None, hard: Some(t) }
    }
    /// Whether another iteration is worth starting, given how unsettled the
    /// best move is (see [`Stability`]).
    pub fn may_start_iteration(&self, stability: &Stability) -> bool {
        self.soft.is_none_or(|s| {
            self.elapsed().as_secs_f64() < s.as_secs_f64() * ITERATION_START_FRACTION * stability.scale()
        })
    }
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
    pub fn past_hard(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }
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
    fn fast_control_leaves_most_time() {
        let l = Limits { wtime: Some(1000), winc: Some(10), ..Default::default() };
        let tm = TimeManager::new(&l, 0, 30);
        // 990 ms (the default overhead of 10 kept back) to plan with over
        // 32 moves, plus three quarters of the increment.
        assert_eq!(tm.soft.unwrap().as_millis(), 30 + 7);
        assert_eq!(tm.hard.unwrap().as_millis(), 111);
        // Nearly out of time: a quarter of what is left after the overhead.
        let low = Limits { wtime: Some(70), winc: Some(10), ..Default::default() };
        assert_eq!(TimeManager::new(&low, 0, 30).hard.unwrap().as_millis(), 15);
        let m = Limits { movetime: Some(500), ..Default::default() };
        assert_eq!(TimeManager::new(&m, 1, 30).hard.unwrap().as_millis(), 490);
        assert!(TimeManager::new(&Limits::depth(3), 0, 30).hard.is_none());
    }

    /// `Move Overhead` is taken off the clock before the budget is planned,
    /// and off a fixed move time (at most half of it).
    #[test]
    fn move_overhead_is_kept_back() {
        let budget = |overhead: Option<u64>, clock: u64| {
            let l = Limits { btime: Some(clock), move_overhead: overhead, ..Default::default() };
            let tm = TimeManager::new(&l, 1, 30);
            (tm.soft.unwrap().as_millis(), tm.hard.unwrap().as_millis())
        };
        // One minute over 30 + 2 moves; the hard limit three times the soft.
        assert_eq!(budget(Some(0), 60_000), (1875, 5625));
        assert_eq!(budget(None, 60_000), (1874, 5622)); // 59990 / 32
        assert_eq!(budget(Some(10), 60_000), (1874, 5622));
        assert_eq!(budget(Some(5000), 60_000), (1718, 5154)); // 55000 / 32
        // An overhead above the clock leaves the least there is: 1 ms.
        assert_eq!(budget(Some(5000), 3000), (1, 1));
        let fixed = |overhead: Option<u64>, mt: u64| {
            let l = Limits { movetime: Some(mt), move_overhead: overhead, ..Default::default() };
            let tm = TimeManager::new(&l, 0, 30);
            (tm.soft, tm.hard.unwrap().as_millis())
        };
        assert_eq!(fixed(Some(0), 1000), (None, 1000));
        assert_eq!(fixed(None, 1000), (None, 990));
        assert_eq!(fixed(Some(400), 1000), (None, 600));
        assert_eq!(fixed(Some(5000), 1000), (None, 500));
    }

    /// USI's byoyomi: the move's time once the side's main clock is empty,
    /// whatever the other side's; on top of a main clock, inside the hard
    /// limit in full.
    #[test]
    fn byoyomi_is_the_moves_time_past_the_main_clock() {
        let budget = |btime: u64, byoyomi: u64| {
            let l = Limits { wtime: Some(60_000), btime: Some(btime), byoyomi: Some(byoyomi), ..Default::default() };
            let tm = TimeManager::new(&l, 1, 30);
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
        assert_eq!(TimeManager::new(&huge, 1, 30).hard.unwrap().as_millis(), ((u64::MAX - 10) / 4) as u128);
        let only = Limits { byoyomi: Some(1000), ..Default::default() };
        assert!(only.timed());
        assert_eq!(TimeManager::new(&only, 0, 30).hard.unwrap().as_millis(), 990);
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
