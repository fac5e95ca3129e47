//! The game as the engine plays it: the rules' [`AnyGame`] plus search,
//! evaluation, bench, and what the variant tells above its rules (clock
//! planning, native notation, XBoard's view). The engine holds a
//! `Box<dyn EngineGame>`; the registry makes them.

use crate::eval::terms::col::COUNT as TERM_COLUMNS;
use crate::eval::weights::{WeightsError, WeightsSource};
use crate::eval::{Evaluation, WeightsChoice};
use crate::game::{AnyGame, Game};
use crate::moves::Move;
use crate::position::Position;
use crate::search::{Event, Memory, SearchJob, Shared, run_search};
use crate::timeman::Limits;
use crate::tt::TranspositionTable;
use crate::variants::{EngineVariant, NativeNotation};
use crate::wdl::WdlModel;
use crossbeam_channel::Sender;

/// What the engine asks of a game beyond its rules.
pub trait EngineGame: AnyGame {
    fn clone_engine_game(&self) -> Box<dyn EngineGame>;
    /// Searches the current position; sends `Info` events and exactly one
    /// `BestMove`. Blocks until the search ends; returns the node count.
    fn search(
        &self,
        limits: &Limits,
        threads: usize,
        multipv: usize,
        shared: &Shared,
        memory: Memory<'_>,
        tx: &Sender<Event>,
    ) -> u64;
    /// Static evaluation with `eval` from the side to move's view, in
    /// centipawns (the network's when `eval` has one).
    fn evaluate(&self, eval: &Evaluation) -> i32;
    /// The formula's evaluation (with `eval`'s learned weights) from the
    /// side to move's view, without any network: what a network on top of
    /// the formula and a fit of corrections to it are trained against.
    fn formula_evaluate(&self, eval: &Evaluation) -> i32;
    /// The formula's evaluation split into terms, each from White's view.
    fn eval_terms(&self, eval: &Evaluation) -> EvalTerms;
    /// The variant's built-in evaluation (its built-in weights and network).
    fn builtin_evaluation(&self) -> Evaluation;
    /// `eval` with `choice` for this game's type (a network is widened
    /// to its pieces); weights that do not fit are refused.
    fn evaluation_with(&self, eval: &Evaluation, choice: WeightsChoice) -> Result<Evaluation, WeightsError>;
    /// Which evaluation this game's type plays with: games whose types
    /// share their evaluation tables (Ita's rule options) share one.
    fn eval_slot(&self) -> usize;
    /// The generic terms as counts from White's view, and the weights that
    /// make their dot product the evaluation from White's view (see
    /// [`crate::eval::term_columns`]; `calvin datagen terms`).
    fn term_columns(&self, eval: &Evaluation) -> [i32; TERM_COLUMNS];
    fn term_weights(&self) -> [i32; TERM_COLUMNS];
    /// The network's feature count for this variant and the active features
    /// of the position seen by White and by Black (`crate::eval::nnue`).
    fn nnue_features(&self) -> (usize, [Vec<u16>; 2]);
    /// `eval`'s network's evaluation from the side to move's view and where
    /// the network comes from; `None`: no network, the formula evaluates.
    fn network_eval(&self, eval: &Evaluation) -> Option<(i32, WeightsSource)>;
    /// A fixed-depth single-thread search from `fen` with `eval` (bench): (best move, nodes).
    fn bench_search(
        &self,
        fen: &str,
        depth: i32,
        tt: &TranspositionTable,
        eval: &Evaluation,
    ) -> Result<(String, u64), String>;
    /// The variant's bench positions.
    fn bench_positions(&self) -> &'static [&'static str];
    /// Limits for time planning under the variant's clock rules.
    fn plan_clock(&self, limits: Limits, time_mode: &str) -> Limits;
    /// A strength level as the variant plays it (see [`EngineVariant::skill`]).
    fn skill(&self, skill: crate::search::skill::Skill) -> crate::search::skill::Skill;
    /// The variant's own square names, if it has them.
    fn native_notation(&self) -> Option<&'static NativeNotation>;
    /// XBoard's name of the variant; `None` where XBoard cannot hold it.
    fn xboard_name(&self) -> Option<&'static str>;
    /// The ranks from the own side where XBoard lets hand pieces be dropped.
    fn xboard_drop_ranks(&self) -> Option<usize>;
    /// The Betza string XBoard gets for a piece where it differs from ours.
    fn xboard_betza(&self, letter: &str, betza: &str) -> Option<&'static str>;
    /// The FEN as XBoard gets it, and a FEN from XBoard completed.
    fn xboard_fen_out(&self, fen: &str) -> String;
    fn xboard_fen_in(&self, fen: &str) -> String;
    /// The variant's win-rate model (`UCI_ShowWDL`).
    fn wdl_model(&self) -> WdlModel;
    /// How each piece moves in words, by letter, and the special rules.
    fn piece_moves(&self) -> (&'static [(&'static str, &'static str)], &'static str);
    /// Whether a game record writes the moves in SAN ([`EngineVariant::SAN`]).
    fn san(&self) -> bool;
    /// The legal captures that win material by static exchange (a piece
    /// taken that is undefended, or worth more than its taker), with what
    /// each wins: what a beginner sees (`calvin-random --greedy`).
    fn free_captures(&self) -> Vec<(String, i32)>;
}

/// The evaluation in terms, from White's view, and the total from the side
/// to move's view. `positional` is what the other terms leave of the total
/// (placement, mobility, threats, pawn structure, king safety, the king's
/// centrality, tempo, and the learned corrections); `learned` is
/// the learned weights' part of the total (counted in `positional`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalTerms {
    pub material: i32,
    pub hand: i32,
    pub variant: i32,
    pub positional: i32,
    pub learned: i32,
    pub total: i32,
}

impl<V: EngineVariant> EngineGame for Game<V> {
    fn clone_engine_game(&self) -> Box<dyn EngineGame> {
        Box::new(self.clone())
    }
    fn free_captures(&self) -> Vec<(String, i32)> {
        use crate::search::{movepick::victim, see::see};
        let pos = self.pos();
        self.legal()
            .into_iter()
            .filter(|&m| victim(pos, m) != 0)
            .map(|m| (m, see(pos, m)))
            .filter(|&(_, gain)| gain > 0)
            .map(|(m, gain)| (pos.move_to_uci(m), gain))
            .collect()
    }
    fn search(
        &self,
        limits: &Limits,
        threads: usize,
        multipv: usize,
        shared: &Shared,
        memory: Memory<'_>,
        tx: &Sender<Event>,
    ) -> u64 {
        let over = self.outcome();
        let job = SearchJob {
            root: *self.pos(),
            game_keys: self.keys().to_vec(),
            root_moves: if over.is_some() { Vec::new() } else { self.legal() },
            limits,
            threads,
            multipv,
            time_plan: V::TIME_PLAN,
            shared,
            tt: memory.tt,
            eval: memory.eval,
            histories: memory.histories,
        };
        run_search(job, tx, over)
    }
    fn evaluate(&self, eval: &Evaluation) -> i32 {
        crate::eval::evaluate(self.pos(), eval)
    }
    fn formula_evaluate(&self, eval: &Evaluation) -> i32 {
        crate::eval::formula_eval(self.pos(), eval)
    }
    fn eval_terms(&self, eval: &Evaluation) -> EvalTerms {
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
        let total = crate::eval::formula_eval(pos, eval);
        let white = if pos.side == 0 { total } else { -total };
        let learned = crate::eval::learned_eval(pos, eval);
        EvalTerms { material, hand, variant, positional: white - material - hand - variant, learned, total }
    }
    fn builtin_evaluation(&self) -> Evaluation {
        Evaluation::builtin::<V>()
    }
    fn evaluation_with(&self, eval: &Evaluation, choice: WeightsChoice) -> Result<Evaluation, WeightsError> {
        eval.with::<V>(choice)
    }
    fn eval_slot(&self) -> usize {
        V::eval_tables() as *const crate::eval::EvalTables<V::G> as usize
    }
    fn term_columns(&self, eval: &Evaluation) -> [i32; TERM_COLUMNS] {
        crate::eval::term_columns(self.pos(), eval)
    }
    fn term_weights(&self) -> [i32; TERM_COLUMNS] {
        V::EVAL_WEIGHTS.columns()
    }
    fn nnue_features(&self) -> (usize, [Vec<u16>; 2]) {
        use crate::eval::nnue::{active_features, feature_count};
        let mut out = [Vec::new(), Vec::new()];
        for (persp, f) in out.iter_mut().enumerate() {
            active_features(self.pos(), persp, f);
        }
        (feature_count::<V>(), out)
    }
    fn network_eval(&self, eval: &Evaluation) -> Option<(i32, WeightsSource)> {
        eval.net.as_ref().map(|n| (n.evaluate(self.pos(), eval), n.source.clone()))
    }
    fn bench_search(
        &self,
        fen: &str,
        depth: i32,
        tt: &TranspositionTable,
        eval: &Evaluation,
    ) -> Result<(String, u64), String> {
        let pos = Position::<V>::from_fen(fen).map_err(|e| e.to_string())?;
        let (m, _, nodes) = crate::search::search_fixed(&pos, depth, tt, eval);
        Ok((if m == Move::NONE { "(none)".into() } else { pos.move_to_uci(m) }, nodes))
    }
    fn bench_positions(&self) -> &'static [&'static str] {
        V::BENCH
    }
    fn plan_clock(&self, limits: Limits, time_mode: &str) -> Limits {
        V::plan_clock(limits, time_mode)
    }
    fn skill(&self, skill: crate::search::skill::Skill) -> crate::search::skill::Skill {
        V::skill(skill)
    }
    fn native_notation(&self) -> Option<&'static NativeNotation> {
        V::native_notation()
    }
    fn xboard_name(&self) -> Option<&'static str> {
        V::XBOARD_NAME
    }
    fn xboard_drop_ranks(&self) -> Option<usize> {
        V::XBOARD_DROP_RANKS
    }
    fn xboard_betza(&self, letter: &str, betza: &str) -> Option<&'static str> {
        V::xboard_betza(letter, betza)
    }
    fn xboard_fen_out(&self, fen: &str) -> String {
        V::xboard_fen_out(fen)
    }
    fn xboard_fen_in(&self, fen: &str) -> String {
        V::xboard_fen_in(fen)
    }
    fn wdl_model(&self) -> WdlModel {
        V::WDL
    }
    fn piece_moves(&self) -> (&'static [(&'static str, &'static str)], &'static str) {
        (V::PIECE_MOVES, V::RULES_NOTE)
    }
    fn san(&self) -> bool {
        V::SAN
    }
}
