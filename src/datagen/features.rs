//! `calvin datagen features FILE OUT`: the network's active features of
//! every position of a data file, with its score and result, for
//! `tools/nnue/train.py` (format: `docs/nnue.md`).

use super::format;
use crate::registry::{RuleOptions, VariantId};

pub const MAGIC: &[u8; 8] = b"CALVINFT";
pub const VERSION: u16 = 1;
/// An unused feature slot.
pub const NONE: u16 = u16::MAX;

/// The feature file of the data file `bytes`; returns it and the number of positions.
pub fn feature_file(bytes: &[u8]) -> Result<(Vec<u8>, usize), String> {
    let data = format::parse(bytes).map_err(|e| e.to_string())?;
    let v = VariantId::from_name(&data.header.variant)
        .ok_or_else(|| format!("the file's variant '{}' is not one this engine plays", data.header.variant))?;
    let mut game = v.engine_game(&RuleOptions::default());
    // (stm, result, score, White's features, Black's features)
    let mut rows = Vec::with_capacity(data.positions());
    let mut count = 0;
    for g in &data.games {
        for r in &g.records {
            game.set_position(Some(&r.fen), &[]).map_err(|e| format!("game {}: {}: {e}", g.index, r.fen))?;
            let (n, [w, b]) = game.nnue_features();
            count = n;
            rows.push((r.stm, g.result, r.score, w, b));
        }
    }
    let slots = rows.iter().map(|r| r.3.len().max(r.4.len())).max().unwrap_or(0);
    let name = data.header.variant.as_bytes();
    let mut out = MAGIC.to_vec();
    out.extend(VERSION.to_le_bytes());
    out.push(name.len() as u8);
    out.extend(name);
    out.extend((count as u32).to_le_bytes());
    out.extend((slots as u16).to_le_bytes());
    out.extend((rows.len() as u64).to_le_bytes());
    out.reserve(rows.len() * (4 + 4 * slots));
    for (stm, result, score, w, b) in &rows {
        out.push(*stm);
        out.push(*result);
        out.extend(score.to_le_bytes());
        for f in [w, b] {
            out.extend(f.iter().chain(std::iter::repeat(&NONE)).take(slots).flat_map(|x| x.to_le_bytes()));
        }
    }
    Ok((out, rows.len()))
}

/// Writes the features of `input` to `output`; returns how many positions.
pub fn write_features(input: &str, output: &str) -> Result<usize, String> {
    let bytes = std::fs::read(input).map_err(|e| format!("cannot read {input}: {e}"))?;
    let (out, n) = feature_file(&bytes).map_err(|e| format!("{input}: {e}"))?;
    std::fs::write(output, out).map_err(|e| format!("cannot write {output}: {e}"))?;
    Ok(n)
}
