//! Ita's clocks: five time modes, some regenerating time every few own
//! moves (see `docs/rules/ita.md`). The match runner keeps such clocks and
//! the engine plans with them ([`ItaTimeMode::plan`]).

use crate::timeman::Limits;

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
}
