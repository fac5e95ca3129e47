//! The engine's options, shared by all modes: each mode prints them in its
//! own form (`option name ...` for UCI and USI, `feature option="..."` for
//! CECP) and sets them through [`Core::set_option`].

use super::Mode;
use super::core::Core;
use crate::engine::{DEFAULT_HASH_MB, DEFAULT_MOVE_OVERHEAD_MS, MAX_HASH_MB, MAX_MOVE_OVERHEAD_MS, MAX_THREADS};
use crate::errors::OptionError;
use crate::registry::{RuleKind, RuleOption, VARIANTS, clock_modes, native_notations};
use crate::search::skill;
use crate::variants::{NativeNotation, NativeWriter};
use std::io::Write;

pub enum Kind {
    Spin {
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        default: bool,
    },
    Combo {
        default: String,
        vars: Vec<String>,
    },
    Button,
    /// A free text value (UCI `type string`, CECP `-string`).
    Text {
        default: String,
    },
    /// A file's path (UCI `type string`, CECP `-file`).
    File {
        default: String,
    },
}

pub struct Opt {
    pub name: &'static str,
    pub kind: Kind,
}

pub const MAX_MULTIPV: usize = 256;

/// `EvalFile`'s default: the built-in weights (see [`crate::engine::Engine::set_eval_file`]).
pub const EVAL_FILE_DEFAULT: &str = "<default>";

/// The name an option has in a mode (USI prefixes the standard ones).
pub fn mode_name(name: &'static str, mode: Mode) -> &'static str {
    match (mode, name) {
        (Mode::Usi, "Hash") => "USI_Hash",
        (Mode::Usi, "Ponder") => "USI_Ponder",
        (Mode::Usi, "UCI_Variant") => "USI_Variant",
        _ => name,
    }
}

/// The options, in the order they are printed.
pub fn options(current_variant: &str) -> Vec<Opt> {
    let mut opts = vec![
        Opt { name: "Hash", kind: Kind::Spin { default: DEFAULT_HASH_MB as i64, min: 1, max: MAX_HASH_MB as i64 } },
        Opt { name: "Clear Hash", kind: Kind::Button },
        Opt { name: "Threads", kind: Kind::Spin { default: 1, min: 1, max: MAX_THREADS as i64 } },
        Opt { name: "MultiPV", kind: Kind::Spin { default: 1, min: 1, max: MAX_MULTIPV as i64 } },
        Opt {
            name: "Move Overhead",
            kind: Kind::Spin { default: DEFAULT_MOVE_OVERHEAD_MS as i64, min: 0, max: MAX_MOVE_OVERHEAD_MS as i64 },
        },
        Opt { name: "Ponder", kind: Kind::Check { default: false } },
        Opt { name: "UCI_ShowWDL", kind: Kind::Check { default: false } },
        Opt {
            name: "Skill Level",
            kind: Kind::Spin {
                default: skill::FULL_STRENGTH as i64,
                min: skill::LOWEST as i64,
                max: skill::FULL_STRENGTH as i64,
            },
        },
        Opt { name: "UCI_LimitStrength", kind: Kind::Check { default: false } },
        Opt {
            name: "UCI_Elo",
            kind: Kind::Spin {
                default: skill::FULL_ELO as i64,
                min: skill::MIN_ELO as i64,
                max: skill::FULL_ELO as i64,
            },
        },
        Opt {
            name: "UCI_Variant",
            kind: Kind::Combo {
                default: current_variant.to_string(),
                vars: VARIANTS.iter().map(|s| s.to_string()).collect(),
            },
        },
    ];
    // The variants' own engine options: native notations of squares (a
    // notation the position writes is a rule option, listed with them
    // below), then clock modes.
    let combo = |vars: &[&str]| Kind::Combo {
        default: vars.first().map_or(String::new(), |d| d.to_string()),
        vars: vars.iter().map(|s| s.to_string()).collect(),
    };
    opts.extend(
        native_notations()
            .into_iter()
            .filter(|n| n.squares().is_some())
            .map(|n| Opt { name: n.option, kind: combo(&n.values) }),
    );
    opts.extend(clock_modes().into_iter().map(|c| Opt { name: c.option, kind: combo(c.modes) }));
    opts.push(Opt { name: "EvalFile", kind: Kind::File { default: EVAL_FILE_DEFAULT.into() } });
    // The rule options describe themselves (registry.rs).
    opts.extend(RuleOption::all().map(|r| Opt { name: r.name(), kind: rule_kind(r.kind()) }));
    // The search's tunable numbers, in the `tune` build only.
    #[cfg(feature = "tune")]
    opts.extend(crate::search::params::tune::TUNABLES.iter().map(|t| Opt {
        name: t.name,
        kind: Kind::Spin { default: i64::from(t.default), min: i64::from(t.min), max: i64::from(t.max) },
    }));
    opts
}

fn rule_kind(kind: RuleKind) -> Kind {
    match kind {
        RuleKind::Check { default } => Kind::Check { default },
        RuleKind::Combo { default, vars } => {
            Kind::Combo { default: default.into(), vars: vars.iter().map(|v| v.to_string()).collect() }
        }
        RuleKind::Text { default } => Kind::Text { default: default.into() },
    }
}

/// `option name ... type ...` (UCI and USI).
pub fn uci_line(o: &Opt, mode: Mode) -> String {
    let name = mode_name(o.name, mode);
    match &o.kind {
        Kind::Spin { default, min, max } => {
            format!("option name {name} type spin default {default} min {min} max {max}")
        }
        Kind::Check { default } => format!("option name {name} type check default {default}"),
        Kind::Combo { default, vars } => {
            let mut s = format!("option name {name} type combo default {default}");
            for v in vars {
                s += &format!(" var {v}");
            }
            s
        }
        Kind::Button => format!("option name {name} type button"),
        Kind::Text { default } | Kind::File { default } => format!("option name {name} type string default {default}"),
    }
}

/// `feature option="..."` (CECP). Hash, Threads and the variant have their
/// own CECP commands (`memory`, `cores`, `variant`) and are left out.
pub fn cecp_line(o: &Opt) -> Option<String> {
    if matches!(o.name, "Hash" | "Threads" | "UCI_Variant" | "Ponder" | "UCI_ShowWDL") {
        return None;
    }
    let body = match &o.kind {
        Kind::Spin { default, min, max } => format!("-spin {default} {min} {max}"),
        Kind::Check { default } => format!("-check {}", *default as i32),
        Kind::Combo { default, vars } => {
            let mut s = format!("-combo {default}");
            for v in vars.iter().filter(|v| *v != default) {
                s += &format!(" /// {v}");
            }
            s
        }
        Kind::Button => "-button".into(),
        Kind::Text { default } => format!("-string {default}"),
        Kind::File { default } => format!("-file {default}"),
    };
    Some(format!("feature option=\"{} {body}\"", o.name))
}

/// What setting an option changed that the protocol announces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Changed {
    Nothing,
    /// The variant (`UCI_Variant`).
    Variant,
    /// A rule option of the current variant: its game started again.
    Rules,
    /// Weights loaded (`EvalFile`): what UCI and USI report in an `info string`.
    Weights(String),
}

impl<W: Write> Core<W> {
    /// Sets an option by any of its names (case-insensitive); on an error
    /// the old value is kept.
    pub fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<Changed, OptionError> {
        let int = |v: Option<&str>| -> Result<usize, OptionError> {
            let v = v.ok_or_else(|| OptionError::NeedsValue(name.into()))?;
            v.trim().parse::<usize>().map_err(|_| OptionError::NotANumber { name: name.into(), value: v.into() })
        };
        let signed = |v: Option<&str>| -> Result<i64, OptionError> {
            let v = v.ok_or_else(|| OptionError::NeedsValue(name.into()))?;
            v.trim().parse::<i64>().map_err(|_| OptionError::NotANumber { name: name.into(), value: v.into() })
        };
        let word = value.map(|v| v.trim().to_ascii_lowercase());
        let choice = |name: &'static str, choices: &str| OptionError::Choice { name, choices: choices.into() };
        match name.to_ascii_lowercase().as_str() {
            "hash" | "usi_hash" => self.engine.set_hash(int(value)?),
            "threads" => self.engine.set_threads(int(value)?),
            "multipv" => {
                let n = int(value)?;
                if !(1..=MAX_MULTIPV).contains(&n) {
                    return Err(OptionError::Range { name: "MultiPV", min: 1, max: MAX_MULTIPV, note: "" });
                }
                self.engine.set_multipv(n);
                Ok(())
            }
            "move overhead" => self.engine.set_move_overhead(int(value)?),
            "skill level" => self.engine.set_skill_level(signed(value)?),
            "uci_limitstrength" => match word.as_deref() {
                Some("true" | "1") => {
                    self.engine.set_limit_strength(true);
                    Ok(())
                }
                Some("false" | "0") => {
                    self.engine.set_limit_strength(false);
                    Ok(())
                }
                _ => Err(choice("UCI_LimitStrength", "true or false")),
            },
            "uci_elo" => self.engine.set_elo(signed(value)?),
            "clear hash" => {
                self.engine.clear_hash();
                Ok(())
            }
            "ponder" | "usi_ponder" => match word.as_deref() {
                Some("true" | "false" | "1" | "0") => Ok(()),
                _ => Err(choice("Ponder", "true or false")),
            },
            "uci_showwdl" => {
                self.show_wdl = match word.as_deref() {
                    Some("true" | "1") => true,
                    Some("false" | "0") => false,
                    _ => return Err(choice("UCI_ShowWDL", "true or false")),
                };
                Ok(())
            }
            "uci_variant" | "usi_variant" => {
                let v = value.ok_or_else(|| OptionError::NeedsValue("UCI_Variant".into()))?.trim();
                self.engine.set_variant(v)?;
                return Ok(Changed::Variant);
            }
            "evalfile" => {
                return Ok(Changed::Weights(self.engine.set_eval_file(value)?));
            }
            _ => {
                #[cfg(feature = "tune")]
                if let Some(t) = crate::search::params::tune::find(name) {
                    let v = signed(value)?;
                    if !(i64::from(t.min)..=i64::from(t.max)).contains(&v) {
                        return Err(OptionError::Between {
                            name: t.name,
                            min: i64::from(t.min),
                            max: i64::from(t.max),
                        });
                    }
                    t.set(v as i32);
                    return Ok(Changed::Nothing);
                }
                if let Some(n) = native_notations().into_iter().find(|n| n.option.eq_ignore_ascii_case(name)) {
                    return self.set_native_notation(n, value);
                } else if let Some(c) = clock_modes().into_iter().find(|c| c.option.eq_ignore_ascii_case(name)) {
                    match word {
                        Some(v) if c.find(&v).is_some() => {
                            self.engine.set_time_mode(&v);
                            Ok(())
                        }
                        _ => Err(choice(c.option, &format!("one of {}", c.modes.join(" ")))),
                    }
                } else {
                    match RuleOption::from_name(name) {
                        Some(option) => return self.set_rule_option(option, value),
                        None => Err(OptionError::Unknown(name.into())),
                    }
                }
            }
        }?;
        Ok(Changed::Nothing)
    }

    /// Sets a variant's native notation option, the one way both kinds are
    /// chosen: a renaming of squares is the protocol's to apply
    /// ([`super::text::MoveText`]); a notation the position writes is set
    /// as the rule option that carries it in the rule word.
    fn set_native_notation(&mut self, n: &'static NativeNotation, value: Option<&str>) -> Result<Changed, OptionError> {
        match n.writer {
            NativeWriter::Position(option) => self.set_rule_option(option, value),
            NativeWriter::Squares(_) => {
                let word = value.map(|v| v.trim().to_ascii_lowercase());
                let [canonical, native] = n.values;
                self.native_notation = match word.as_deref() {
                    Some(v) if v == canonical => false,
                    Some(v) if v == native => true,
                    _ => {
                        return Err(OptionError::Choice {
                            name: n.option,
                            choices: format!("{canonical} or {native}"),
                        });
                    }
                };
                Ok(Changed::Nothing)
            }
        }
    }

    /// Sets a rule option; the variants it concerns start again from their
    /// start position when it is theirs.
    fn set_rule_option(&mut self, option: RuleOption, value: Option<&str>) -> Result<Changed, OptionError> {
        let mut rules = *self.engine.rules();
        let value = value.ok_or_else(|| OptionError::NeedsValue(option.name().into()))?;
        option.apply(&mut rules, value).map_err(|e| OptionError::Rule(e.to_string()))?;
        let concerns: Vec<&str> = option.concerns().map(|v| v.name()).collect();
        // XBoard learns the pieces and the parent variant from the setup,
        // which the options may change: CECP sends it again.
        let rebuilt = self.engine.set_rules(rules, &concerns)?;
        Ok(if rebuilt { Changed::Rules } else { Changed::Nothing })
    }

    /// `info string variant <name> files <F> ranks <R> pocket <N> template <T> startpos <FEN>`,
    /// as Fairy-Stockfish prints it.
    pub fn variant_line(&self) -> String {
        let d = self.engine.game().describe();
        format!(
            "info string variant {} files {} ranks {} pocket {} template {} startpos {}",
            d.name,
            d.files,
            d.ranks,
            d.hand_types.len(),
            super::cecp::template(&d),
            d.start_fen
        )
    }
}
