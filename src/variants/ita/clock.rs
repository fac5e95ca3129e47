//! Ita's clocks: five time modes, some regenerating time every few own
//! moves (see `docs/rules/ita.md`). The match runner keeps such clocks and
//! the engine plans with them ([`ItaTimeMode::plan`]).

use crate::timeman::Limits;
use crate::variants::ClockModes;

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
    /// Every mode, the default first.
    pub const ALL: [ItaTimeMode; 5] =
        [ItaTimeMode::Peaceful, ItaTimeMode::Easy, ItaTimeMode::Medium, ItaTimeMode::Hard, ItaTimeMode::Hardcore];
    /// The modes' names, as `ItaTimeMode` takes them.
    pub const NAMES: [&'static str; 5] = ["peaceful", "easy", "medium", "hard", "hardcore"];

    pub fn parse(s: &str) -> Option<ItaTimeMode> {
        Self::NAMES.iter().position(|n| *n == s).map(|i| Self::ALL[i])
    }
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
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

/// Ita's clocks as the engine and the match runner ask for them.
pub static CLOCK_MODES: ClockModes = ClockModes {
    option: "ItaTimeMode",
    tc_prefix: "ita",
    modes: &ItaTimeMode::NAMES,
    start_ms: |mode, color| ItaTimeMode::ALL.get(mode).and_then(|m| m.start_ms(color)),
    regeneration: |mode| ItaTimeMode::ALL.get(mode).and_then(|m| m.regeneration()),
};

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
        assert_eq!(ItaTimeMode::parse("slow"), None);
        assert_eq!(ItaTimeMode::Hardcore.name(), "hardcore");
        assert_eq!(CLOCK_MODES.find("hard"), Some(3));
        assert_eq!((CLOCK_MODES.start_ms)(3, 1), ItaTimeMode::Hard.start_ms(1));
        assert_eq!((CLOCK_MODES.regeneration)(1), Some((6, 5 * DEGREE_MS)));
    }
}
