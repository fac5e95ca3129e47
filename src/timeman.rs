//! Time management: how long a search may run, from the `go` limits.

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
    pub mate: Option<i32>,
    pub infinite: bool,
    pub ponder: bool,
    pub searchmoves: Vec<String>,
}

impl Limits {
    pub fn depth(d: i32) -> Self {
        Limits { depth: Some(d), ..Default::default() }
    }
    /// Whether the clock limits the search at all.
    pub fn timed(&self) -> bool {
        self.movetime.is_some() || self.wtime.is_some() || self.btime.is_some()
    }
}

/// Soft limit (do not start another iteration past it) and hard limit (stop now).
#[derive(Clone, Copy, Debug)]
pub struct TimeManager {
    pub start: Instant,
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
}

/// Milliseconds kept back for the protocol round trip.
pub const MOVE_OVERHEAD_MS: u64 = 30;

impl TimeManager {
    /// `side` is the side to move; `moves_hint` the expected number of
    /// moves left when `movestogo` is absent (the variant's guess).
    pub fn new(limits: &Limits, side: usize, moves_hint: u32) -> Self {
        let start = Instant::now();
        if let Some(mt) = limits.movetime {
            let t = Duration::from_millis(mt.saturating_sub(MOVE_OVERHEAD_MS.min(mt / 2)).max(1));
            // A fixed time is used up: no soft limit, only the hard stop.
            return TimeManager { start, soft: None, hard: Some(t) };
        }
        let (time, inc) = if side == 0 { (limits.wtime, limits.winc) } else { (limits.btime, limits.binc) };
        let Some(time) = time else {
            return TimeManager { start, soft: None, hard: None };
        };
        let inc = inc.unwrap_or(0);
        let mtg = limits.movestogo.unwrap_or(moves_hint).clamp(1, 80) as u64;
        // What may be spent: the clock less the protocol overhead. Planning a
        // few moves more than are left keeps a bank, so with an increment the
        // clock settles at several increments instead of near zero.
        let avail = time.saturating_sub(MOVE_OVERHEAD_MS);
        let soft = (avail / (mtg + 5) + inc / 2).min(avail / 4);
        let hard = (soft * 3).min(avail / 4).max(soft);
        TimeManager {
            start,
            soft: Some(Duration::from_millis(soft.max(1))),
            hard: Some(Duration::from_millis(hard.max(1))),
        }
    }
    /// Whether another iteration is worth starting: it usually takes longer
    /// than all before it, so not past half of the soft limit.
    pub fn may_start_iteration(&self) -> bool {
        self.soft.is_none_or(|s| self.elapsed() * 2 < s)
    }
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }
    pub fn past_hard(&self) -> bool {
        self.hard.is_some_and(|h| self.elapsed() >= h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn fast_control_leaves_most_time() {
        let l = Limits { wtime: Some(1000), winc: Some(10), ..Default::default() };
        let tm = TimeManager::new(&l, 0, 30);
        // 970 ms to plan with over 35 moves, plus half the increment.
        assert_eq!(tm.soft.unwrap().as_millis(), 32);
        assert_eq!(tm.hard.unwrap().as_millis(), 96);
        // Nearly out of time: a quarter of what is left after the overhead.
        let low = Limits { wtime: Some(70), winc: Some(10), ..Default::default() };
        assert_eq!(TimeManager::new(&low, 0, 30).hard.unwrap().as_millis(), 10);
        let m = Limits { movetime: Some(500), ..Default::default() };
        assert_eq!(TimeManager::new(&m, 1, 30).hard.unwrap().as_millis(), 470);
        assert!(TimeManager::new(&Limits::depth(3), 0, 30).hard.is_none());
    }
}
