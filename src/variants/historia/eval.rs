//! Historia Ŝako evaluation terms, with material, hand and piece-square
//! corrections fitted to self-play games: the built-in weights
//! `weights/historia-sako.weights` (`tools/train/to_weights.py
//! tools/train/results/historia-sako.json historia-sako KQRBNEP
//! weights/historia-sako.weights`; the fit and its match: README), and
//! the built-in network `weights/historia-sako.nn`: an H64 network trained
//! on top of that formula (`tools/nnue/train.py --on-top`; it learns what
//! the formula misses and the engine adds the two; its data, training and
//! match: README).

use super::{BISHOP, HistoriaSako, KING};
use crate::bitboard::Bits;
use crate::eval::Evaluator;
use crate::geometry::Geometry;
use crate::position::Position;

/// Historia Ŝako: the seed's bishop pair bonus; deployment placement: the
/// King tucked into a back-rank corner. Where the other pieces go is the
/// generic mobility's (leapers included) and trapped pieces' business: a
/// bonus for Elephants on the second rank made the deployment worse by
/// Fairy-Stockfish's measure and is gone (README).
impl Evaluator for HistoriaSako {
    crate::eval_tables!(crate::geometry::Board8x8);
    const WEIGHTS: &'static [u8] = include_bytes!("../../../weights/historia-sako.weights");
    const NET: &'static [u8] = include_bytes!("../../../weights/historia-sako.nn");
    fn extra(pos: &Position<Self>) -> i32 {
        let mut s = [0i32; 2];
        for (c, sc) in s.iter_mut().enumerate() {
            let n = pos.pieces(c, BISHOP).count() + pos.hand[c][BISHOP as usize] as u32;
            if n >= 2 {
                *sc += 50;
            }
            if pos.hand_count(c) > 0 || pos.fullmove <= 12 {
                for k in pos.pieces(c, KING).iter() {
                    let file = Self::G::file_of(k) as i32;
                    if Self::G::relative_rank(c, k) == 0 {
                        *sc += 6 * (file - 3).abs().max((file - 4).abs());
                    }
                }
            }
        }
        s[0] - s[1]
    }
}
