//! `calvin datagen eval FILE OUT`: the engine's static evaluation by its
//! formula (the learned weights in use, never a network) of every position
//! of a data file, from White's view, as little-endian i32 in the file's
//! record order. A trainer fits corrections on top of it (the evaluation's
//! terms that it does not model stay as they are), and a network on top of
//! the formula learns what it misses.

use super::format;
use crate::registry::{RuleOptions, VariantId};

/// The static evaluations (White's view) of the records of the file `bytes`, in order.
pub fn static_evals(bytes: &[u8]) -> Result<Vec<i32>, String> {
    let data = format::parse(bytes).map_err(|e| e.to_string())?;
    let v = VariantId::from_name(&data.header.variant)
        .ok_or_else(|| format!("the file's variant '{}' is not one this engine plays", data.header.variant))?;
    let mut game = v.engine_game(&RuleOptions::default());
    let eval = game.builtin_evaluation();
    let mut out = Vec::with_capacity(data.positions());
    for g in &data.games {
        for r in &g.records {
            game.set_position(Some(&r.fen), &[]).map_err(|e| format!("game {}: {}: {e}", g.index, r.fen))?;
            let e = game.formula_evaluate(&eval);
            out.push(if r.stm == 0 { e } else { -e });
        }
    }
    Ok(out)
}

/// Writes the evaluations of `input` to `output`; returns how many.
pub fn write_evals(input: &str, output: &str) -> Result<usize, String> {
    let bytes = std::fs::read(input).map_err(|e| format!("cannot read {input}: {e}"))?;
    let evals = static_evals(&bytes).map_err(|e| format!("{input}: {e}"))?;
    let raw: Vec<u8> = evals.iter().flat_map(|e| e.to_le_bytes()).collect();
    std::fs::write(output, raw).map_err(|e| format!("cannot write {output}: {e}"))?;
    Ok(evals.len())
}
