//! The variants: one folder each, holding the game's rules (`mod.rs`: the
//! description and hooks of [`crate::variant::Variant`]), its evaluation
//! terms (`eval.rs`: [`crate::eval::Evaluator`]) and what else the engine
//! knows of it above the rules ([`EngineVariant`]). The registry
//! ([`crate::registry`]) names them.

pub mod chess;
pub mod etcetera;
pub mod historia;
pub mod iago;
pub mod ita;
pub mod ito;
pub mod options;

use crate::eval::Evaluator;
use crate::timeman::{Limits, TimePlan};
use crate::wdl::WdlModel;
pub use options::{RuleOption, RuleOptions, RuleValueError};

/// What the engine knows of a variant beyond its rules and evaluation: its
/// bench positions, its rule options, clock planning, a native notation and
/// what a GUI (XBoard) must be told differently. The protocol and the
/// engine ask these hooks instead of comparing variant names.
pub trait EngineVariant: Evaluator {
    /// Positions searched by `bench` (the start position first).
    const BENCH: &'static [&'static str];
    /// The rule options that concern this variant, declared in its folder
    /// (see [`options`]).
    const RULE_OPTIONS: &'static [RuleOption] = &[];
    /// The variant's name in XBoard's `variants` list; `None` where XBoard
    /// cannot hold the board.
    const XBOARD_NAME: Option<&'static str> = Some(Self::NAME);
    /// The ranks from the own side where XBoard lets hand pieces be dropped
    /// (all of them where drops go anywhere).
    const XBOARD_DROP_RANKS: Option<usize> = None;
    /// How each piece moves, in words, by letter (`+X`: a promoted face),
    /// in the order a legend lists them (the `pieces` command; letters the
    /// piece set lacks are left out).
    const PIECE_MOVES: &'static [(&'static str, &'static str)] = &[];
    /// The rules a player must know beyond the pieces' moves, in a sentence.
    const RULES_NOTE: &'static str = "";
    /// Whether a game record (PGN) writes the variant's moves in standard
    /// algebraic notation (`Nf3`, `exd5`, `O-O`, `e8=Q`; drops `Q@d1` and
    /// gates `Nc3/M` as Fairy-Stockfish writes them), which chess tools
    /// read; otherwise in the engine's move text. The `pieces` command says
    /// which (`info string notation san` or `lan`); the board follows it.
    const SAN: bool = false;
    /// The win-rate model of `UCI_ShowWDL`, fitted to the variant's
    /// self-play games (`docs/wdl.md`).
    const WDL: WdlModel = WdlModel::DEFAULT;
    /// How the time manager spreads the clock over the game. Stockfish's
    /// plan, which spends more as the game's ply grows, where self-play at
    /// 10 s + 0.1 s measured it better (chess and the IAGO classes);
    /// elsewhere the clock shared evenly over 30 moves (Ita: 15).
    const TIME_PLAN: TimePlan = TimePlan::Even { moves: 30 };

    /// Refuses a rule word (the rule options as the variant's `rule_word`
    /// packs them) this variant cannot be played under.
    fn check_rules(_word: u32) -> Result<(), RuleValueError> {
        Ok(())
    }

    /// Limits for time planning: a variant whose clock follows rules of its
    /// own (Ita's regenerating clocks, by the `time_mode` the user chose)
    /// turns them into what the time manager understands.
    fn plan_clock(limits: Limits, _time_mode: &str) -> Limits {
        limits
    }
    /// The variant's clock modes, where its clocks follow rules of their own.
    fn clock_modes() -> Option<&'static ClockModes> {
        None
    }
    /// A strength level's skill (the table's row, `src/search/skill.rs`) as
    /// this variant plays it: the table's unless the variant's games need
    /// other means to weaken (Ita's end on score pairs).
    fn skill(skill: crate::search::skill::Skill) -> crate::search::skill::Skill {
        skill
    }
    /// The variant's native notation, where it has one (Ita's square
    /// names, IAGO's seed notation): see [`NativeNotation`].
    fn native_notation() -> Option<&'static NativeNotation> {
        None
    }
    /// The Betza string XBoard gets for a piece where XBoard's Betza cannot
    /// say ours (a superset of the piece's moves); `None`: ours.
    fn xboard_betza(_letter: &str, _betza: &str) -> Option<&'static str> {
        None
    }
    /// The FEN as XBoard gets it (fields XBoard cannot read left out).
    fn xboard_fen_out(fen: &str) -> String {
        fen.to_string()
    }
    /// A FEN from XBoard, completed with what XBoard cannot write.
    fn xboard_fen_in(fen: &str) -> String {
        fen.to_string()
    }
}

/// Something to do with a variant's type: each variant's `visit` (the
/// registry's entry) calls `visit::<V>()` with the type its rule word selects.
pub trait VariantVisitor {
    type Out;
    fn visit<V: EngineVariant>(self) -> Self::Out;
}

/// A variant's clock modes (Ita's time modes): an engine option picks one;
/// the engine plans with it ([`EngineVariant::plan_clock`]) and the match
/// runner keeps such clocks (`tc=<prefix>:<mode>`).
pub struct ClockModes {
    /// The engine option that picks the mode.
    pub option: &'static str,
    /// The prefix of the match runner's `tc=<prefix>:<mode>`.
    pub tc_prefix: &'static str,
    /// The modes' names, the default first.
    pub modes: &'static [&'static str],
    /// A side's starting time in ms under a mode (its index in `modes`);
    /// `None`: no clock.
    pub start_ms: fn(mode: usize, color: usize) -> Option<u64>,
    /// Regeneration under a mode: every how many own moves, how many ms are added.
    pub regeneration: fn(mode: usize) -> Option<(u32, u64)>,
}

impl ClockModes {
    /// The index of the mode named `name`.
    pub fn find(&self, name: &str) -> Option<usize> {
        self.modes.iter().position(|m| *m == name)
    }
}

/// Clock modes are told apart by their option.
impl PartialEq for ClockModes {
    fn eq(&self, other: &Self) -> bool {
        self.option == other.option
    }
}
impl Eq for ClockModes {}

impl std::fmt::Debug for ClockModes {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.option)
    }
}

/// A variant's native notation: its own way of writing moves, which an
/// option chooses instead of the canonical text. The one declaration every
/// native notation goes through ([`EngineVariant::native_notation`]); the
/// registry collects them ([`crate::registry::native_notations`]) and the
/// protocol sets the option through it (`protocol/options.rs`). Notation is
/// not a rule: it never changes which moves are legal. Where the choice is
/// carried and where the text is made depends on what writing it needs
/// ([`NativeWriter`]; `docs/design.md`, "Native notation").
pub struct NativeNotation {
    /// The option that chooses it.
    pub option: &'static str,
    /// The option's values: the canonical notation's name (the default),
    /// then the native one's.
    pub values: [&'static str; 2],
    /// How the native text is made.
    pub writer: NativeWriter,
}

/// How a native notation's text is made, and so where it is applied.
pub enum NativeWriter {
    /// A renaming of the squares of the canonical text (Ita's file names),
    /// which needs no position: the option is an engine option and the
    /// protocol applies it to every move it writes and reads
    /// (`protocol::text::MoveText`).
    Squares(SquareNames),
    /// A text only the position can write (IAGO's needs the piece moved,
    /// whether it captures, the castling side): the rules layer writes it
    /// ([`crate::variant::Variant::native_move_text`]) wherever a move
    /// becomes text (search lines, perft, the referee's game), and the
    /// choice reaches those places in the game's rule word, set by this
    /// rule option.
    Position(RuleOption),
}

/// A variant's own names of squares in moves (Ita's native file names).
pub struct SquareNames {
    /// The native names of the files, a first.
    pub file_names: &'static [&'static str],
    /// A canonical move text in native squares; `None` if it is not a move of two squares.
    pub move_to_native: fn(&str) -> Option<String>,
    /// A native move text in canonical squares.
    pub move_to_canonical: fn(&str) -> Option<String>,
}

impl NativeNotation {
    /// The square names the protocol applies, where the notation is one.
    pub fn squares(&self) -> Option<&SquareNames> {
        match &self.writer {
            NativeWriter::Squares(s) => Some(s),
            NativeWriter::Position(_) => None,
        }
    }
}
