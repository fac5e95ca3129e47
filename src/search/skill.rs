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
//! A mate or a lost piece is far outside the margins of levels 0 and up: a
//! level misses what its budget does not see, and then chooses among moves
//! its search found about as good. The levels below 0 (for beginners, as
//! Fairy-Stockfish's negative levels) also count a line for at most
//! [`Level::cap`] centipawns: once ahead by that much they see every
//! winning move alike, a mate included, and do not press the game home.
//! The table is the same for every variant (but Ita's levels below 0
//! choose among more lines: `EngineVariant::skill`); its ratings (`UCI_Elo`) are
//! fitted to games against Stockfish 15.1's `UCI_Elo` in chess. What each
//! level measures in games is in `docs/levels.md`.

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
    /// The most a line's score counts for in the choice ([`NO_CAP`]: its
    /// score): every gain beyond it, a mate included, looks the same, so
    /// the lowest levels do not press an advantage home.
    pub cap: i32,
    /// The level's rating (`UCI_Elo`), on Stockfish 15.1's `UCI_Elo` scale
    /// in chess: fitted to games against it at levels 0, 5, 10, 13, 16 and
    /// 19 (from 5 up a line, 45 a level), below 0 the chess ladder's steps.
    pub elo: i32,
}

/// A cap above every score: the line's score counts as it is.
pub const NO_CAP: i32 = crate::score::INF;

const fn row(level: i32, nodes: u64, lines: usize, margin: i32, cap: i32, elo: i32) -> Level {
    Level { level, nodes, lines, margin, cap, elo }
}

/// The levels below full strength, lowest first (`LEVELS[i].level == LOWEST + i`).
/// Level 20 is the engine itself: [`FULL_ELO`].
pub const LEVELS: [Level; (FULL_STRENGTH - LOWEST) as usize] = [
    row(-10, 1024, 16, 1200, 200, 540),
    row(-9, 1024, 15, 1100, 300, 560),
    row(-8, 1024, 14, 1000, 400, 580),
    row(-7, 1024, 13, 900, 500, 600),
    row(-6, 1024, 12, 800, 600, 620),
    row(-5, 1024, 11, 700, 700, 640),
    row(-4, 1024, 10, 600, 800, 660),
    row(-3, 1024, 9, 500, 900, 680),
    row(-2, 1024, 8, 400, 1000, 750),
    row(-1, 1024, 7, 320, 1100, 850),
    row(0, 1024, 6, 260, NO_CAP, 1090),
    row(1, 2048, 6, 230, NO_CAP, 1190),
    row(2, 2048, 5, 200, NO_CAP, 1290),
    row(3, 3072, 5, 180, NO_CAP, 1380),
    row(4, 4096, 5, 160, NO_CAP, 1480),
    row(5, 5120, 4, 140, NO_CAP, 1580),
    row(6, 7168, 4, 120, NO_CAP, 1620),
    row(7, 9216, 4, 105, NO_CAP, 1670),
    row(8, 12288, 4, 90, NO_CAP, 1710),
    row(9, 16384, 4, 80, NO_CAP, 1760),
    row(10, 20480, 4, 70, NO_CAP, 1800),
    row(11, 28672, 4, 60, NO_CAP, 1850),
    row(12, 36864, 4, 50, NO_CAP, 1890),
    row(13, 49152, 4, 42, NO_CAP, 1940),
    row(14, 65536, 4, 35, NO_CAP, 1980),
    row(15, 90112, 4, 28, NO_CAP, 2030),
    row(16, 122880, 4, 22, NO_CAP, 2070),
    row(17, 163840, 4, 16, NO_CAP, 2120),
    row(18, 229376, 4, 10, NO_CAP, 2160),
    row(19, 327680, 4, 5, NO_CAP, 2210),
];

/// `UCI_Elo` of full strength (level 20), the top of its range: measured
/// against Stockfish 15.1 at 10 s + 0.1 s a game (full strength has no
/// budget, so its rating is that clock's; docs/levels.md).
pub const FULL_ELO: i32 = 2440;
/// The bottom of `UCI_Elo`'s range: the lowest level's.
pub const MIN_ELO: i32 = LEVELS[0].elo;

/// Full strength as the row `UCI_Elo` interpolates toward above level 19:
/// twice level 19's budget, one line, no margin (it is never played as a
/// budget: [`FULL_ELO`] itself searches without one).
const FULL_ROW: Level = {
    let top = LEVELS[LEVELS.len() - 1];
    row(FULL_STRENGTH, 2 * top.nodes, 1, 0, NO_CAP, FULL_ELO)
};

/// How a weakened search is limited and chooses its move: a table row, or
/// between two rows for a `UCI_Elo` between theirs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Skill {
    pub nodes: u64,
    pub lines: usize,
    pub margin: i32,
    pub cap: i32,
}

impl Skill {
    /// The skill of a level; `None` at full strength (and above).
    pub fn level(level: i32) -> Option<Skill> {
        if level >= FULL_STRENGTH {
            return None;
        }
        let r = LEVELS[(level.max(LOWEST) - LOWEST) as usize];
        Some(Skill { nodes: r.nodes, lines: r.lines, margin: r.margin, cap: r.cap })
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
        // Above level 19 toward full strength's stand-in row (the lines
        // fall from level 19's four to two on the way).
        let hi = LEVELS.get(i + 1).copied().unwrap_or(FULL_ROW);
        let (num, den) = ((elo - lo.elo) as i64, (hi.elo - lo.elo) as i64);
        // Rounded toward the lower level's value (a whole line or
        // centipawn is dropped only once passed).
        let between = |a: i64, b: i64| a + (b - a) * num / den;
        let nodes = between(lo.nodes as i64, hi.nodes as i64);
        let lines = between(lo.lines as i64, hi.lines as i64) as usize;
        let margin = between(lo.margin as i64, hi.margin as i64) as i32;
        // The cap goes up in proportion between two capped levels; the
        // last capped level keeps its own up to the first uncapped one.
        let cap = if hi.cap == NO_CAP { lo.cap } else { between(lo.cap as i64, hi.cap as i64) as i32 };
        Some(Skill { nodes: (nodes as u64 / 1024).max(1) * 1024, lines, margin, cap })
    }

    /// Which of the searched lines to play, given their scores (any order,
    /// the best need not be first): one within the margin of the best,
    /// weighted by how close it is, drawn from `seed`; a score counts for
    /// at most the cap.
    pub fn pick(&self, scores: &[i32], seed: u64) -> usize {
        let Some(top) = scores.iter().map(|&s| s.min(self.cap)).max() else { return 0 };
        let weight = |s: i32| {
            let loss = top as i64 - s.min(self.cap) as i64;
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
        scores.iter().position(|&s| s.min(self.cap) == top).unwrap_or(0)
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
            // Only the levels below 0 cap what a line counts for.
            assert_eq!(r.cap == NO_CAP, r.level >= 0, "level {}", r.level);
        }
        for w in LEVELS.windows(2) {
            assert!(w[0].nodes <= w[1].nodes && w[0].margin > w[1].margin && w[0].elo < w[1].elo);
            assert!(w[0].cap < w[1].cap || w[1].cap == NO_CAP);
        }
        assert!(LEVELS[LEVELS.len() - 1].elo < FULL_ELO);
        assert_eq!(Skill::level(FULL_STRENGTH), None);
        assert_eq!(Skill::level(0), Some(Skill { nodes: 1024, lines: 6, margin: 260, cap: NO_CAP }));
        assert_eq!(Skill::level(-1), Some(Skill { nodes: 1024, lines: 7, margin: 320, cap: 1100 }));
        assert_eq!(Skill::level(-10), Some(Skill { nodes: 1024, lines: 16, margin: 1200, cap: 200 }));
        assert_eq!(Skill::level(19), Some(Skill { nodes: 327680, lines: 4, margin: 5, cap: NO_CAP }));
        assert_eq!(Skill::level(-11), Skill::level(LOWEST));
        assert_eq!(Skill::level(99), None);
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
        assert_eq!((MIN_ELO, FULL_ELO), (540, 2440));
        // Halfway from level 9 (1760: 16384 nodes, margin 80) to level 10
        // (1800: 20480 nodes, margin 70).
        assert_eq!(Skill::from_elo(1780), Some(Skill { nodes: 18432, lines: 4, margin: 75, cap: NO_CAP }));
        // From level 19 (2210: 4 lines) toward full strength (2440), whose
        // budget counts as twice level 19's with one line: a tenth of the
        // way (2233), a fifth (2256: the margin, 5 to 0, drops its first
        // centipawn), a third (2287: the lines, 4 to 1, drop their first),
        // 2400 and the last point.
        assert_eq!(Skill::from_elo(2233), Some(Skill { nodes: 360448, lines: 4, margin: 5, cap: NO_CAP }));
        assert_eq!(Skill::from_elo(2256), Some(Skill { nodes: 393216, lines: 4, margin: 4, cap: NO_CAP }));
        assert_eq!(Skill::from_elo(2287), Some(Skill { nodes: 437248, lines: 3, margin: 4, cap: NO_CAP }));
        assert_eq!(Skill::from_elo(2400), Some(Skill { nodes: 598016, lines: 2, margin: 1, cap: NO_CAP }));
        // Just below full strength: still two lines to choose from.
        assert_eq!(Skill::from_elo(FULL_ELO - 1), Some(Skill { nodes: 653312, lines: 2, margin: 1, cap: NO_CAP }));
        // Halfway from level -10 (540: margin 1200, cap 200) to -9 (560:
        // margin 1100, cap 300): the cap in proportion too.
        assert_eq!(Skill::from_elo(550), Some(Skill { nodes: 1024, lines: 16, margin: 1150, cap: 250 }));
        // Halfway from level -1 (850: cap 1100) to 0 (1090: no cap).
        assert_eq!(Skill::from_elo(970), Some(Skill { nodes: 1024, lines: 7, margin: 290, cap: 1100 }));
    }

    /// The pick is one of the lines within the margin, the same for the
    /// same seed, and the closer a line the more often it is played.
    #[test]
    fn the_pick_stays_within_the_margin() {
        let skill = Skill { nodes: 1024, lines: 5, margin: 100, cap: NO_CAP };
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

    /// Under a cap every line at or above it counts the same: a mate is
    /// played no more often than a line a cap ahead, and a line that loses
    /// more than the margin below the cap is never played.
    #[test]
    fn the_cap_makes_every_gain_beyond_it_alike() {
        let skill = Skill { nodes: 1024, lines: 4, margin: 400, cap: 200 };
        let scores = [crate::score::MATE - 1, 250, 200, -300];
        let mut counts = [0; 4];
        for seed in 0..10_000 {
            counts[skill.pick(&scores, seed)] += 1;
        }
        // Weights 401, 401, 401, 0: each of the first three about a third.
        assert_eq!(counts[3], 0);
        for c in &counts[..3] {
            assert!((3133..3533).contains(c), "{counts:?}");
        }
        // Without a cap the mate is the only line within the margin.
        let uncapped = Skill { cap: NO_CAP, ..skill };
        assert!((0..100).all(|seed| uncapped.pick(&scores, seed) == 0));
        // When every line is below the cap it changes nothing.
        let low = [150, 100, -500];
        assert!((0..200).all(|seed| skill.pick(&low, seed) == uncapped.pick(&low, seed)));
    }
}
