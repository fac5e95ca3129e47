//! A game of any variant behind one object-safe interface: the start
//! position, the moves played and the history that repetition rules read.
//! The protocol holds a `Box<dyn AnyGame>`; everything below is monomorphised.

use crate::eval::Evaluator;
use crate::moves::Move;
use crate::perft;
use crate::position::Position;
use crate::search::{Event, SearchJob, Shared, run_search};
use crate::timeman::Limits;
use crate::tt::TranspositionTable;
use crate::variant::{Outcome, PieceDef, Variant};
use crossbeam_channel::Sender;

/// What the protocol layer can ask of a game without knowing its variant.
pub trait AnyGame: Send {
    fn variant(&self) -> &'static str;
    /// Sets up `fen` (or the start position) and plays `moves`; on any error
    /// the game is left as it was.
    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), String>;
    /// Plays one more move from the current position.
    fn push_move(&mut self, mv: &str) -> Result<(), String>;
    fn fen(&self) -> String;
    fn start_fen(&self) -> String;
    fn pretty(&self) -> String;
    fn key(&self) -> u64;
    fn perft(&self, depth: u32) -> u64;
    fn divide(&self, depth: u32) -> Vec<(String, u64)>;
    /// Legal moves in the protocol's notation (repetition rules included).
    fn legal_moves(&self) -> Vec<String>;
    /// How the game has ended, if it has.
    fn outcome(&self) -> Option<Outcome>;
    fn clone_box(&self) -> Box<dyn AnyGame>;
    /// Searches the current position; sends `Info` events and exactly one
    /// `BestMove`. Blocks until the search ends; returns the node count.
    fn search(
        &self,
        limits: &Limits,
        threads: usize,
        multipv: usize,
        shared: &Shared,
        tt: &TranspositionTable,
        tx: &Sender<Event>,
    ) -> u64;
    /// Static evaluation from the side to move's view, in centipawns.
    fn evaluate(&self) -> i32;
    /// A fixed-depth single-thread search from `fen` (bench): (best move, nodes).
    fn bench_search(&self, fen: &str, depth: i32, tt: &TranspositionTable) -> Result<(String, u64), String>;
    /// The variant's description, for GUIs (board size, pieces, hand).
    fn describe(&self) -> VariantDesc;
    /// The static evaluation split into terms, each from White's view.
    fn eval_terms(&self) -> EvalTerms;
}

/// What a protocol tells a GUI about the variant.
#[derive(Clone, Debug)]
pub struct VariantDesc {
    pub name: &'static str,
    pub files: usize,
    pub ranks: usize,
    pub pieces: &'static [PieceDef],
    /// The royal type and the promoting type (0: none).
    pub king: u8,
    pub pawn: u8,
    /// Types that can be in a hand (distinct), in type order; empty without drops.
    pub hand_types: Vec<u8>,
    /// Captured pieces go to the captor's hand.
    pub captures_to_hand: bool,
    pub castling: bool,
    pub gating: bool,
    pub start_fen: &'static str,
}

/// The evaluation in terms, from White's view, and the total from the side
/// to move's view. `positional` is what the other terms leave of the total
/// (placement, mobility, tempo).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalTerms {
    pub material: i32,
    pub hand: i32,
    pub variant: i32,
    pub positional: i32,
    pub total: i32,
}

#[derive(Clone)]
pub struct Game<V: Variant> {
    pub start: Position<V>,
    pub moves: Vec<Move>,
    /// Positions from the start, the current one last.
    pub history: Vec<Position<V>>,
}

impl<V: Variant> Default for Game<V> {
    fn default() -> Self {
        Self::new(Position::startpos())
    }
}

impl<V: Variant> Game<V> {
    pub fn new(start: Position<V>) -> Self {
        Game { start, moves: Vec::new(), history: vec![start] }
    }
    pub fn pos(&self) -> &Position<V> {
        self.history.last().unwrap_or(&self.start)
    }
    /// How many times the current position stood before (same side, board, hands, rights).
    pub fn repetitions_of(&self, key: u64) -> usize {
        self.history.iter().filter(|p| p.key == key).count()
    }
    /// A move is refused by the game's rules beyond the position (Ito's repetition rule).
    pub fn refusal(&self, m: Move) -> Option<String> {
        if V::REPETITION_ILLEGAL {
            let next = self.pos().play(m);
            if self.repetitions_of(next.key) >= 2 {
                return Some("it would repeat a position for the third time".into());
            }
        }
        None
    }
    pub fn play_text(&mut self, text: &str) -> Result<(), String> {
        let pos = *self.pos();
        if let Some(o) = self.outcome() {
            return Err(format!("the game is over ({}, {})", o.result_string(), o.reason));
        }
        let m = pos.parse_uci_move(text)?;
        if let Some(why) = self.refusal(m) {
            return Err(format!("illegal move '{text}': {why}"));
        }
        self.moves.push(m);
        self.history.push(pos.play(m));
        Ok(())
    }
    pub fn legal(&self) -> Vec<Move> {
        let pos = self.pos();
        if V::board_end(pos).is_some() {
            return Vec::new();
        }
        pos.legal_moves().into_iter().filter(|&m| self.refusal(m).is_none()).collect()
    }
    pub fn outcome(&self) -> Option<Outcome> {
        let pos = self.pos();
        if let Some(o) = V::board_end(pos) {
            return Some(o);
        }
        if self.legal().is_empty() {
            return Some(V::no_moves(pos, pos.in_check()));
        }
        if V::REPETITION_DRAWS && !V::REPETITION_ILLEGAL && self.repetitions_of(pos.key) >= 3 {
            return Some(Outcome::draw("threefold repetition"));
        }
        V::rule_end(pos)
    }
}

impl<V: Evaluator> AnyGame for Game<V> {
    fn variant(&self) -> &'static str {
        V::NAME
    }
    fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), String> {
        let start = match fen {
            Some(f) => Position::from_fen(f).map_err(|e| format!("bad FEN: {e}"))?,
            None => Position::startpos(),
        };
        let mut g = Game::new(start);
        for m in moves {
            g.play_text(m)?;
        }
        *self = g;
        Ok(())
    }
    fn push_move(&mut self, mv: &str) -> Result<(), String> {
        self.play_text(mv)
    }
    fn fen(&self) -> String {
        self.pos().fen()
    }
    fn start_fen(&self) -> String {
        self.start.fen()
    }
    fn pretty(&self) -> String {
        self.pos().pretty()
    }
    fn key(&self) -> u64 {
        self.pos().key
    }
    fn perft(&self, depth: u32) -> u64 {
        perft::perft(self.pos(), depth)
    }
    fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        perft::divide(self.pos(), depth)
    }
    fn legal_moves(&self) -> Vec<String> {
        let pos = self.pos();
        self.legal().iter().map(|&m| pos.move_to_uci(m)).collect()
    }
    fn outcome(&self) -> Option<Outcome> {
        Game::outcome(self)
    }
    fn clone_box(&self) -> Box<dyn AnyGame> {
        Box::new(self.clone())
    }
    fn search(
        &self,
        limits: &Limits,
        threads: usize,
        multipv: usize,
        shared: &Shared,
        tt: &TranspositionTable,
        tx: &Sender<Event>,
    ) -> u64 {
        let over = self.outcome();
        let job = SearchJob {
            root: *self.pos(),
            game_keys: self.history.iter().map(|p| p.key).collect(),
            root_moves: if over.is_some() { Vec::new() } else { self.legal() },
            limits,
            threads,
            multipv,
            moves_hint: 30,
            shared,
            tt,
        };
        run_search(job, tx, over)
    }
    fn evaluate(&self) -> i32 {
        V::evaluate(self.pos())
    }
    fn describe(&self) -> VariantDesc {
        use crate::geometry::Geometry;
        let start = Position::<V>::startpos();
        let hand_types = (1..=V::PIECES.len() as u8)
            .filter(|&t| {
                start.hand[0][t as usize] + start.hand[1][t as usize] > 0
                    || (V::CAPTURES_TO_HAND && t != V::KING && V::unpromoted(t) == t)
            })
            .collect();
        VariantDesc {
            name: V::NAME,
            files: V::G::FILES,
            ranks: V::G::RANKS,
            pieces: V::PIECES,
            king: V::KING,
            pawn: V::PAWN,
            hand_types,
            captures_to_hand: V::CAPTURES_TO_HAND,
            castling: V::CASTLING,
            gating: V::GATING,
            start_fen: V::START_FEN,
        }
    }
    fn eval_terms(&self) -> EvalTerms {
        use crate::bitboard::Bits;
        let pos = self.pos();
        let (mut material, mut hand) = (0, 0);
        for (t, def) in V::PIECES.iter().enumerate() {
            let t = t as u8 + 1;
            for (c, sign) in [(0, 1), (1, -1)] {
                material += sign * def.value * pos.pieces(c, t).count() as i32;
                hand += sign * def.value * V::HAND_PCT / 100 * pos.hand[c][t as usize] as i32;
            }
        }
        let variant = V::extra(pos);
        let total = V::evaluate(pos);
        let white = if pos.side == 0 { total } else { -total };
        EvalTerms { material, hand, variant, positional: white - material - hand - variant, total }
    }
    fn bench_search(&self, fen: &str, depth: i32, tt: &TranspositionTable) -> Result<(String, u64), String> {
        let pos = Position::<V>::from_fen(fen)?;
        let (m, _, nodes) = crate::search::search_fixed(&pos, depth, tt);
        Ok((if m == Move::NONE { "(none)".into() } else { pos.move_to_uci(m) }, nodes))
    }
}

/// The rule options (the choices the IAGO system's mutable rules and
/// Calvinita leave open). The default is the rulings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleOptions {
    /// IAGO (both classes): reserve pieces may enter by gating (`IagoGating`).
    pub iago_gating: bool,
    /// IAGO (both classes): reserve pieces may be dropped on the own back rank
    /// (`IagoDrops`). IAGO-C's forced placement on the queen's square stays.
    pub iago_drops: bool,
    /// Ita: the Leaper captures by replacement, moving onto the victim like a
    /// cannon (`ItaLeaperCapture replacement`), instead of by igui.
    pub ita_leaper_replacement: bool,
    /// Ita: a Flag on any square of the far rank scores the goal (`ItaGoal
    /// rank`), not only on the enemy Flags' home squares.
    pub ita_rank_goal: bool,
}

impl Default for RuleOptions {
    fn default() -> Self {
        RuleOptions { iago_gating: true, iago_drops: true, ita_leaper_replacement: false, ita_rank_goal: false }
    }
}

/// Binds `$V` to `variants::$m::$T<A, B>` for the two flags' values and evaluates `$body`.
#[doc(hidden)]
#[macro_export]
macro_rules! with_flags {
    ($m:ident::$T:ident, $a:expr, $b:expr, $V:ident => $body:expr) => {
        match ($a, $b) {
            (true, true) => {
                type $V = $crate::variants::$m::$T<true, true>;
                $body
            }
            (true, false) => {
                type $V = $crate::variants::$m::$T<true, false>;
                $body
            }
            (false, true) => {
                type $V = $crate::variants::$m::$T<false, true>;
                $body
            }
            (false, false) => {
                type $V = $crate::variants::$m::$T<false, false>;
                $body
            }
        }
    };
}

/// Calls `$body` with `$V` bound to the variant type named `$name`; `$none`
/// otherwise. With `rules = <&RuleOptions>`, the type carries those rule
/// options (each combination is its own monomorphised type); without, the
/// rulings.
#[macro_export]
macro_rules! with_variant {
    ($name:expr, rules = $rules:expr, $V:ident => $body:expr, _ => $none:expr) => {{
        let rules: &$crate::game::RuleOptions = $rules;
        match $name {
            "iago-b" => $crate::with_flags!(
                iago::IagoBRules, rules.iago_gating, rules.iago_drops, $V => $body),
            "iago-c" => $crate::with_flags!(
                iago::IagoCRules, rules.iago_gating, rules.iago_drops, $V => $body),
            "ita" => $crate::with_flags!(
                ita::ItaRules, rules.ita_leaper_replacement, rules.ita_rank_goal, $V => $body),
            name => $crate::with_variant!(name, $V => $body, _ => $none),
        }
    }};
    ($name:expr, $V:ident => $body:expr, _ => $none:expr) => {
        $crate::variant_match!($name, $V, $body, $none;
            "chess" => chess::Chess,
            "iago-b" => iago::IagoB,
            "iago-c" => iago::IagoC,
            "historia-sako" => historia::HistoriaSako,
            "ita" => ita::Ita,
            "ito-shogi" => ito::ItoShogi,
            "etcetera" => etcetera::Etcetera)
    };
}

/// One `match` arm per variant name, binding `$V` to its type (used by `with_variant!`).
#[doc(hidden)]
#[macro_export]
macro_rules! variant_match {
    ($name:expr, $V:ident, $body:expr, $none:expr; $($n:literal => $m:ident :: $t:ident),* $(,)?) => {
        match $name {
            $($n => {
                type $V = $crate::variants::$m::$t;
                $body
            })*
            _ => $none,
        }
    };
}

/// Names of the variants the engine plays, default first.
pub const VARIANTS: &[&str] = &["chess", "iago-b", "iago-c", "historia-sako", "ita", "ito-shogi", "etcetera"];

/// A new game of `name` under the rulings.
pub fn new_game(name: &str) -> Option<Box<dyn AnyGame>> {
    with_variant!(name, V => Some(Box::new(Game::<V>::default()) as Box<dyn AnyGame>), _ => None)
}

/// A new game of `name` under the rule options `rules` (options that do not
/// concern the variant are ignored).
pub fn new_game_with(name: &str, rules: &RuleOptions) -> Option<Box<dyn AnyGame>> {
    with_variant!(name, rules = rules, V => Some(Box::new(Game::<V>::default()) as Box<dyn AnyGame>), _ => None)
}
