//! `calvin datagen terms FILE OUT`: the generic evaluation's terms of every
//! position of a data file as counts from White's view, one row per
//! position in the file's record order, after a header naming the columns
//! and giving the engine's weight of each (layout: `docs/datagen.md`). The
//! dot product of a row with the weights is the engine's static evaluation
//! from White's view, exactly: a trainer fits the weights to the rows.

use super::format;
use crate::eval::terms::col;
use crate::registry::{RuleOptions, VariantId};

pub const MAGIC: &[u8; 8] = b"CALVINTM";
pub const VERSION: u16 = 1;

/// The terms of a data file's positions: the weights of the columns and a
/// row per position.
pub struct TermRows {
    pub weights: [i32; col::COUNT],
    pub rows: Vec<[i32; col::COUNT]>,
}

/// The terms of the records of the data file `bytes`, in order.
pub fn term_rows(bytes: &[u8]) -> Result<TermRows, String> {
    let data = format::parse(bytes).map_err(|e| e.to_string())?;
    let v = VariantId::from_name(&data.header.variant)
        .ok_or_else(|| format!("the file's variant '{}' is not one this engine plays", data.header.variant))?;
    let mut game = v.engine_game(&RuleOptions::default());
    let eval = game.builtin_evaluation();
    let mut rows = Vec::with_capacity(data.positions());
    for g in &data.games {
        for r in &g.records {
            game.set_position(Some(&r.fen), &[]).map_err(|e| format!("game {}: {}: {e}", g.index, r.fen))?;
            rows.push(game.term_columns(&eval));
        }
    }
    Ok(TermRows { weights: game.term_weights(), rows })
}

impl TermRows {
    /// The file: magic, version, the number of columns, each column's name
    /// and weight, then the rows (all integers little-endian).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend(VERSION.to_le_bytes());
        out.extend((col::COUNT as u16).to_le_bytes());
        for (name, w) in col::NAMES.iter().zip(self.weights) {
            out.push(name.len() as u8);
            out.extend(name.as_bytes());
            out.extend(w.to_le_bytes());
        }
        for row in &self.rows {
            out.extend(row.iter().flat_map(|x| x.to_le_bytes()));
        }
        out
    }
}

/// Writes the terms of `input` to `output`; returns how many rows.
pub fn write_terms(input: &str, output: &str) -> Result<usize, String> {
    let bytes = std::fs::read(input).map_err(|e| format!("cannot read {input}: {e}"))?;
    let terms = term_rows(&bytes).map_err(|e| format!("{input}: {e}"))?;
    std::fs::write(output, terms.to_bytes()).map_err(|e| format!("cannot write {output}: {e}"))?;
    Ok(terms.rows.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine_game::EngineGame;

    /// The rows' dot product with the weights is the evaluation from
    /// White's view, in every variant: on its bench positions and on the
    /// positions of a game of 60 plies from each (the moves picked by a
    /// fixed rule from the legal ones). Every column but passed pawns on
    /// (scaled) ranks 0 and 7 is met.
    #[test]
    fn the_evaluation_is_the_dot_product_of_terms_and_weights() {
        let mut seen = [false; col::COUNT];
        for &v in VariantId::ALL {
            let mut game: Box<dyn EngineGame> = v.engine_game(&RuleOptions::default());
            let weights = game.term_weights();
            let eval = game.builtin_evaluation();
            let mut checked = 0;
            for fen in game.bench_positions() {
                game.set_position(Some(fen), &[]).expect("bench position");
                for ply in 0..60usize {
                    let row = game.term_columns(&eval);
                    let dot: i32 = row.iter().zip(weights).map(|(x, w)| x * w).sum();
                    let stm = game.formula_evaluate(&eval);
                    let white = if game.side_to_move() == 0 { stm } else { -stm };
                    assert_eq!(dot, white, "{}: {} {row:?}", v.name(), game.fen());
                    checked += 1;
                    for (s, x) in seen.iter_mut().zip(row) {
                        *s |= x != 0;
                    }
                    let moves = game.legal_moves();
                    if moves.is_empty() || game.outcome().is_some() {
                        break;
                    }
                    let pick = (ply * 7 + 3) % moves.len();
                    game.push_move(&moves[pick]).expect("legal move");
                }
            }
            assert!(checked >= 60, "{}: {checked} positions", v.name());
        }
        let unseen: Vec<_> = (0..col::COUNT).filter(|&c| !seen[c]).map(|c| col::NAMES[c]).collect();
        assert_eq!(unseen, ["passed0", "passed7"]);
    }

    #[test]
    fn the_file_names_the_columns_and_their_weights() {
        let t = TermRows { weights: crate::eval::EvalWeights::DEFAULT.columns(), rows: vec![[7; col::COUNT]] };
        let b = t.to_bytes();
        assert_eq!(&b[..8], MAGIC);
        assert_eq!(b[8..12], [1, 0, col::COUNT as u8, 0]);
        assert_eq!(&b[12..21], b"\x08material");
        assert_eq!(b[21..25], [1, 0, 0, 0]);
        let header: usize = col::NAMES.iter().map(|n| 1 + n.len() + 4).sum();
        assert_eq!(b.len(), 12 + header + 4 * col::COUNT);
        assert_eq!(b[b.len() - 4..], [7, 0, 0, 0]);
    }
}
