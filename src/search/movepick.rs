//! The staged move picker: the moves of a node in the order most likely to
//! cut off early, as Stockfish's movepick: the transposition table's move,
//! captures and promotions that do not lose material by exchange (by victim
//! value and capture history), the killers and the counter move, the quiet
//! moves (drops included) by their histories, and last the captures that
//! lose material. Moves are generated once; each stage hands out its best
//! remaining move by selection (most nodes cut off after a few moves).
//! Work is put off until a stage is reached: quiet moves are scored when
//! their stage comes (by the histories as they are then), static exchange
//! is computed only for captures handed out, and once the search prunes by
//! move count ([`MovePicker::skip_quiets`]) the quiet moves left are never
//! handed out.

use super::history::{History, PieceTo};
use super::see::see_ge;
use crate::eval::Evaluator;
use crate::moves::{Kind, MAX_MOVES, Move, MoveList};
use crate::position::Position;

type ScoreList = arrayvec::ArrayVec<i32, MAX_MOVES>;
/// Losing captures put off to the last stage (when full, one is handed out at once).
type BadList = arrayvec::ArrayVec<Move, 32>;

/// Captures: the victim's value weighs this many times the capture history's share.
const VICTIM_WEIGHT: i32 = 16;
/// A capture is good when it loses at most its ordering score divided by this
/// (a capture that cuts often may lose a little by exchange).
const GOOD_CAPTURE_DIVISOR: i32 = 3 * VICTIM_WEIGHT;
/// Quiet moves: the killers and the counter move come before any history value.
const KILLER: i32 = 1 << 28;

/// The type a move takes off the board (0 for none).
pub fn victim<V: Evaluator>(pos: &Position<V>, m: Move) -> u8 {
    match m.kind() {
        Kind::Drop | Kind::Castling => 0,
        Kind::EnPassant => V::PAWN,
        _ => {
            if pos.board[m.to()] != 0 && pos.color_on(m.to()) != pos.side {
                pos.type_on(m.to())
            } else {
                0
            }
        }
    }
}

/// The material value of a piece type (0 for none).
#[inline]
pub fn value_of<V: Evaluator>(t: u8) -> i32 {
    if t == 0 { 0 } else { V::PIECES[t as usize - 1].value }
}

/// Captures and promotions: the moves quiescence searches and reductions spare.
pub fn is_tactical<V: Evaluator>(pos: &Position<V>, m: Move) -> bool {
    victim(pos, m) != 0 || m.kind() == Kind::Promotion
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Stage {
    TtMove,
    GoodCaptures,
    Quiets,
    BadCaptures,
    Done,
}

/// The moves of one node, handed out stage by stage.
pub struct MovePicker {
    list: MoveList,
    scores: ScoreList,
    stage: Stage,
    tt_move: Move,
    /// `list[..captures]` are the captures and promotions, the rest quiet.
    captures: usize,
    next: usize,
    bad: BadList,
    bad_next: usize,
    /// Quiet moves are not wanted (quiescence, or pruned from here on).
    pub skip_quiets: bool,
    /// Quiescence: neither quiet moves nor losing captures.
    quiescence: bool,
    /// The node's ply and previous moves (from [`OrderContext`]), for the
    /// killers, counter move and continuation histories of the quiet moves.
    ply: usize,
    prev: [PieceTo; 2],
}

/// What the picker needs from the search to order a node's moves.
pub struct OrderContext<'a> {
    pub history: &'a History,
    pub ply: usize,
    /// The moves one and two plies before, for continuation history and the counter move.
    pub prev: [PieceTo; 2],
}

impl MovePicker {
    /// An empty picker; `list` is filled by the move generator, then [`Self::init`] orders it.
    pub fn empty() -> Self {
        MovePicker {
            list: MoveList::new(),
            scores: ScoreList::new(),
            stage: Stage::Done,
            tt_move: Move::NONE,
            captures: 0,
            next: 0,
            bad: BadList::new(),
            bad_next: 0,
            skip_quiets: false,
            quiescence: false,
            ply: 0,
            prev: [PieceTo::NONE; 2],
        }
    }

    /// The list to generate the node's moves into.
    pub fn list(&mut self) -> &mut MoveList {
        &mut self.list
    }

    /// Orders the generated moves. With `captures_only` (quiescence not in
    /// check) quiet moves and losing captures are left out. Captures are
    /// scored now; quiet moves only when their stage comes (most nodes cut
    /// off before it), by the histories as they are then.
    pub fn init<V: Evaluator>(&mut self, pos: &Position<V>, tt_move: Move, cx: &OrderContext<'_>, captures_only: bool) {
        let list = &mut self.list;
        // Captures first, quiets after; the TT move is handed out on its own.
        let mut tt_found = false;
        let mut captures = 0;
        for i in 0..list.len() {
            let m = list[i];
            if m == tt_move && (!captures_only || is_tactical(pos, m)) {
                tt_found = true;
            } else if is_tactical(pos, m) {
                list.swap(captures, i);
                captures += 1;
            }
        }
        self.scores.clear();
        self.scores.extend(list[..captures].iter().map(|&m| {
            let v = victim(pos, m);
            value_of::<V>(v) * VICTIM_WEIGHT
                + value_of::<V>(promoted(m)) * VICTIM_WEIGHT
                + cx.history.capture(pos, m, v)
        }));
        self.stage = if tt_found { Stage::TtMove } else { Stage::GoodCaptures };
        self.tt_move = tt_move;
        self.captures = captures;
        self.skip_quiets = captures_only;
        self.quiescence = captures_only;
        self.ply = cx.ply;
        self.prev = cx.prev;
    }

    /// Scores the quiet moves (`list[captures..]`): the killers and the
    /// counter move first, then by history.
    fn score_quiets<V: Evaluator>(&mut self, pos: &Position<V>, history: &History) {
        let killers = history.killers(self.ply);
        let counter = history.counter(self.prev[0]);
        let quiet = history.quiet_scorer(pos, self.prev);
        self.scores.truncate(self.captures);
        self.scores.extend(self.list[self.captures..].iter().map(|&m| {
            if m == killers[0] {
                KILLER + 2
            } else if m == killers[1] {
                KILLER + 1
            } else if m == counter {
                KILLER
            } else {
                quiet.score(pos, m)
            }
        }));
    }

    /// The best-scored move of `list[self.next..end]` other than the TT
    /// move, moved to `self.next`.
    fn select(&mut self, end: usize) -> Option<Move> {
        while self.next < end {
            let i = self.next;
            // The first of the highest scores: the maximum in one pass the
            // compiler vectorises, then its first place.
            let rest = &self.scores[i..end];
            let top = rest.iter().copied().fold(i32::MIN, i32::max);
            let best = i + rest.iter().position(|&s| s == top).unwrap_or(0);
            self.list.swap(i, best);
            self.scores.swap(i, best);
            self.next += 1;
            if self.list[i] != self.tt_move {
                return Some(self.list[i]);
            }
        }
        None
    }

    /// Whether the moves handed out now are the captures that lose by exchange.
    pub fn in_bad_captures(&self) -> bool {
        matches!(self.stage, Stage::BadCaptures)
    }

    /// The next move, or None when every stage is done. `history` (the
    /// search's, as it is now) orders the quiet moves when their stage comes.
    pub fn next<V: Evaluator>(&mut self, pos: &Position<V>, history: &History) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GoodCaptures;
                    return Some(self.tt_move);
                }
                Stage::GoodCaptures => {
                    if let Some(m) = self.select(self.captures) {
                        let score = self.scores[self.next - 1];
                        // Quiescence keeps only captures that do not lose; the
                        // main search lets a capture with a good ordering
                        // score lose a little, never asks a capture to win.
                        let threshold = if self.quiescence { 0 } else { (-score / GOOD_CAPTURE_DIVISOR).min(0) };
                        if self.bad.is_full() || see_ge(pos, m, threshold) {
                            return Some(m);
                        }
                        self.bad.push(m);
                        continue;
                    }
                    self.next = self.captures;
                    self.stage = Stage::Quiets;
                    if !self.skip_quiets {
                        self.score_quiets(pos, history);
                    }
                }
                Stage::Quiets => {
                    if !self.skip_quiets
                        && let Some(m) = self.select(self.list.len())
                    {
                        return Some(m);
                    }
                    self.stage = if self.quiescence { Stage::Done } else { Stage::BadCaptures };
                }
                Stage::BadCaptures => {
                    if self.bad_next < self.bad.len() {
                        self.bad_next += 1;
                        return Some(self.bad[self.bad_next - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }
}

/// The type a promotion makes (0 for other moves).
fn promoted(m: Move) -> u8 {
    if m.kind() == Kind::Promotion { m.piece() } else { 0 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::chess::Chess;

    #[test]
    fn stages_in_order() {
        // d4xe5 wins back what it risks (SEE 0): a good capture. Re1xe5 loses
        // the rook for a pawn (SEE -400): a bad capture, handed out last.
        let pos = Position::<Chess>::from_fen("4k3/8/3p4/4p3/3P4/8/8/4R1K1 w - - 0 1").unwrap();
        let history = History::new::<Chess>();
        let cx = OrderContext { history: &history, ply: 0, prev: [PieceTo::NONE; 2] };
        let mut picker = MovePicker::empty();
        pos.generate(picker.list());
        let n = picker.list.len();
        let tt = pos.legal_moves().into_iter().find(|&m| pos.move_to_uci(m) == "g1h1").unwrap();
        picker.init(&pos, tt, &cx, false);
        let mut order = Vec::new();
        while let Some(m) = picker.next(&pos, &history) {
            order.push(pos.move_to_uci(m));
        }
        assert_eq!(order.len(), n, "every move once: {order:?}");
        assert_eq!(&order[..2], ["g1h1", "d4e5"]);
        assert_eq!(order.last().map(String::as_str), Some("e1e5"));
        // Quiescence: the good capture only.
        let mut picker = MovePicker::empty();
        pos.generate_captures(picker.list());
        picker.init(&pos, Move::NONE, &cx, true);
        let mut q = Vec::new();
        while let Some(m) = picker.next(&pos, &history) {
            q.push(pos.move_to_uci(m));
        }
        assert_eq!(q, ["d4e5"]);
    }

    /// The context of a node at the root (no killers, no previous moves).
    fn cx(h: &History) -> OrderContext<'_> {
        OrderContext { history: h, ply: 0, prev: [PieceTo::NONE; 2] }
    }

    /// Quiet moves are scored when their stage comes, by the histories as
    /// they are then; once the search skips them, none is handed out.
    #[test]
    fn quiets_scored_late_and_skipped() {
        let pos = Position::<Chess>::from_fen("4k3/8/3p4/4p3/3P4/8/8/4R1K1 w - - 0 1").unwrap();
        let uci = |m: Move| pos.move_to_uci(m);
        let find = |s: &str| pos.legal_moves().into_iter().find(|&m| pos.move_to_uci(m) == s).unwrap();
        let mut history = History::new::<Chess>();
        let drain = |picker: &mut MovePicker, h: &History| {
            let mut order = Vec::new();
            while let Some(m) = picker.next(&pos, h) {
                order.push(uci(m));
            }
            order
        };
        let mut picker = MovePicker::empty();
        pos.generate(picker.list());
        picker.init(&pos, Move::NONE, &cx(&history), false);
        // With no history the quiet moves come in the generator's order.
        let first_quiet = drain(&mut picker, &history)[1].clone();
        assert_ne!(first_quiet, "g1h1");
        // A cut-off by g1h1 at another ply, learnt after the picker was made:
        // it comes first of the quiet moves all the same.
        let mut picker = MovePicker::empty();
        pos.generate(picker.list());
        picker.init(&pos, Move::NONE, &cx(&history), false);
        history.update_quiets(&pos, find("g1h1"), &[], 8, 5, [PieceTo::NONE; 2]);
        let order = drain(&mut picker, &history);
        assert_eq!(&order[..2], ["d4e5", "g1h1"]);
        assert_eq!(order.last().map(String::as_str), Some("e1e5"));
        // Quiet moves skipped after the first move: the captures alone, the
        // losing one last.
        let mut picker = MovePicker::empty();
        pos.generate(picker.list());
        picker.init(&pos, Move::NONE, &cx(&history), false);
        let mut order = vec![uci(picker.next(&pos, &history).unwrap())];
        picker.skip_quiets = true;
        order.extend(drain(&mut picker, &history));
        assert_eq!(order, ["d4e5", "e1e5"]);
    }
}
