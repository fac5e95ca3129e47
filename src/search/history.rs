//! What the search learns about moves while it runs, per thread: killer
//! moves per ply, the counter move to the opponent's last move, and
//! histories updated with gravity (an entry moves towards the bonus's sign
//! the less the more it is there already, so it stays within `HISTORY_MAX`):
//!
//! - butterfly: quiet moves by (side, piece type, destination);
//! - capture: captures by (side, piece type, destination, victim type);
//! - continuation: quiet moves by (piece type, destination) after the
//!   move one and two plies before, also given as (piece type, destination).
//!
//! - correction: what searches found the static evaluation to miss by,
//!   per side to move and pawn structure, and per side to move and each
//!   side's other pieces; their sum is added to the evaluation the search
//!   prunes by.
//!
//! A drop is a quiet move of the dropped type to its square, ordered by the
//! same histories as every other quiet move.

use super::params::{
    CORRECTION_GRAIN, CORRECTION_MAX, CORRECTION_SIZE, CORRECTION_WEIGHT_MAX, HISTORY_BONUS_MAX, HISTORY_BONUS_OFFSET,
    HISTORY_BONUS_PER_DEPTH, HISTORY_MAX, MAX_PLY,
};
use crate::geometry::Geometry;
use crate::moves::{Kind, Move};
use crate::position::Position;
use crate::variant::{MAX_TYPES, Variant};
use std::sync::Mutex;

/// The keys the evaluation's correction is kept by: the pawns', White's
/// pieces' and Black's pieces'.
const CORRECTION_KEYS: usize = 3;

/// A move as the continuation history sees it: piece type and destination.
/// `NONE` (a null move, or before the root) has no continuation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceTo(u16);

impl PieceTo {
    pub const NONE: PieceTo = PieceTo(u16::MAX);
}

/// Killer moves, counter moves and histories of one search thread.
pub struct History {
    killers: Vec<[Move; 2]>,
    butterfly: Vec<i32>,
    capture: Vec<i32>,
    /// `continuation[prev * piece_to + cur]`.
    continuation: Vec<i16>,
    counter: Vec<Move>,
    /// `correction[(key * 2 + side) * CORRECTION_SIZE + k % CORRECTION_SIZE]`
    /// for the side to move and the [`CORRECTION_KEYS`] keys `k`: the pawns'
    /// (key 0), White's pieces' (1) and Black's pieces' (2), in
    /// 1/CORRECTION_GRAIN of the evaluation's unit.
    correction: Vec<i32>,
    /// Number of (piece type, square) pairs of the variant.
    piece_to: usize,
    squares: usize,
}

/// The quiet moves' ordering values at one node ([`History::quiet_scorer`]).
pub struct QuietScorer<'a> {
    /// The side to move's butterfly table, by (type, square).
    butterfly: &'a [i32],
    /// The continuation rows of the moves one and two plies before (none
    /// where there was no move).
    continuation: [Option<&'a [i16]>; 2],
    squares: usize,
}

impl QuietScorer<'_> {
    /// [`History::quiet`] of `m`, a move of the node's position `pos`.
    #[inline]
    pub fn score<V: Variant>(&self, pos: &Position<V>, m: Move) -> i32 {
        let pt = History::mover(pos, m) as usize * self.squares + m.to();
        let cont = |row: Option<&[i16]>| row.map_or(0, |r| i32::from(r[pt]));
        self.butterfly[pt] + cont(self.continuation[0]) + cont(self.continuation[1])
    }
}

/// The bonus for a move that caused a cut-off at `depth`.
#[inline]
pub fn bonus(depth: i32) -> i32 {
    (HISTORY_BONUS_PER_DEPTH * depth - HISTORY_BONUS_OFFSET).clamp(0, HISTORY_BONUS_MAX)
}

/// Moves `entry` towards `+-HISTORY_MAX` by `delta`, less the more it is there already.
#[inline]
fn gravity(entry: &mut i32, delta: i32) {
    *entry += delta - *entry * delta.abs() / HISTORY_MAX;
}

#[inline]
fn gravity16(entry: &mut i16, delta: i32) {
    let mut e = *entry as i32;
    gravity(&mut e, delta);
    *entry = e as i16;
}

/// The histories of a game's search threads, kept from one search to the
/// next (a thread's histories of the previous move order the next one's
/// moves from its first iteration on) and cleared with the table on a new
/// game.
#[derive(Default)]
pub struct Histories(Mutex<Vec<Option<History>>>);

impl Histories {
    /// Forgets every thread's histories.
    pub fn clear(&self) {
        self.lock().clear();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Option<History>>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Thread `id`'s histories for a search of `V` (new ones if it has none
    /// of this variant's size); its killers are forgotten (they were plies
    /// of another root).
    pub(super) fn take<V: Variant>(&self, id: usize) -> History {
        let kept = self.lock().get_mut(id).and_then(Option::take);
        match kept {
            Some(mut h) if h.fits::<V>() => {
                h.killers.fill([Move::NONE; 2]);
                h
            }
            _ => History::new::<V>(),
        }
    }

    /// Keeps thread `id`'s histories for its next search.
    pub(super) fn put(&self, id: usize, h: History) {
        let mut v = self.lock();
        if v.len() <= id {
            v.resize_with(id + 1, || None);
        }
        v[id] = Some(h);
    }
}

impl History {
    fn piece_to_of<V: Variant>() -> usize {
        (V::PIECES.len() + 1) * V::G::SQUARES
    }

    /// Whether these histories have `V`'s size.
    fn fits<V: Variant>(&self) -> bool {
        self.squares == V::G::SQUARES && self.piece_to == Self::piece_to_of::<V>()
    }

    pub fn new<V: Variant>() -> Self {
        let squares = V::G::SQUARES;
        let piece_to = Self::piece_to_of::<V>();
        History {
            killers: vec![[Move::NONE; 2]; MAX_PLY + 2],
            butterfly: vec![0; 2 * MAX_TYPES * squares],
            capture: vec![0; 2 * MAX_TYPES * squares * MAX_TYPES],
            continuation: vec![0; piece_to * piece_to],
            counter: vec![Move::NONE; piece_to],
            correction: vec![0; CORRECTION_KEYS * 2 * CORRECTION_SIZE],
            piece_to,
            squares,
        }
    }

    /// The type that moves (or is dropped).
    #[inline]
    pub fn mover<V: Variant>(pos: &Position<V>, m: Move) -> u8 {
        if m.kind() == Kind::Drop { m.piece() } else { pos.type_on(m.from()) }
    }

    #[inline]
    pub fn piece_to<V: Variant>(&self, pos: &Position<V>, m: Move) -> PieceTo {
        PieceTo((Self::mover(pos, m) as usize * self.squares + m.to()) as u16)
    }

    #[inline]
    fn butterfly_index<V: Variant>(&self, pos: &Position<V>, m: Move) -> usize {
        (pos.side * MAX_TYPES + Self::mover(pos, m) as usize) * self.squares + m.to()
    }

    #[inline]
    fn capture_index<V: Variant>(&self, pos: &Position<V>, m: Move, victim: u8) -> usize {
        self.butterfly_index(pos, m) * MAX_TYPES + victim as usize
    }

    pub fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply]
    }

    /// The move that last refuted `prev`.
    pub fn counter(&self, prev: PieceTo) -> Move {
        if prev == PieceTo::NONE { Move::NONE } else { self.counter[prev.0 as usize] }
    }

    /// Quiet-move ordering value: butterfly plus both continuation histories.
    pub fn quiet<V: Variant>(&self, pos: &Position<V>, m: Move, prev: [PieceTo; 2]) -> i32 {
        self.quiet_scorer(pos, prev).score(pos, m)
    }

    /// [`Self::quiet`] for the moves of one node: the side's butterfly
    /// table and the continuation rows of the previous moves found once.
    pub fn quiet_scorer<V: Variant>(&self, pos: &Position<V>, prev: [PieceTo; 2]) -> QuietScorer<'_> {
        let side = pos.side * MAX_TYPES * self.squares;
        let row = |p: PieceTo| {
            (p != PieceTo::NONE).then(|| {
                let start = p.0 as usize * self.piece_to;
                &self.continuation[start..start + self.piece_to]
            })
        };
        QuietScorer {
            butterfly: &self.butterfly[side..side + MAX_TYPES * self.squares],
            continuation: [row(prev[0]), row(prev[1])],
            squares: self.squares,
        }
    }

    pub fn capture<V: Variant>(&self, pos: &Position<V>, m: Move, victim: u8) -> i32 {
        self.capture[self.capture_index(pos, m, victim)]
    }

    fn update_quiet<V: Variant>(&mut self, pos: &Position<V>, m: Move, prev: [PieceTo; 2], delta: i32) {
        let i = self.butterfly_index(pos, m);
        gravity(&mut self.butterfly[i], delta);
        let pt = self.piece_to(pos, m);
        for p in prev {
            if p != PieceTo::NONE {
                let i = p.0 as usize * self.piece_to + pt.0 as usize;
                gravity16(&mut self.continuation[i], delta);
            }
        }
    }

    /// A quiet move `best` caused a cut-off after the quiets in `tried` failed.
    pub fn update_quiets<V: Variant>(
        &mut self,
        pos: &Position<V>,
        best: Move,
        tried: &[Move],
        depth: i32,
        ply: usize,
        prev: [PieceTo; 2],
    ) {
        let b = bonus(depth);
        self.update_quiet(pos, best, prev, b);
        for &q in tried {
            if q != best {
                self.update_quiet(pos, q, prev, -b);
            }
        }
        let k = &mut self.killers[ply];
        if k[0] != best {
            k[1] = k[0];
            k[0] = best;
        }
        if prev[0] != PieceTo::NONE {
            self.counter[prev[0].0 as usize] = best;
        }
    }

    /// The correction entries of `pos`: by pawns, by White's pieces and by
    /// Black's pieces, for the side to move.
    #[inline]
    fn correction_indices<V: Variant>(pos: &Position<V>) -> [usize; CORRECTION_KEYS] {
        let [white, black] = pos.piece_keys();
        let entry = |i: usize, k: u64| (i * 2 + pos.side) * CORRECTION_SIZE + (k as usize & (CORRECTION_SIZE - 1));
        [entry(0, pos.pawn_key()), entry(1, white), entry(2, black)]
    }

    /// What the static evaluation of `pos` is corrected by: the sum of its
    /// pawn structure's entry and each side's pieces' entries.
    #[inline]
    pub fn correction<V: Variant>(&self, pos: &Position<V>) -> i32 {
        Self::correction_indices(pos).iter().map(|&i| self.correction[i]).sum::<i32>() / CORRECTION_GRAIN
    }

    /// A search at `depth` found `pos` worth `diff` more than its corrected
    /// static evaluation: each entry moves towards the value that would
    /// have closed the gap, the more the deeper the search.
    pub fn update_correction<V: Variant>(&mut self, pos: &Position<V>, depth: i32, diff: i32) {
        let weight = (depth + 1).min(CORRECTION_WEIGHT_MAX);
        for i in Self::correction_indices(pos) {
            let e = &mut self.correction[i];
            let target = *e + diff * CORRECTION_GRAIN;
            *e = ((*e * (256 - weight) + target * weight) / 256).clamp(-CORRECTION_MAX, CORRECTION_MAX);
        }
    }

    /// After a cut-off: the capture `best` (if it is one) gains, the captures
    /// in `tried` that did not cut lose. `victims[i]` is `tried[i]`'s victim.
    pub fn update_captures<V: Variant>(
        &mut self,
        pos: &Position<V>,
        best: Option<(Move, u8)>,
        tried: &[(Move, u8)],
        depth: i32,
    ) {
        let b = bonus(depth);
        if let Some((m, v)) = best {
            let i = self.capture_index(pos, m, v);
            gravity(&mut self.capture[i], b);
        }
        for &(m, v) in tried {
            if Some((m, v)) != best {
                let i = self.capture_index(pos, m, v);
                gravity(&mut self.capture[i], -b);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::chess::Chess;
    use crate::variants::ita::Ita;

    /// A node's quiet scorer (and so `History::quiet`) reads the entries
    /// the updates write: the butterfly and both continuation entries of
    /// each move, as the updates index them.
    #[test]
    fn the_quiet_scorer_reads_the_entries_the_updates_write() {
        let pos = Position::<Chess>::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
            .unwrap();
        let moves = pos.legal_moves();
        let mut h = History::new::<Chess>();
        let prev = [PieceTo(3 * 64 + 20), PieceTo(5 * 64 + 43)];
        for (i, &m) in moves.iter().enumerate() {
            let tried: Vec<Move> = moves.iter().copied().filter(|&t| t != m).take(i % 5).collect();
            h.update_quiets(&pos, m, &tried, 3 + (i % 7) as i32, 1, prev);
        }
        for p in [prev, [prev[0], PieceTo::NONE], [PieceTo::NONE; 2]] {
            let scorer = h.quiet_scorer(&pos, p);
            let values: Vec<i32> = moves
                .iter()
                .map(|&m| {
                    let pt = h.piece_to(&pos, m);
                    let cont = |prev: PieceTo| {
                        if prev == PieceTo::NONE {
                            0
                        } else {
                            i32::from(h.continuation[prev.0 as usize * h.piece_to + pt.0 as usize])
                        }
                    };
                    h.butterfly[h.butterfly_index(&pos, m)] + cont(p[0]) + cont(p[1])
                })
                .collect();
            assert!(values.iter().any(|&v| v != 0));
            for (&m, &v) in moves.iter().zip(&values) {
                assert_eq!(scorer.score(&pos, m), v, "{}", pos.move_to_uci(m));
            }
        }
    }

    #[test]
    fn the_correction_moves_towards_what_searches_found_within_its_bound() {
        let fen = |f: &str| Position::<Chess>::from_fen(f).unwrap();
        let start = fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        let black_to_move = fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
        // The same pawns and White's pieces, a Black knight elsewhere.
        let knight_moved = fen("r1bqkbnr/pppppppp/n7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        // The same pieces, one pawn elsewhere.
        let pawn_moved = fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1");
        let mut h = History::new::<Chess>();
        assert_eq!(h.correction(&start), 0);
        // Weight 16/256 at depth 15 and over: each of the three entries
        // 100 * 256 * 16 / 256 = 1600 grains; their sum 4800 grains, 18 units.
        h.update_correction(&start, 20, 100);
        assert_eq!(h.correction(&start), 18);
        assert_eq!(h.correction(&black_to_move), 0);
        // Two entries of three shared: 3200 grains, 12 units.
        assert_eq!(h.correction(&knight_moved), 12);
        assert_eq!(h.correction(&pawn_moved), 12);
        // A shallow search moves it less: weight 2 of 256 at depth 1, 2000
        // grains an entry.
        let mut shallow = History::new::<Chess>();
        shallow.update_correction(&black_to_move, 1, 1000);
        assert_eq!(shallow.correction(&black_to_move), 23);
        // Found again and again, each entry stops at its bound (64 units).
        for _ in 0..200 {
            h.update_correction(&start, 20, 1000 - h.correction(&start));
        }
        assert_eq!(h.correction(&start), 192);
        for _ in 0..200 {
            h.update_correction(&start, 20, -1000);
        }
        assert_eq!(h.correction(&start), -192);
    }

    #[test]
    fn a_threads_histories_are_kept_for_its_next_search_of_the_same_board() {
        let hs = Histories::default();
        let pos = Position::<Chess>::startpos();
        let mut h = hs.take::<Chess>(1);
        h.update_correction(&pos, 20, 100);
        hs.put(1, h);
        // Thread 1 gets its own back; thread 0 has none yet.
        assert_eq!(hs.take::<Chess>(1).correction(&pos), 18);
        assert_eq!(hs.take::<Chess>(0).correction(&pos), 0);
        // Taken, they are gone until given back.
        assert_eq!(hs.take::<Chess>(1).correction(&pos), 0);
        // Another board's size gets new histories.
        let mut h = hs.take::<Chess>(1);
        h.update_correction(&pos, 20, 100);
        hs.put(1, h);
        let ita = hs.take::<Ita>(1);
        assert!(ita.fits::<Ita>() && !ita.fits::<Chess>());
        assert_eq!(ita.correction(&pos), 0);
        // Cleared (a new game), every thread starts again.
        let mut h = hs.take::<Chess>(0);
        h.update_correction(&pos, 20, 100);
        hs.put(0, h);
        hs.clear();
        assert_eq!(hs.take::<Chess>(0).correction(&pos), 0);
    }
}
