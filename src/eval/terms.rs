//! The coefficients of the generic evaluation's terms ([`EvalWeights`], per
//! variant: [`super::Evaluator::EVAL_WEIGHTS`]) and the two ways of adding
//! the terms up ([`Terms`]): with the weights ([`Weighted`], the engine's
//! evaluation) or as raw counts per term ([`Columns`], the features a
//! trainer fits the weights to: `calvin datagen terms`). Both run the same
//! code ([`super::eval_terms`]), so the evaluation is exactly the dot
//! product of the columns with [`EvalWeights::columns`].

use std::marker::PhantomData;

/// Centipawns per unit of each generic term, for the side the term is
/// about (penalties are negative).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalWeights {
    /// The side to move.
    pub tempo: i32,
    /// Per square a piece (not a pawn or king; leapers too) moves to or
    /// captures on, outside the squares enemy pawns attack.
    pub mobility: i32,
    /// Per pawn on a file beyond the first.
    pub doubled: i32,
    /// Per pawn with no own pawn on the adjacent files.
    pub isolated: i32,
    /// Per passed pawn, by its rank scaled to 8 ranks (0: the own back rank).
    pub passed: [i32; 8],
    /// Pawn shield, per file of the king and its neighbours: an own pawn
    /// one rank ahead of the king, two ranks ahead, or none.
    pub shield_near: i32,
    pub shield_far: i32,
    pub shield_none: i32,
    /// The king's file without own pawns; and also without enemy pawns
    /// while the opponent has a piece that rides the files.
    pub king_file_semi_open: i32,
    pub king_file_open: i32,
    /// King danger once two pieces attack the king's zone: per attack
    /// unit squared, and at most `danger_max` (both negative).
    pub danger_per_unit2: i32,
    pub danger_max: i32,
    /// Per enemy piece (not royal, not a pawn) attacked by a piece of lower
    /// value; per such piece attacked and not defended.
    pub threat_by_lesser: i32,
    pub hanging: i32,
    /// Per unit of the king's centrality (twice the board's largest
    /// Manhattan distance from the centre, less the king's) times the
    /// enemy's non-pawn material short of 1300, in hundreds.
    pub king_center: i32,
    /// Per square short of two that a piece (not a pawn or king) reaches
    /// outside the squares enemy pawns attack, counting the squares of its
    /// own pieces it defends (not its pawns or king): a trapped piece.
    pub trapped: i32,
}

impl EvalWeights {
    /// The hand-set weights every variant has used so far.
    pub const DEFAULT: EvalWeights = EvalWeights {
        tempo: 10,
        mobility: 2,
        doubled: -12,
        isolated: -10,
        passed: [0, 5, 10, 20, 35, 60, 100, 150],
        shield_near: 10,
        shield_far: 5,
        shield_none: -12,
        king_file_semi_open: -15,
        king_file_open: -10,
        danger_per_unit2: -5,
        danger_max: -400,
        threat_by_lesser: 50,
        hanging: 35,
        king_center: 1,
        trapped: -20,
    };

    /// The weight of column `col` ([`col`]): the dot product of a row of
    /// [`Columns`] with these is the evaluation.
    #[inline(always)]
    pub const fn column(&self, col: usize) -> i32 {
        match col {
            col::MATERIAL | col::EXTRA => 1,
            col::TEMPO => self.tempo,
            col::MOBILITY => self.mobility,
            col::DOUBLED => self.doubled,
            col::ISOLATED => self.isolated,
            col::SHIELD_NEAR => self.shield_near,
            col::SHIELD_FAR => self.shield_far,
            col::SHIELD_NONE => self.shield_none,
            col::KING_FILE_SEMI_OPEN => self.king_file_semi_open,
            col::KING_FILE_OPEN => self.king_file_open,
            col::DANGER_UNITS2 => self.danger_per_unit2,
            col::DANGER_CAPPED => self.danger_max,
            col::THREAT_BY_LESSER => self.threat_by_lesser,
            col::HANGING => self.hanging,
            col::KING_CENTER => self.king_center,
            col::TRAPPED => self.trapped,
            c if c >= col::PASSED && c < col::PASSED + 8 => self.passed[c - col::PASSED],
            _ => 0,
        }
    }

    /// The weight of every column, in column order.
    pub fn columns(&self) -> [i32; col::COUNT] {
        std::array::from_fn(|c| self.column(c))
    }

    /// The king danger of `units` of attack (by two pieces or more):
    /// whether it is capped, and its value.
    #[inline(always)]
    fn danger(&self, units: i32) -> (bool, i32) {
        let v = self.danger_per_unit2 * units * units;
        if v <= self.danger_max { (true, self.danger_max) } else { (false, v) }
    }
}

/// The columns of a row of terms (`docs/datagen.md`), each from White's
/// view (White's count less Black's).
pub mod col {
    /// Material, hand and piece-square values (weight 1).
    pub const MATERIAL: usize = 0;
    /// The variant's own terms, `Evaluator::extra` (weight 1).
    pub const EXTRA: usize = 1;
    /// +1 White to move, -1 Black.
    pub const TEMPO: usize = 2;
    pub const MOBILITY: usize = 3;
    pub const DOUBLED: usize = 4;
    pub const ISOLATED: usize = 5;
    /// Passed pawns on (scaled) rank 0..8: `PASSED + rank`.
    pub const PASSED: usize = 6;
    pub const SHIELD_NEAR: usize = 14;
    pub const SHIELD_FAR: usize = 15;
    pub const SHIELD_NONE: usize = 16;
    pub const KING_FILE_SEMI_OPEN: usize = 17;
    pub const KING_FILE_OPEN: usize = 18;
    /// Units squared of king danger below the cap.
    pub const DANGER_UNITS2: usize = 19;
    /// 1 for a king whose danger reached the cap.
    pub const DANGER_CAPPED: usize = 20;
    pub const THREAT_BY_LESSER: usize = 21;
    pub const HANGING: usize = 22;
    pub const KING_CENTER: usize = 23;
    pub const TRAPPED: usize = 24;
    pub const COUNT: usize = 25;

    /// The columns' names, in order (the terms file's header).
    pub const NAMES: [&str; COUNT] = [
        "material",
        "extra",
        "tempo",
        "mobility",
        "doubled",
        "isolated",
        "passed0",
        "passed1",
        "passed2",
        "passed3",
        "passed4",
        "passed5",
        "passed6",
        "passed7",
        "shield_near",
        "shield_far",
        "shield_none",
        "king_file_semi_open",
        "king_file_open",
        "danger_units2",
        "danger_capped",
        "threat_by_lesser",
        "hanging",
        "king_center",
        "trapped",
    ];
}

/// What the evaluation's terms are added to.
pub trait Terms {
    /// `n` units of column `col` for `color`'s side.
    fn add(&mut self, color: usize, col: usize, n: i32);
    /// The danger to `color`'s king from `units` of attack by `attackers` pieces.
    fn king_danger(&mut self, color: usize, units: i32, attackers: i32);
}

/// The evaluation: every term times `V`'s weight, per side.
pub struct Weighted<V> {
    pub score: [i32; 2],
    _v: PhantomData<V>,
}

impl<V: super::Evaluator> Weighted<V> {
    #[inline(always)]
    pub fn new() -> Self {
        Weighted { score: [0; 2], _v: PhantomData }
    }
    /// The sum from White's view.
    #[inline(always)]
    pub fn white(&self) -> i32 {
        self.score[0] - self.score[1]
    }
}

impl<V: super::Evaluator> Default for Weighted<V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<V: super::Evaluator> Terms for Weighted<V> {
    #[inline(always)]
    fn add(&mut self, color: usize, col: usize, n: i32) {
        self.score[color] += V::EVAL_WEIGHTS.column(col) * n;
    }
    #[inline(always)]
    fn king_danger(&mut self, color: usize, units: i32, attackers: i32) {
        if attackers >= 2 {
            self.score[color] += V::EVAL_WEIGHTS.danger(units).1;
        }
    }
}

/// The terms as counts, from White's view: one row of `calvin datagen terms`.
pub struct Columns {
    pub row: [i32; col::COUNT],
    /// The weights that decide where king danger is capped.
    weights: EvalWeights,
}

impl Columns {
    pub fn new(weights: EvalWeights) -> Self {
        Columns { row: [0; col::COUNT], weights }
    }
}

impl Terms for Columns {
    fn add(&mut self, color: usize, col: usize, n: i32) {
        self.row[col] += if color == 0 { n } else { -n };
    }
    fn king_danger(&mut self, color: usize, units: i32, attackers: i32) {
        if attackers >= 2 {
            match self.weights.danger(units) {
                (true, _) => self.add(color, col::DANGER_CAPPED, 1),
                (false, _) => self.add(color, col::DANGER_UNITS2, units * units),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_weights_by_column() {
        let w = EvalWeights::DEFAULT.columns();
        assert_eq!(w[..6], [1, 1, 10, 2, -12, -10]);
        assert_eq!(w[col::PASSED..col::PASSED + 8], [0, 5, 10, 20, 35, 60, 100, 150]);
        assert_eq!(w[col::SHIELD_NEAR..], [10, 5, -12, -15, -10, -5, -400, 50, 35, 1, -20]);
    }

    #[test]
    fn danger_is_capped_at_the_maximum() {
        let w = EvalWeights::DEFAULT;
        assert_eq!(w.danger(5), (false, -125));
        assert_eq!(w.danger(9), (true, -400));
        assert_eq!(w.danger(20), (true, -400));
        let mut c = Columns::new(w);
        c.king_danger(0, 5, 2);
        c.king_danger(1, 9, 3);
        c.king_danger(1, 8, 1); // one attacker: no danger
        assert_eq!((c.row[col::DANGER_UNITS2], c.row[col::DANGER_CAPPED]), (25, -1));
    }
}
