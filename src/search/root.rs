//! Iterative deepening with aspiration windows, and the root's move loop
//! (late quiet moves reduced as at any PV node).

use super::movepick::is_tactical;
use super::params::*;
use super::worker::{Window, Worker};
use crate::eval::Evaluator;
use crate::position::Position;
use crate::score::{DECISIVE, INF, plies_to_end};
use crate::timeman::Stability;
use std::sync::atomic::Ordering;

impl<V: Evaluator> Worker<'_, V> {
    /// One iteration at the root for the PV line `pv_idx`; sorts the root moves.
    fn root_search(&mut self, root: &Position<V>, depth: i32, mut alpha: i32, beta: i32, pv_idx: usize) -> i32 {
        self.nodes += 1;
        let mut best = -INF;
        let alpha0 = alpha;
        for i in pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            let child = root.play(m);
            self.stack[0] = self.history.piece_to(root, m);
            // Late quiet moves are searched less deep first, as at any PV
            // node (one ply less reduced); the PV search of a node's child.
            let n = i - pv_idx + 1;
            let r = if is_tactical(root, m) { 0 } else { (reduction(depth, n) - 1).max(0) };
            let nodes = self.nodes;
            let v = self.search_child(&child, Window { alpha, beta, pv_node: true, cut_node: false }, depth, 0, n, r);
            self.root_moves[i].nodes += self.nodes - nodes;
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

    /// Searches PV line `pv_idx` at `depth` in a window around `prev`, the
    /// line's last value, widening it until the value falls inside; sets `prev`.
    fn aspiration(&mut self, root: &Position<V>, depth: i32, pv_idx: usize, prev: &mut i32) {
        let mut delta = tp!(ASPIRATION_DELTA);
        let (mut alpha, mut beta) = if depth >= ASPIRATION_MIN_DEPTH && prev.abs() < DECISIVE {
            (*prev - delta, *prev + delta)
        } else {
            (-INF, INF)
        };
        loop {
            let v = self.root_search(root, depth, alpha, beta, pv_idx);
            if self.shared.stopped() {
                return;
            }
            if v <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (v - delta).max(-INF);
            } else if v >= beta {
                beta = (v + delta).min(INF);
            } else {
                *prev = v;
                return;
            }
            delta += delta;
            if delta > ASPIRATION_MAX_DELTA {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    /// Iterative deepening. The main worker (id 0) reports through `report`.
    pub fn iterate(&mut self, root: &Position<V>, multipv: usize, report: &mut dyn FnMut(&Self, i32, usize)) {
        let deepest = MAX_PLY as i32 - MAX_DEPTH_MARGIN;
        let max_depth = self.limits.depth.unwrap_or(deepest).clamp(1, deepest);
        let multipv = multipv.clamp(1, self.root_moves.len().max(1));
        let mut prev_scores = [0i32; 256];
        let mut stability = Stability::default();
        for depth in 1..=max_depth {
            // Helper threads skip some depths so threads spread over the tree.
            if self.id > 0 && depth > 1 && (depth + self.id as i32) % HELPER_SKIP_PERIOD == 0 {
                continue;
            }
            self.seldepth = 0;
            for pv_idx in 0..multipv {
                self.aspiration(root, depth, pv_idx, &mut prev_scores[pv_idx]);
                if self.shared.stopped() {
                    break;
                }
                // The lines found so far, best first (a later line's own
                // window may find more than an earlier one's did), each
                // line's next window centred on its place's value.
                if pv_idx > 0 {
                    self.root_moves[..=pv_idx].sort_by_key(|a| std::cmp::Reverse(a.score));
                    for (prev, rm) in prev_scores.iter_mut().zip(&self.root_moves[..=pv_idx]) {
                        *prev = rm.score;
                    }
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
                if let Some(rm) = self.root_moves.first() {
                    stability.update(rm.mv);
                }
                if self.iteration_ends_search(depth, &stability) {
                    break;
                }
            }
        }
    }

    /// After the main thread's iteration at `depth`: whether to stop here
    /// (mate found as asked, the node limit reached, no time for another
    /// iteration, a forced move).
    fn iteration_ends_search(&self, depth: i32, stability: &Stability) -> bool {
        let best = self.root_moves[0].score;
        if self.node_limit_reached() {
            return true;
        }
        if let Some(mate) = self.limits.mate
            && best >= DECISIVE
            && plies_to_end(best) <= 2 * mate
        {
            return true;
        }
        if !self.shared.pondering.load(Ordering::Relaxed)
            && !self.tm.may_start_iteration(stability, self.effort_scale())
        {
            return true;
        }
        self.root_moves.len() == 1 && self.limits.timed() && depth >= 4
    }

    /// How the share of the nodes spent below the best move scales the
    /// time for another iteration: `(b - share) w`, with `b` and `w` the
    /// tunables `NODE_TM_BASE` and `NODE_TM_WEIGHT` in hundredths (a move
    /// that took most of the search is rarely overturned; one that took
    /// little may be). 1 where the weight is 0.
    fn effort_scale(&self) -> f64 {
        let (b, w) = (f64::from(tp!(NODE_TM_BASE)) / 100.0, f64::from(tp!(NODE_TM_WEIGHT)) / 100.0);
        match self.root_moves.first() {
            Some(rm) if w > 0.0 && self.nodes > 0 => (b - rm.nodes as f64 / self.nodes as f64) * w,
            _ => 1.0,
        }
    }

    pub fn seldepth(&self) -> usize {
        self.seldepth
    }
}
