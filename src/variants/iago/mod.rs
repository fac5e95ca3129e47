//! IAGO chess, B-class (`iago-b`) and C-class (`iago-c`): FIDE chess plus a
//! Marshall and a Cardinal in reserve, entering by gating or by a back-rank
//! drop; promotion limited by the equipment. C-class starts with the queen's
//! square empty and the queen in reserve too; that square must be filled first.

use crate::bitboard::Bits;
use crate::geometry::{Board8x8, Geometry};
use crate::moves::Move;
use crate::position::Position;
use crate::variant::{Castling, DropRule, Outcome, PieceDef, Variant, WHITE};
use crate::variants::chess::{
    BISHOP, FIDE_PIECES, KING, KNIGHT, PAWN, PIECE_MOVES as FIDE_PIECE_MOVES, QUEEN, ROOK, format_castling,
    insufficient_material, parse_castling,
};

mod engine;
mod eval;
pub mod options;
pub mod rules;
pub use engine::{rule_word_b, rule_word_c, visit_b, visit_c};
pub use options::{IagoOptions, IagoPromotion, RESERVE_LETTERS};
use rules::Class;

pub const MARSHALL: u8 = 7;
pub const CARDINAL: u8 = 8;
/// The Amazon (Empress), in the piece set only of the types that read the
/// rule word (`X`): an `IagoReserve` may hold it.
pub const AMAZON: u8 = 9;

/// The FIDE pieces, then the Marshall and the Cardinal.
pub const IAGO_PIECES: [PieceDef; 8] = [
    FIDE_PIECES[0],
    FIDE_PIECES[1],
    FIDE_PIECES[2],
    FIDE_PIECES[3],
    FIDE_PIECES[4],
    FIDE_PIECES[5],
    PieceDef { name: "Marshall", letter: "M", betza: "RN", value: 880 },
    PieceDef { name: "Cardinal", letter: "C", betza: "BN", value: 800 },
];

/// [`IAGO_PIECES`] and the Amazon (M-class's Empress).
pub const IAGO_PIECES_A: [PieceDef; 9] = [
    IAGO_PIECES[0],
    IAGO_PIECES[1],
    IAGO_PIECES[2],
    IAGO_PIECES[3],
    IAGO_PIECES[4],
    IAGO_PIECES[5],
    IAGO_PIECES[6],
    IAGO_PIECES[7],
    PieceDef { name: "Amazon", letter: "A", betza: "QN", value: 1250 },
];

/// How each piece moves, in words ("forward" is toward the opponent), by
/// letter, in the order a legend lists them (the `pieces` command).
/// The Amazon's line is left out where the piece set has no Amazon.
pub const PIECE_MOVES: [(&str, &str); 9] = [
    FIDE_PIECE_MOVES[0],
    FIDE_PIECE_MOVES[1],
    FIDE_PIECE_MOVES[2],
    FIDE_PIECE_MOVES[3],
    FIDE_PIECE_MOVES[4],
    FIDE_PIECE_MOVES[5],
    ("M", "a rook or a knight"),
    ("C", "a bishop or a knight"),
    ("A", "a queen or a knight"),
];
/// The rules a player must know beyond the pieces' moves (IAGO B).
pub const RULES_NOTE_B: &str = "Reserve pieces (beside the board) enter on the square a piece of the first rank leaves, on its first move (gating).";
/// The same for IAGO C.
pub const RULES_NOTE_C: &str = "Reserve pieces (beside the board) enter on the square a piece of the first rank leaves, on its first move (gating). The empty queen squares are filled from the reserve first.";

/// How many pieces of each type one side's equipment holds (indexed by type).
const EQUIPMENT: [u32; 9] = [0, 8, 2, 2, 2, 1, 1, 1, 1];

/// The rules both classes share, written once over the class.
macro_rules! iago_variant {
    ($(#[$doc:meta])* $ty:ident, $rules:ident, $class:expr, $name:literal, $fen:literal, drop_rule: $drop_rule:ident) => {
        $(#[$doc])*
        ///
        /// `GATING` and `DROPS` are the rule options `IagoGating` and
        /// `IagoDrops` (the rulings: both on, the type alias without `Rules`).
        /// `X`: the other rule options are read from the position's rule word
        /// ([`rules`]), and the Amazon is a piece; without it the rulings hold
        /// and cost nothing. All three are copies of the rule word's bits
        /// ([`rules::type_bits`]).
        #[derive(Clone, Copy, Debug, Default)]
        pub struct $rules<const GATING: bool, const DROPS: bool, const X: bool = false>;

        /// The class as the rulings have it: gating and drops allowed.
        pub type $ty = $rules<true, true>;

        impl<const GATING: bool, const DROPS: bool, const X: bool> Variant for $rules<GATING, DROPS, X> {
            type G = Board8x8;
            // Eight piece types, nine with the Amazon of the extra rules (`X`), and index 0.
            type ByType = [u64; 10];
            const NAME: &'static str = $name;
            const START_FEN: &'static str = $fen;
            const PIECES: &'static [PieceDef] = if X { &IAGO_PIECES_A } else { &IAGO_PIECES };
            const HAND: bool = true;
            const KING: u8 = KING;
            const PAWN: u8 = PAWN;
            const PROMOTIONS: &'static [u8] = if X {
                &[QUEEN, AMAZON, MARSHALL, CARDINAL, ROOK, BISHOP, KNIGHT]
            } else {
                &[QUEEN, MARSHALL, CARDINAL, ROOK, BISHOP, KNIGHT]
            };
            const PROMOTION_USES_HAND: bool = true;
            const CASTLING: Option<Castling> = Some(Castling::FIDE);
            const EN_PASSANT: bool = true;
            const GATING: bool = GATING;
            const STALEMATE_DRAWS: bool = true;
            // `IagoBareKing`'s seed points (a checkmate 2:0, a bared king
            // 1:0) rank on a five-point scale: below a 5:0 no game reaches.
            const SCORE_SCALE: i32 = 5;
            const TYPE_WORD: u32 = rules::type_word(GATING, DROPS);
            // Its own tables for the Amazon of `X`.
            crate::variant_tables!(Board8x8, X);

            fn start_fen(word: u32) -> &'static str {
                if X { rules::start_fen($class, word) } else { $fen }
            }
            fn promotion_zone(color: usize) -> u64 {
                Board8x8::rank_bb(if color == WHITE { 7 } else { 0 })
            }
            fn promotion_allowed(pos: &Position<Self>, us: usize, t: u8) -> bool {
                if X { rules::promotion_allowed($class, pos, us, t) } else { equipment_left(pos, us, t) }
            }
            #[inline(always)]
            fn promotion_uses_hand(pos: &Position<Self>) -> bool {
                !X || rules::promotion_uses_hand(pos.rules)
            }
            #[inline(always)]
            fn castling_gates(pos: &Position<Self>) -> bool {
                X && GATING && pos.rules & rules::CASTLING_GATES != 0
            }
            fn drop_rule(pos: &Position<Self>) -> DropRule<u64> {
                $drop_rule(pos)
            }
            /// Without drops only a forced placement remains (IAGO-C's queen square).
            fn drop_targets(pos: &Position<Self>, us: usize, _t: u8) -> u64 {
                if DROPS {
                    back_rank(us) & !pos.occupied()
                } else if let DropRule::Only(b) = $drop_rule(pos) {
                    b
                } else {
                    0
                }
            }
            fn parse_rights(field: &str) -> Option<[u64; 2]> {
                parse_castling(field, true)
            }
            fn format_rights(r: &[u64; 2]) -> String {
                format_castling(r, true)
            }
            /// The Amazon only where `IagoReserve` holds it.
            fn validate(pos: &Position<Self>) -> Result<(), String> {
                let amazons = pos.by_type[AMAZON as usize].any() || pos.hand[0][AMAZON as usize] + pos.hand[1][AMAZON as usize] > 0;
                if X && amazons && rules::equipment($class, pos.rules, AMAZON) == 0 {
                    return Err("no Amazon in this game (IagoReserve holds none)".into());
                }
                Ok(())
            }
            fn native_move_text(pos: &Position<Self>, m: Move) -> Option<String> {
                (pos.rules & rules::NOTATION != 0).then(|| rules::iago_text(pos, m))
            }
            #[inline(always)]
            fn board_end(pos: &Position<Self>) -> Option<Outcome> {
                if X && pos.rules & rules::BARE_KING != 0 { rules::bare_king(pos) } else { None }
            }
            fn no_moves(pos: &Position<Self>, in_check: bool) -> Outcome {
                let o = if in_check {
                    Outcome::win(pos.side ^ 1, "checkmate")
                } else {
                    Outcome::draw("stalemate")
                };
                if X { rules::scored(pos.rules, o) } else { o }
            }
            fn rule_end(pos: &Position<Self>) -> Option<Outcome> {
                let o = if pos.halfmove >= 100 {
                    Some(Outcome::draw("50-move rule"))
                } else {
                    insufficient_material(pos)
                };
                if X { o.map(|o| rules::scored(pos.rules, o)) } else { o }
            }
            fn repetition(pos: &Position<Self>) -> Outcome {
                rules::scored(if X { pos.rules } else { 0 }, Outcome::draw("threefold repetition"))
            }
            fn forfeit(pos: &Position<Self>, loser: usize, reason: &str) -> Outcome {
                rules::scored(if X { pos.rules } else { 0 }, Outcome::win(loser ^ 1, reason))
            }
        }
    };
}

iago_variant!(
    /// IAGO B-class: FIDE set-up, Marshall and Cardinal in reserve.
    IagoB,
    IagoBRules,
    Class::B,
    "iago-b",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[MCmc] w KQBCDFGkqbcdfg - 0 1",
    drop_rule: drops_free
);

iago_variant!(
    /// IAGO C-class: the queen's square starts empty; Q, M, C in reserve.
    IagoC,
    IagoCRules,
    Class::C,
    "iago-c",
    "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR[QMCqmc] w KQBCDFGkqbcdfg - 0 1",
    drop_rule: queen_square_first
);

fn back_rank(color: usize) -> u64 {
    Board8x8::rank_bb(if color == WHITE { 0 } else { 7 })
}

/// Fewer pieces of type `t` on the board than the equipment holds.
fn equipment_left<V: Variant<G = Board8x8>>(pos: &Position<V>, us: usize, t: u8) -> bool {
    pos.pieces(us, t).count() < EQUIPMENT[t as usize]
}

/// IAGO-B: drops whenever the side likes.
fn drops_free<V: Variant<G = Board8x8>>(_pos: &Position<V>) -> DropRule<u64> {
    DropRule::Free
}

/// IAGO-C: while the queen's square is empty and keeps its gating right,
/// the side's move is a drop there.
fn queen_square_first<V: Variant<G = Board8x8>>(pos: &Position<V>) -> DropRule<u64> {
    let us = pos.side;
    let d = Board8x8::square(3, if us == WHITE { 0 } else { 7 });
    if pos.rights[1].has(d) && pos.board[d] == 0 && pos.hand_count(us) > 0 {
        DropRule::Only(u64::bit(d))
    } else {
        DropRule::Free
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    fn moves<V: Variant>(fen: &str) -> Vec<String> {
        let pos = Position::<V>::from_fen(fen).unwrap();
        let mut v: Vec<String> = pos.legal_moves().iter().map(|&m| pos.move_to_uci(m)).collect();
        v.sort();
        v
    }

    fn moves_from<V: Variant>(fen: &str, from: &str) -> Vec<String> {
        moves::<V>(fen).into_iter().filter(|m| m.starts_with(from)).collect()
    }

    #[test]
    fn gating_from_a_gating_square_only() {
        // The knight on b1 keeps its gating right, the one on g1 has none.
        let fen = "4k3/8/8/8/8/8/8/1N2K1N1[MC] w B - 0 1";
        assert_eq!(
            moves_from::<IagoB>(fen, "b1"),
            ["b1a3", "b1a3c", "b1a3m", "b1c3", "b1c3c", "b1c3m", "b1d2", "b1d2c", "b1d2m"]
        );
        assert_eq!(moves_from::<IagoB>(fen, "g1"), ["g1e2", "g1f3", "g1h3"]);
        // Back-rank drops: every empty square of rank 1.
        let drops: Vec<String> = moves::<IagoB>(fen).into_iter().filter(|m| m.starts_with("M@")).collect();
        assert_eq!(drops, ["M@a1", "M@c1", "M@d1", "M@f1", "M@h1"].map(String::from));
    }

    #[test]
    fn gating_ends_when_the_piece_leaves() {
        let mut g = Game::<IagoB>::default();
        for m in ["g1f3", "g8f6", "f3g1"] {
            g.play_text(m).unwrap();
        }
        assert!(g.pos().fen().contains(" KQBCDFkqbcdf "), "{}", g.pos().fen());
        assert!(g.play_text("g8h6m").is_err());
    }

    #[test]
    fn gated_piece_may_cover_the_line_it_leaves() {
        // The bishop on f1 is pinned by the rook on h1: it may leave only if
        // the gated piece takes its place on the line.
        let fen = "4k3/8/8/8/8/8/8/4KB1r[M] w F - 0 1";
        assert_eq!(moves_from::<IagoB>(fen, "f1"), ["f1a6m", "f1b5m", "f1c4m", "f1d3m", "f1e2m", "f1g2m", "f1h3m"]);
    }

    #[test]
    fn promotion_limited_by_equipment() {
        // Both rooks, bishops and knights, the queen and the Marshall are on
        // the board, the Cardinal in reserve: only `c` is left.
        let fen = "1k6/4P3/8/8/8/8/6M1/RNBQKBNR[C] w - - 0 1";
        assert_eq!(moves_from::<IagoB>(fen, "e7"), ["e7e8c"]);
        // With the Cardinal on the board too, the pawn cannot enter the last rank.
        let fen = "1k6/4P3/8/8/8/8/2C3M1/RNBQKBNR[] w - - 0 1";
        assert!(moves_from::<IagoB>(fen, "e7").is_empty());
        // A captured queen may come back.
        let fen = "1k6/4P3/8/8/8/8/2C3M1/RNB1KBNR[] w - - 0 1";
        assert_eq!(moves_from::<IagoB>(fen, "e7"), ["e7e8q"]);
    }

    #[test]
    fn promotion_uses_the_reserve_piece() {
        let mut g = Game::<IagoB>::new(Position::from_fen("k7/4P3/8/8/8/8/8/4K3[MC] w - - 0 1").unwrap());
        g.play_text("e7e8m").unwrap();
        assert_eq!(g.pos().fen(), "k3M3/8/8/8/8/8/8/4K3[C] b - - 0 1");
    }

    #[test]
    fn iago_c_queen_square_first() {
        let start = IagoC::START_FEN;
        assert_eq!(moves::<IagoC>(start), ["C@d1", "M@d1", "Q@d1"]);
        let mut g = Game::<IagoC>::default();
        g.play_text("M@d1").unwrap();
        assert_eq!(moves::<IagoC>(&g.pos().fen()), ["C@d8", "M@d8", "Q@d8"]);
        g.play_text("Q@d8").unwrap();
        // Now free play: the placed Marshall keeps d1's gating right.
        let m = moves::<IagoC>(&g.pos().fen());
        assert!(m.contains(&"e2e4".to_string()));
        assert!(!m.iter().any(|m| m.contains('@')));
        assert!(m.contains(&"g1f3q".to_string()));
        assert_eq!(g.pos().fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBMKBNR[QCmc] w KQBCDFGkqbcdfg - 0 2");
    }

    #[test]
    fn stalemate_draws_and_bare_kings() {
        let pos = Position::<IagoB>::from_fen("k7/2Q5/1K6/8/8/8/8/8[] b - - 0 1").unwrap();
        assert!(pos.legal_moves().is_empty());
        assert_eq!(IagoB::no_moves(&pos, false).winner, None);
        let bare = Position::<IagoB>::from_fen("k7/8/1K6/8/8/8/8/8[] b - - 0 1").unwrap();
        assert!(IagoB::rule_end(&bare).is_some());
        let held = Position::<IagoB>::from_fen("k7/8/1K6/8/8/8/8/8[M] b - - 0 1").unwrap();
        assert!(IagoB::rule_end(&held).is_none());
    }

    // ------------------------------------------------------- rule options

    #[test]
    fn rule_options_from_the_start() {
        let start = IagoB::START_FEN;
        // The rulings: the 20 FIDE moves and 8 knight moves gating M or C;
        // the back rank is full, so no drops.
        assert_eq!(moves::<IagoB>(start).len(), 28);
        assert_eq!(moves::<IagoBRules<true, false>>(start).len(), 28);
        // Without gating: exactly the 20 FIDE moves.
        let fide = moves::<crate::variants::chess::Chess>(crate::variants::chess::Chess::START_FEN);
        assert_eq!(fide.len(), 20);
        assert_eq!(moves::<IagoBRules<false, true>>(start), fide);
        assert_eq!(moves::<IagoBRules<false, false>>(start), fide);
        // IAGO-C: the forced placement on d1 stays whatever the options.
        let c = IagoC::START_FEN;
        for m in [moves::<IagoCRules<true, false>>(c), moves::<IagoCRules<false, false>>(c)] {
            assert_eq!(m, ["C@d1", "M@d1", "Q@d1"]);
        }
    }

    #[test]
    fn rule_options_gating_and_drops() {
        let fen = "4k3/8/8/8/8/8/8/1N2K1N1[MC] w B - 0 1";
        let count = |m: &[String], p: &str| m.iter().filter(|m| m.contains(p)).count();
        // The rulings: the king 5, b1 3 + 6 gating M or C, g1 3, and 10
        // drops (M, C on a1 c1 d1 f1 h1): 27.
        let all = moves::<IagoB>(fen);
        assert_eq!((all.len(), count(&all, "@"), count(&all, "b1") - 3), (27, 10, 6));
        // No drops: the same moves less the 10 drops.
        let no_drops = moves::<IagoBRules<true, false>>(fen);
        assert_eq!(no_drops, all.iter().filter(|m| !m.contains('@')).cloned().collect::<Vec<_>>());
        // No gating: b1 has its three plain moves; drops remain.
        let no_gating = moves::<IagoBRules<false, true>>(fen);
        assert_eq!(moves_from::<IagoBRules<false, true>>(fen, "b1"), ["b1a3", "b1c3", "b1d2"]);
        assert_eq!(no_gating.len(), 21);
        // Neither: the 11 plain board moves.
        assert_eq!(moves::<IagoBRules<false, false>>(fen).len(), 11);
        assert_eq!(no_drops.len(), 17);
        // The rights field keeps its gating letter either way.
        let p = Position::<IagoBRules<false, false>>::from_fen(fen).unwrap();
        assert_eq!(p.fen(), fen);
    }

    #[test]
    fn iago_c_without_drops_places_then_plays() {
        type NoDrops = IagoCRules<true, false>;
        let mut g = Game::<NoDrops>::default();
        g.play_text("Q@d1").unwrap();
        g.play_text("M@d8").unwrap();
        g.play_text("g1f3").unwrap();
        g.play_text("g8f6").unwrap();
        // g1 is empty and White holds M and C: no drop; gating stays.
        let m = moves::<NoDrops>(&g.pos().fen());
        assert!(!m.iter().any(|m| m.contains('@')));
        assert!(m.contains(&"b1c3m".to_string()));
        assert!(g.play_text("M@g1").is_err());
        assert_eq!(count_drops::<IagoC>(&g.pos().fen()), 2);
        // Without gating either: the placement still fills d1, no gating follows.
        let mut g = Game::<IagoCRules<false, false>>::default();
        g.play_text("C@d1").unwrap();
        g.play_text("Q@d8").unwrap();
        assert_eq!(g.pos().fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBCKBNR[QMmc] w KQBCDFGkqbcdfg - 0 2");
        // The 20 FIDE moves and the Cardinal's d1c3, d1e3; no gating.
        assert_eq!(moves::<IagoCRules<false, false>>(&g.pos().fen()).len(), 22);
    }

    fn count_drops<V: Variant>(fen: &str) -> usize {
        moves::<V>(fen).iter().filter(|m| m.contains('@')).count()
    }
}
