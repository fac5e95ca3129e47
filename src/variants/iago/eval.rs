//! IAGO evaluation: a reserve piece still has to be brought in (a tempo),
//! so it counts a little less than on the board. Both IAGO classes have a
//! network that is the whole evaluation, trained on the rulings' eight
//! piece types; under the other rule options (`X`, whose pieces add the
//! Amazon) the same network is widened to nine, the Amazon reading the
//! Queen's rows (`NET_STAND_INS`; why: `docs/nnue.md`) plus what an Amazon
//! is worth more than a Queen (`Network::stand_in_material`).

use super::{AMAZON, IagoBRules, IagoCRules};
use crate::eval::Evaluator;
use crate::variants::chess::QUEEN;

impl<const G: bool, const D: bool, const X: bool> Evaluator for IagoBRules<G, D, X> {
    crate::eval_tables!(crate::geometry::Board8x8, X);
    const HAND_PCT: i32 = 90;
    /// Material, reserve and piece-square corrections fitted to self-play
    /// games (`tools/train/results/iago-b.json`, `to_weights.py ... iago-b
    /// PNBRQKMC`; the Amazon of the `X` rules gets none). The data and the
    /// match: README.
    const WEIGHTS: &'static [u8] = include_bytes!("../../../weights/iago-b.weights");
    /// A 256-wide SCReLU network that is the whole evaluation, trained from
    /// scratch on chess games (written in IAGO's layout) and iago-b's own
    /// (its data, training and match: `docs/measurements.md`).
    const NET: &'static [u8] = include_bytes!("../../../weights/iago-b.nn");
    /// The Amazon (`X` only) reads as a Queen, plus the difference of their values.
    const NET_STAND_INS: &'static [(u8, u8)] = &[(AMAZON, QUEEN)];
}
impl<const G: bool, const D: bool, const X: bool> Evaluator for IagoCRules<G, D, X> {
    crate::eval_tables!(crate::geometry::Board8x8, X);
    const HAND_PCT: i32 = 90;
    /// Fitted as iago-b's (`tools/train/results/iago-c.json`, `to_weights.py
    /// ... iago-c PNBRQKMC`). The data and the match: README.
    const WEIGHTS: &'static [u8] = include_bytes!("../../../weights/iago-c.weights");
    /// A network as iago-b's, trained on the chess games and iago-c's own
    /// (`docs/measurements.md`); widened for the `X` rules as iago-b's.
    const NET: &'static [u8] = include_bytes!("../../../weights/iago-c.nn");
    const NET_STAND_INS: &'static [(u8, u8)] = &[(AMAZON, QUEEN)];
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bitboard::Bits;
    use crate::eval::nnue::{Network, NnueStack, feature_count};
    use crate::eval::weights::WeightsError;
    use crate::position::Position;
    use crate::variants::RuleOptions;
    use crate::variants::iago::IagoB;
    use crate::variants::iago::IagoOptions;

    /// Iago-b under rule options other than gating and drops: the Amazon's type.
    type IagoBX = IagoBRules<true, true, true>;

    /// The rule word of iago-b with `reserve` (bits Q M C A).
    fn word(reserve: u8) -> u32 {
        let iago = IagoOptions { reserve: Some(reserve), ..IagoOptions::default() };
        crate::variants::iago::rules::word(
            crate::variants::iago::rules::Class::B,
            &RuleOptions { iago, ..RuleOptions::default() },
        )
    }

    fn shipped() -> Network {
        Network::from_bytes(<IagoB as Evaluator>::NET).unwrap()
    }

    #[test]
    fn the_network_is_widened_to_the_amazon_as_a_queen() {
        let net = shipped();
        // 2 sides x 8 types x (64 squares + 8 in hand); with the Amazon 9 types.
        assert_eq!((net.features, feature_count::<IagoBX>()), (1152, 1296));
        assert_eq!(net.fit::<IagoB>(IagoB::NET_STAND_INS), Ok(net.clone()));
        let wide = net.fit::<IagoBX>(IagoBX::NET_STAND_INS).unwrap();
        assert_eq!(wide.shape(), "1296x256 SCReLU, 8 output buckets, A read as Q");
        // The network is the whole evaluation: it misses what an Amazon is
        // worth more than a queen, added per Amazon of the side to move less
        // the other's (board and reserve).
        assert_eq!(wide.value_gaps, [(AMAZON, 1250 - 950)]);
        assert!(net.value_gaps.is_empty());
        assert_eq!(wide.fit::<IagoBX>(&[]), Ok(wide.clone()), "a net of the nine types fits as it is");
        // Without a stand-in the Amazon has no rows: refused as before.
        assert_eq!(
            net.fit::<IagoBX>(&[]).map(|_| ()),
            Err(WeightsError::WrongShape("1152 features, iago-b has 1296".into()))
        );
        // Without an Amazon the widened network is the shipped one.
        let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R[QMCmc] w - - 4 4";
        let rulings = Position::<IagoB>::from_fen(fen).unwrap();
        let amazon_rules = Position::<IagoBX>::from_fen_with(fen, word(0b0111)).unwrap();
        assert_eq!(wide.evaluate(&amazon_rules), net.evaluate(&rulings));
        assert_eq!(net.evaluate(&rulings), 22);
        assert_eq!(wide.stand_in_material(&amazon_rules), 0);
        // An Amazon on g1 and one in Black's reserve read as queens there.
        let amazons = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKBAR[MCmca] b - - 1 2";
        let queens = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKBQR[MCmcq] b - - 1 2";
        let a = Position::<IagoBX>::from_fen_with(amazons, word(0b1110)).unwrap();
        let q = Position::<IagoB>::from_fen(queens).unwrap();
        assert_eq!(wide.evaluate(&a), net.evaluate(&q));
        assert_eq!(wide.stand_in_material(&a), 0, "one Amazon each");
        let white_only = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKBAR[MCmc] b - - 1 2";
        let w = Position::<IagoBX>::from_fen_with(white_only, word(0b1110)).unwrap();
        assert_eq!(wide.stand_in_material(&w), -300, "Black to move");
        let eval = crate::eval::Evaluation::builtin::<IagoBX>();
        assert_eq!(crate::eval::network_plus(&wide, 40, &w, &eval), 40 - 300);
        assert_ne!(wide.evaluate(&a), wide.evaluate(&Position::<IagoBX>::from_fen_with(fen, word(0b1111)).unwrap()));
    }

    /// A game with Amazons dropped, moving, captured and capturing: the
    /// widened network's incremental value is its value from scratch at
    /// every ply (and at a sibling of each).
    #[test]
    fn the_widened_network_updates_incrementally_with_an_amazon() {
        let eval = crate::eval::Evaluation::builtin::<IagoBX>();
        let net = eval.net.as_ref().expect("the widened network").net.clone();
        assert_eq!(net.features, 1296);
        let mut stack = NnueStack::<IagoBX>::new(net.clone(), 6);
        let mut pos = Position::<IagoBX>::startpos_with(word(0b1111));
        assert_eq!(pos.fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[QMCAqmca] w KQBCDFGkqbcdfg - 0 1");
        assert_eq!(stack.evaluate(&pos, 0), net.evaluate(&pos));
        let game = [
            "g1f3", "g8f6", "A@g1", "A@g8", "e2e4", "f6e4", "g1e2", "d7d5", "e2e4", "d5e4", "f3g5", "g8f6", "g5e4",
            "f6e4", "d1e2", "e4e2", "f1e2", "Q@g8",
        ];
        let mut amazons = Vec::new();
        for (ply, text) in game.iter().enumerate() {
            let m = pos.parse_uci_move(text).unwrap_or_else(|e| panic!("{text}: {e} in {}", pos.fen()));
            let sibling = pos.play(pos.legal_moves()[0]);
            let at = (ply + 1) % 8;
            assert_eq!(stack.evaluate(&sibling, at), net.evaluate(&sibling), "{}", sibling.fen());
            pos = pos.play(m);
            assert_eq!(stack.evaluate(&pos, at), net.evaluate(&pos), "{text}: {}", pos.fen());
            amazons.push(pos.pieces(0, AMAZON).count() + pos.pieces(1, AMAZON).count());
        }
        // Dropped (A@g1, A@g8); White's taken on e4; Black's takes the queen on e2 and is taken.
        assert_eq!(amazons, [0, 0, 1, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 0, 0]);
        assert_eq!(pos.fen(), "rnbqkbqr/ppp1pppp/8/8/8/8/PPPPBPPP/RNB1K2R[QMCmc] w KQBCkqbcdf - 0 10");
    }
}
