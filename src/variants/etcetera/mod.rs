//! Etcetera: 7x8, Kings bound to their 3x3 fortresses, a Flying King rule,
//! same-type immunity and cannibal Kings and Guardians.
//!
//! Rules decided here where the ruling is silent:
//! - A capture of an own piece (King, Guardian) is a capture for the
//!   100-ply rule, like any other.
//! - A FEN with a King outside its fortress, or with the Kings facing each
//!   other on an open file, is rejected.

use crate::bitboard::Bits;
use crate::geometry::{Board7x8, Geometry};
use crate::position::Position;
use crate::variant::{Outcome, PieceDef, Variant, WHITE};

mod engine;
mod eval;

pub use engine::visit;

pub const KING: u8 = 1;
pub const ROOK: u8 = 2;
pub const ELEPHANT: u8 = 3;
pub const MAN: u8 = 4;
pub const GUARDIAN: u8 = 5;
pub const PAWN: u8 = 6;

/// White's view; Black mirrors the ranks.
pub const PIECES: [PieceDef; 6] = [
    PieceDef {
        name: "King",
        letter: "K",
        // Only inside its own fortress: see `piece_zone`.
        betza: "K",
        value: 0,
    },
    PieceDef { name: "Rook", letter: "R", betza: "R4", value: 450 },
    PieceDef { name: "Flyer-Elephant", letter: "E", betza: "vWfFfAvD", value: 300 },
    PieceDef { name: "Man", letter: "M", betza: "WmnD", value: 200 },
    PieceDef { name: "Guardian", letter: "G", betza: "KA", value: 350 },
    PieceDef { name: "Pawn", letter: "P", betza: "fmWfF", value: 100 },
];

/// How each piece moves, in words ("forward" is toward the opponent), by
/// letter, in the order a legend lists them (the `pieces` command).
pub const PIECE_MOVES: [(&str, &str); 6] = [
    ("K", "one step in any direction, only inside its own 3x3 fortress"),
    ("R", "along ranks and files, at most 4 squares"),
    (
        "E",
        "one step straight forward or back or diagonally forward, or a leap of two squares diagonally forward, straight forward or straight back",
    ),
    ("M", "one orthogonal step, or two orthogonal squares without capturing (the middle empty)"),
    ("G", "one step in any direction, or a leap of two squares diagonally"),
    (
        "P",
        "one step straight forward without capturing, or one step diagonally forward; promotes in the enemy fortress",
    ),
];
/// The rules a player must know beyond the pieces' moves.
pub const RULES_NOTE: &str = "A piece never captures one of its own type (Pawns excepted); the Kings may not face each other on an open file; stalemate wins.";

/// A side's fortress: files c-e of its first three ranks.
pub fn fortress(color: usize) -> u64 {
    let ranks = if color == WHITE { 0..3 } else { 5..8 };
    ranks.flat_map(|r| (2..5).map(move |f| Board7x8::square(f, r))).fold(0, |b, s| b | u64::bit(s))
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Etcetera;

impl Variant for Etcetera {
    type G = Board7x8;
    type ByType = [u64; 7];
    // Stalemate loses here too, but null-move pruning stays on: switching it off
    // measured -75 +- 68 Elo (80 games at 1+0.01); zugzwang is rare with Men and pawns.
    const NAME: &'static str = "etcetera";
    const START_FEN: &'static str = "gerkreg/ppppppp/3m3/3m3/3M3/3M3/PPPPPPP/GERKREG w - - 0 1";
    const PIECES: &'static [PieceDef] = &PIECES;
    const KING: u8 = KING;
    const PAWN: u8 = PAWN;
    const PROMOTIONS: &'static [u8] = &[ROOK, ELEPHANT, GUARDIAN];
    // The Flying King rule is judged on the position after the move.
    const FAST_LEGAL: bool = false;
    crate::variant_tables!(Board7x8);

    fn piece_zone(t: u8, color: usize) -> Option<u64> {
        (t == KING).then(|| fortress(color))
    }
    fn promotion_zone(color: usize) -> u64 {
        fortress(color ^ 1)
    }
    /// Same-type immunity; the King and the Guardians are cannibals.
    #[inline(always)]
    fn capture_targets(pos: &Position<Self>, us: usize, t: u8) -> u64 {
        let enemies = pos.by_color[us ^ 1];
        match t {
            KING => pos.occupied() & !pos.pieces(us, KING),
            GUARDIAN => pos.occupied() & !pos.pieces(us, KING) & !pos.by_type[GUARDIAN as usize],
            ROOK | ELEPHANT | MAN => enemies & !pos.by_type[t as usize],
            _ => enemies,
        }
    }
    /// Flying King: the Kings may not face each other on an open file.
    fn post_legal(_before: &Position<Self>, after: &Position<Self>) -> bool {
        !kings_face(after)
    }
    fn rule_end(pos: &Position<Self>) -> Option<Outcome> {
        (pos.halfmove >= 100).then(|| Outcome::draw("100 plies without capture or pawn move"))
    }
    fn validate(pos: &Position<Self>) -> Result<(), String> {
        for c in 0..2 {
            if (pos.pieces(c, KING) & !fortress(c)).any() {
                return Err("a King stands outside its fortress".into());
            }
        }
        if kings_face(pos) {
            return Err("the Kings face each other".into());
        }
        Ok(())
    }
}

/// Both Kings on one file with nothing between them.
fn kings_face(pos: &Position<Etcetera>) -> bool {
    let (w, b) = (pos.king_sq(0), pos.king_sq(1));
    w < Board7x8::SQUARES
        && b < Board7x8::SQUARES
        && Board7x8::file_of(w) == Board7x8::file_of(b)
        && (Board7x8::between(w, b) & pos.occupied()).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    /// A FEN from `(square, piece)` pairs.
    fn fen(pieces: &[(&str, &str)], side: char) -> String {
        let mut b = [[' '; 7]; 8];
        for &(sq, p) in pieces {
            let s = Board7x8::parse_square(sq).unwrap();
            b[Board7x8::rank_of(s)][Board7x8::file_of(s)] = p.chars().next().unwrap();
        }
        let ranks: Vec<String> = (0..8)
            .rev()
            .map(|r| {
                let mut out = String::new();
                let mut run = 0;
                for &c in &b[r] {
                    if c == ' ' {
                        run += 1;
                    } else {
                        if run > 0 {
                            out += &run.to_string();
                            run = 0;
                        }
                        out.push(c);
                    }
                }
                if run > 0 {
                    out += &run.to_string();
                }
                out
            })
            .collect();
        format!("{} {side} - - 0 1", ranks.join("/"))
    }

    fn pos(pieces: &[(&str, &str)], side: char) -> Position<Etcetera> {
        let f = fen(pieces, side);
        Position::from_fen(&f).unwrap_or_else(|e| panic!("{f}: {e}"))
    }

    fn moves_of(p: &Position<Etcetera>, sq: &str) -> Vec<String> {
        let mut v: Vec<String> =
            p.legal_moves().iter().map(|&m| p.move_to_uci(m)).filter(|m| m.starts_with(sq)).collect();
        v.sort();
        v
    }

    fn sorted(v: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn start_position() {
        let p = Position::<Etcetera>::startpos();
        assert_eq!(p.fen(), Etcetera::START_FEN);
        assert_eq!(p.legal_moves().len(), 39);
        assert_eq!(fortress(0).count(), 9);
        assert!(fortress(1).has(Board7x8::parse_square("e8").unwrap()));
    }

    #[test]
    fn king_stays_in_its_fortress() {
        // The black pawn on e7 closes the e-file.
        let p = pos(&[("d2", "K"), ("e8", "k"), ("e7", "p")], 'w');
        assert_eq!(moves_of(&p, "d2"), sorted(&["d2c1", "d2c2", "d2c3", "d2d1", "d2d3", "d2e1", "d2e2", "d2e3"]));
        let p = pos(&[("c3", "K"), ("e8", "k"), ("e7", "p")], 'w');
        assert_eq!(moves_of(&p, "c3"), sorted(&["c3c2", "c3d2", "c3d3"]));
        // A King outside its fortress is no position.
        assert!(Position::<Etcetera>::from_fen(&fen(&[("b2", "K"), ("e8", "k")], 'w')).is_err());
    }

    #[test]
    fn flying_king() {
        // Without the black pawn the King may not step onto the open e-file.
        let p = pos(&[("d2", "K"), ("e8", "k")], 'w');
        assert_eq!(moves_of(&p, "d2"), sorted(&["d2c1", "d2c2", "d2c3", "d2d1", "d2d3"]));
        // The Rook between the Kings may only move along the file.
        let p = pos(&[("d2", "K"), ("d3", "R"), ("d8", "k")], 'w');
        assert_eq!(moves_of(&p, "d3"), sorted(&["d3d4", "d3d5", "d3d6", "d3d7"]));
        assert_eq!(moves_of(&p, "d2"), sorted(&["d2c1", "d2c2", "d2c3", "d2d1", "d2e1", "d2e2", "d2e3"]));
        // Facing Kings are no position either.
        assert!(Position::<Etcetera>::from_fen(&fen(&[("d2", "K"), ("d8", "k")], 'w')).is_err());
    }

    #[test]
    fn same_type_immunity() {
        let p = pos(
            &[
                ("c1", "K"),
                ("d4", "R"),
                ("a3", "E"),
                ("f4", "M"),
                ("f2", "G"),
                ("b5", "P"),
                ("e8", "k"),
                ("d6", "r"),
                ("a5", "e"),
                ("f5", "m"),
                ("g3", "g"),
                ("a6", "p"),
            ],
            'w',
        );
        // The Rook stops in front of the black Rook.
        assert_eq!(moves_of(&p, "d4"), sorted(&["d4d5", "d4d3", "d4d2", "d4d1", "d4c4", "d4b4", "d4a4", "d4e4"]));
        // The Elephant cannot jump onto the black Elephant on a5.
        assert_eq!(moves_of(&p, "a3"), sorted(&["a3a4", "a3a2", "a3b4", "a3c5", "a3a1"]));
        // The Man cannot take the black Man.
        assert_eq!(moves_of(&p, "f4"), sorted(&["f4f3", "f4e4", "f4g4"]));
        // The Guardian cannot take the black Guardian, but eats its own Rook.
        assert_eq!(moves_of(&p, "f2"), sorted(&["f2e1", "f2e2", "f2e3", "f2f1", "f2f3", "f2g1", "f2g2", "f2d4"]));
        // A Pawn takes a Pawn; entering the fortress it promotes.
        assert_eq!(moves_of(&p, "b5"), sorted(&["b5b6", "b5a6", "b5c6r", "b5c6e", "b5c6g"]));
    }

    #[test]
    fn cannibal_king_and_guardians() {
        let p = pos(
            &[
                ("d2", "K"),
                ("c3", "P"),
                ("e3", "G"),
                ("c1", "G"),
                ("f4", "P"),
                ("d8", "k"),
                ("c7", "p"),
                ("d7", "p"),
                ("e7", "p"),
            ],
            'w',
        );
        // The King takes its own Pawn and Guardians.
        assert_eq!(moves_of(&p, "d2"), sorted(&["d2c1", "d2c2", "d2c3", "d2d1", "d2d3", "d2e1", "d2e2", "d2e3"]));
        // The Guardian takes its own Pawn, not its King nor the other Guardian.
        assert_eq!(
            moves_of(&p, "e3"),
            sorted(&["e3d3", "e3d4", "e3e2", "e3e4", "e3f2", "e3f3", "e3f4", "e3c5", "e3g1", "e3g5"])
        );
        let q = p.play(p.parse_uci_move("e3f4").unwrap());
        assert_eq!(q.fen(), "3k3/2ppp2/7/7/5G1/2P4/3K3/2G4 b - - 0 1");
        let q = p.play(p.parse_uci_move("d2c1").unwrap());
        assert_eq!(q.fen(), "3k3/2ppp2/7/7/5P1/2P1G2/7/2K4 b - - 0 1");
    }

    #[test]
    fn man_steps_or_makes_a_lame_two_step() {
        let p = pos(&[("c1", "K"), ("d4", "M"), ("e8", "k"), ("d6", "p"), ("e4", "p")], 'w');
        // d6 is occupied (no capture by the two-step), f4 is blocked by e4.
        assert_eq!(moves_of(&p, "d4"), sorted(&["d4d5", "d4d3", "d4c4", "d4e4", "d4d2", "d4b4"]));
    }

    #[test]
    fn elephant_steps_and_leaps() {
        let p = pos(&[("c1", "K"), ("d4", "E"), ("d5", "P"), ("e8", "k"), ("d6", "m"), ("e5", "p"), ("f6", "e")], 'w');
        // Leaps over the own Pawn onto the Man; not onto the Elephant.
        assert_eq!(moves_of(&p, "d4"), sorted(&["d4d3", "d4c5", "d4e5", "d4b6", "d4d6", "d4d2"]));
    }

    #[test]
    fn pawns_promote_only_in_the_enemy_fortress() {
        let p = pos(&[("c1", "K"), ("a7", "P"), ("e5", "P"), ("g8", "P"), ("e8", "k")], 'w');
        assert_eq!(moves_of(&p, "a7"), sorted(&["a7a8", "a7b8"]));
        assert_eq!(moves_of(&p, "e5"), sorted(&["e5d6r", "e5d6e", "e5d6g", "e5e6r", "e5e6e", "e5e6g", "e5f6"]));
        // The Pawn on the last rank outside the fortress stays and is stuck.
        assert!(moves_of(&p, "g8").is_empty());
        let q = p.play(p.parse_uci_move("e5e6e").unwrap());
        assert_eq!(q.fen(), "4k1P/P6/4E2/7/7/7/7/2K4 b - - 0 1");
        // Black promotes in White's fortress, and only there.
        let p = pos(&[("c1", "K"), ("e8", "k"), ("f2", "p")], 'b');
        assert_eq!(moves_of(&p, "f2"), sorted(&["f2e1r", "f2e1e", "f2e1g", "f2f1", "f2g1"]));
    }

    #[test]
    fn stalemate_and_checkmate_lose() {
        let p = pos(&[("e1", "K"), ("a7", "R"), ("d4", "R"), ("c8", "k")], 'b');
        assert!(!p.in_check());
        let o = Game::new(p).outcome().unwrap();
        assert_eq!((o.winner, o.reason.as_str()), (Some(0), "stalemate"));
        let p = pos(&[("e1", "K"), ("a7", "R"), ("d4", "R"), ("c4", "R"), ("c8", "k")], 'b');
        assert!(p.in_check());
        let o = Game::new(p).outcome().unwrap();
        assert_eq!((o.winner, o.reason.as_str()), (Some(0), "checkmate"));
    }

    #[test]
    fn draws_in_play() {
        let mut g = Game::<Etcetera>::default();
        for m in ["d3c3", "d6c6", "c3d3", "c6d6", "d3c3", "d6c6", "c3d3"] {
            g.play_text(m).unwrap();
            assert_eq!(g.outcome(), None);
        }
        g.play_text("c6d6").unwrap();
        assert_eq!(g.outcome(), Some(Outcome::draw("threefold repetition")));
        let mut p = Position::<Etcetera>::startpos();
        p.halfmove = 99;
        let mut g = Game::new(p);
        assert_eq!(g.outcome(), None);
        g.play_text("d3c3").unwrap();
        assert_eq!(g.outcome(), Some(Outcome::draw("100 plies without capture or pawn move")));
    }
}
