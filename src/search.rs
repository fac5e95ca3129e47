//! Search: iterative deepening, principal-variation alpha-beta with
//! quiescence, transposition table, null move, late-move reductions, check
//! extensions and mate-distance scores; one `Worker` per thread (Lazy SMP).
//! The search knows nothing of the protocol: it reports through `Event`s.

use crate::bitboard::Bits;
use crate::eval::Evaluator;
use crate::movegen::LegalCtx;
use crate::moves::{Kind, Move, MoveList};
use crate::position::Position;
use crate::timeman::{Limits, TimeManager};
use crate::tt::{Bound, TranspositionTable};
use crate::variant::Outcome;
use crossbeam_channel::Sender;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

pub const MATE: i32 = 32000;
pub const INF: i32 = 32001;
pub const MAX_PLY: usize = 120;
/// Scores at or beyond this are decided games (mates and score-pair wins).
pub const DECISIVE: i32 = MATE - 2048;
/// Ita's score pairs: each point of difference below the best result costs this much.
const QUALITY_STEP: i32 = 256;

/// The value of a finished game for the side to move, `ply` plies from the root.
/// Wins score `MATE - ply`; score-pair games rank a win by its margin
/// (5:0 above 5:1 above 5:2 and 4:1 ...) and a loss likewise.
pub fn outcome_value(o: &Outcome, stm: usize, ply: usize) -> i32 {
    let margin = match (o.scores, o.winner) {
        (Some(s), _) => s[stm] - s[stm ^ 1],
        (None, Some(w)) => {
            if w == stm {
                5
            } else {
                -5
            }
        }
        (None, None) => 0,
    };
    if margin == 0 {
        return 0;
    }
    let v = MATE - QUALITY_STEP * (5 - margin.abs()).clamp(0, 7) - ply as i32;
    if margin > 0 { v } else { -v }
}

/// A score as the protocol shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    /// Moves to mate (or to the decisive result); negative when losing.
    Mate(i32),
}

impl Score {
    pub fn from_value(v: i32) -> Score {
        if v.abs() >= DECISIVE {
            let plies = (MATE - v.abs()) % QUALITY_STEP;
            let moves = (plies + 1) / 2;
            Score::Mate(if v > 0 { moves } else { -moves })
        } else {
            Score::Cp(v)
        }
    }
}

#[derive(Clone, Debug)]
pub struct Info {
    pub depth: i32,
    pub seldepth: usize,
    pub multipv: usize,
    pub score: Score,
    pub nodes: u64,
    pub nps: u64,
    pub hashfull: u32,
    pub time_ms: u64,
    pub pv: Vec<String>,
}

/// What a search tells its caller.
#[derive(Clone, Debug)]
pub enum Event {
    Info(Info),
    /// Exactly one per search. `best` is None when the game is already over
    /// (`over` says how).
    BestMove {
        best: Option<String>,
        ponder: Option<String>,
        over: Option<Outcome>,
    },
}

/// State shared by the threads of one search (and the protocol, which may stop it).
pub struct Shared {
    pub stop: AtomicBool,
    /// While set, the clock does not stop the search (`go ponder` before `ponderhit`).
    pub pondering: AtomicBool,
    pub nodes: AtomicU64,
    /// The deepest iteration any thread has completed.
    pub depth_done: std::sync::atomic::AtomicI32,
}

impl Shared {
    pub fn new(ponder: bool) -> Self {
        Shared {
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(ponder),
            nodes: AtomicU64::new(0),
            depth_done: std::sync::atomic::AtomicI32::new(0),
        }
    }
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

type ScoreList = arrayvec::ArrayVec<i32, { crate::moves::MAX_MOVES }>;

/// Takes the best-scored remaining move (selection sort, one step at a time:
/// most nodes cut off after a few moves).
fn pick(list: &mut MoveList, scores: &mut ScoreList, i: usize) -> Move {
    let mut best = i;
    for j in i + 1..list.len() {
        if scores[j] > scores[best] {
            best = j;
        }
    }
    list.swap(i, best);
    scores.swap(i, best);
    list[i]
}

#[derive(Clone, Debug)]
pub struct RootMove {
    pub mv: Move,
    pub score: i32,
    pub pv: Vec<Move>,
}

/// Late-move reduction table, by depth and move number.
fn reduction(depth: i32, n: usize) -> i32 {
    if depth < 3 || n < 3 {
        return 0;
    }
    let r = 0.5 + (depth as f64).ln() * (n as f64).ln() / 2.25;
    r as i32
}

pub struct Worker<'a, V: Evaluator> {
    pub id: usize,
    shared: &'a Shared,
    tt: &'a TranspositionTable,
    limits: &'a Limits,
    tm: TimeManager,
    /// Keys of the game so far (root last) then of the search path.
    keys: Vec<u64>,
    root_index: usize,
    pub nodes: u64,
    seldepth: usize,
    killers: Vec<[Move; 2]>,
    history: Vec<i32>,
    pv: Vec<Vec<Move>>,
    pub root_moves: Vec<RootMove>,
    pub completed_depth: i32,
    _v: std::marker::PhantomData<V>,
}

impl<'a, V: Evaluator> Worker<'a, V> {
    pub fn new(
        id: usize,
        shared: &'a Shared,
        tt: &'a TranspositionTable,
        limits: &'a Limits,
        tm: TimeManager,
        game_keys: &[u64],
        root_moves: Vec<RootMove>,
    ) -> Self {
        Worker {
            id,
            shared,
            tt,
            limits,
            tm,
            keys: game_keys.to_vec(),
            root_index: game_keys.len().saturating_sub(1),
            nodes: 0,
            seldepth: 0,
            killers: vec![[Move::NONE; 2]; MAX_PLY + 2],
            history: vec![0; 32 * 128],
            pv: vec![Vec::new(); MAX_PLY + 2],
            root_moves,
            completed_depth: 0,
            _v: std::marker::PhantomData,
        }
    }

    #[inline]
    fn check_time(&mut self) -> bool {
        if self.nodes & 1023 == 0 {
            self.shared.nodes.fetch_add(1024, Ordering::Relaxed);
            if self.id == 0 {
                let timed_out = !self.shared.pondering.load(Ordering::Relaxed) && self.tm.past_hard();
                let nodes_out = self.limits.nodes.is_some_and(|n| self.shared.nodes.load(Ordering::Relaxed) >= n);
                if timed_out || nodes_out {
                    self.shared.stop.store(true, Ordering::Relaxed);
                }
            }
        }
        self.shared.stopped()
    }

    /// Whether the current position (last key) repeats one since the last
    /// irreversible move: inside the search path once, or twice before the root.
    fn is_repetition(&self, halfmove: u32) -> bool {
        let n = self.keys.len();
        let key = self.keys[n - 1];
        let limit = if V::REPETITION_ILLEGAL { n } else { (halfmove as usize).min(n) };
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

    /// The position after `m` if the move is legal, the game's repetition
    /// rule included (Ito Shogi: a move making a position's third occurrence
    /// is illegal).
    #[inline]
    fn child(&self, pos: &Position<V>, m: Move, ctx: &LegalCtx<crate::variant::Bb<V>>) -> Option<Position<V>> {
        if !pos.is_legal(m, ctx) {
            return None;
        }
        let child = pos.play(m);
        if V::REPETITION_ILLEGAL && self.keys.iter().filter(|&&k| k == child.key).count() >= 2 {
            return None;
        }
        Some(child)
    }

    fn history_index(pos: &Position<V>, m: Move) -> usize {
        let piece = if m.kind() == Kind::Drop { m.piece() } else { pos.type_on(m.from()) };
        ((pos.side << 4) | piece as usize) * 128 + m.to()
    }

    fn victim(pos: &Position<V>, m: Move) -> u8 {
        match m.kind() {
            Kind::Drop | Kind::Castling => 0,
            Kind::EnPassant => V::PAWN,
            _ => {
                if pos.board[m.to()] != 0 && pos.color_on(m.to()) != pos.side {
                    pos.type_on(m.to())
                } else {
                    0
                }
            }
        }
    }

    #[inline]
    fn value_of(t: u8) -> i32 {
        if t == 0 { 0 } else { V::PIECES[t as usize - 1].value }
    }

    fn is_tactical(pos: &Position<V>, m: Move) -> bool {
        Self::victim(pos, m) != 0 || m.kind() == Kind::Promotion
    }

    /// Scores moves for ordering: TT move, captures by victim then attacker,
    /// promotions, killers, then history.
    fn score_moves(&self, pos: &Position<V>, list: &MoveList, tt_move: Move, ply: usize) -> ScoreList {
        let killers = self.killers[ply];
        list.iter()
            .map(|&m| {
                if m == tt_move {
                    return 1 << 30;
                }
                let v = Self::victim(pos, m);
                if v != 0 {
                    let attacker = if m.kind() == Kind::Igui { 0 } else { pos.type_on(m.from()) };
                    (1 << 28) + Self::value_of(v) * 16 - Self::value_of(attacker) / 16
                } else if m.kind() == Kind::Promotion {
                    (1 << 27) + Self::value_of(m.piece())
                } else if m == killers[0] {
                    1 << 26
                } else if m == killers[1] {
                    (1 << 26) - 1
                } else {
                    self.history[Self::history_index(pos, m)]
                }
            })
            .collect()
    }

    fn update_quiet_stats(&mut self, pos: &Position<V>, best: Move, quiets: &[Move], depth: i32, ply: usize) {
        let bonus = (depth * depth).min(400);
        let idx = Self::history_index(pos, best);
        self.history[idx] += bonus - self.history[idx] * bonus / 16384;
        for &q in quiets {
            if q != best {
                let i = Self::history_index(pos, q);
                self.history[i] -= bonus + self.history[i] * bonus / 16384;
            }
        }
        if self.killers[ply][0] != best {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = best;
        }
    }

    fn to_tt(v: i32, ply: usize) -> i32 {
        if v >= DECISIVE {
            v + ply as i32
        } else if v <= -DECISIVE {
            v - ply as i32
        } else {
            v
        }
    }
    fn from_tt(v: i32, ply: usize) -> i32 {
        if v >= DECISIVE {
            v - ply as i32
        } else if v <= -DECISIVE {
            v + ply as i32
        } else {
            v
        }
    }

    /// Ends decided before any move: board results, rule results and repetition.
    fn node_end(&self, pos: &Position<V>, ply: usize) -> Option<i32> {
        if let Some(o) = V::board_end(pos) {
            return Some(outcome_value(&o, pos.side, ply));
        }
        if self.is_repetition(pos.halfmove) {
            return Some(0);
        }
        V::rule_end(pos).map(|o| outcome_value(&o, pos.side, ply))
    }

    pub fn search(&mut self, pos: &Position<V>, mut alpha: i32, mut beta: i32, depth: i32, ply: usize) -> i32 {
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

        let tt_hit = self.tt.probe(pos.key);
        let mut tt_move = Move::NONE;
        if let Some(h) = tt_hit {
            tt_move = h.mv;
            let v = Self::from_tt(h.score, ply);
            if !pv_node
                && h.depth >= depth
                && (h.bound == Bound::Exact
                    || (h.bound == Bound::Lower && v >= beta)
                    || (h.bound == Bound::Upper && v <= alpha))
            {
                return v;
            }
        }
        let ctx = pos.legal_ctx();
        let in_check = ctx.checkers.any();
        // Check extension: a node in check searches one ply deeper.
        let depth = if in_check && ply < MAX_PLY / 2 { depth + 1 } else { depth };
        let eval = if in_check {
            -INF
        } else {
            match tt_hit {
                Some(h) if h.eval.abs() < DECISIVE => h.eval,
                _ => V::evaluate(pos),
            }
        };

        if !pv_node && !in_check && ply > 0 && beta.abs() < DECISIVE {
            // Reverse futility pruning.
            if depth <= 6 && eval - 90 * depth >= beta {
                return eval;
            }
            // Null move.
            if V::NULL_MOVE_OK && depth >= 3 && eval >= beta && self.has_pieces(pos) {
                let r = 3 + depth / 4;
                let child = pos.play_null();
                self.keys.push(child.key);
                let v = -self.search(&child, -beta, -beta + 1, depth - 1 - r, ply + 1);
                self.keys.pop();
                if self.shared.stopped() {
                    return 0;
                }
                if v >= beta {
                    return if v >= DECISIVE { beta } else { v };
                }
            }
        }

        let mut list = MoveList::new();
        pos.generate(&mut list);
        let mut scores = self.score_moves(pos, &list, tt_move, ply);
        let mut best = -INF;
        let mut best_move = Move::NONE;
        let mut legal = 0usize;
        let mut quiets = arrayvec::ArrayVec::<Move, 64>::new();
        let alpha0 = alpha;
        for i in 0..list.len() {
            let m = pick(&mut list, &mut scores, i);
            let Some(child) = self.child(pos, m, &ctx) else { continue };
            legal += 1;
            let tactical = Self::is_tactical(pos, m);
            // Whether the move checks, asked only where it decides something.
            let gives_check = || V::KING != 0 && child.in_check();
            // Late move pruning of quiet moves at shallow depth.
            if !pv_node
                && !in_check
                && !tactical
                && best > -DECISIVE
                && depth <= 3
                && legal > 6 + 4 * depth as usize
                && !gives_check()
            {
                continue;
            }
            let new_depth = depth - 1;
            self.keys.push(child.key);
            let mut v;
            if legal == 1 {
                v = -self.search(&child, -beta, -alpha, new_depth, ply + 1);
            } else {
                let mut r = if tactical || in_check { 0 } else { reduction(depth, legal) };
                if r > 0 && gives_check() {
                    r = 0;
                }
                if pv_node && r > 0 {
                    r -= 1;
                }
                let r = r.min(new_depth - 1).max(0);
                v = -self.search(&child, -alpha - 1, -alpha, new_depth - r, ply + 1);
                if v > alpha && r > 0 {
                    v = -self.search(&child, -alpha - 1, -alpha, new_depth, ply + 1);
                }
                if v > alpha && v < beta {
                    v = -self.search(&child, -beta, -alpha, new_depth, ply + 1);
                }
            }
            self.keys.pop();
            if self.shared.stopped() {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    best_move = m;
                    alpha = v;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(m);
                    head[ply].extend_from_slice(&tail[0]);
                    if v >= beta {
                        if !tactical {
                            self.update_quiet_stats(pos, m, &quiets, depth, ply);
                        }
                        break;
                    }
                }
            }
            if !tactical && !quiets.is_full() {
                quiets.push(m);
            }
        }
        if legal == 0 {
            return outcome_value(&V::no_moves(pos, in_check), pos.side, ply);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha0 {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(pos.key, best_move, Self::to_tt(best, ply), if in_check { 0 } else { eval }, depth, bound);
        best
    }

    fn has_pieces(&self, pos: &Position<V>) -> bool {
        let us = pos.by_color[pos.side];
        let mut pawns_kings = pos.by_type[V::PAWN as usize];
        if V::KING != 0 {
            pawns_kings |= pos.by_type[V::KING as usize];
        }
        (us & !pawns_kings).any() || pos.hand_count(pos.side) > 0
    }

    fn qsearch(&mut self, pos: &Position<V>, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        if self.check_time() {
            return 0;
        }
        self.pv[ply].clear();
        self.seldepth = self.seldepth.max(ply);
        if ply > 0
            && let Some(v) = self.node_end(pos, ply)
        {
            return v;
        }
        let ctx = pos.legal_ctx();
        let in_check = ctx.checkers.any();
        if ply >= MAX_PLY {
            return if in_check { 0 } else { V::evaluate(pos) };
        }
        let mut best = -INF;
        if !in_check {
            let stand = V::evaluate(pos);
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
            best = stand;
        }
        let mut list = MoveList::new();
        if in_check {
            pos.generate(&mut list);
        } else {
            pos.generate_captures(&mut list);
        }
        let mut scores = self.score_moves(pos, &list, Move::NONE, ply);
        let mut legal = 0;
        for i in 0..list.len() {
            let m = pick(&mut list, &mut scores, i);
            if !in_check && !Self::is_tactical(pos, m) {
                continue;
            }
            let Some(child) = self.child(pos, m, &ctx) else { continue };
            legal += 1;
            self.keys.push(child.key);
            let v = -self.qsearch(&child, -beta, -alpha, ply + 1);
            self.keys.pop();
            if self.shared.stopped() {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && legal == 0 {
            return outcome_value(&V::no_moves(pos, true), pos.side, ply);
        }
        best
    }

    /// One iteration at the root for the PV line `pv_idx`; sorts the root moves.
    fn root_search(&mut self, root: &Position<V>, depth: i32, mut alpha: i32, beta: i32, pv_idx: usize) -> i32 {
        self.nodes += 1;
        let mut best = -INF;
        let alpha0 = alpha;
        for i in pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            let child = root.play(m);
            let new_depth = depth - 1;
            self.keys.push(child.key);
            let mut v;
            if i == pv_idx {
                v = -self.search(&child, -beta, -alpha, new_depth, 1);
            } else {
                v = -self.search(&child, -alpha - 1, -alpha, new_depth, 1);
                if v > alpha && v < beta {
                    v = -self.search(&child, -beta, -alpha, new_depth, 1);
                }
            }
            self.keys.pop();
            if self.shared.stopped() {
                break;
            }
            let rm = &mut self.root_moves[i];
            if i == pv_idx || v > alpha {
                rm.score = v;
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend_from_slice(&self.pv[1]);
            } else {
                rm.score = -INF;
            }
            if v > best {
                best = v;
            }
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
        // Stable sort keeps the previous order among equal (failed-low) moves.
        self.root_moves[pv_idx..].sort_by_key(|a| std::cmp::Reverse(a.score));
        if best <= alpha0 { best } else { alpha.max(best) }
    }

    /// Iterative deepening. The main worker (id 0) reports through `report`.
    pub fn iterate(&mut self, root: &Position<V>, multipv: usize, report: &mut dyn FnMut(&Self, i32, usize)) {
        let max_depth = self.limits.depth.unwrap_or(MAX_PLY as i32 - 10).clamp(1, MAX_PLY as i32 - 10);
        let multipv = multipv.clamp(1, self.root_moves.len().max(1));
        let mut prev_scores = [0i32; 256];
        for depth in 1..=max_depth {
            // Helper threads skip some depths so threads spread over the tree.
            if self.id > 0 && depth > 1 && (depth + self.id as i32) % 3 == 0 {
                continue;
            }
            self.seldepth = 0;
            for (pv_idx, prev) in prev_scores.iter_mut().enumerate().take(multipv) {
                let mut delta = 30;
                let (mut alpha, mut beta) =
                    if depth >= 4 && prev.abs() < DECISIVE { (*prev - delta, *prev + delta) } else { (-INF, INF) };
                loop {
                    let v = self.root_search(root, depth, alpha, beta, pv_idx);
                    if self.shared.stopped() {
                        break;
                    }
                    if v <= alpha {
                        beta = (alpha + beta) / 2;
                        alpha = (v - delta).max(-INF);
                    } else if v >= beta {
                        beta = (v + delta).min(INF);
                    } else {
                        *prev = v;
                        break;
                    }
                    delta += delta;
                    if delta > 1000 {
                        alpha = -INF;
                        beta = INF;
                    }
                }
                if self.shared.stopped() {
                    break;
                }
            }
            if self.shared.stopped() {
                break;
            }
            self.completed_depth = depth;
            self.shared.depth_done.fetch_max(depth, Ordering::Relaxed);
            // Any thread reaching the requested depth ends the search.
            if depth >= max_depth && !self.limits.infinite && !self.shared.pondering.load(Ordering::Relaxed) {
                self.shared.stop.store(true, Ordering::Relaxed);
            }
            if self.id == 0 {
                report(self, depth, multipv);
                let best = self.root_moves[0].score;
                if let Some(mate) = self.limits.mate
                    && best >= DECISIVE
                    && (MATE - best) % QUALITY_STEP <= 2 * mate
                {
                    break;
                }
                if !self.shared.pondering.load(Ordering::Relaxed) && !self.tm.may_start_iteration() {
                    break;
                }
                if self.root_moves.len() == 1 && self.limits.timed() && depth >= 4 {
                    break;
                }
            }
        }
    }

    pub fn seldepth(&self) -> usize {
        self.seldepth
    }
    pub fn elapsed_ms(&self) -> u64 {
        self.tm.elapsed().as_millis() as u64
    }
}

/// Everything needed to run one search of a variant on N threads.
pub struct SearchJob<'a, V: Evaluator> {
    pub root: Position<V>,
    /// Keys of the game's positions, the root last.
    pub game_keys: Vec<u64>,
    /// Legal root moves (repetition rules of the game applied).
    pub root_moves: Vec<Move>,
    pub limits: &'a Limits,
    pub threads: usize,
    pub multipv: usize,
    pub moves_hint: u32,
    pub shared: &'a Shared,
    pub tt: &'a TranspositionTable,
}

/// Runs a Lazy SMP search and sends `Info` events and exactly one `BestMove`.
/// Returns the total node count.
pub fn run_search<V: Evaluator>(job: SearchJob<'_, V>, tx: &Sender<Event>, over: Option<Outcome>) -> u64 {
    let root = job.root;
    let mut root_moves: Vec<Move> = job.root_moves.clone();
    if !job.limits.searchmoves.is_empty() {
        root_moves.retain(|&m| job.limits.searchmoves.contains(&root.move_to_uci(m)));
    }
    if root_moves.is_empty() || over.is_some() {
        let _ = tx.send(Event::BestMove { best: None, ponder: None, over });
        wait_while_infinite(job.limits, job.shared);
        return 0;
    }
    job.tt.new_search();
    let tm = TimeManager::new(job.limits, root.side, job.moves_hint);
    let rms: Vec<RootMove> = root_moves.iter().map(|&mv| RootMove { mv, score: -INF, pv: vec![mv] }).collect();
    let mut total = 0;
    let mut best: Option<RootMove> = None;
    std::thread::scope(|s| {
        let mut helpers = Vec::new();
        for id in 1..job.threads.max(1) {
            let rms = rms.clone();
            let (shared, tt, limits, keys) = (job.shared, job.tt, job.limits, job.game_keys.clone());
            helpers.push(
                std::thread::Builder::new()
                    .stack_size(16 << 20)
                    .spawn_scoped(s, move || {
                        let mut w = Worker::<V>::new(id, shared, tt, limits, tm, &keys, rms);
                        w.iterate(&root, 1, &mut |_, _, _| {});
                        (w.nodes, w.completed_depth, w.root_moves.first().cloned())
                    })
                    .expect("spawn search thread"),
            );
        }
        let mut w = Worker::<V>::new(0, job.shared, job.tt, job.limits, tm, &job.game_keys, rms);
        let mut report = |w: &Worker<V>, depth: i32, multipv: usize| {
            let nodes = job.shared.nodes.load(Ordering::Relaxed).max(w.nodes);
            let ms = w.elapsed_ms();
            for (i, rm) in w.root_moves.iter().take(multipv).enumerate() {
                let mut p = root;
                let mut pv = Vec::new();
                for &m in &rm.pv {
                    pv.push(p.move_to_uci(m));
                    p = p.play(m);
                }
                let _ = tx.send(Event::Info(Info {
                    depth,
                    seldepth: w.seldepth(),
                    multipv: i + 1,
                    score: Score::from_value(rm.score),
                    nodes,
                    nps: nodes * 1000 / ms.max(1),
                    hashfull: job.tt.hashfull(),
                    time_ms: ms,
                    pv,
                }));
            }
        };
        w.iterate(&root, job.multipv, &mut report);
        wait_while_infinite(job.limits, job.shared);
        job.shared.stop.store(true, Ordering::Relaxed);
        total += w.nodes;
        let mut best_depth = w.completed_depth;
        best = w.root_moves.first().cloned();
        for h in helpers {
            let (nodes, depth, rm) = h.join().unwrap_or((0, 0, None));
            total += nodes;
            // The answer comes from the deepest completed iteration (the main thread on ties).
            if depth > best_depth {
                best_depth = depth;
                best = rm;
            }
        }
    });
    let (best_s, ponder) = match &best {
        Some(rm) => {
            let after = root.play(rm.mv);
            (Some(root.move_to_uci(rm.mv)), rm.pv.get(1).map(|&m| after.move_to_uci(m)))
        }
        None => (None, None),
    };
    let _ = tx.send(Event::BestMove { best: best_s, ponder, over: None });
    total
}

/// `go infinite` and `go ponder` must not answer before `stop` / `ponderhit`.
fn wait_while_infinite(limits: &Limits, shared: &Shared) {
    while (limits.infinite || shared.pondering.load(Ordering::Relaxed)) && !shared.stopped() {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

/// Searches one position to a fixed depth on one thread, quietly; returns
/// (best move, score, nodes). Used by `bench` and tests.
pub fn search_fixed<V: Evaluator>(root: &Position<V>, depth: i32, tt: &TranspositionTable) -> (Move, i32, u64) {
    let limits = Limits::depth(depth);
    let shared = Shared::new(false);
    let tm = TimeManager::new(&limits, root.side, 30);
    let moves: Vec<RootMove> =
        root.legal_moves().iter().map(|&mv| RootMove { mv, score: -INF, pv: vec![mv] }).collect();
    if moves.is_empty() {
        return (Move::NONE, 0, 0);
    }
    let mut w = Worker::<V>::new(0, &shared, tt, &limits, tm, &[root.key], moves);
    w.iterate(root, 1, &mut |_, _, _| {});
    (w.root_moves[0].mv, w.root_moves[0].score, w.nodes)
}
