//! Win, draw and loss rates from a score (`UCI_ShowWDL`), by a win-rate
//! model as Stockfish's: for a score `x` in centipawns from the side to
//! move's view, the side to move wins with probability
//! `1 / (1 + exp((a - x) / b))`, loses with `1 / (1 + exp((a + x) / b))`,
//! and draws with the rest. `a` is the score at which a win is as likely as
//! not, `b` how fast the rate rises around it. Each variant sets its own
//! model ([`crate::variants::EngineVariant::WDL`]), fitted to its self-play
//! games (`tools/wdl/fit.py`, `docs/wdl.md`); a variant without draws fits
//! `a` near 0, and its draw rate comes out near 0.

use crate::score::Score;

/// The parameters of the win-rate model, in centipawns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WdlModel {
    /// The score at which the side to move wins half its games.
    pub a: f64,
    /// The spread of the rate around `a`.
    pub b: f64,
}

impl WdlModel {
    /// A model for a variant not yet fitted.
    pub const DEFAULT: WdlModel = WdlModel { a: 200.0, b: 100.0 };

    /// Win, draw and loss in per mille for `score` from the side to move's
    /// view; they sum to exactly 1000. A mate (or decided result) for the
    /// side to move is `1000 0 0`, against it `0 0 1000`.
    pub fn wdl(&self, score: Score) -> [u32; 3] {
        match score {
            Score::Mate(m) if m > 0 => [1000, 0, 0],
            Score::Mate(_) => [0, 0, 1000],
            Score::Cp(x) => {
                let x = f64::from(x);
                let rate = |v: f64| (1000.0 / (1.0 + ((self.a - v) / self.b).exp())).round() as u32;
                let win = rate(x);
                // Rounded apart, win and loss may pass 1000 when `a` is near 0.
                let loss = rate(-x).min(1000 - win);
                [win, 1000 - win - loss, loss]
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::{RuleOptions, VARIANTS, new_game_with};

    #[test]
    fn mates_are_certain() {
        let m = WdlModel::DEFAULT;
        assert_eq!(m.wdl(Score::Mate(3)), [1000, 0, 0]);
        assert_eq!(m.wdl(Score::Mate(-1)), [0, 0, 1000]);
        assert_eq!(m.wdl(Score::Mate(0)), [0, 0, 1000]);
    }

    #[test]
    fn default_model_values() {
        let m = WdlModel::DEFAULT;
        // At x = a the win rate is one half; at 0 win and loss are equal.
        assert_eq!(m.wdl(Score::Cp(200)), [500, 482, 18]);
        assert_eq!(m.wdl(Score::Cp(0)), [119, 762, 119]);
        assert_eq!(m.wdl(Score::Cp(-200)), [18, 482, 500]);
    }

    fn model(variant: &str) -> WdlModel {
        new_game_with(variant, &RuleOptions::default()).expect("a variant").wdl_model()
    }

    #[test]
    fn fitted_values() {
        // Chess: a = 266.2, b = 294.2 (docs/wdl.md).
        let chess = model("chess");
        assert_eq!(chess, WdlModel { a: 266.2, b: 294.2 });
        assert_eq!(chess.wdl(Score::Cp(0)), [288, 424, 288]);
        assert_eq!(chess.wdl(Score::Cp(35)), [313, 423, 264]);
        assert_eq!(chess.wdl(Score::Cp(100)), [362, 414, 224]);
        assert_eq!(chess.wdl(Score::Cp(-100)), [224, 414, 362]);
        assert_eq!(chess.wdl(Score::Cp(300)), [529, 344, 127]);
        assert_eq!(chess.wdl(Score::Cp(1000)), [924, 63, 13]);
        // Ita's rules leave no draw: a = 0 (fitted drawless), no draw rate.
        let ita = model("ita");
        assert_eq!(ita, WdlModel { a: 0.0, b: 290.3 });
        assert_eq!(ita.wdl(Score::Cp(0)), [500, 0, 500]);
        assert_eq!(ita.wdl(Score::Cp(100)), [585, 0, 415]);
        assert_eq!(ita.wdl(Score::Cp(-300)), [262, 0, 738]);
        // Nor do Ito Shogi's: its data holds no game drawn by the rules.
        let ito = model("ito-shogi");
        assert_eq!(ito, WdlModel { a: 0.0, b: 297.4 });
        assert_eq!(ito.wdl(Score::Cp(0)), [500, 0, 500]);
        assert_eq!(ito.wdl(Score::Cp(100)), [583, 0, 417]);
    }

    #[test]
    fn every_variant_sums_to_1000_and_moves_with_the_score() {
        for variant in VARIANTS {
            let m = model(variant);
            assert!(m.a >= 0.0 && m.b > 0.0, "{variant}: {m:?}");
            assert_ne!(m, WdlModel::DEFAULT, "{variant} is not fitted");
            let mut last = [0, 0, 1000];
            for x in -3000..=3000 {
                let now = m.wdl(Score::Cp(x));
                assert_eq!(now.iter().sum::<u32>(), 1000, "{variant} at {x}");
                assert!(now[0] >= last[0] && now[2] <= last[2], "{variant} at {x}: {now:?} after {last:?}");
                // Symmetric: the other side's view swaps win and loss.
                assert_eq!(m.wdl(Score::Cp(-x)), [now[2], now[1], now[0]], "{variant} at {x}");
                last = now;
            }
            assert!(m.wdl(Score::Cp(100))[0] > m.wdl(Score::Cp(0))[0], "{variant}");
            assert_eq!(m.wdl(Score::Mate(1)), [1000, 0, 0]);
            assert_eq!(m.wdl(Score::Mate(-2)), [0, 0, 1000]);
        }
    }

    #[test]
    fn no_draw_model_sums_to_1000() {
        // a = 0: win and loss are each one half at 0, rounding must not pass 1000.
        let m = WdlModel { a: 0.0, b: 37.0 };
        for x in -3000..=3000 {
            let [w, d, l] = m.wdl(Score::Cp(x));
            assert_eq!(w + d + l, 1000, "at {x}");
            assert!(d <= 1, "at {x}: {d}");
        }
        assert_eq!(m.wdl(Score::Cp(0)), [500, 0, 500]);
    }
}
