//! Lazy SMP: N workers search the same root, sharing only the transposition
//! table (and the stop flag and node count); the main worker reports.

use super::params::THREAD_STACK_BYTES;
use super::worker::Worker;
use super::{Event, Histories, Info, RootMove, Shared};
use crate::eval::{Evaluation, Evaluator};
use crate::moves::Move;
use crate::position::Position;
use crate::score::{INF, Score};
use crate::timeman::{Limits, TimeManager, TimePlan};
use crate::tt::TranspositionTable;
use crate::variant::Outcome;
use crossbeam_channel::Sender;
use std::sync::atomic::Ordering;

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
    /// How the clock is spread over the game (the variant's).
    pub time_plan: TimePlan,
    pub shared: &'a Shared,
    pub tt: &'a TranspositionTable,
    /// The evaluation the search plays with.
    pub eval: &'a Evaluation,
    /// The threads' histories, taken at the start and given back at the end.
    pub histories: &'a Histories,
}

fn root_moves_of(moves: &[Move]) -> Vec<RootMove> {
    moves.iter().map(|&mv| RootMove { mv, score: -INF, pv: vec![mv], nodes: 0 }).collect()
}

/// How far one thread got: its completed depth and the line it would play.
struct Answer {
    depth: i32,
    seldepth: usize,
    /// Nodes searched so far (the thread's own count, or all threads' at the end).
    nodes: u64,
    rm: Option<RootMove>,
}

/// The `Info` event of one root move's line.
fn info_of<V: Evaluator>(job: &SearchJob<'_, V>, tm: &TimeManager, a: &Answer, multipv: usize, rm: &RootMove) -> Info {
    let nodes = job.shared.nodes.load(Ordering::Relaxed).max(a.nodes);
    let ms = tm.elapsed().as_millis() as u64;
    let mut p = job.root;
    let mut pv = Vec::new();
    for &m in &rm.pv {
        pv.push(p.move_to_uci(m));
        p = p.play(m);
    }
    Info {
        depth: a.depth,
        seldepth: a.seldepth,
        multipv,
        score: Score::from_value(rm.score),
        nodes,
        nps: nodes * 1000 / ms.max(1),
        hashfull: job.tt.hashfull(),
        time_ms: ms,
        pv,
    }
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
    let tm = TimeManager::new(job.limits, root.side, root.game_ply(), job.time_plan);
    let rms = root_moves_of(&root_moves);
    let mut total = 0;
    let mut best = Answer { depth: 0, seldepth: 0, nodes: 0, rm: None };
    // The last line reported (its first PV line), so that the line of the
    // move played is reported last whichever thread found it.
    let mut reported: Option<(i32, i32, Vec<Move>)> = None;
    // A strength level searches more lines and chooses among those of the
    // main thread's last completed iteration (`skill`).
    let skill = job.limits.skill.as_deref().copied();
    let multipv = skill.map_or(job.multipv, |s| job.multipv.max(s.skill.lines));
    let mut lines: Vec<RootMove> = Vec::new();
    std::thread::scope(|s| {
        let mut helpers = Vec::new();
        for id in 1..job.threads.max(1) {
            let rms = rms.clone();
            let job = &job;
            helpers.push(
                std::thread::Builder::new()
                    .stack_size(THREAD_STACK_BYTES)
                    .spawn_scoped(s, move || {
                        let mut w = Worker::<V>::new(id, job, tm, rms);
                        w.iterate(&root, 1, &mut |_, _, _| {});
                        let answer = Answer {
                            depth: w.completed_depth,
                            seldepth: w.seldepth(),
                            nodes: w.nodes,
                            rm: w.root_moves.first().cloned(),
                        };
                        job.histories.put(id, w.history);
                        (w.nodes, answer)
                    })
                    .expect("spawn search thread"),
            );
        }
        let mut w = Worker::<V>::new(0, &job, tm, rms);
        let mut report = |w: &Worker<V>, depth: i32, multipv: usize| {
            let a = Answer { depth, seldepth: w.seldepth(), nodes: w.nodes, rm: None };
            for (i, rm) in w.root_moves.iter().take(multipv).enumerate() {
                let _ = tx.send(Event::Info(info_of(&job, &tm, &a, i + 1, rm)));
            }
            reported = w.root_moves.first().map(|rm| (depth, rm.score, rm.pv.clone()));
            if skill.is_some() {
                lines = w.root_moves.iter().take(multipv).cloned().collect();
            }
        };
        w.iterate(&root, multipv, &mut report);
        wait_while_infinite(job.limits, job.shared);
        job.shared.stop.store(true, Ordering::Relaxed);
        total += w.nodes;
        best = Answer {
            depth: w.completed_depth,
            seldepth: w.seldepth(),
            nodes: w.nodes,
            rm: w.root_moves.first().cloned(),
        };
        job.histories.put(0, w.history);
        for h in helpers {
            let (nodes, answer) = h.join().unwrap_or((0, Answer { depth: 0, seldepth: 0, nodes: 0, rm: None }));
            total += nodes;
            // The answer comes from the deepest completed iteration (the main thread on ties).
            if answer.depth > best.depth && answer.rm.is_some() {
                best = answer;
            }
        }
    });
    best.nodes = total;
    if let Some(rm) = &best.rm
        && reported.as_ref().is_none_or(|(d, v, pv)| (*d, *v, pv) != (best.depth, rm.score, &rm.pv))
        && best.depth > 0
    {
        let _ = tx.send(Event::Info(info_of(&job, &tm, &best, 1, rm)));
    }
    let mut best = best.rm;
    if let Some(s) = skill
        && !lines.is_empty()
    {
        let scores: Vec<i32> = lines.iter().map(|rm| rm.score).collect();
        best = Some(lines.swap_remove(s.skill.pick(&scores, s.seed ^ root.key)));
    }
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

/// `go infinite` and `go ponder` must not answer before `stop` / `ponderhit`,
/// even when a node limit has ended the search.
fn wait_while_infinite(limits: &Limits, shared: &Shared) {
    while (limits.infinite || shared.pondering.load(Ordering::Relaxed)) && !shared.released.load(Ordering::Relaxed) {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}

/// Searches one position to a fixed depth on one thread, quietly; returns
/// (best move, score, nodes) with the evaluation `eval`. Used by `bench` and tests.
pub fn search_fixed<V: Evaluator>(
    root: &Position<V>,
    depth: i32,
    tt: &TranspositionTable,
    eval: &Evaluation,
) -> (Move, i32, u64) {
    let limits = Limits::depth(depth);
    let shared = Shared::new(false);
    let tm = TimeManager::new(&limits, root.side, root.game_ply(), TimePlan::ByPly);
    let legal = root.legal_moves().to_vec();
    if legal.is_empty() {
        return (Move::NONE, 0, 0);
    }
    let moves = root_moves_of(&legal);
    let histories = Histories::default();
    let job = SearchJob {
        root: *root,
        game_keys: vec![root.key],
        root_moves: legal,
        limits: &limits,
        threads: 1,
        multipv: 1,
        time_plan: TimePlan::ByPly,
        shared: &shared,
        tt,
        eval,
        histories: &histories,
    };
    let mut w = Worker::<V>::new(0, &job, tm, moves);
    w.iterate(root, 1, &mut |_, _, _| {});
    (w.root_moves[0].mv, w.root_moves[0].score, w.nodes)
}
