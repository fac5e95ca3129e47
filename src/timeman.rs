//! Time management: how long a search may run, from the `go` limits.

use std::time::{Duration, Instant};

/// Milliseconds in one degree of Ita's clock (360 arc-minutes = 42.12 s).
pub const DEGREE_MS: u64 = 42_120;
/// Milliseconds in one arc-minute (1/360 degree).
pub const ARCMIN_MS: u64 = DEGREE_MS / 360;

/// Ita's time modes (`docs/rules/ita.md`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ItaTimeMode {
    #[default]
    Peaceful,
    Easy,
    Medium,
    Hard,
    Hardcore,
}

impl ItaTimeMode {
    pub fn parse(s: &str) -> Option<ItaTimeMode> {
        Some(match s {
            "peaceful" => ItaTimeMode::Peaceful,
            "easy" => ItaTimeMode::Easy,
            "medium" => ItaTimeMode::Medium,
            "hard" => ItaTimeMode::Hard,
            "hardcore" => ItaTimeMode::Hardcore,
            _ => return None,
        })
    }
    pub fn name(self) -> &'static str {
        match self {
            ItaTimeMode::Peaceful => "peaceful",
            ItaTimeMode::Easy => "easy",
            ItaTimeMode::Medium => "medium",
            ItaTimeMode::Hard => "hard",
            ItaTimeMode::Hardcore => "hardcore",
        }
    }
    /// Starting time of `color` (0 = White) in ms; `None` without a clock.
    pub fn start_ms(self, color: usize) -> Option<u64> {
        let (deg, arcmin) = match (self, color) {
            (ItaTimeMode::Peaceful, _) => return None,
            (ItaTimeMode::Easy, 0) => (75, 0),
            (ItaTimeMode::Easy, _) => (80, 0),
            (ItaTimeMode::Medium, 0) => (30, 0),
            (ItaTimeMode::Medium, _) => (32, 200),
            (ItaTimeMode::Hard, 0) => (10, 180),
            (ItaTimeMode::Hard, _) => (12, 120),
            (ItaTimeMode::Hardcore, 0) => (5, 0),
            (ItaTimeMode::Hardcore, _) => (6, 0),
        };
        Some(deg * DEGREE_MS + arcmin * ARCMIN_MS)
    }
    /// Regeneration: (every how many own moves, how many ms are added).
    pub fn regeneration(self) -> Option<(u32, u64)> {
        match self {
            ItaTimeMode::Easy => Some((6, 5 * DEGREE_MS)),
            ItaTimeMode::Medium => Some((6, 3 * DEGREE_MS)),
            ItaTimeMode::Hard => Some((9, DEGREE_MS)),
            ItaTimeMode::Peaceful | ItaTimeMode::Hardcore => None,
        }
    }
    /// Limits for planning: the regeneration counts as its average
    /// increment per own move (when the GUI sent no increment of its own).
    pub fn plan(self, mut limits: Limits) -> Limits {
        if let Some((every, ms)) = self.regeneration() {
            let per_move = ms / every as u64;
            limits.winc = Some(limits.winc.unwrap_or(0).max(per_move));
            limits.binc = Some(limits.binc.unwrap_or(0).max(per_move));
        }
        limits
    }
}

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
    fn ita_regeneration_plans_as_an_increment() {
        let l = Limits { wtime: Some(600_000), btime: Some(600_000), ..Default::default() };
        // Medium: 3 degrees every 6 own moves = 21.06 s a move on average.
        let p = ItaTimeMode::Medium.plan(l.clone());
        assert_eq!((p.winc, p.binc), (Some(21_060), Some(21_060)));
        assert_eq!(ItaTimeMode::Hardcore.plan(l.clone()), l);
        assert_eq!(ItaTimeMode::Hard.start_ms(1), Some(12 * 42_120 + 120 * 117));
        assert_eq!(ItaTimeMode::parse("easy"), Some(ItaTimeMode::Easy));
    }

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
