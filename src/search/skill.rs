//! Strength levels (`Skill Level`, `UCI_LimitStrength` + `UCI_Elo`): a
//! weaker engine searches less and then plays one of the near-best moves,
//! as Stockfish's `Skill` does; it never plays a move chosen at random from
//! all the legal ones.
//!
//! A level below [`FULL_STRENGTH`] gives the search
//! - a node budget ([`Level::nodes`], a multiple of the node count at which
//!   the search looks at its limits, so a search that is not stopped sooner
//!   searches exactly that many nodes), and
//! - an internal MultiPV of [`Level::lines`] root moves: after the search
//!   (never inside it) one of the lines whose score is within
//!   [`Level::margin`] centipawns of the best is played, drawn with a weight
//!   that falls linearly from the best line's to nothing at the margin, by a
//!   seeded generator ([`Skill::pick`]), so games vary but a seed repeats.
//!
//! A mate or a lost piece is far outside every margin: a level misses what
//! its budget does not see, and then chooses among moves its search found
//! about as good. The table is the same for every variant. What each level
//! measures in games is in `docs/levels.md`.

use crate::rng::SplitMix64;

/// The level that plays at full strength: no budget, no choice.
pub const FULL_STRENGTH: i32 = 20;
/// The lowest level (Fairy-Stockfish's negative levels are for beginners).
pub const LOWEST: i32 = -10;

/// One row of the level table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub level: i32,
    /// Nodes the search may use (a multiple of 1024).
    pub nodes: u64,
    /// Root moves searched as separate lines (internal MultiPV).
    pub lines: usize,
    /// How far below the best line's score (centipawns) a line may be and
    /// still be played.
    pub margin: i32,
    /// The level's rating on calvin's own scale (`UCI_Elo`).
    pub elo: i32,
}

const fn row(level: i32, nodes: u64, lines: usize, margin: i32, elo: i32) -> Level {
    Level { level, nodes, lines, margin, elo }
}

/// The levels below full strength, lowest first (`LEVELS[i].level == LOWEST + i`).
/// Level 20 is the engine itself: [`FULL_ELO`].
pub const LEVELS: [Level; (FULL_STRENGTH - LOWEST) as usize] = [
    row(-10, 1024, 16, 1200, 400),
    row(-9, 1024, 15, 1100, 450),
    row(-8, 1024, 14, 1000, 500),
    row(-7, 1024, 13, 900, 550),
    row(-6, 1024, 12, 800, 600),
    row(-5, 1024, 11, 700, 650),
    row(-4, 1024, 10, 600, 700),
    row(-3, 1024, 9, 500, 750),
    row(-2, 1024, 8, 400, 800),
    row(-1, 1024, 7, 320, 850),
    row(0, 1024, 6, 260, 900),
    row(1, 2048, 6, 230, 980),
    row(2, 2048, 5, 200, 1060),
    row(3, 3072, 5, 180, 1140),
    row(4, 4096, 5, 160, 1220),
    row(5, 5120, 4, 140, 1300),
    row(6, 7168, 4, 120, 1380),
    row(7, 9216, 4, 105, 1460),
    row(8, 12288, 4, 90, 1540),
    row(9, 16384, 4, 80, 1620),
    row(10, 20480, 4, 70, 1700),
    row(11, 28672, 4, 60, 1780),
    row(12, 36864, 4, 50, 1860),
    row(13, 49152, 4, 42, 1940),
    row(14, 65536, 4, 35, 2020),
    row(15, 90112, 4, 28, 2100),
    row(16, 122880, 4, 22, 2180),
    row(17, 163840, 4, 16, 2260),
    row(18, 229376, 4, 10, 2340),
    row(19, 327680, 4, 5, 2420),
];

/// `UCI_Elo` of full strength (level 20), the top of its range.
pub const FULL_ELO: i32 = 2500;
/// The bottom of `UCI_Elo`'s range: the lowest level's.
pub const MIN_ELO: i32 = LEVELS[0].elo;

/// How a weakened search is limited and chooses its move: a table row, or
/// between two rows for a `UCI_Elo` between theirs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    pub nodes: u64,
    pub lines: usize,
    pub margin: i32,
}

impl Skill {
    /// The skill of a level; `None` at full strength (and above).
    pub fn level(level: i32) -> Option<Skill> {
        if level >= FULL_STRENGTH {
            return None;
        }
        let r = LEVELS[(level.max(LOWEST) - LOWEST) as usize];
        Some(Skill { nodes: r.nodes, lines: r.lines, margin: r.margin })
    }

    /// The skill of a rating: the table interpolated linearly between the
    /// two levels around `elo` (a table point gives its level exactly);
    /// `None` at [`FULL_ELO`]. The node budget stays a multiple of 1024.
    pub fn from_elo(elo: i32) -> Option<Skill> {
        if elo >= FULL_ELO {
            return None;
        }
        let elo = elo.max(MIN_ELO);
        let i = LEVELS.iter().rposition(|r| r.elo <= elo).unwrap_or(0);
        let lo = LEVELS[i];
        if elo == lo.elo {
            return Skill::level(lo.level);
        }
        // Above the last row: between level 19 and full strength, whose
        // budget counts as twice level 19's and whose margin is none.
        let (hi_elo, hi_nodes, hi_margin) = match LEVELS.get(i + 1) {
            Some(h) => (h.elo, h.nodes, h.margin),
            None => (FULL_ELO, 2 * lo.nodes, 0),
        };
        let (num, den) = ((elo - lo.elo) as i64, (hi_elo - lo.elo) as i64);
        let nodes = lo.nodes as i64 + (hi_nodes as i64 - lo.nodes as i64) * num / den;
        let margin = lo.margin as i64 + (hi_margin as i64 - lo.margin as i64) * num / den;
        Some(Skill { nodes: (nodes as u64 / 1024).max(1) * 1024, lines: lo.lines, margin: margin as i32 })
    }

    /// Which of the searched lines to play, given their scores (any order,
    /// the best need not be first): one within the margin of the best,
    /// weighted by how close it is, drawn from `seed`.
    pub fn pick(&self, scores: &[i32], seed: u64) -> usize {
        let Some(&top) = scores.iter().max() else { return 0 };
        let weight = |s: i32| {
            let loss = top as i64 - s as i64;
            if loss <= self.margin as i64 { (self.margin as i64 - loss + 1) as u64 } else { 0 }
        };
        let total: u64 = scores.iter().map(|&s| weight(s)).sum();
        let mut r = SplitMix64::new(seed).below(total.max(1) as usize) as u64;
        for (i, &s) in scores.iter().enumerate() {
            let w = weight(s);
            if r < w {
                return i;
            }
            r -= w;
        }
        scores.iter().position(|&s| s == top).unwrap_or(0)
    }
}

/// What a weakened search carries (in [`crate::timeman::Limits`]): the skill
/// and the seed of this search's choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SkillChoice {
    pub skill: Skill,
    pub seed: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_ordered_and_complete() {
        for (i, r) in LEVELS.iter().enumerate() {
            assert_eq!(r.level, LOWEST + i as i32);
            assert_eq!(r.nodes % 1024, 0, "level {}", r.level);
            assert!(r.lines >= 4 && r.margin > 0);
        }
        for w in LEVELS.windows(2) {
            assert!(w[0].nodes <= w[1].nodes && w[0].margin > w[1].margin && w[0].elo < w[1].elo);
        }
        assert!(LEVELS[LEVELS.len() - 1].elo < FULL_ELO);
        assert_eq!(Skill::level(FULL_STRENGTH), None);
        assert_eq!(Skill::level(0), Some(Skill { nodes: 1024, lines: 6, margin: 260 }));
        assert_eq!(Skill::level(-10), Some(Skill { nodes: 1024, lines: 16, margin: 1200 }));
        assert_eq!(Skill::level(19), Some(Skill { nodes: 327680, lines: 4, margin: 5 }));
    }

    /// `UCI_Elo` gives a table level exactly at its rating, and between
    /// two ratings the budget and margin in proportion.
    #[test]
    fn elo_interpolates_the_table() {
        for r in LEVELS {
            assert_eq!(Skill::from_elo(r.elo), Skill::level(r.level), "elo {}", r.elo);
        }
        assert_eq!(Skill::from_elo(FULL_ELO), None);
        assert_eq!(Skill::from_elo(MIN_ELO - 100), Skill::level(LOWEST));
        // Halfway from level 9 (1620: 16384 nodes, margin 80) to level 10
        // (1700: 20480 nodes, margin 70).
        assert_eq!(Skill::from_elo(1660), Some(Skill { nodes: 18432, lines: 4, margin: 75 }));
        // A quarter of the way from level 19 (2420) to full strength (2500).
        assert_eq!(Skill::from_elo(2440), Some(Skill { nodes: 409600, lines: 4, margin: 4 }));
    }

    /// The pick is one of the lines within the margin, the same for the
    /// same seed, and the closer a line the more often it is played.
    #[test]
    fn the_pick_stays_within_the_margin() {
        let skill = Skill { nodes: 1024, lines: 5, margin: 100 };
        let scores = [30, -500, 0, -69, 31];
        let mut counts = [0; 5];
        for seed in 0..10_000 {
            let i = skill.pick(&scores, seed);
            assert_eq!(i, skill.pick(&scores, seed));
            counts[i] += 1;
        }
        // Weights 100, 0, 70, 1, 101 of 272.
        assert_eq!(counts[1], 0);
        assert!(counts[4] > counts[2] && counts[2] > counts[3] && counts[3] > 0, "{counts:?}");
        assert!((3500..3900).contains(&counts[4]), "{counts:?}");
        // A mate is always played when the others are only good.
        assert_eq!(skill.pick(&[50, crate::score::MATE - 3, 60], 7), 1);
        assert_eq!(skill.pick(&[], 7), 0);
    }
}
