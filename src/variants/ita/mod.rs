//! Ita, the national chess of Pseudo (rules: `docs/rules/ita.md`).
//!
//! 10x10, no royal piece and so no check: every pseudo-legal move is legal.
//! The Flags win by reaching the enemy's Flag home squares, and each Flag owns
//! two once-per-game abilities, kept in the rights: `rights[0]` holds the
//! Flags that still have the alley (`a`, one diagonal step), `rights[1]` the
//! Flags that still have the capture (`c`). Games end with a score pair.
//!
//! Decisions where the rulings are silent:
//! - no repetition rule: every Ita ending is a score pair, so a repeated
//!   position is no draw (the boredom rule ends idle endings);
//! - a FEN may hold at most two Flags per side, and abilities only on squares
//!   holding a Flag; the rights field is re-ordered as the ruling writes it;
//! - boredom ends the game once the clock reads 72 or more plies (a FEN may
//!   start beyond 72).

use crate::bitboard::Bits;
use crate::geometry::{Board10x10, Geometry};
use crate::moves::{Kind, Move};
use crate::position::Position;
use crate::variant::{BLACK, Outcome, PieceDef, Variant, WHITE};
use std::sync::OnceLock;

mod clock;
mod engine;
mod eval;
mod notation;
pub mod options;

pub use clock::{ARCMIN_MS, CLOCK_MODES, DEGREE_MS, ItaTimeMode};
pub use engine::visit;
pub use notation::{NATIVE_FILES, canonical_to_native, move_to_canonical, move_to_native, native_to_canonical};
pub use options::ItaOptions;
pub use options::rule_word;

pub const FLAG: u8 = 1;
pub const SQUIRE: u8 = 2;
pub const LEAPER: u8 = 3;
pub const CAVALRY: u8 = 4;
pub const ROOK: u8 = 5;
pub const BISHOP: u8 = 6;
pub const PAWN: u8 = 7;

pub const PIECES: [PieceDef; 7] = [
    PieceDef {
        name: "Flag",
        letter: "F",
        // The abilities are added by `extra_moves`.
        betza: "mfW",
        value: 1000,
    },
    PieceDef { name: "Squire", letter: "S", betza: "nNQ2", value: 400 },
    PieceDef { name: "Leaper", letter: "L", betza: "mRupR", value: 350 },
    PieceDef { name: "Cavalry", letter: "C", betza: "nNnC", value: 320 },
    PieceDef { name: "Rook", letter: "R", betza: "R6", value: 450 },
    PieceDef { name: "Bishop", letter: "B", betza: "B7", value: 330 },
    PieceDef { name: "Pawn", letter: "P", betza: "vWbF", value: 100 },
];

/// How each piece moves, in words ("forward" is toward the opponent), by
/// letter, in the order a legend lists them (the `pieces` command).
pub const PIECE_MOVES: [(&str, &str); 7] = [
    ("F", "one step straight forward, never capturing; once per game one diagonal step (alley) and once a capture"),
    ("S", "a non-leaping knight, or a queen of range 1 or 2"),
    (
        "L",
        "a rook of any range without capturing; captures by igui: over one piece (the screen) it removes the enemy just beyond and stays",
    ),
    ("C", "a non-leaping knight (1,2) or camel (1,3): the longer leg first, every square of the path empty"),
    ("R", "along ranks and files, at most 6 squares"),
    ("B", "diagonally, at most 7 squares"),
    ("P", "one step straight forward or backward, or diagonally backward; captures the same way"),
];
/// [`PIECE_MOVES`] with the Leaper capturing by replacement.
pub const PIECE_MOVES_REPLACEMENT: [(&str, &str); 7] = {
    let mut p = PIECE_MOVES;
    p[LEAPER as usize - 1].1 = "a rook of any range without capturing; captures by replacement: over one piece (the screen) onto the first enemy beyond";
    p
};
/// The rules a player must know beyond the pieces' moves.
pub const RULES_NOTE: &str = "No king and no check: capture both enemy Flags.";

/// The pieces with the Leaper capturing by replacement (`ItaLeaperCapture
/// replacement`): a cannon that moves onto its victim.
pub const PIECES_REPLACEMENT: [PieceDef; 7] = {
    let mut p = PIECES;
    p[LEAPER as usize - 1].betza = "mRcpR";
    p
};

type Bb = u128;

/// Ita under rule options (Calvinita's changes): `REPLACEMENT` makes the
/// Leaper capture by replacement (option `ItaLeaperCapture replacement`)
/// instead of igui; `RANK_GOAL` lets a Flag score the goal on any square of
/// the far rank (option `ItaGoal rank`) instead of the enemy Flags' home
/// squares. Both are copies of the rule word's bits ([`options::WORD_REPLACEMENT`],
/// [`options::WORD_RANK_GOAL`]), made by [`visit`]. [`Ita`] is the rulings: both off.
#[derive(Clone, Copy, Debug, Default)]
pub struct ItaRules<const REPLACEMENT: bool, const RANK_GOAL: bool>;

/// Ita as the rulings have it.
pub type Ita = ItaRules<false, false>;

/// The Flags' own steps: forward (per colour) and the four diagonals.
struct FlagSteps {
    forward: [[Bb; 100]; 2],
    diagonal: [Bb; 100],
}

fn flag_steps() -> &'static FlagSteps {
    static T: OnceLock<FlagSteps> = OnceLock::new();
    T.get_or_init(|| {
        let step = |sq: usize, df: i32, dr: i32| Board10x10::offset(sq, df, dr).map_or(0, Bb::bit);
        FlagSteps {
            forward: [std::array::from_fn(|sq| step(sq, 0, 1)), std::array::from_fn(|sq| step(sq, 0, -1))],
            diagonal: std::array::from_fn(|sq| step(sq, 1, 1) | step(sq, -1, 1) | step(sq, 1, -1) | step(sq, -1, -1)),
        }
    })
}

/// The squares a side's Flag must reach: the enemy Flags' home squares, or
/// (`whole_rank`, option `ItaGoal rank`) the whole far rank.
fn goal(color: usize, whole_rank: bool) -> Bb {
    let rank = if color == WHITE { 9 } else { 0 };
    if whole_rank {
        return Board10x10::rank_bb(rank);
    }
    Bb::bit(Board10x10::square(4, rank)) | Bb::bit(Board10x10::square(5, rank))
}

/// A side's own ninth rank (White rank 9, Black rank 2).
fn ninth_rank(color: usize) -> Bb {
    Board10x10::rank_bb(if color == WHITE { 8 } else { 1 })
}

impl<const REPLACEMENT: bool, const RANK_GOAL: bool> Variant for ItaRules<REPLACEMENT, RANK_GOAL> {
    type G = Board10x10;
    type ByType = [u128; 8];
    const NAME: &'static str = "ita";
    const START_FEN: &'static str =
        "b2rffr2b/2l1ss1l2/2c4c2/10/p1pp2pp1p/10/P1PP2PP1P/2C4C2/2L1SS1L2/B2RFFR2B w e1ac,f1ac,e10ac,f10ac - 0 1";
    const PIECES: &'static [PieceDef] = if REPLACEMENT { &PIECES_REPLACEMENT } else { &PIECES };
    const REPETITION_DRAWS: bool = false;
    /// Results from 5:0 down.
    const SCORE_SCALE: i32 = 5;
    const TYPE_WORD: u32 =
        (REPLACEMENT as u32 * options::WORD_REPLACEMENT) | (RANK_GOAL as u32 * options::WORD_RANK_GOAL);

    // One table per Leaper mode (the goal option does not change them).
    crate::variant_tables!(Board10x10, REPLACEMENT);

    /// The Flag abilities: a forward capture (`c`), diagonal steps (`a`) and
    /// diagonal captures (`a` and `c` together).
    fn extra_moves(pos: &Position<Self>, push: &mut impl FnMut(Move)) {
        let us = pos.side;
        let able = pos.pieces(us, FLAG) & (pos.rights[0] | pos.rights[1]);
        if able.is_empty() {
            return;
        }
        let steps = flag_steps();
        let enemy = pos.by_color[us ^ 1];
        let empty = !pos.occupied();
        for from in able.iter() {
            let alley = pos.rights[0].has(from);
            let capture = pos.rights[1].has(from);
            let mut targets = 0;
            if capture {
                targets |= steps.forward[us][from] & enemy;
            }
            if alley {
                let diag = steps.diagonal[from];
                targets |= diag & empty;
                if capture {
                    targets |= diag & enemy;
                }
            }
            for to in targets.iter() {
                push(Move::normal(from, to));
            }
        }
    }

    /// Abilities move with their Flag; a diagonal step uses `a`, a capture
    /// uses `c`; a captured Flag takes its abilities with it.
    fn next_rights(pos: &Position<Self>, m: Move, moved: u8, captured: u8) -> [Bb; 2] {
        let mut r = pos.rights;
        if (r[0] | r[1]).is_empty() {
            return r;
        }
        let to = Bb::bit(m.to());
        if m.kind() == Kind::Igui {
            r[0] &= !to;
            r[1] &= !to;
            return r;
        }
        let from = Bb::bit(m.from());
        let alley = r[0] & from != 0;
        let capture = r[1] & from != 0;
        r[0] &= !(from | to);
        r[1] &= !(from | to);
        if moved == FLAG {
            let diagonal = Board10x10::file_of(m.from()) != Board10x10::file_of(m.to());
            if alley && !diagonal {
                r[0] |= to;
            }
            if capture && captured == 0 {
                r[1] |= to;
            }
        }
        r
    }

    /// Goal, flags captured and bare Flag, for the side that has just moved.
    /// A forfeit scores as Ita's time result: the loser 1, the other side 4.
    fn forfeit(_pos: &Position<Self>, loser: usize, reason: &str) -> Outcome {
        Outcome::scores(loser, 1, 4, reason)
    }
    fn board_end(pos: &Position<Self>) -> Option<Outcome> {
        let mover = pos.side ^ 1;
        let them = pos.side;
        let flags = pos.pieces(mover, FLAG);
        let scored = flags & goal(mover, RANK_GOAL);
        if scored != 0 {
            let other = flags & !Bb::bit(scored.lsb());
            let (mine, theirs) = if other == 0 {
                (5, 2)
            } else if other & ninth_rank(mover) != 0 {
                (5, 0)
            } else {
                (5, 1)
            };
            return Some(Outcome::scores(mover, mine, theirs, "goal"));
        }
        let their_flags = pos.pieces(them, FLAG);
        if their_flags == 0 {
            return Some(Outcome::scores(mover, 4, 1, "flags captured"));
        }
        if pos.by_color[them] == their_flags && !their_flags.several() {
            return Some(Outcome::scores(mover, 3, 1, "bare flag"));
        }
        None
    }

    /// Stalemate: the side that stalemated scores 2, the stalemated side 3.
    fn no_moves(pos: &Position<Self>, _in_check: bool) -> Outcome {
        Outcome::scores(pos.side ^ 1, 2, 3, "stalemate")
    }

    /// The clock counts plies since the last capture (igui included).
    fn resets_clock(_moved: u8, captured: u8, _kind: Kind) -> bool {
        captured != 0
    }

    /// Boredom: fewer than 6 pieces and the 72nd non-capturing ply played.
    fn rule_end(pos: &Position<Self>) -> Option<Outcome> {
        if pos.occupied().count() < 6 && pos.halfmove >= 72 {
            return Some(Outcome::scores(pos.side ^ 1, 2, 4, "boredom"));
        }
        None
    }

    /// `e1ac,f1ac,e10ac,f10ac`: each Flag with an ability, its square then
    /// `a` and/or `c`.
    fn parse_rights(field: &str) -> Option<[Bb; 2]> {
        let mut r = [0; 2];
        if field == "-" {
            return Some(r);
        }
        for entry in field.split(',') {
            let split = entry.char_indices().skip(1).find(|(_, c)| !c.is_ascii_digit()).map_or(entry.len(), |(i, _)| i);
            let (square, abilities) = entry.split_at(split);
            let sq = Board10x10::parse_square(square)?;
            if abilities.is_empty() || (r[0] | r[1]).has(sq) {
                return None;
            }
            for a in abilities.chars() {
                let i = match a {
                    'a' => 0,
                    'c' => 1,
                    _ => return None,
                };
                if r[i].has(sq) {
                    return None;
                }
                r[i] |= Bb::bit(sq);
            }
        }
        Some(r)
    }

    fn rights_fen(pos: &Position<Self>) -> String {
        let mut entries = Vec::new();
        for color in [WHITE, BLACK] {
            for sq in (pos.pieces(color, FLAG) & (pos.rights[0] | pos.rights[1])).iter() {
                let mut e = Board10x10::square_name(sq);
                if pos.rights[0].has(sq) {
                    e.push('a');
                }
                if pos.rights[1].has(sq) {
                    e.push('c');
                }
                entries.push(e);
            }
        }
        if entries.is_empty() { "-".into() } else { entries.join(",") }
    }

    fn validate(pos: &Position<Self>) -> Result<(), String> {
        for color in [WHITE, BLACK] {
            if pos.pieces(color, FLAG).count() > 2 {
                return Err("a side has more than two Flags".into());
            }
        }
        if (pos.rights[0] | pos.rights[1]) & !pos.by_type[FLAG as usize] != 0 {
            return Err("a Flag ability on a square without a Flag".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::perft::perft;

    /// A position from a list like "Ra1 pe5" (upper case White), side and
    /// rights field.
    fn pos(pieces: &str, side: &str, rights: &str) -> Position<Ita> {
        let mut board = [['.'; 10]; 10];
        for p in pieces.split_whitespace() {
            let (letter, square) = p.split_at(1);
            let sq = Board10x10::parse_square(square).unwrap();
            board[Board10x10::rank_of(sq)][Board10x10::file_of(sq)] = letter.chars().next().unwrap();
        }
        let rows: Vec<String> = (0..10)
            .rev()
            .map(|r| {
                let mut s = String::new();
                let mut run = 0;
                for &c in &board[r] {
                    if c == '.' {
                        run += 1;
                    } else {
                        if run > 0 {
                            s += &run.to_string();
                            run = 0;
                        }
                        s.push(c);
                    }
                }
                if run > 0 {
                    s += &run.to_string();
                }
                s
            })
            .collect();
        let fen = format!("{} {side} {rights} - 0 1", rows.join("/"));
        let p = Position::<Ita>::from_fen(&fen).unwrap();
        assert_eq!(p.fen(), fen);
        p
    }

    /// The targets of the legal moves from `from`, sorted.
    fn targets(p: &Position<Ita>, from: &str) -> Vec<String> {
        let from = Board10x10::parse_square(from).unwrap();
        let mut v: Vec<String> =
            p.legal_moves().iter().filter(|m| m.from() == from).map(|m| Board10x10::square_name(m.to())).collect();
        v.sort();
        v
    }

    fn list(s: &str) -> Vec<String> {
        let mut v: Vec<String> = s.split_whitespace().map(String::from).collect();
        v.sort();
        v
    }

    fn play(p: &Position<Ita>, m: &str) -> Position<Ita> {
        p.play(p.parse_uci_move(m).unwrap())
    }

    #[test]
    fn start_position() {
        let p = Position::<Ita>::startpos();
        assert_eq!(p.fen(), Ita::START_FEN);
        assert_eq!(p.legal_moves().len(), 58);
        assert_eq!(perft(&p, 2), 4292);
    }

    #[test]
    fn rook_range_six() {
        let p = pos("Ra1", "w", "-");
        assert_eq!(targets(&p, "a1"), list("a2 a3 a4 a5 a6 a7 b1 c1 d1 e1 f1 g1"));
        let p = pos("Rd4 pd7 Pf4", "w", "-");
        assert_eq!(targets(&p, "d4"), list("d5 d6 d7 d3 d2 d1 e4 c4 b4 a4"));
    }

    #[test]
    fn bishop_range_seven() {
        let p = pos("Ba1", "w", "-");
        assert_eq!(targets(&p, "a1"), list("b2 c3 d4 e5 f6 g7 h8"));
        let p = pos("Bc3 pe5 Pb4", "w", "-");
        assert_eq!(targets(&p, "c3"), list("d4 e5 b2 a1 d2 e1"));
    }

    #[test]
    fn cavalry_paths() {
        // Free: a1 -> b3, c2 (knight), b4, d2 (camel).
        let p = pos("Ca1", "w", "-");
        assert_eq!(targets(&p, "a1"), list("b3 c2 b4 d2"));
        // c1 blocks only the camel to d2 (path b1 c1); a3 only the camel to b4.
        let p = pos("Ca1 pc1 Pa3", "w", "-");
        assert_eq!(targets(&p, "a1"), list("b3 c2"));
        // b1 blocks c2 and d2; the enemy on b3 is captured.
        let p = pos("Ca1 Pb1 pb3", "w", "-");
        assert_eq!(targets(&p, "a1"), list("b3 b4"));
        // The full set from e5, and e6 blocking d7 f7 d8 f8.
        let p = pos("Ce5", "w", "-");
        assert_eq!(targets(&p, "e5"), list("d7 f7 d3 f3 c6 c4 g6 g4 d8 f8 d2 f2 b6 b4 h6 h4"));
        let p = pos("Ce5 Pe6", "w", "-");
        assert_eq!(targets(&p, "e5"), list("d3 f3 c6 c4 g6 g4 d2 f2 b6 b4 h6 h4"));
    }

    #[test]
    fn squire() {
        let p = pos("Se5", "w", "-");
        assert_eq!(
            targets(&p, "e5"),
            list(
                "d7 f7 d3 f3 c6 c4 g6 g4 e6 e7 e4 e3 d5 c5 f5 g5 \
                 d6 c7 f6 g7 d4 c3 f4 g3"
            )
        );
        // e6 (own) blocks e7, d7, f7; f6 (enemy) is captured and blocks g7.
        let p = pos("Se5 Pe6 pf6", "w", "-");
        assert_eq!(targets(&p, "e5"), list("d3 f3 c6 c4 g6 g4 e4 e3 d5 c5 f5 g5 d6 c7 f6 d4 c3 f4 g3"));
    }

    #[test]
    fn leaper_moves_and_igui() {
        // Moves like an unlimited rook, never capturing by moving.
        let p = pos("Le5 pe6", "w", "-");
        assert_eq!(targets(&p, "e5"), list("e4 e3 e2 e1 d5 c5 b5 a5 f5 g5 h5 i5 j5"));
        // Screens of either colour: e7 (own) then e9, c5 (enemy) then a5.
        let p = pos("Le5 Pe7 pe9 pc5 pa5 Pg5 Pi5 Le2", "w", "-");
        assert_eq!(targets(&p, "e5"), list("e6 e9 e4 e3 d5 a5 f5"));
        // Nothing is taken beyond g5: i5 is White's own. The Leaper stays.
        let p2 = play(&p, "e5a5");
        assert_eq!(p2.type_on(Board10x10::parse_square("e5").unwrap()), LEAPER);
        assert_eq!(p2.board[Board10x10::parse_square("a5").unwrap()], 0);
        assert_eq!(p2.halfmove, 0);
        assert_eq!(p2.fen(), pos("Le5 Pe7 pe9 pc5 Pg5 Pi5 Le2", "b", "-").fen());
        // The lower Leaper's screen is the upper one; the victim e7 is White's own.
        assert_eq!(targets(&p, "e2"), list("e3 e4 e1 a2 b2 c2 d2 f2 g2 h2 i2 j2"));
    }

    #[test]
    fn pawn() {
        let p = pos("Pe5", "w", "-");
        assert_eq!(targets(&p, "e5"), list("e6 e4 d4 f4"));
        let p = pos("pe5", "b", "-");
        assert_eq!(targets(&p, "e5"), list("e4 e6 d6 f6"));
        // Captures the same way; never forward-diagonally.
        let p = pos("Pe5 re6 rd4 Pf4 rd6 rf6", "w", "-");
        assert_eq!(targets(&p, "e5"), list("e6 e4 d4"));
        // Pawn moves do not reset the clock.
        let p = Position::<Ita>::from_fen("10/10/10/10/10/4P5/10/10/10/10 w - - 7 1").unwrap();
        assert_eq!(play(&p, "e5e6").halfmove, 8);
    }

    #[test]
    fn flag_without_abilities() {
        let p = pos("Fe5 pe6 pd6", "w", "-");
        assert!(targets(&p, "e5").is_empty());
        let p = pos("Fe5", "w", "-");
        assert_eq!(targets(&p, "e5"), list("e6"));
        let p = pos("fe5", "b", "-");
        assert_eq!(targets(&p, "e5"), list("e4"));
    }

    #[test]
    fn flag_alley() {
        let p = pos("Fe5 pd6 Pf6 pe6", "w", "e5a");
        assert_eq!(targets(&p, "e5"), list("d4 f4"));
        let p = pos("Fe5 pd6", "w", "e5a");
        assert_eq!(targets(&p, "e5"), list("e6 d4 f4 f6"));
        // The alley is used up; the Flag keeps nothing.
        assert_eq!(Ita::rights_fen(&play(&p, "e5f4")), "-");
        // A straight step carries the ability along.
        assert_eq!(Ita::rights_fen(&play(&p, "e5e6")), "e6a");
    }

    #[test]
    fn flag_capture() {
        let p = pos("Fe5 pe6 pd6 Ff1", "w", "f1c,e5c");
        assert_eq!(targets(&p, "e5"), list("e6"));
        let p2 = play(&p, "e5e6");
        assert_eq!(p2.halfmove, 0);
        assert_eq!(Ita::rights_fen(&p2), "f1c");
        // Used up: no second capture.
        let p3 = pos("Fe6 pe7 Ff1 fa10", "w", "f1c");
        assert!(targets(&p3, "e6").is_empty());
    }

    #[test]
    fn flag_both_abilities() {
        let p = pos("Fe5 pe6 pd6 Pf6 pf4 fe10", "w", "e5ac,e10ac");
        assert_eq!(targets(&p, "e5"), list("e6 d6 d4 f4"));
        // A diagonal capture uses both.
        assert_eq!(Ita::rights_fen(&play(&p, "e5d6")), "e10ac");
        // A diagonal step uses the alley only.
        assert_eq!(Ita::rights_fen(&play(&p, "e5d4")), "d4c,e10ac");
        // A straight capture uses the capture only.
        assert_eq!(Ita::rights_fen(&play(&p, "e5e6")), "e6a,e10ac");
        // Capturing a Flag removes its abilities.
        let q = pos("Fe9 fe10 fd10", "w", "e9c,d10a,e10ac");
        assert_eq!(Ita::rights_fen(&play(&q, "e9e10")), "d10a");
        // So does an igui capture of a Flag.
        let q = pos("Le1 Pe5 fe10 fd10", "w", "d10a,e10ac");
        assert_eq!(Ita::rights_fen(&play(&q, "e1e10")), "d10a");
    }

    #[test]
    fn rights_field_order() {
        // White's Flags first, then Black's, each in square order.
        let p = Position::<Ita>::from_fen("10/10/10/10/10/4F5/10/3F6/f9/10 w e5ac,a2a,d3c - 0 1").unwrap();
        assert_eq!(Ita::rights_fen(&p), "d3c,e5ac,a2a");
        assert!(Position::<Ita>::from_fen("10/10/10/10/10/10/10/10/10/4F5 w e2a - 0 1").is_err());
        assert!(Position::<Ita>::from_fen("10/10/10/10/10/10/10/10/10/4F5 w e1x - 0 1").is_err());
        assert!(Position::<Ita>::from_fen("10/10/10/10/10/10/10/10/10/4F5 w e1 - 0 1").is_err());
        assert!(Position::<Ita>::from_fen("10/10/10/10/10/10/10/10/10/3FFF4 w - - 0 1").is_err());
    }

    fn outcome_after(fen: &str, m: &str) -> Option<Outcome> {
        let mut g = Game::<Ita>::new(Position::from_fen(fen).unwrap());
        assert_eq!(g.outcome(), None);
        g.play_text(m).unwrap();
        g.outcome()
    }

    fn scores(o: Option<Outcome>) -> ([i32; 2], String) {
        let o = o.expect("the game should have ended");
        (o.scores.unwrap(), o.reason)
    }

    #[test]
    fn goal() {
        // Other Flag on White's ninth rank: 5:0.
        let o = outcome_after("1r7f/4FF4/10/10/10/10/10/10/10/R9 w - - 0 1", "e9e10");
        assert_eq!(scores(o), ([5, 0], "goal".into()));
        // Other Flag elsewhere on the board: 5:1.
        let o = outcome_after("1r7f/4F5/10/10/10/5F4/10/10/10/R9 w - - 0 1", "e9e10");
        assert_eq!(scores(o), ([5, 1], "goal".into()));
        // No other Flag: 5:2.
        let o = outcome_after("1r7f/4F5/10/10/10/10/10/10/10/R9 w - - 0 1", "e9e10");
        assert_eq!(scores(o), ([5, 2], "goal".into()));
        // Black reaching f1 with its other Flag on rank 2: 5:0 for Black.
        let o = outcome_after("1R8/10/10/10/10/10/10/10/4ff4/4F5 b - - 0 1", "f2f1");
        assert_eq!(scores(o), ([0, 5], "goal".into()));
        // A goal that also captures the last enemy Flag is a goal.
        let o = outcome_after("4f4p/4F5/10/10/10/10/10/10/10/9R w e9c - 0 1", "e9e10");
        assert_eq!(scores(o), ([5, 2], "goal".into()));
    }

    #[test]
    fn flags_captured_and_bare_flag() {
        // Black's last Flag is taken by a Rook; Black keeps a pawn: 4:1.
        let o = outcome_after("R3f5/10/10/10/p9/10/10/10/10/4F5 w - - 0 1", "a10e10");
        assert_eq!(scores(o), ([4, 1], "flags captured".into()));
        // By igui, too.
        let o = outcome_after("4f5/10/4p5/10/10/10/10/10/10/4L4F w - - 0 1", "e1e10");
        assert_eq!(scores(o), ([4, 1], "flags captured".into()));
        // Black keeps only a Flag: 3:1.
        let o = outcome_after("R3f5/p9/10/10/10/10/10/10/10/4F5 w - - 0 1", "a10a9");
        assert_eq!(scores(o), ([3, 1], "bare flag".into()));
    }

    #[test]
    fn stalemate() {
        // Black's Flag a9 cannot step onto the Rook, its pawn a10 is blocked.
        let o = outcome_after("p9/f9/10/R9/10/10/10/10/10/4F5 w - - 0 1", "a7a8");
        assert_eq!(scores(o), ([2, 3], "stalemate".into()));
        // A stalemated position has no children in perft.
        let p = play(&Position::from_fen("p9/f9/10/R9/10/10/10/10/10/4F5 w - - 0 1").unwrap(), "a7a8");
        assert_eq!(perft(&p, 1), 0);
    }

    #[test]
    fn boredom() {
        let fen = "4f4r/10/10/10/10/10/10/10/10/R3F5 w - - 71 40";
        let o = outcome_after(fen, "a1a2");
        assert_eq!(scores(o), ([2, 4], "boredom".into()));
        // One ply short: the game goes on.
        let o = outcome_after("4f4r/10/10/10/10/10/10/10/10/R3F5 w - - 70 40", "a1a2");
        assert_eq!(o, None);
        // Six pieces: no boredom.
        let o = outcome_after("4f4r/p9/10/10/10/10/10/10/P9/R3F5 w - - 71 40", "a1b1");
        assert_eq!(o, None);
        // A capture on the 72nd ply resets the clock.
        let o = outcome_after("4f4r/10/10/10/10/p9/10/10/10/R3F5 w - - 71 40", "a1a5");
        assert_eq!(o, None);
        // Perft does not apply it.
        let p = Position::<Ita>::from_fen("4f4r/10/10/10/10/10/10/10/10/R3F5 b - - 72 40").unwrap();
        assert!(perft(&p, 1) > 0);
    }

    #[test]
    fn no_repetition_draw() {
        let mut g = Game::<Ita>::new(Position::from_fen("4f4r/p9/10/10/10/10/10/10/P9/R3F5 w - - 0 1").unwrap());
        for _ in 0..3 {
            for m in ["a1b1", "j10j9", "b1a1", "j9j10"] {
                g.play_text(m).unwrap();
            }
        }
        assert_eq!(g.outcome(), None);
    }

    #[test]
    fn native_names() {
        assert_eq!(native_to_canonical("œ3"), Some("f3"));
        assert_eq!(native_to_canonical("lz10"), Some("g10"));
        assert_eq!(native_to_canonical("u1"), Some("a1"));
        assert_eq!(native_to_canonical("o10"), Some("j10"));
        assert_eq!(native_to_canonical("a1"), Some("h1"));
        assert_eq!(native_to_canonical("b1"), None);
        assert_eq!(native_to_canonical("u11"), None);
        assert_eq!(native_to_canonical("u0"), None);
        assert_eq!(native_to_canonical("u01"), None);
        assert_eq!(canonical_to_native("f3"), Some("œ3"));
        assert_eq!(canonical_to_native("g10"), Some("lz10"));
        assert_eq!(canonical_to_native("h1"), Some("a1"));
        assert_eq!(canonical_to_native("k1"), None);
        assert_eq!(canonical_to_native("e1x"), None);
        for sq in 0..100 {
            let c = Board10x10::square_name(sq);
            let n = canonical_to_native(&c).unwrap();
            assert_eq!(native_to_canonical(n), Some(c.as_str()));
        }
        assert_eq!(move_to_native("e2e3").as_deref(), Some("t2t3"));
        assert_eq!(move_to_native("g1g10").as_deref(), Some("lz1lz10"));
        assert_eq!(move_to_native("f10f9").as_deref(), Some("œ10œ9"));
        assert_eq!(move_to_native("0000").as_deref(), Some("0000"));
        assert_eq!(move_to_native("e2e3q"), None);
        assert_eq!(move_to_native("e2"), None);
        assert_eq!(move_to_canonical("lz1lz10").as_deref(), Some("g1g10"));
        assert_eq!(move_to_canonical("a2a9").as_deref(), Some("h2h9"));
        assert_eq!(move_to_canonical("œ2t3").as_deref(), Some("f2e3"));
        assert_eq!(move_to_canonical("e2e3"), None);
        // Every legal move of the start position survives the round trip.
        let p = Position::<Ita>::startpos();
        for m in p.legal_moves() {
            let t = p.move_to_uci(m);
            let n = move_to_native(&t).unwrap();
            assert_eq!(move_to_canonical(&n), Some(t));
        }
    }

    // ------------------------------------------------------- rule options

    fn after<V: Variant>(fen: &str, m: &str) -> Game<V> {
        let mut g = Game::<V>::new(Position::from_fen(fen).unwrap());
        g.play_text(m).unwrap();
        g
    }

    #[test]
    fn leaper_replacement_lands_on_the_victim() {
        // The Leaper a1 over the screen a3 takes the pawn a5; the move text is
        // the same (`<from><victim>`) in both modes.
        let fen = "4ff4/10/10/10/10/p9/10/P9/10/L3FF4 w - - 0 1";
        let leaper = |fen: &str| -> Vec<String> {
            let p = Position::<ItaRules<true, false>>::from_fen(fen).unwrap();
            let mut v: Vec<String> =
                p.legal_moves().iter().map(|&m| p.move_to_uci(m)).filter(|m| m.starts_with("a1")).collect();
            v.sort();
            v
        };
        assert_eq!(leaper(fen), ["a1a2", "a1a5", "a1b1", "a1c1", "a1d1"]);
        let igui = after::<Ita>(fen, "a1a5");
        assert_eq!(igui.pos().fen(), "4ff4/10/10/10/10/10/10/P9/10/L3FF4 b - - 0 1");
        let replacement = after::<ItaRules<true, false>>(fen, "a1a5");
        assert_eq!(replacement.pos().fen(), "4ff4/10/10/10/10/L9/10/P9/10/4FF4 b - - 0 1");
        // Both reset the boredom clock; a Leaper without a screen captures nothing.
        assert_eq!(replacement.pos().halfmove, 0);
        assert!(!leaper("4ff4/10/10/10/10/p9/10/10/10/L3FF4 w - - 0 1").contains(&"a1a5".to_string()));
        // The rulings' tables are not shared with the replacement mode.
        assert_eq!(Ita::PIECES[LEAPER as usize - 1].betza, "mRupR");
        assert_eq!(ItaRules::<true, true>::PIECES[LEAPER as usize - 1].betza, "mRcpR");
        assert!(Ita::tables().types[LEAPER as usize].by_color[0].hops.is_empty());
        assert!(!ItaRules::<true, false>::tables().types[LEAPER as usize].by_color[0].hops.is_empty());
    }

    #[test]
    fn goal_on_the_whole_far_rank() {
        // White's Flag a9 steps to a10; its other Flag is on f1.
        let fen = "4ff4/F9/10/10/10/10/10/10/10/5F4 w - - 0 1";
        assert_eq!(after::<Ita>(fen, "a9a10").outcome(), None);
        let o = after::<ItaRules<false, true>>(fen, "a9a10").outcome();
        assert_eq!(scores(o), ([5, 1], "goal".into()));
        // The scoring stays: the other Flag on the ninth rank gives 5:0.
        let fen = "4ff4/F8F/10/10/10/10/10/10/10/10 w - - 0 1";
        let o = after::<ItaRules<false, true>>(fen, "a9a10").outcome();
        assert_eq!(scores(o), ([5, 0], "goal".into()));
        // Black on j1, its other Flag still on e10: 5:1 for Black.
        let fen = "4f5/10/10/10/10/10/10/10/9f/4FF4 b - - 0 1";
        assert_eq!(after::<Ita>(fen, "j2j1").outcome(), None);
        let o = after::<ItaRules<true, true>>(fen, "j2j1").outcome();
        assert_eq!(scores(o), ([1, 5], "goal".into()));
        // The home squares still score.
        let fen = "5f4/4F5/10/10/10/10/10/10/10/5F4 w - - 0 1";
        let o = after::<ItaRules<false, true>>(fen, "e9e10").outcome();
        assert_eq!(scores(o), ([5, 1], "goal".into()));
    }
}
