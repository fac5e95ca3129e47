//! Openings: positions read from a file (a FEN a line, or `fen ... moves ...`,
//! `startpos moves ...`), then optionally some random legal plies, chosen
//! from a seed so that a run can be repeated. Each opening is played twice,
//! colours swapped.

use crate::game::AnyGame;
use crate::registry::{RuleOptions, new_game_with_rules};
use crate::rng::SplitMix64;

/// A start position and the moves played from it before the engines take over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// `None`: the variant's start position.
    pub fen: Option<String>,
    pub moves: Vec<String>,
}

impl Opening {
    pub fn startpos() -> Opening {
        Opening { fen: None, moves: Vec::new() }
    }
    /// Sets the opening up in a fresh game of `variant` under the rule options `rules`.
    pub fn game(&self, variant: &str, rules: &RuleOptions) -> Result<Box<dyn AnyGame>, String> {
        let mut g = new_game_with_rules(variant, rules).ok_or_else(|| format!("unknown variant '{variant}'"))?;
        let moves: Vec<&str> = self.moves.iter().map(|s| s.as_str()).collect();
        g.set_position(self.fen.as_deref(), &moves)?;
        Ok(g)
    }
}

/// Reads one line of an openings file; `None` for blank lines and comments.
pub fn parse_line(line: &str, variant: &str, rules: &RuleOptions) -> Result<Option<Opening>, String> {
    let mut line = line.trim();
    if line.is_empty() || line.starts_with('#') || line.starts_with("//") {
        return Ok(None);
    }
    if let Some(r) = line.strip_prefix("position ") {
        line = r.trim();
    }
    let (head, moves) = match line.split_once(" moves") {
        Some((h, m)) if m.is_empty() || m.starts_with(' ') => (h.trim(), m),
        _ => (line, ""),
    };
    let moves: Vec<String> = moves.split_whitespace().map(String::from).collect();
    let fen =
        if head == "startpos" { None } else { Some(head.strip_prefix("fen ").unwrap_or(head).trim().to_string()) };
    let mut op = Opening { fen, moves };
    if let Err(e) = op.game(variant, rules) {
        // An EPD line: four fields and operations; try the four fields.
        let Some(fen) = &op.fen else { return Err(e) };
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() <= 4 || !op.moves.is_empty() {
            return Err(e);
        }
        let epd = Opening { fen: Some(format!("{} 0 1", fields[..4].join(" "))), moves: Vec::new() };
        if epd.game(variant, rules).is_err() {
            return Err(e);
        }
        op = epd;
    }
    Ok(Some(op))
}

/// Reads an openings file; every line must be a position of `variant`.
pub fn parse_file(text: &str, variant: &str, rules: &RuleOptions) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(op) = parse_line(line, variant, rules).map_err(|e| format!("line {}: {e}", i + 1))? {
            out.push(op);
        }
    }
    if out.is_empty() {
        return Err("no openings in the file".into());
    }
    Ok(out)
}

/// Where each pair of games starts.
#[derive(Clone, Debug)]
pub struct Book {
    pub variant: String,
    /// From a file; empty for the start position.
    pub openings: Vec<Opening>,
    /// Play the file's openings in a random order (from the seed).
    pub random_order: bool,
    /// Random legal plies played after the opening.
    pub random_plies: usize,
    pub seed: u64,
    /// The rule options the games are played under.
    pub rules: RuleOptions,
    order: Vec<usize>,
}

impl Book {
    pub fn new(variant: &str, openings: Vec<Opening>, random_order: bool, random_plies: usize, seed: u64) -> Book {
        let mut order: Vec<usize> = (0..openings.len()).collect();
        if random_order {
            let mut rng = SplitMix64::new(seed ^ 0x0DDB_1A5E_5BAD_5EED);
            for i in (1..order.len()).rev() {
                order.swap(i, rng.below(i + 1));
            }
        }
        let rules = RuleOptions::default();
        Book { variant: variant.to_string(), openings, random_order, random_plies, seed, rules, order }
    }

    /// The opening of pair `pair` (0-based): the same for both games of the
    /// pair, whatever order the games are played in.
    pub fn get(&self, pair: usize) -> Opening {
        let base = if self.openings.is_empty() {
            Opening::startpos()
        } else {
            self.openings[self.order[pair % self.order.len()]].clone()
        };
        if self.random_plies == 0 {
            return base;
        }
        let mut rng = SplitMix64::new(self.seed ^ (pair as u64).wrapping_mul(0xA24B_AED4_963E_E407));
        let Ok(start) = base.game(&self.variant, &self.rules) else {
            return base;
        };
        // A few tries for a line that does not end the game; else the longest.
        let mut best = base.clone();
        for _ in 0..100 {
            let mut g = start.clone_box();
            let mut op = base.clone();
            for _ in 0..self.random_plies {
                if g.outcome().is_some() {
                    break;
                }
                let legal = g.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let m = legal[rng.below(legal.len())].clone();
                if g.push_move(&m).is_err() {
                    break;
                }
                op.moves.push(m);
            }
            let full = op.moves.len() == base.moves.len() + self.random_plies;
            if full && g.outcome().is_none() {
                return op;
            }
            if g.outcome().is_none() && op.moves.len() > best.moves.len() {
                best = op;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const AFTER_F3: &str = "rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - 0 1";

    #[test]
    fn reads_opening_lines() {
        assert_eq!(parse_line("  # comment", "chess", &RuleOptions::default()).unwrap(), None);
        assert_eq!(parse_line("", "chess", &RuleOptions::default()).unwrap(), None);
        assert_eq!(
            parse_line(AFTER_F3, "chess", &RuleOptions::default()).unwrap(),
            Some(Opening { fen: Some(AFTER_F3.into()), moves: vec![] })
        );
        assert_eq!(
            parse_line(&format!("fen {AFTER_F3} moves e7e5 g2g4"), "chess", &RuleOptions::default()).unwrap(),
            Some(Opening { fen: Some(AFTER_F3.into()), moves: vec!["e7e5".into(), "g2g4".into()] })
        );
        assert_eq!(
            parse_line("position startpos moves e2e4", "chess", &RuleOptions::default()).unwrap(),
            Some(Opening { fen: None, moves: vec!["e2e4".into()] })
        );
        // EPD: four fields and operations.
        assert_eq!(
            parse_line(
                "rnbqkbnr/pppppppp/8/8/8/5P2/PPPPP1PP/RNBQKBNR b KQkq - bm e5; id \"x\";",
                "chess",
                &RuleOptions::default()
            )
            .unwrap(),
            Some(Opening { fen: Some(AFTER_F3.into()), moves: vec![] })
        );
        assert!(parse_line("startpos moves e2e5", "chess", &RuleOptions::default()).is_err());
        assert!(parse_line("not a fen", "chess", &RuleOptions::default()).is_err());
        let err = parse_file("startpos\n\nfen 8/8 w - - 0 1\n", "chess", &RuleOptions::default()).unwrap_err();
        assert!(err.starts_with("line 3:"), "{err}");
        assert!(parse_file("# nothing\n", "chess", &RuleOptions::default()).is_err());
    }

    #[test]
    fn random_openings_repeat_with_the_seed() {
        let book = Book::new("chess", vec![], false, 8, 42);
        let a: Vec<Opening> = (0..5).map(|p| book.get(p)).collect();
        let again = Book::new("chess", vec![], false, 8, 42);
        let b: Vec<Opening> = (0..5).map(|p| again.get(p)).collect();
        assert_eq!(a, b);
        for op in &a {
            assert_eq!(op.moves.len(), 8);
            let g = op.game("chess", &RuleOptions::default()).unwrap();
            assert!(g.outcome().is_none());
        }
        assert!(a.windows(2).any(|w| w[0] != w[1]), "openings should differ");
        let other = Book::new("chess", vec![], false, 8, 43);
        assert_ne!(other.get(0), a[0]);
    }

    #[test]
    fn file_order_and_random_plies_after_a_file_opening() {
        let ops: Vec<Opening> =
            (0..4).map(|i| Opening { fen: None, moves: vec![["e2e4", "d2d4", "c2c4", "g1f3"][i].into()] }).collect();
        let seq = Book::new("chess", ops.clone(), false, 0, 1);
        assert_eq!(seq.get(1), ops[1]);
        assert_eq!(seq.get(5), ops[1]);
        let shuffled = Book::new("chess", ops.clone(), true, 0, 1);
        let mut seen: Vec<Opening> = (0..4).map(|p| shuffled.get(p)).collect();
        seen.sort_by(|a, b| a.moves.cmp(&b.moves));
        let mut all = ops.clone();
        all.sort_by(|a, b| a.moves.cmp(&b.moves));
        assert_eq!(seen, all);
        let plus = Book::new("chess", ops.clone(), false, 3, 9);
        let op = plus.get(2);
        assert_eq!(op.moves.len(), 4);
        assert_eq!(op.moves[0], "c2c4");
    }

    #[test]
    fn generator_is_fixed() {
        let mut r = SplitMix64::new(0);
        assert_eq!(r.next_u64(), 0xE220_A839_7B1D_CDAF);
        let mut r = SplitMix64::new(7);
        for _ in 0..1000 {
            assert!(r.below(3) < 3);
        }
    }
}
