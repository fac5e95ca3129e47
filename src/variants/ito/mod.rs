//! Ito Shogi ("String Shogi", J. Rutherford, 2022 rules): one file of 31
//! squares, shogi drops, and micro-shogi flipping (a piece other than the King
//! turns over every time it captures).
//!
//! Rules decided here where the ruling is silent:
//! - There is no draw rule: repeating a position a third time is an illegal
//!   move (refused by the game), and a side with no legal move loses. The
//!   halfmove clock is kept for the FEN only.
//! - Hands are written White first, then Black, each in the order of the
//!   ruling's table: P T C H G S.

use crate::geometry::Board1x31;
use crate::position::Position;
use crate::variant::{Outcome, PieceDef, Variant};

mod engine;
mod eval;

pub use engine::visit;

pub const KING: u8 = 1;
pub const PAWN: u8 = 2;
pub const TILE: u8 = 3;
pub const CANNON: u8 = 4;
pub const HORSE: u8 = 5;
pub const GOOSE: u8 = 6;
pub const SWALLOW: u8 = 7;
/// Promoted faces: `PAWN + PROMOTED` is the Go-Between, and so on.
pub const PROMOTED: u8 = 6;

const fn piece(name: &'static str, letter: &'static str, betza: &'static str, value: i32) -> PieceDef {
    PieceDef { name, letter, betza, value }
}

/// The pieces, White's view (forward is up the line). On one file `W` is the
/// one-square step, `D` the jump to the 2nd square, `H` to the 3rd, `(0,4)`
/// to the 4th; `DD` is the swallow-slide and `pR` the cannon's hop.
pub const PIECES: [PieceDef; 13] = [
    piece("King", "K", "fWfDbW", 0),
    piece("Pawn", "P", "fW", 100),
    piece("Tile General", "T", "fDbW", 200),
    piece("Silver Cannon", "C", "vpR", 350),
    piece("Heavenly Horse", "H", "vH", 250),
    piece("Goose", "G", "f(0,4)bD", 250),
    piece("Flying Swallow", "S", "fDDbW", 350),
    piece("Go-Between", "+P", "vW", 200),
    piece("Silver General", "+T", "fWvD", 300),
    piece("Reverse Chariot", "+C", "vR", 450),
    piece("Cavalryman", "+H", "vDvH", 350),
    piece("Phoenix", "+G", "vWv(0,4)", 350),
    piece("Bishop", "+S", "vDD", 400),
];

/// How each piece moves, in words ("forward" is toward the opponent), by
/// letter, in the order a legend lists them (the `pieces` command).
pub const PIECE_MOVES: [(&str, &str); 13] = [
    ("K", "step 1 forward, jump 2 forward, or step 1 back"),
    ("P", "step 1 forward"),
    ("T", "jump 2 forward or step 1 back"),
    ("C", "hops both ways over exactly one piece to an empty square or the first enemy beyond"),
    ("H", "jump 3 forward or back"),
    ("G", "jump 4 forward or 2 back"),
    ("S", "lands on the 2nd, 4th, 6th... square forward (stops at the first occupied landing square), or step 1 back"),
    ("+P", "step 1 forward or back"),
    ("+T", "step 1 forward, or jump 2 forward or back"),
    ("+C", "slides any distance forward or back"),
    ("+H", "jump 2 or 3 forward or back"),
    ("+G", "step 1 or jump 4 forward or back"),
    ("+S", "swallow-slides forward or back (2nd, 4th, 6th... square)"),
];
/// The rules a player must know beyond the pieces' moves.
pub const RULES_NOTE: &str = "Captured pieces go to the captor's hand and may be dropped; a piece other than the King flips over (+) each time it captures.";

#[derive(Clone, Copy, Debug, Default)]
pub struct ItoShogi;

impl Variant for ItoShogi {
    type G = Board1x31;
    type ByType = [u32; 14];
    const NAME: &'static str = "ito-shogi";
    const START_FEN: &'static str = "k/1/1/1/s/g/1/h/c/1/1/t/p/1/1/1/1/1/P/T/1/1/C/H/1/G/S/1/1/1/K[] w - - 0 1";
    const PIECES: &'static [PieceDef] = &PIECES;
    const HAND: bool = true;
    const KING: u8 = KING;
    const CAPTURES_TO_HAND: bool = true;
    const FLIP_ON_CAPTURE: bool = true;
    // A cannon's screen can be any piece, so pins do not decide legality.
    const FAST_LEGAL: bool = false;
    const REPETITION_ILLEGAL: bool = true;
    // On one line most pieces soon run out of good moves: zugzwang is common.
    const NULL_MOVE_OK: bool = false;
    crate::variant_tables!(Board1x31);

    fn flip(t: u8) -> u8 {
        match t {
            KING => KING,
            PAWN..=SWALLOW => t + PROMOTED,
            _ => t - PROMOTED,
        }
    }
    fn unpromoted(t: u8) -> u8 {
        if t > SWALLOW { t - PROMOTED } else { t }
    }
    /// Stalemating moves are illegal: the opponent must be in check or have
    /// a move that keeps its King safe.
    fn post_legal(_before: &Position<Self>, after: &Position<Self>) -> bool {
        after.in_check() || after.has_king_safe_move()
    }
    fn no_moves(pos: &Position<Self>, in_check: bool) -> Outcome {
        let reason = if in_check { "checkmate" } else { "no legal move" };
        Outcome::win(pos.side ^ 1, reason)
    }
    fn rule_end(_pos: &Position<Self>) -> Option<Outcome> {
        None
    }
    fn validate(pos: &Position<Self>) -> Result<(), String> {
        if pos.hand[0][KING as usize] + pos.hand[1][KING as usize] > 0 {
            return Err("a King cannot be in hand".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{AnyGame, Game};

    fn pos(fen: &str) -> Position<ItoShogi> {
        Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    /// Legal moves, in notation, sorted.
    fn legal(p: &Position<ItoShogi>) -> Vec<String> {
        let mut v: Vec<String> = p.legal_moves().iter().map(|&m| p.move_to_uci(m)).collect();
        v.sort();
        v
    }

    /// Legal moves of the piece on `sq`, sorted.
    fn moves_of(p: &Position<ItoShogi>, sq: &str) -> Vec<String> {
        legal(p)
            .into_iter()
            .filter(|m| m.starts_with(sq) && !m[sq.len()..].starts_with(|c: char| c.is_ascii_digit()))
            .collect()
    }

    /// A line of 31 squares from a1 upwards: `(square number, FEN piece)`.
    fn line(pieces: &[(usize, &str)], hand: &str, side: char) -> String {
        let mut ranks = vec!["1".to_string(); 31];
        for &(sq, p) in pieces {
            ranks[sq - 1] = p.to_string();
        }
        ranks.reverse();
        format!("{}[{hand}] {side} - - 0 1", ranks.join("/"))
    }

    fn sorted(v: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn start_position() {
        let p = Position::<ItoShogi>::startpos();
        assert_eq!(p.fen(), ItoShogi::START_FEN);
        assert_eq!(legal(&p).len(), 11);
    }

    #[test]
    fn king_steps_jumps_and_steps_back() {
        // White King a10 with a White Pawn on a11 (jumped over), Black King a31.
        let p = pos(&line(&[(10, "K"), (11, "P"), (31, "k")], "", 'w'));
        assert_eq!(moves_of(&p, "a10"), sorted(&["a10a12", "a10a9"]));
    }

    #[test]
    fn pawn_and_go_between() {
        let p = pos(&line(&[(1, "K"), (10, "P"), (20, "+P"), (31, "k")], "", 'w'));
        assert_eq!(moves_of(&p, "a10"), sorted(&["a10a11"]));
        assert_eq!(moves_of(&p, "a20"), sorted(&["a20a19", "a20a21"]));
    }

    #[test]
    fn tile_and_silver_general() {
        let p = pos(&line(&[(1, "K"), (10, "T"), (11, "p"), (20, "+T"), (31, "k")], "", 'w'));
        assert_eq!(moves_of(&p, "a10"), sorted(&["a10a12", "a10a9"]));
        assert_eq!(moves_of(&p, "a20"), sorted(&["a20a18", "a20a21", "a20a22"]));
    }

    #[test]
    fn cannon_needs_exactly_one_screen() {
        // Cannon a10; screens a13 (own Pawn) and a7 (black Pawn). Beyond a13
        // the first piece is the black Tile on a16 (captured); beyond a7 the
        // first piece is the own King on a1 (not).
        let p = pos(&line(&[(1, "K"), (7, "p"), (10, "C"), (13, "P"), (16, "t"), (31, "k")], "", 'w'));
        assert_eq!(
            moves_of(&p, "a10"),
            sorted(&["a10a14", "a10a15", "a10a16", "a10a6", "a10a5", "a10a4", "a10a3", "a10a2"])
        );
        // Two screens: up, a12 is the screen and the own Pawn on a13 ends
        // the hop, so the black Tile on a16 is out of reach.
        let p = pos(&line(&[(1, "K"), (7, "p"), (10, "C"), (12, "P"), (13, "P"), (16, "t"), (31, "k")], "", 'w'));
        assert_eq!(moves_of(&p, "a10"), sorted(&["a10a6", "a10a5", "a10a4", "a10a3", "a10a2"]));
        // The only screens are the Kings, with nothing beyond: no move at all.
        let p = pos(&line(&[(1, "K"), (10, "C"), (31, "k")], "", 'w'));
        assert!(moves_of(&p, "a10").is_empty());
        // The Reverse Chariot slides without a screen.
        let p = pos(&line(&[(1, "K"), (10, "+C"), (13, "p"), (31, "k")], "", 'w'));
        assert_eq!(
            moves_of(&p, "a10"),
            sorted(&[
                "a10a11", "a10a12", "a10a13", "a10a9", "a10a8", "a10a7", "a10a6", "a10a5", "a10a4", "a10a3", "a10a2"
            ])
        );
    }

    #[test]
    fn horse_and_cavalryman_jump() {
        let p = pos(&line(&[(1, "K"), (10, "H"), (11, "p"), (12, "p"), (20, "+H"), (31, "k")], "", 'w'));
        assert_eq!(moves_of(&p, "a10"), sorted(&["a10a13", "a10a7"]));
        assert_eq!(moves_of(&p, "a20"), sorted(&["a20a17", "a20a18", "a20a22", "a20a23"]));
    }

    #[test]
    fn goose_and_phoenix() {
        let p = pos(&line(&[(1, "K"), (10, "G"), (20, "+G"), (31, "k")], "", 'w'));
        assert_eq!(moves_of(&p, "a10"), sorted(&["a10a14", "a10a8"]));
        assert_eq!(moves_of(&p, "a20"), sorted(&["a20a16", "a20a19", "a20a21", "a20a24"]));
    }

    #[test]
    fn swallow_slides_over_odd_squares() {
        // Swallow a10: a11 is occupied (jumped), a12 empty, a13 occupied
        // (jumped), a14 holds a black pawn: captured, and the slide stops.
        let p = pos(&line(&[(1, "K"), (10, "S"), (11, "P"), (13, "p"), (14, "p"), (31, "k")], "", 'w'));
        assert_eq!(moves_of(&p, "a10"), sorted(&["a10a12", "a10a14", "a10a9"]));
        // An own piece on a landing square blocks without capture.
        let p = pos(&line(&[(1, "K"), (10, "S"), (14, "P"), (31, "k")], "", 'w'));
        assert_eq!(moves_of(&p, "a10"), sorted(&["a10a12", "a10a9"]));
        // The Bishop does the same both ways.
        let p = pos(&line(&[(1, "K"), (10, "+S"), (14, "P"), (31, "k")], "", 'w'));
        assert_eq!(moves_of(&p, "a10"), sorted(&["a10a12", "a10a8", "a10a6", "a10a4", "a10a2"]));
    }

    #[test]
    fn drops_go_on_any_empty_square() {
        // White holds a Pawn, Black a Cannon: White drops only the Pawn,
        // on every empty square, even a30 (check) and a31's neighbours.
        let p = pos(&line(&[(1, "K"), (31, "k")], "Pc", 'w'));
        let mut want: Vec<String> = (2..=30).map(|s| format!("P@a{s}")).collect();
        want.extend(["a1a2".to_string(), "a1a3".to_string()]);
        want.sort();
        assert_eq!(legal(&p), want);
    }

    #[test]
    fn capture_flips_and_fills_the_hand() {
        // The Horse on a10 takes the promoted black Swallow (Bishop) on a13:
        // it becomes a Cavalryman, and the Bishop goes to hand as a Swallow.
        let p = pos(&line(&[(1, "K"), (10, "H"), (13, "+s"), (31, "k")], "", 'w'));
        let q = p.play(p.parse_uci_move("a10a13").unwrap());
        assert_eq!(q.fen(), line(&[(1, "K"), (13, "+H"), (31, "k")], "S", 'b'));
        assert_eq!(q.key, q.compute_key());
        // A promoted piece that captures turns back.
        let p = pos(&line(&[(1, "K"), (10, "+H"), (13, "p"), (31, "k")], "", 'w'));
        let q = p.play(p.parse_uci_move("a10a13").unwrap());
        assert_eq!(q.fen(), line(&[(1, "K"), (13, "H"), (31, "k")], "P", 'b'));
        // The King never flips.
        let p = pos(&line(&[(1, "K"), (2, "p"), (31, "k")], "", 'w'));
        let q = p.play(p.parse_uci_move("a1a2").unwrap());
        assert_eq!(q.fen(), line(&[(2, "K"), (31, "k")], "P", 'b'));
        // A dropped piece comes back unpromoted.
        let p = pos(&line(&[(1, "K"), (31, "k")], "S", 'w'));
        let q = p.play(p.parse_uci_move("S@a10").unwrap());
        assert_eq!(q.fen(), line(&[(1, "K"), (10, "S"), (31, "k")], "", 'b'));
    }

    #[test]
    fn hands_are_written_in_table_order() {
        let fen = line(&[(1, "K"), (31, "k")], "PTCHGSSptchgs", 'w');
        assert_eq!(pos(&fen).fen(), fen);
        let p = pos(&line(&[(1, "K"), (31, "k")], "sGpT", 'w'));
        assert_eq!(p.fen(), line(&[(1, "K"), (31, "k")], "TGps", 'w'));
        assert!(Position::<ItoShogi>::from_fen(&line(&[(1, "K")], "k", 'w')).is_err());
    }

    #[test]
    fn stalemating_moves_are_refused() {
        // Black's lone King on a31 may go to a30 and a29 (jump). The Goose on
        // a25 covers a29; the Horse from a24 to a27 would cover a30 without
        // check: illegal. So is dropping the Horse in hand on a27.
        let p = pos(&line(&[(1, "K"), (24, "H"), (25, "G"), (31, "k")], "H", 'w'));
        let stalemating = p.parse_uci_move("a24a27");
        assert!(stalemating.is_err());
        let mut list = crate::moves::MoveList::new();
        p.generate(&mut list);
        let m = *list.iter().find(|&&m| p.move_to_uci(m) == "a24a27").unwrap();
        assert!(p.king_safe_after(m));
        assert!(!p.play(m).has_king_safe_move());
        let moves = legal(&p);
        assert!(!moves.contains(&"H@a27".to_string()));
        let board: Vec<String> = moves.into_iter().filter(|m| !m.contains('@')).collect();
        assert_eq!(board, sorted(&["a1a2", "a1a3", "a24a21", "a25a23", "a25a29"]));
        // Every other empty square takes the drop: 31 - 4 pieces - a27.
        assert_eq!(legal(&p).len() - 5, 26);
    }

    #[test]
    fn no_legal_move_loses() {
        // Stalemated (only reachable by setting it up): Black loses.
        let p = pos(&line(&[(1, "K"), (25, "G"), (27, "H"), (31, "k")], "", 'b'));
        let o = Game::new(p).outcome().unwrap();
        assert_eq!((o.winner, o.reason.as_str()), (Some(0), "no legal move"));
        // Checkmate by the Tile's jump: a29 is covered by the Goose, a30 by the Horse.
        let p = pos(&line(&[(1, "K"), (25, "G"), (27, "H"), (29, "T"), (31, "k")], "", 'b'));
        assert!(p.in_check());
        let o = Game::new(p).outcome().unwrap();
        assert_eq!((o.winner, o.reason.as_str()), (Some(0), "checkmate"));
        assert_eq!(o.result_string(), "1-0");
        // The start position is not over.
        assert_eq!(Game::<ItoShogi>::default().outcome(), None);
    }

    #[test]
    fn third_repetition_is_refused() {
        let mut g = Game::<ItoShogi>::default();
        for m in ["a1a2", "a31a30", "a2a1", "a30a31", "a1a2", "a31a30", "a2a1"] {
            g.play_text(m).unwrap();
        }
        // The game's keys: the start position stood at plies 0 and 4, and
        // the list ends with the current position's.
        let keys = g.keys();
        assert_eq!((keys.len(), keys[0] == keys[4], keys[7]), (8, true, g.pos().key));
        assert_eq!(g.repetitions_of(keys[0]), 2);
        // a30a31 would bring back the start position a third time.
        assert!(g.pos().legal_moves().iter().any(|&m| g.pos().move_to_uci(m) == "a30a31"));
        assert!(!AnyGame::legal_moves(&g).contains(&"a30a31".to_string()));
        assert_eq!(
            g.play_text("a30a31").map_err(|e| e.to_string()),
            Err("illegal move 'a30a31': it would repeat a position for the third time".to_string())
        );
        assert_eq!(g.moves().len(), 7);
        // Any other move is fine, and the game goes on.
        g.play_text("a30a29").unwrap();
        assert_eq!(g.outcome(), None);
    }
}
