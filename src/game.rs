//! A game of any variant: the start position, the moves played and the
//! history that repetition rules read, and the results. This is the top of
//! the rules layer: it knows nothing of search or evaluation (those are
//! [`crate::engine_game::EngineGame`]'s), so a referee can use it alone.
//! `AnyGame` is its object-safe face; everything below it is monomorphised.

use crate::errors::{MoveError, PositionError};
use crate::moves::{Move, MoveList};
use crate::perft;
use crate::position::Position;
use crate::variant::{Outcome, PieceDef, Variant};

/// What the protocol layer can ask of a game without knowing its variant.
pub trait AnyGame: Send {
    fn variant(&self) -> &'static str;
    /// Sets up `fen` (or the start position) and plays `moves`; on any error
    /// the game is left as it was.
    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), PositionError>;
    /// Plays one more move from the current position.
    fn push_move(&mut self, mv: &str) -> Result<(), MoveError>;
    /// The canonical text of the legal move `mv` names here (as
    /// [`AnyGame::push_move`] would play it), or why it names none.
    fn legal_move_text(&self, mv: &str) -> Result<String, MoveError>;
    fn fen(&self) -> String;
    /// The side to move: 0 White (first player), 1 Black.
    fn side_to_move(&self) -> usize;
    /// How many moves have been played since the start position.
    fn moves_played(&self) -> usize;
    fn start_fen(&self) -> String;
    fn pretty(&self) -> String;
    fn key(&self) -> u64;
    fn perft(&self, depth: u32) -> u64;
    fn divide(&self, depth: u32) -> Vec<(String, u64)>;
    /// Legal moves in the protocol's notation (repetition rules included).
    fn legal_moves(&self) -> Vec<String>;
    /// How the game has ended, if it has.
    fn outcome(&self) -> Option<Outcome>;
    fn clone_box(&self) -> Box<dyn AnyGame>;
    /// Whether `text` is a legal igui capture here (the capturer stays on
    /// its square: GUIs show it as two legs).
    fn is_igui(&self, text: &str) -> bool;
    /// The result when `loser` forfeits (time, illegal move, crash...).
    fn forfeit(&self, loser: usize, reason: &str) -> Outcome;
    /// The variant's description, for GUIs (board size, pieces, hand).
    fn describe(&self) -> VariantDesc;
}

/// What a protocol tells a GUI about the variant.
#[derive(Clone, Debug)]
pub struct VariantDesc {
    pub name: &'static str,
    pub files: usize,
    pub ranks: usize,
    pub pieces: &'static [PieceDef],
    /// The royal type and the promoting type (0: none).
    pub king: u8,
    pub pawn: u8,
    /// Types that can be in a hand (distinct), in type order; empty without drops.
    pub hand_types: Vec<u8>,
    /// Captured pieces go to the captor's hand.
    pub captures_to_hand: bool,
    pub castling: bool,
    pub gating: bool,
    pub start_fen: &'static str,
}

#[derive(Clone)]
pub struct Game<V: Variant> {
    start: Position<V>,
    /// The moves played from `start` (only through [`Game::push`], which
    /// keeps the current position and the keys in step).
    moves: Vec<Move>,
    /// The position after `moves`.
    current: Position<V>,
    /// The keys of the positions from the start, the current one last:
    /// what repetition rules scan (compact, so a game of thousands of
    /// plies is scanned in a microsecond).
    keys: Vec<u64>,
}

impl<V: Variant> Default for Game<V> {
    fn default() -> Self {
        Self::new(Position::startpos())
    }
}

impl<V: Variant> Game<V> {
    pub fn new(start: Position<V>) -> Self {
        Game { start, moves: Vec::new(), current: start, keys: vec![start.key] }
    }
    /// Plays `m` (legal here: not checked again).
    pub fn push(&mut self, m: Move) {
        self.current = self.current.play(m);
        self.moves.push(m);
        self.keys.push(self.current.key);
    }
    /// The moves played from the start.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
    /// The keys of the positions from the start, the current one last.
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }
    pub fn pos(&self) -> &Position<V> {
        &self.current
    }
    /// How many times the current position stood before (same side, board, hands, rights).
    pub fn repetitions_of(&self, key: u64) -> usize {
        self.keys.iter().filter(|&&k| k == key).count()
    }
    /// A move is refused by the game's rules beyond the position (Ito's repetition rule).
    pub fn refusal(&self, m: Move) -> Option<String> {
        if V::REPETITION_ILLEGAL {
            let next = self.pos().play(m);
            if self.repetitions_of(next.key) >= 2 {
                return Some("it would repeat a position for the third time".into());
            }
        }
        None
    }
    pub fn play_text(&mut self, text: &str) -> Result<(), MoveError> {
        let m = self.legal_move(text)?;
        self.push(m);
        Ok(())
    }
    /// The legal move `text` names here; why not, if it names none.
    pub fn legal_move(&self, text: &str) -> Result<Move, MoveError> {
        let pos = self.pos();
        let (outcome, legal) = self.outcome_and_moves();
        if let Some(o) = outcome {
            return Err(MoveError::GameOver { result: o.result_string(), reason: o.reason.clone() });
        }
        let m = pos.parse_uci_move_among(text, &legal)?;
        if let Some(why) = self.refusal(m) {
            return Err(MoveError::Illegal { text: text.into(), rule: Some(why) });
        }
        Ok(m)
    }
    pub fn legal(&self) -> Vec<Move> {
        let pos = self.pos();
        if V::board_end(pos).is_some() {
            return Vec::new();
        }
        self.unrefused().collect()
    }
    /// The position's legal moves that the game's rules do not refuse (the
    /// board's end not asked).
    fn unrefused(&self) -> impl Iterator<Item = Move> + '_ {
        self.pos().legal_moves().into_iter().filter(|&m| self.refusal(m).is_none())
    }
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome_and_moves().0
    }
    /// [`Game::outcome`] and the position's legal moves it looked at (none
    /// once the board has ended the game): `play_text` parses the move in
    /// the same list, for every move a `position` command replays.
    fn outcome_and_moves(&self) -> (Option<Outcome>, MoveList) {
        let pos = self.pos();
        if let Some(o) = V::board_end(pos) {
            return (Some(o), MoveList::new());
        }
        let legal = pos.legal_moves();
        let outcome = if legal.iter().all(|&m| self.refusal(m).is_some()) {
            Some(V::no_moves(pos, pos.in_check()))
        } else if V::REPETITION_DRAWS && !V::REPETITION_ILLEGAL && self.repetitions_of(pos.key) >= 3 {
            Some(V::repetition(pos))
        } else {
            V::rule_end(pos)
        };
        (outcome, legal)
    }
}

impl<V: Variant> AnyGame for Game<V> {
    fn variant(&self) -> &'static str {
        V::NAME
    }
    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), PositionError> {
        // The rule options of this game stay with its new positions.
        let rules = self.start.rules;
        let start = match fen {
            Some(f) => Position::from_fen_with(f, rules).map_err(PositionError::Fen)?,
            None => Position::startpos_with(rules),
        };
        let mut g = Game::new(start);
        for m in moves {
            g.play_text(m)?;
        }
        *self = g;
        Ok(())
    }
    fn push_move(&mut self, mv: &str) -> Result<(), MoveError> {
        self.play_text(mv)
    }
    fn legal_move_text(&self, mv: &str) -> Result<String, MoveError> {
        self.legal_move(mv).map(|m| self.pos().move_to_uci(m))
    }
    fn fen(&self) -> String {
        self.pos().fen()
    }
    fn side_to_move(&self) -> usize {
        self.pos().side
    }
    fn moves_played(&self) -> usize {
        self.moves.len()
    }
    fn start_fen(&self) -> String {
        self.start.fen()
    }
    fn pretty(&self) -> String {
        self.pos().pretty()
    }
    fn key(&self) -> u64 {
        self.pos().key
    }
    fn perft(&self, depth: u32) -> u64 {
        perft::perft(self.pos(), depth)
    }
    fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        perft::divide(self.pos(), depth)
    }
    fn legal_moves(&self) -> Vec<String> {
        let pos = self.pos();
        self.legal().iter().map(|&m| pos.move_to_uci(m)).collect()
    }
    fn outcome(&self) -> Option<Outcome> {
        Game::outcome(self)
    }
    fn clone_box(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }
    fn is_igui(&self, text: &str) -> bool {
        self.pos().parse_uci_move(text).is_ok_and(|m| m.kind() == crate::moves::Kind::Igui)
    }
    fn forfeit(&self, loser: usize, reason: &str) -> Outcome {
        V::forfeit(self.pos(), loser, reason)
    }
    fn describe(&self) -> VariantDesc {
        use crate::geometry::Geometry;
        let start = Position::<V>::startpos_with(self.start.rules);
        let hand_types = (1..=V::PIECES.len() as u8)
            .filter(|&t| {
                start.hand[0][t as usize] + start.hand[1][t as usize] > 0
                    || (V::CAPTURES_TO_HAND && t != V::KING && V::unpromoted(t) == t)
            })
            .collect();
        VariantDesc {
            name: V::NAME,
            files: V::G::FILES,
            ranks: V::G::RANKS,
            pieces: V::PIECES,
            king: V::KING,
            pawn: V::PAWN,
            hand_types,
            captures_to_hand: V::CAPTURES_TO_HAND,
            castling: V::CASTLING.is_some(),
            gating: V::GATING,
            start_fen: V::start_fen(self.start.rules),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Kind;
    use crate::variants::ita::Ita;

    #[test]
    fn igui_captures_are_named() {
        // White's Leaper on b6 captures the pawn on d6 by igui (leaping over
        // c6 and staying on b6); no other move is one.
        let fen =
            "b3ff1s1b/c1l6l/2r4c2/1prs6/1Lpp2pp1p/6P3/P2P3P1P/2CPS1RC2/3RSF1L2/B3F4B w e1ac,f2ac,e10ac,f10ac - 20 11";
        let mut g = Game::<Ita>::default();
        g.set_position(Some(fen), &[]).unwrap();
        let pos = *g.pos();
        let (igui, other): (Vec<Move>, Vec<Move>) = g.legal().into_iter().partition(|m| m.kind() == Kind::Igui);
        let names: Vec<String> = igui.iter().map(|&m| pos.move_to_uci(m)).collect();
        assert_eq!(names, ["b6d6"]);
        assert!(igui.iter().all(|&m| g.is_igui(&pos.move_to_uci(m))));
        assert!(other.iter().all(|&m| !g.is_igui(&pos.move_to_uci(m))));
        assert!(!g.is_igui("z9z9"));
    }
}
