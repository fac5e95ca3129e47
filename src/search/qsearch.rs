//! Quiescence search: captures and promotions until the position is quiet,
//! evasions when in check (quiet ones pruned once one has been found).

use super::movepick::{MovePicker, is_tactical};
use super::params::{MAX_PLY, QS_QUIET_EVASIONS};
use super::see::see_ge;
use super::worker::{Worker, bound_of};
use crate::bitboard::Bits;
use crate::eval::Evaluator;
use crate::moves::Move;
use crate::position::Position;
use crate::score::{DECISIVE, INF, outcome_value, to_tt};
use crate::tt::TtData;

impl<V: Evaluator> Worker<'_, V> {
    pub(super) fn qsearch(&mut self, pos: &Position<V>, mut alpha: i32, beta: i32, ply: usize) -> i32 {
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
            return if in_check { 0 } else { self.static_eval(pos, ply) };
        }
        // The table: a stored value settles the node when its bound allows
        // (PV nodes keep searching), and its evaluation saves one.
        let pv_node = beta - alpha > 1;
        let (hit, tt_value) = self.probe_tt(pos, alpha, beta, 0, ply);
        if let (false, Some(v)) = (pv_node, tt_value) {
            return v;
        }
        let alpha0 = alpha;
        let mut best = -INF;
        let mut raw_eval = 0;
        if !in_check {
            raw_eval = self.raw_eval(pos, hit, ply);
            let eval = self.corrected(pos, raw_eval);
            if eval >= beta {
                return eval;
            }
            alpha = alpha.max(eval);
            best = eval;
        }
        let mut picker = MovePicker::empty();
        if in_check {
            pos.generate(picker.list());
        } else {
            pos.generate_captures(picker.list());
        }
        picker.init(pos, hit.map_or(Move::NONE, |h| h.mv), &self.order_context(ply), !in_check);
        let mut legal = 0;
        let mut quiet_evasions = 0;
        let mut best_move = Move::NONE;
        while let Some(m) = picker.next(pos, &self.history) {
            let quiet = !is_tactical(pos, m);
            if quiet && !in_check {
                continue;
            }
            // Once a move has kept the side out of mate, quiet evasions past
            // the second, and those that lose material by exchange, are not
            // searched: in the drop games every interposing drop is one, and
            // chains of checking captures and interpositions would grow the
            // tree without bound.
            if quiet && best > -DECISIVE && (quiet_evasions >= QS_QUIET_EVASIONS || !see_ge(pos, m, 0)) {
                continue;
            }
            let Some(child) = self.child(pos, m, &ctx) else { continue };
            legal += 1;
            quiet_evasions += usize::from(quiet);
            self.stack[ply] = self.history.piece_to(pos, m);
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
                    best_move = m;
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && legal == 0 {
            return outcome_value::<V>(&V::no_moves(pos, true), pos.side, ply);
        }
        let bound = bound_of(best, alpha0, beta);
        let pv = pv_node || hit.is_some_and(|h| h.pv);
        let data = TtData { score: to_tt(best, ply), eval: if in_check { 0 } else { raw_eval }, depth: 0, bound, pv };
        self.tt.store(pos.key, best_move, data);
        best
    }
}
