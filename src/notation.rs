//! The protocol's text moves (UCI long algebraic, extended as in the rulings)
//! converted to and from the engine's moves through the position.

use crate::errors::MoveError;
use crate::geometry::Geometry;
use crate::moves::{Kind, Move};
use crate::position::{CASTLING_GATE_ON_ROOK, CASTLING_GATE_TYPE, Position};
use crate::variant::{Variant, castling_rook};

impl<V: Variant> Position<V> {
    /// The move's text: the canonical one, or the variant's own notation
    /// where the game's rule options chose it ([`Variant::native_move_text`]).
    pub fn move_to_uci(&self, m: Move) -> String {
        if m.is_null() {
            return "0000".into();
        }
        V::native_move_text(self, m).unwrap_or_else(|| self.move_to_canonical(m))
    }

    /// The canonical text (UCI long algebraic, extended as in the rulings).
    pub fn move_to_canonical(&self, m: Move) -> String {
        if m.is_null() {
            return "0000".into();
        }
        let sq = V::G::square_name;
        match m.kind() {
            Kind::Drop => format!("{}@{}", V::PIECES[m.piece() as usize - 1].letter, sq(m.to())),
            Kind::Promotion | Kind::Gating => format!(
                "{}{}{}",
                sq(m.from()),
                sq(m.to()),
                V::PIECES[m.piece() as usize - 1].letter.trim_start_matches('+').to_lowercase()
            ),
            // A castling gate, as Fairy-Stockfish writes Seirawan chess: the
            // king's move with the piece when it enters the king's square
            // (`e1g1m`), the rook's square to the king's when it enters the
            // rook's (`h1e1m`).
            Kind::Castling if m.piece() != 0 => {
                let letter = V::PIECES[(m.piece() & CASTLING_GATE_TYPE) as usize - 1].letter.to_lowercase();
                if m.piece() & CASTLING_GATE_ON_ROOK != 0 {
                    let (rook, _) = castling_rook::<V>(m.from(), m.to());
                    format!("{}{}{letter}", sq(rook), sq(m.from()))
                } else {
                    format!("{}{}{letter}", sq(m.from()), sq(m.to()))
                }
            }
            _ => format!("{}{}", sq(m.from()), sq(m.to())),
        }
    }

    /// Finds the legal move written `text`. Errors say whether the text is
    /// not a move at all or not legal here.
    pub fn parse_uci_move(&self, text: &str) -> Result<Move, MoveError> {
        self.parse_uci_move_among(text, &self.legal_moves())
    }
    /// [`Position::parse_uci_move`] with the position's legal moves given.
    pub fn parse_uci_move_among(&self, text: &str, legal: &[Move]) -> Result<Move, MoveError> {
        if let Some(&m) = legal.iter().find(|&&m| V::native_move_text(self, m).is_some_and(|t| t == text)) {
            return Ok(m);
        }
        if !looks_like_move(text) {
            return Err(MoveError::NotAMove { text: text.into() });
        }
        let mut squares = Vec::new();
        for sq in square_tokens(text) {
            let Some(s) = V::G::parse_square(sq) else {
                return Err(MoveError::NotASquare { text: text.into(), square: sq.into(), variant: V::NAME });
            };
            squares.push(s);
        }
        // Every move's text names its destination or (a drop aside) its
        // origin, the castling king's square included: only those moves are
        // written out to compare (a `position` command replays every move of
        // the game, and a long game holds thousands).
        let named = |m: Move| squares.contains(&m.to()) || (m.kind() != Kind::Drop && squares.contains(&m.from()));
        legal
            .iter()
            .copied()
            .filter(|&m| named(m))
            .find(|&m| self.move_to_canonical(m) == text)
            .ok_or_else(|| MoveError::Illegal { text: text.into(), rule: None })
    }
}

/// Cheap shape check: squares are a lower-case letter and digits, drops are `X@sq`.
pub fn looks_like_move(text: &str) -> bool {
    if text == "0000" {
        return true;
    }
    let t = text.as_bytes();
    if t.len() < 4 || t.len() > 12 {
        return false;
    }
    if t.get(1) == Some(&b'@') {
        return t[0].is_ascii_uppercase() && t[2].is_ascii_lowercase() && t[3..].iter().all(|c| c.is_ascii_digit());
    }
    text.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
}

/// The square names in a move text: a lower-case letter followed by digits.
fn square_tokens(text: &str) -> Vec<&str> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_lowercase() && i + 1 < b.len() && b[i + 1].is_ascii_digit() {
            let start = i;
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            out.push(&text[start..i]);
        } else {
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::errors::MoveError;
    use crate::registry::{RuleOptions, VariantId, VariantVisitor};
    use crate::variants::EngineVariant;

    /// Every legal move's canonical text, read among the position's legal
    /// moves, is that move. Returns the moves tried.
    struct ReadBack;
    impl VariantVisitor for ReadBack {
        type Out = usize;
        fn visit<V: EngineVariant>(self) -> usize {
            let mut tried = 0;
            crate::testing::random_games::<V>(7, 8, 120, |pos, moves, rng| {
                for &m in moves {
                    let text = pos.move_to_canonical(m);
                    assert_eq!(pos.parse_uci_move_among(&text, moves), Ok(m), "{}: {} {text}", V::NAME, pos.fen());
                }
                tried += moves.len();
                moves[rng.below(moves.len())]
            });
            tried
        }
    }

    #[test]
    fn every_moves_text_reads_back_to_that_move() {
        for &v in VariantId::ALL {
            let tried = v.visit(&RuleOptions::default(), ReadBack);
            assert!(tried > 1000, "{}: {tried}", v.name());
        }
    }

    #[test]
    fn a_text_naming_no_legal_move_says_why() {
        let pos = crate::position::Position::<crate::variants::chess::Chess>::startpos();
        let err = |t: &str| pos.parse_uci_move(t).unwrap_err();
        assert_eq!(err("e2e5"), MoveError::Illegal { text: "e2e5".into(), rule: None });
        assert_eq!(err("0000"), MoveError::Illegal { text: "0000".into(), rule: None });
        assert_eq!(err("e2"), MoveError::NotAMove { text: "e2".into() });
        assert!(matches!(err("e2e9"), MoveError::NotASquare { square, .. } if square == "e9"));
    }
}
