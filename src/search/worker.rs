//! One search thread's alpha-beta: principal-variation search with a
//! transposition table; before the moves, by the evaluation or the table's
//! value where its bound says it is the better guess: reverse futility
//! pruning (by whether the position improves), razoring, null move (where the variant
//! allows it: `Variant::NULL_MOVE_OK`), internal iterative reduction and
//! singular extension with multi-cut; per move: late-move pruning (past the
//! move count, the picker hands out no more quiet moves), futility and SEE
//! pruning, late-move reductions by history and improvement, check
//! extensions (where the variant keeps them: `Variant::CHECK_EXTENSION`)
//! and mate-distance pruning. Off by default (0 in
//! `params.rs`; options of the tune build, for matches at longer time
//! controls: none gained in games at 20000 nodes a move): ProbCut, history
//! pruning of quiet moves, more reduction at nodes expected to fail high,
//! of late losing captures and of quiet moves where the table's move is a
//! capture, and less at nodes the table saw on a principal variation.

use super::history::{History, PieceTo};
use super::movepick::{MovePicker, OrderContext, is_tactical, victim};
use super::params::*;
use super::see::see_ge;
use super::{RootMove, SearchJob, Shared};
use crate::bitboard::Bits;
use crate::eval::nnue::NnueStack;
use crate::eval::{Evaluation, Evaluator};
use crate::movegen::LegalCtx;
use crate::moves::Move;
use crate::position::Position;
use crate::score::{DECISIVE, INF, MATE, from_tt, outcome_value, to_tt};
use crate::timeman::{Limits, TimeManager};
use crate::tt::{Bound, TranspositionTable, TtData, TtHit};
use crate::variant::Bb;
use std::sync::atomic::Ordering;

/// Quiet moves remembered per node for the history update.
pub(super) type QuietList = arrayvec::ArrayVec<Move, 64>;
/// Captures tried per node, with their victims, for the capture history.
pub(super) type CaptureList = arrayvec::ArrayVec<(Move, u8), 32>;

pub struct Worker<'a, V: Evaluator> {
    pub id: usize,
    pub(super) shared: &'a Shared,
    pub(super) tt: &'a TranspositionTable,
    /// The evaluation the search plays with (the engine's, shared by the threads).
    eval: &'a Evaluation,
    pub(super) limits: &'a Limits,
    pub(super) tm: TimeManager,
    /// Keys of the game so far (root last) then of the search path.
    pub(super) keys: Vec<u64>,
    root_index: usize,
    /// The game's keys before the root, sorted, where the repetition rule
    /// counts a position's occurrences in the whole game (Ito Shogi): a
    /// lookup instead of a scan of a game of thousands of plies per child.
    /// Empty in the other variants.
    game_sorted: Vec<u64>,
    pub nodes: u64,
    pub(super) seldepth: usize,
    pub(super) history: History,
    /// The move made at each ply of the current path (for continuation history).
    pub(super) stack: Vec<PieceTo>,
    /// Static evaluation at each ply of the current path (-INF in check).
    evals: Vec<i32>,
    /// The move a singular-extension search leaves out at each ply.
    excluded: Vec<Move>,
    pub(super) pv: Vec<Vec<Move>>,
    pub root_moves: Vec<RootMove>,
    pub completed_depth: i32,
    /// The network's accumulators along the path, when the variant
    /// evaluates with a network.
    nnue: Option<NnueStack<V>>,
}

/// The bound a node's value is, given the window it was searched with.
pub(super) fn bound_of(best: i32, alpha0: i32, beta: i32) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if best > alpha0 {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// A node's window, and whether it was opened as a PV node.
#[derive(Clone, Copy)]
pub(super) struct Window {
    pub(super) alpha: i32,
    pub(super) beta: i32,
    pub(super) pv_node: bool,
    /// The node is expected to fail high (a null-window child that is not
    /// the first searched of a node expected to fail low).
    pub(super) cut_node: bool,
}

/// What the move loop needs to know about its node.
#[derive(Clone, Copy)]
struct Node {
    depth: i32,
    ply: usize,
    in_check: bool,
    /// Static evaluation (-INF in check), and before its correction (the
    /// table's evaluation: 0 in check).
    eval: i32,
    raw_eval: i32,
    /// The static evaluation rose since the side's previous move.
    improving: bool,
    tt_move: Move,
    /// Expected to fail high (see [`Window::cut_node`]).
    cut_node: bool,
    /// On a principal variation now or when the table stored the position
    /// (Stockfish's `ttPv`).
    tt_pv: bool,
    /// Plies added to (or taken from) the TT move's search: singular extension.
    extension: i32,
}

/// What the singular-extension search says about the TT move.
enum Singular {
    /// Search it this many plies deeper (negative: shallower).
    Extend(i32),
    /// Several moves beat beta (multi-cut): the node's value.
    Cut(i32),
}

/// What the move loop of a node found.
struct LoopResult {
    best: i32,
    best_move: Move,
    legal: usize,
    /// The search was stopped inside the loop: its values mean nothing.
    aborted: bool,
}

impl<'a, V: Evaluator> Worker<'a, V> {
    /// Thread `id` of `job`'s search, with the root moves `root_moves`.
    pub fn new(id: usize, job: &SearchJob<'a, V>, tm: TimeManager, root_moves: Vec<RootMove>) -> Self {
        let game_keys = &job.game_keys;
        Worker {
            id,
            shared: job.shared,
            tt: job.tt,
            eval: job.eval,
            limits: job.limits,
            tm,
            keys: game_keys.to_vec(),
            root_index: game_keys.len().saturating_sub(1),
            game_sorted: if V::REPETITION_ILLEGAL {
                let mut before_root = game_keys[..game_keys.len().saturating_sub(1)].to_vec();
                before_root.sort_unstable();
                before_root
            } else {
                Vec::new()
            },
            nodes: 0,
            seldepth: 0,
            history: job.histories.take::<V>(id),
            stack: vec![PieceTo::NONE; MAX_PLY + 2],
            evals: vec![-INF; MAX_PLY + 2],
            excluded: vec![Move::NONE; MAX_PLY + 2],
            pv: vec![Vec::new(); MAX_PLY + 2],
            root_moves,
            completed_depth: 0,
            nnue: job.eval.net.as_ref().map(|n| NnueStack::new(n.net.clone(), MAX_PLY + 2)),
        }
    }

    /// The static evaluation of `pos`, the position at `ply` of the path,
    /// from the side to move's view: the network's, updated from the
    /// parent's accumulators, or the formula's.
    #[inline]
    pub(super) fn static_eval(&mut self, pos: &Position<V>, ply: usize) -> i32 {
        match &mut self.nnue {
            Some(n) => {
                let out = n.evaluate(pos, ply);
                crate::eval::network_plus(n.net(), out, pos, self.eval)
            }
            None => crate::eval::formula_eval(pos, self.eval),
        }
    }

    /// The static evaluation of `pos` before correction: the table's, or
    /// computed.
    #[inline]
    pub(super) fn raw_eval(&mut self, pos: &Position<V>, hit: Option<TtHit>, ply: usize) -> i32 {
        match hit {
            Some(h) if h.eval.abs() < DECISIVE => h.eval,
            _ => self.static_eval(pos, ply),
        }
    }

    /// `raw`, the static evaluation, corrected by what searches of
    /// positions with the same pawns, or the same pieces of a side, found
    /// it to miss.
    #[inline]
    pub(super) fn corrected(&self, pos: &Position<V>, raw: i32) -> i32 {
        if V::PAWN == 0 {
            return raw;
        }
        (raw + self.history.correction(pos)).clamp(-DECISIVE + 1, DECISIVE - 1)
    }

    /// Counts the node's share into the shared count now and then; the main
    /// thread stops the search on the clock or the node limit.
    #[inline]
    pub(super) fn check_time(&mut self) -> bool {
        if self.nodes & CLOCK_CHECK_MASK == 0 {
            self.shared.nodes.fetch_add(CLOCK_CHECK_MASK + 1, Ordering::Relaxed);
            if self.id == 0 {
                let timed_out = !self.shared.pondering.load(Ordering::Relaxed) && self.tm.past_hard();
                // A node limit lets the first iteration finish: a move is
                // played with the depth, score and PV that chose it.
                let nodes_out = self.completed_depth >= 1 && self.node_limit_reached();
                if timed_out || nodes_out {
                    self.shared.stop.store(true, Ordering::Relaxed);
                }
            }
        }
        self.shared.stopped()
    }

    /// Whether the search has used its node limit (if it has one): the
    /// shared count, which lags by up to CLOCK_CHECK_MASK nodes a thread,
    /// or this thread's own count, if larger.
    pub(super) fn node_limit_reached(&self) -> bool {
        let nodes = self.shared.nodes.load(Ordering::Relaxed).max(self.nodes);
        self.limits.nodes.is_some_and(|n| nodes >= n)
    }

    /// Whether the current position (last key) repeats one since the last
    /// irreversible move: inside the search path once, or twice before the
    /// root. Where a third occurrence is illegal (Ito Shogi), `child` never
    /// makes a position that stood twice before the root, so only the path
    /// is scanned.
    fn is_repetition(&self, halfmove: u32) -> bool {
        let n = self.keys.len();
        let key = self.keys[n - 1];
        let limit = if V::REPETITION_ILLEGAL { n - 1 - self.root_index } else { (halfmove as usize).min(n) };
        let mut count = 0;
        let mut i = n - 1;
        while i >= 2 && n - 1 - (i - 2) <= limit {
            i -= 2;
            if self.keys[i] == key {
                if i >= self.root_index {
                    return true;
                }
                count += 1;
                if count >= 2 {
                    return true;
                }
            }
        }
        false
    }

    /// How often `key` occurs in the game before the root (Ito Shogi only).
    fn game_count(&self, key: u64) -> usize {
        let first = self.game_sorted.partition_point(|&k| k < key);
        self.game_sorted[first..].iter().take_while(|&&k| k == key).count()
    }

    /// Whether a move's legality is known without playing it: every
    /// capture a line slider's or a leaper's, and no repetition rule that
    /// makes the position after it illegal.
    const LEGAL_UNPLAYED: bool = V::FAST_LEGAL && !V::REPETITION_ILLEGAL;

    /// The position after `m` if the move is legal, the game's repetition
    /// rule included (Ito Shogi: a move making a position's third occurrence
    /// is illegal).
    #[inline]
    pub(super) fn child(&self, pos: &Position<V>, m: Move, ctx: &LegalCtx<Bb<V>>) -> Option<Position<V>> {
        let child = pos.play_legal(m, ctx)?;
        self.tt.prefetch(child.key);
        if V::REPETITION_ILLEGAL
            && self.game_count(child.key) + self.keys[self.root_index..].iter().filter(|&&k| k == child.key).count()
                >= 2
        {
            return None;
        }
        Some(child)
    }

    /// Ends decided before any move: board results, rule results and repetition.
    pub(super) fn node_end(&self, pos: &Position<V>, ply: usize) -> Option<i32> {
        if let Some(o) = V::board_end(pos) {
            return Some(outcome_value::<V>(&o, pos.side, ply));
        }
        if self.is_repetition(pos.halfmove) {
            return Some(0);
        }
        V::rule_end(pos).map(|o| outcome_value::<V>(&o, pos.side, ply))
    }

    /// The table's entry for `pos`, and its value when it settles the node.
    pub(super) fn probe_tt(
        &self,
        pos: &Position<V>,
        alpha: i32,
        beta: i32,
        depth: i32,
        ply: usize,
    ) -> (Option<TtHit>, Option<i32>) {
        let hit = self.tt.probe(pos.key);
        let Some(h) = hit else { return (None, None) };
        let v = from_tt(h.score, ply);
        let cuts = h.depth >= depth
            && (h.bound == Bound::Exact
                || (h.bound == Bound::Lower && v >= beta)
                || (h.bound == Bound::Upper && v <= alpha));
        (hit, cuts.then_some(v))
    }

    /// Singular extension: when the TT move is the only move that holds the
    /// table's value (every other move fails low by a margin at half depth),
    /// it is searched deeper; when other moves also beat beta, the node is
    /// cut (multi-cut); when the table's value already beats beta, the TT
    /// move is searched a little shallower.
    fn singular(&mut self, pos: &Position<V>, n: &Node, h: TtHit, beta: i32) -> Singular {
        let tt_value = from_tt(h.score, n.ply);
        if n.depth < tp!(SE_MIN_DEPTH)
            || h.mv == Move::NONE
            || h.depth < n.depth - SE_TT_DEPTH_MARGIN
            || h.bound == Bound::Upper
            || tt_value.abs() >= DECISIVE
        {
            return Singular::Extend(0);
        }
        let s_beta = tt_value - tp!(SE_MARGIN_PER_DEPTH) * n.depth;
        self.excluded[n.ply] = h.mv;
        let v = self.search(pos, s_beta - 1, s_beta, (n.depth - 1) / 2, n.ply, n.cut_node);
        self.excluded[n.ply] = Move::NONE;
        if v < s_beta {
            Singular::Extend(1)
        } else if s_beta >= beta {
            Singular::Cut(s_beta)
        } else if tt_value >= beta {
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        }
    }

    /// Pruning before any move is searched (non-PV nodes not in check):
    /// reverse futility, razoring and null move, by [`pruning_eval`]. Returns
    /// the node's value when it prunes.
    fn prune_node(
        &mut self,
        pos: &Position<V>,
        ctx: &LegalCtx<Bb<V>>,
        n: &Node,
        (alpha, beta): (i32, i32),
        tt: Option<TtHit>,
    ) -> Option<i32> {
        let (depth, ply) = (n.depth, n.ply);
        let eval = pruning_eval(n.eval, tt, ply);
        if depth <= RFP_MAX_DEPTH && eval - tp!(RFP_MARGIN) * (depth - i32::from(n.improving)) >= beta {
            return Some(eval);
        }
        if depth <= RAZOR_MAX_DEPTH && eval + tp!(RAZOR_MARGIN) * depth < alpha {
            let v = self.qsearch(pos, alpha, alpha + 1, ply);
            if v <= alpha {
                return Some(v);
            }
        }
        if tp!(PROBCUT_MARGIN) > 0
            && depth >= PROBCUT_MIN_DEPTH
            && let Some(v) = self.probcut(pos, ctx, n, beta, tt)
        {
            return Some(v);
        }
        if V::NULL_MOVE_OK && depth >= NMP_MIN_DEPTH && eval >= beta && self.has_pieces(pos) {
            let r = tp!(NMP_BASE_REDUCTION)
                + depth / tp!(NMP_DEPTH_DIVISOR)
                + ((eval - beta) / tp!(NMP_EVAL_DIVISOR)).min(3);
            let child = pos.play_null();
            self.tt.prefetch(child.key);
            self.stack[ply] = PieceTo::NONE;
            self.keys.push(child.key);
            let v = -self.search(&child, -beta, -beta + 1, depth - 1 - r, ply + 1, !n.cut_node);
            self.keys.pop();
            if self.shared.stopped() {
                return Some(0);
            }
            if v >= beta {
                return Some(if v >= DECISIVE { beta } else { v });
            }
        }
        None
    }

    /// ProbCut: a capture whose quiescence and shallow search both beat
    /// beta by a margin cuts the node, unless the table says a search as
    /// deep failed below that bound.
    fn probcut(
        &mut self,
        pos: &Position<V>,
        ctx: &LegalCtx<Bb<V>>,
        n: &Node,
        beta: i32,
        tt: Option<TtHit>,
    ) -> Option<i32> {
        let pbeta = beta + tp!(PROBCUT_MARGIN);
        if pbeta.abs() >= DECISIVE
            || tt.is_some_and(|h| h.depth > n.depth - PROBCUT_REDUCTION && from_tt(h.score, n.ply) < pbeta)
        {
            return None;
        }
        let mut picker = MovePicker::empty();
        pos.generate_captures(picker.list());
        picker.init(pos, tt.map_or(Move::NONE, |h| h.mv), &self.order_context(n.ply), true);
        let depth = n.depth - PROBCUT_REDUCTION;
        while let Some(m) = picker.next(pos, &self.history) {
            if !is_tactical(pos, m) || !see_ge(pos, m, pbeta - n.eval) {
                continue;
            }
            let Some(child) = self.child(pos, m, ctx) else { continue };
            self.stack[n.ply] = self.history.piece_to(pos, m);
            self.keys.push(child.key);
            let mut v = -self.qsearch(&child, -pbeta, -pbeta + 1, n.ply + 1);
            if v >= pbeta {
                v = -self.search(&child, -pbeta, -pbeta + 1, depth - 1, n.ply + 1, !n.cut_node);
            }
            self.keys.pop();
            if self.shared.stopped() {
                return Some(0);
            }
            if v >= pbeta {
                let data = TtData { score: to_tt(v, n.ply), eval: n.raw_eval, depth, bound: Bound::Lower, pv: n.tt_pv };
                self.tt.store(pos.key, m, data);
                return Some(v);
            }
        }
        None
    }

    pub fn search(
        &mut self,
        pos: &Position<V>,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        let pv_node = beta - alpha > 1;
        self.pv[ply].clear();
        if ply > 0 {
            if let Some(v) = self.node_end(pos, ply) {
                return v;
            }
            // Mate distance pruning.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        if depth <= 0 || ply >= MAX_PLY {
            return self.qsearch(pos, alpha, beta, ply);
        }
        self.nodes += 1;
        if self.check_time() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);

        // A singular-extension search of this node leaves the TT move out.
        let excluded = self.excluded[ply];
        let (tt_hit, tt_value) = self.probe_tt(pos, alpha, beta, depth, ply);
        if let (false, Some(v), Move::NONE) = (pv_node, tt_value, excluded) {
            return v;
        }
        let tt_move = tt_hit.map_or(Move::NONE, |h| h.mv);
        let ctx = pos.legal_ctx();
        let in_check = ctx.checkers.any();
        // Check extension (where the variant keeps it): a node in check
        // searches one ply deeper.
        let depth = if V::CHECK_EXTENSION && in_check && ply < CHECK_EXTENSION_MAX_PLY { depth + 1 } else { depth };
        // In check there is no evaluation: -INF for the search, 0 for the table.
        let (raw_eval, eval) = if in_check {
            (0, -INF)
        } else {
            let raw = self.raw_eval(pos, tt_hit, ply);
            (raw, self.corrected(pos, raw))
        };
        self.evals[ply] = eval;
        let improving = !in_check && ply >= 2 && eval > self.evals[ply - 2];
        // Internal iterative reduction: a node the table does not know was
        // not searched before and is searched less deep. One it knows
        // without a move (it failed low: most often a node where every
        // move fails low again) keeps its depth.
        let depth = if tt_hit.is_none() && depth >= IIR_MIN_DEPTH { depth - 1 } else { depth };
        let tt_pv = pv_node || tt_hit.is_some_and(|h| h.pv);
        let mut node = Node { depth, ply, in_check, eval, raw_eval, improving, tt_move, cut_node, tt_pv, extension: 0 };
        if !pv_node
            && !in_check
            && ply > 0
            && excluded == Move::NONE
            && beta.abs() < DECISIVE
            && let Some(v) = self.prune_node(pos, &ctx, &node, (alpha, beta), tt_hit)
        {
            return v;
        }

        if let Some(h) = tt_hit
            && ply > 0
            && excluded == Move::NONE
        {
            match self.singular(pos, &node, h, beta) {
                Singular::Extend(e) => node.extension = e,
                Singular::Cut(v) => return v,
            }
        }
        let alpha0 = alpha;
        let r = self.move_loop(pos, &ctx, Window { alpha, beta, pv_node, cut_node }, &node);
        if r.aborted {
            return 0;
        }
        if r.legal == 0 {
            // Without the excluded move there may be none left: no result, only a bound.
            if excluded != Move::NONE {
                return alpha;
            }
            return outcome_value::<V>(&V::no_moves(pos, in_check), pos.side, ply);
        }
        if excluded != Move::NONE {
            return r.best;
        }
        let bound = bound_of(r.best, alpha0, beta);
        // The correction history learns what the evaluation missed, where the
        // search's value says something about it: not in check, no capture
        // or promotion as the best move, not a draw (most often a rule's
        // result, a repetition: in a locked position every line ends in
        // one, and learning from them drives the evaluation away from the
        // draw), and a bound on the right side.
        if !in_check
            && (r.best_move == Move::NONE || !is_tactical(pos, r.best_move))
            && r.best != 0
            && r.best.abs() < DECISIVE
            && !(bound == Bound::Lower && r.best <= eval)
            && !(bound == Bound::Upper && r.best >= eval)
        {
            self.history.update_correction(pos, depth, r.best - eval);
        }
        let data = TtData { score: to_tt(r.best, ply), eval: raw_eval, depth, bound, pv: tt_pv };
        self.tt.store(pos.key, r.best_move, data);
        r.best
    }

    /// Whether a capture or promotion may be skipped at a shallow non-PV
    /// node: it loses too much by exchange.
    fn prune_tactical(pos: &Position<V>, m: Move, d: i32) -> bool {
        d <= SEE_PRUNE_MAX_DEPTH && !see_ge(pos, m, -tp!(SEE_CAPTURE_MARGIN) * d * d)
    }

    /// Whether a quiet move with history `hist` may be skipped at a shallow
    /// non-PV node (those past the late-move count are the move loop's): it
    /// cannot lift the evaluation to alpha, or loses too much by exchange.
    /// `n_legal` counts this move.
    fn prune_quiet(pos: &Position<V>, m: Move, n: &Node, alpha: i32, n_legal: usize, hist: i32) -> bool {
        let d = n.depth;
        let lmr_depth = (d - reduction(d, n_legal) - 1 + hist / tp!(LMR_HISTORY_DIVISOR)).max(0);
        if tp!(HISTORY_PRUNE_MARGIN) > 0
            && lmr_depth <= HISTORY_PRUNE_MAX_DEPTH
            && hist < -tp!(HISTORY_PRUNE_MARGIN) * d
        {
            return true;
        }
        if lmr_depth <= FUTILITY_MAX_DEPTH && n.eval + tp!(FUTILITY_BASE) + tp!(FUTILITY_MARGIN) * lmr_depth <= alpha {
            return true;
        }
        lmr_depth <= SEE_PRUNE_MAX_DEPTH && !see_ge(pos, m, -tp!(SEE_QUIET_MARGIN) * lmr_depth)
    }

    /// Searches the moves of a node in order, with move pruning.
    fn move_loop(&mut self, pos: &Position<V>, ctx: &LegalCtx<Bb<V>>, w: Window, n: &Node) -> LoopResult {
        let Window { mut alpha, beta, pv_node, .. } = w;
        let (depth, ply, in_check) = (n.depth, n.ply, n.in_check);
        let mut picker = MovePicker::empty();
        pos.generate(picker.list());
        let cx = self.order_context(ply);
        // The moves before this node's, for the quiet moves' histories.
        let prev = cx.prev;
        picker.init(pos, n.tt_move, &cx, false);
        let mut r = LoopResult { best: -INF, best_move: Move::NONE, legal: 0, aborted: false };
        let mut quiets = QuietList::new();
        let mut captures = CaptureList::new();
        let excluded = self.excluded[ply];
        // What tells whether a move checks, found the first time it is asked.
        let check_info = std::cell::OnceCell::new();
        while let Some(m) = picker.next(pos, &self.history) {
            if m == excluded {
                continue;
            }
            // The position after the move, played once it is needed: where
            // legality is known without it, a pruned move is never played.
            let played = std::cell::OnceCell::new();
            if Self::LEGAL_UNPLAYED {
                if !pos.is_legal(m, ctx) {
                    continue;
                }
            } else {
                let Some(c) = self.child(pos, m, ctx) else { continue };
                let _ = played.set(c);
            }
            let tt = self.tt;
            let child = || {
                played.get_or_init(|| {
                    let c = pos.play(m);
                    tt.prefetch(c.key);
                    c
                })
            };
            r.legal += 1;
            let tactical = is_tactical(pos, m);
            // Whether the move checks, asked only where it decides something.
            let gives_check = || {
                V::KING != 0
                    && match check_info.get_or_init(|| pos.check_info()) {
                        Some(info) => pos.gives_check(m, child, info),
                        None => child().in_check(),
                    }
            };
            // A quiet move's history, looked up once for pruning and reduction.
            let history_cell = std::cell::OnceCell::new();
            let quiet_history = || *history_cell.get_or_init(|| self.history.quiet(pos, m, prev));
            if !pv_node && !in_check && r.best > -DECISIVE {
                // Late move pruning: past the move count, this quiet move is
                // skipped unless it checks, and the quiet moves left are not
                // even handed out (quiet checks among them included).
                let past_count = move_count_prunes(n, r.legal);
                picker.skip_quiets |= past_count;
                let pruned = if tactical {
                    Self::prune_tactical(pos, m, depth)
                } else {
                    past_count || Self::prune_quiet(pos, m, n, alpha, r.legal, quiet_history())
                };
                if pruned && !gives_check() {
                    continue;
                }
            }
            let reduction = if in_check || r.legal == 1 {
                0
            } else if tactical {
                // A capture that loses material by exchange, late in the
                // list, is searched less deep too.
                if tp!(LMR_BAD_CAPTURE) > 0 && picker.in_bad_captures() {
                    (reduction(depth, r.legal) - i32::from(pv_node)).max(0)
                } else {
                    0
                }
            } else {
                self.late_move_reduction(pos, n, pv_node, r.legal, &quiet_history, &gives_check)
            };
            self.stack[ply] = self.history.piece_to(pos, m);
            let d = if m == n.tt_move { depth + n.extension } else { depth };
            let v = self.search_child(child(), Window { alpha, ..w }, d, ply, r.legal, reduction);
            if self.shared.stopped() {
                r.aborted = true;
                return r;
            }
            if v > r.best {
                r.best = v;
                if v > alpha {
                    r.best_move = m;
                    alpha = v;
                    self.update_pv(ply, m);
                    if v >= beta {
                        self.update_stats(pos, m, &quiets, &captures, depth, ply);
                        break;
                    }
                }
            }
            if !tactical {
                if !quiets.is_full() {
                    quiets.push(m);
                }
            } else if !captures.is_full() {
                captures.push((m, victim(pos, m)));
            }
        }
        r
    }

    /// How much less deep a late quiet move is searched: more the later it
    /// comes, less for PV nodes, improving positions, checks and moves with
    /// a good history (`quiet_history`).
    fn late_move_reduction(
        &self,
        pos: &Position<V>,
        n: &Node,
        pv_node: bool,
        n_legal: usize,
        quiet_history: &dyn Fn() -> i32,
        gives_check: &dyn Fn() -> bool,
    ) -> i32 {
        let mut r = reduction(n.depth, n_legal);
        if r == 0 {
            return 0;
        }
        r += i32::from(!n.improving) - i32::from(pv_node);
        if n.tt_pv && !pv_node {
            r -= tp!(LMR_TT_PV);
        }
        if n.cut_node {
            r += tp!(LMR_CUT_NODE);
        }
        if tp!(LMR_TT_CAPTURE) > 0 && n.tt_move != Move::NONE && is_tactical(pos, n.tt_move) {
            r += 1;
        }
        r -= quiet_history() / tp!(LMR_HISTORY_DIVISOR);
        if gives_check() {
            r -= 1;
        }
        r.max(0)
    }

    /// What the move picker orders a node's moves by at `ply`.
    pub(super) fn order_context(&self, ply: usize) -> OrderContext<'_> {
        OrderContext { history: &self.history, ply, prev: self.prev_moves(ply) }
    }

    /// The moves one and two plies before `ply`.
    pub(super) fn prev_moves(&self, ply: usize) -> [PieceTo; 2] {
        let at = |back: usize| if ply >= back { self.stack[ply - back] } else { PieceTo::NONE };
        [at(1), at(2)]
    }

    /// A cut-off by `best`: histories, killers and counter move learn from it.
    fn update_stats(
        &mut self,
        pos: &Position<V>,
        best: Move,
        quiets: &[Move],
        captures: &[(Move, u8)],
        depth: i32,
        ply: usize,
    ) {
        if is_tactical(pos, best) {
            self.history.update_captures(pos, Some((best, victim(pos, best))), captures, depth);
        } else {
            let prev = self.prev_moves(ply);
            self.history.update_quiets(pos, best, quiets, depth, ply, prev);
            self.history.update_captures(pos, None, captures, depth);
        }
    }

    /// The PV at `ply`: `m` followed by the child's PV.
    pub(super) fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply].clear();
        head[ply].push(m);
        head[ply].extend_from_slice(&tail[0]);
    }

    /// Principal-variation search of one child: the first move with the full
    /// window, later ones with a null window (`reduction` plies less deep),
    /// then again at full depth and window while they beat alpha.
    pub(super) fn search_child(
        &mut self,
        child: &Position<V>,
        w: Window,
        depth: i32,
        ply: usize,
        n: usize,
        reduction: i32,
    ) -> i32 {
        let Window { alpha, beta, pv_node, cut_node } = w;
        let new_depth = depth - 1;
        self.keys.push(child.key);
        let mut v;
        if n == 1 {
            // The first move: a PV child of a PV node, else a null-window
            // child expected to do the opposite of its parent.
            v = -self.search(child, -beta, -alpha, new_depth, ply + 1, !pv_node && !cut_node);
        } else {
            // A later move, reduced, is expected to fail high (the node's
            // first move should have refuted it); at full depth, the opposite
            // of its parent.
            let r = reduction.min(new_depth - 1).max(0);
            v = -self.search(child, -alpha - 1, -alpha, new_depth - r, ply + 1, r > 0 || !cut_node);
            if v > alpha && r > 0 {
                v = -self.search(child, -alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
            }
            if v > alpha && v < beta {
                v = -self.search(child, -beta, -alpha, new_depth, ply + 1, false);
            }
        }
        self.keys.pop();
        v
    }

    /// Whether the side to move has a piece other than pawns and king (or
    /// one in hand): null move is unsafe without one (zugzwang).
    fn has_pieces(&self, pos: &Position<V>) -> bool {
        let us = pos.by_color[pos.side];
        let mut pawns_kings = pos.by_type[V::PAWN as usize];
        if V::KING != 0 {
            pawns_kings |= pos.by_type[V::KING as usize];
        }
        (us & !pawns_kings).any() || pos.hand_count(pos.side) > 0
    }
}

/// Late move pruning: whether a quiet move that comes `n_legal`-th (this
/// move counted) at a shallow node is past the quiet moves searched there
/// (`LMP_BASE + LMP_PER_DEPTH * depth^2`, halved where the position is
/// not improving).
fn move_count_prunes(n: &Node, n_legal: usize) -> bool {
    let d = n.depth;
    let limit = (tp!(LMP_BASE) + tp!(LMP_PER_DEPTH) * (d * d) as usize) / (2 - usize::from(n.improving));
    d <= LMP_MAX_DEPTH && n_legal > limit
}

/// The value a node's pruning goes by: the table's value where its bound
/// says it is a better guess than the static evaluation `eval` (exact, a
/// lower bound above it, an upper bound below it), else `eval`.
fn pruning_eval(eval: i32, tt: Option<TtHit>, ply: usize) -> i32 {
    match tt.map(|h| (from_tt(h.score, ply), h.bound)) {
        Some((v, b))
            if v.abs() < DECISIVE
                && (b == Bound::Exact || (b == Bound::Lower && v > eval) || (b == Bound::Upper && v < eval)) =>
        {
            v
        }
        _ => eval,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::variants::ito::ItoShogi;

    /// The search's children follow Ito Shogi's rule that a position may not
    /// occur a third time, counting the game before the root and the path.
    #[test]
    fn ito_children_refuse_a_third_occurrence() {
        let mut g = Game::<ItoShogi>::default();
        for m in ["a1a2", "a31a30", "a2a1", "a30a31", "a1a2", "a31a30", "a2a1"] {
            g.play_text(m).unwrap();
        }
        let (shared, tt, limits) = (Shared::new(false), TranspositionTable::new(1), Limits::depth(1));
        let tm = TimeManager::new(&limits, 0, 0, crate::timeman::TimePlan::ByPly);
        let eval = Evaluation::builtin::<ItoShogi>();
        let histories = crate::search::Histories::default();
        let job = |g: &Game<ItoShogi>| SearchJob {
            root: *g.pos(),
            game_keys: g.keys().to_vec(),
            root_moves: Vec::new(),
            limits: &limits,
            threads: 1,
            multipv: 1,
            time_plan: crate::timeman::TimePlan::ByPly,
            shared: &shared,
            tt: &tt,
            eval: &eval,
            histories: &histories,
        };
        let child = |w: &Worker<ItoShogi>, p: &Position<ItoShogi>, uci: &str| {
            w.child(p, p.parse_uci_move(uci).unwrap(), &p.legal_ctx())
        };
        // At the root: the start position stood twice before it.
        let root = *g.pos();
        let job0 = job(&g);
        let w = Worker::<ItoShogi>::new(0, &job0, tm, Vec::new());
        assert!(child(&w, &root, "a30a31").is_none());
        assert!(child(&w, &root, "a30a29").is_some());
        // From the position after three moves, the path a30a31 a1a2 a31a30
        // a2a1: each position stood once before the root; the last is the
        // root again, a repetition in the path. Its child a30a31 brings back
        // the start position, once before the root and once in the path.
        let mut g3 = Game::<ItoShogi>::default();
        for m in ["a1a2", "a31a30", "a2a1"] {
            g3.play_text(m).unwrap();
        }
        let job3 = job(&g3);
        let mut w = Worker::<ItoShogi>::new(0, &job3, tm, Vec::new());
        let mut p = *g3.pos();
        for (m, repeats) in [("a30a31", false), ("a1a2", false), ("a31a30", false), ("a2a1", true)] {
            p = child(&w, &p, m).unwrap();
            w.keys.push(p.key);
            assert_eq!(w.is_repetition(0), repeats, "{m}");
        }
        assert_eq!(p.key, root.key);
        assert!(child(&w, &p, "a30a31").is_none());
        assert!(child(&w, &p, "a30a29").is_some());
        // A position that stood twice before the root is never made (the
        // game after six moves, then a2a1: a30a31 would bring back the start
        // position of plies 0 and 4), so `is_repetition` need not count them.
        let mut g6 = Game::<ItoShogi>::default();
        for m in ["a1a2", "a31a30", "a2a1", "a30a31", "a1a2", "a31a30"] {
            g6.play_text(m).unwrap();
        }
        let job6 = job(&g6);
        let mut w = Worker::<ItoShogi>::new(0, &job6, tm, Vec::new());
        let p = child(&w, g6.pos(), "a2a1").unwrap();
        w.keys.push(p.key);
        assert!(!w.is_repetition(0));
        assert!(child(&w, &p, "a30a31").is_none());
    }
}
