//! One self-play game of a variant: random opening plies, then a search of
//! a fixed node budget for every move; the positions a trainer may use are
//! kept with the search's score, and the game's result is filled in at the end.

use super::format::{End, GameBlock, NO_POINTS, Record};
use crate::engine_game::EngineGame;
use crate::game::Game;
use crate::moves::{Kind, Move};
use crate::position::Position;
use crate::rng::SplitMix64;
use crate::search::{DECISIVE, Event, Histories, Memory, Score, Shared};
use crate::timeman::Limits;
use crate::tt::TranspositionTable;
use crate::variant::Outcome;
use crate::variants::EngineVariant;
use crossbeam_channel::unbounded;

/// How the games of a run are played (the same for every game of a run).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayConfig {
    pub seed: u64,
    pub nodes: u64,
    pub random_plies: usize,
    /// A game still running after this many plies is a draw.
    pub max_plies: usize,
    /// A game is won by the side ahead once every score of the last
    /// `resign_plies` plies was at least `resign_score` for it.
    pub resign_score: i32,
    pub resign_plies: usize,
}

/// The random generator of game `index` of a run: games depend on the seed
/// and their number only, not on the thread or the order they are played in.
fn game_rng(seed: u64, index: u32) -> SplitMix64 {
    let mut mix = SplitMix64::new(seed ^ (index as u64).wrapping_mul(0xA24B_AED4_963E_E407));
    SplitMix64::new(mix.next_u64())
}

/// Plays game `index` with a cleared table and new histories (kept from
/// one move to the next, as in play); deterministic for given settings.
/// Returns the game's block and the nodes searched.
pub fn play_game<V: EngineVariant>(cfg: &PlayConfig, index: u32, tt: &TranspositionTable) -> (GameBlock, u64) {
    tt.clear();
    let histories = Histories::default();
    let eval = crate::eval::Evaluation::builtin::<V>();
    let mut rng = game_rng(cfg.seed, index);
    let mut game = random_opening::<V>(cfg.random_plies, &mut rng);
    let limits = Limits { nodes: Some(cfg.nodes), ..Default::default() };
    let mut kept = Vec::new();
    let mut nodes = 0;
    // Consecutive plies whose score was decisive for the same side (0 White, 1 Black).
    let mut streak: (usize, Option<usize>) = (0, None);
    let (end, outcome) = loop {
        if let Some(o) = game.outcome() {
            break (End::Rules, Some(o));
        }
        if game.moves().len() >= cfg.max_plies {
            break (End::PlyCap, None);
        }
        let (best, score, n) = search::<V>(&game, &limits, Memory { tt, eval: &eval, histories: &histories });
        nodes += n;
        let pos = *game.pos();
        let Some(best) = best else { break (End::Rules, game.outcome()) };
        if let Some(cp) = trainable(&pos, best, score) {
            kept.push(Record { score: cp, ply: game.moves().len() as u16, stm: pos.side as u8, fen: pos.fen() });
        }
        let ahead = ahead_side(score, pos.side, cfg.resign_score);
        streak = if ahead.is_some() && ahead == streak.1 { (streak.0 + 1, ahead) } else { (1, ahead) };
        if let (n, Some(winner)) = streak
            && n >= cfg.resign_plies
        {
            break (End::Resign, Some(Outcome::win(winner, "adjudicated")));
        }
        game.push(best);
    };
    (block(index, end, outcome, game.moves().len(), kept), nodes)
}

/// The start position after `plies` random legal moves; an opening in
/// which the game ends is drawn again (after 1000 such draws, the start
/// position is taken).
fn random_opening<V: EngineVariant>(plies: usize, rng: &mut SplitMix64) -> Game<V> {
    'again: for _ in 0..1000 {
        let mut game = Game::<V>::default();
        for _ in 0..plies {
            let legal = game.legal();
            if legal.is_empty() || game.outcome().is_some() {
                continue 'again;
            }
            game.push(legal[rng.below(legal.len())]);
        }
        if game.outcome().is_none() {
            return game;
        }
    }
    Game::<V>::default()
}

/// Searches the game's position with the node budget on one thread:
/// (best move, score from the side to move's view, nodes).
fn search<V: EngineVariant>(game: &Game<V>, limits: &Limits, memory: Memory<'_>) -> (Option<Move>, Score, u64) {
    let (tx, rx) = unbounded();
    let shared = Shared::new(false);
    let nodes = EngineGame::search(game, limits, 1, 1, &shared, memory, &tx);
    drop(tx);
    let (mut score, mut best) = (Score::Cp(0), None);
    for ev in rx.try_iter() {
        match ev {
            Event::Info(i) if i.multipv == 1 => score = i.score,
            Event::BestMove { best: b, .. } => best = b,
            _ => {}
        }
    }
    let pos = game.pos();
    let best = best.and_then(|b| game.legal().into_iter().find(|&m| pos.move_to_uci(m) == b));
    (best, score, nodes)
}

/// The score to record for a position, or `None` where a trainer should not
/// see it: the side to move in check, a capture or promotion as the best
/// move (the position is not quiet), a decided score.
fn trainable<V: EngineVariant>(pos: &Position<V>, best: Move, score: Score) -> Option<i16> {
    let Score::Cp(cp) = score else { return None };
    if cp.abs() >= DECISIVE.min(i16::MAX as i32) || pos.in_check() || is_tactical(pos, best) {
        return None;
    }
    Some(cp as i16)
}

/// A capture (of any piece, Etcetera's own included) or a promotion.
pub fn is_tactical<V: EngineVariant>(pos: &Position<V>, m: Move) -> bool {
    match m.kind() {
        Kind::Promotion | Kind::EnPassant | Kind::Igui => true,
        Kind::Drop | Kind::Castling => false,
        Kind::Normal | Kind::Gating => pos.board[m.to()] != 0,
    }
}

/// The side a score says is winning by at least `threshold` (mates included).
fn ahead_side(score: Score, stm: usize, threshold: i32) -> Option<usize> {
    let winning = match score {
        Score::Mate(m) => m > 0,
        Score::Cp(cp) if cp.abs() >= threshold => cp > 0,
        Score::Cp(_) => return None,
    };
    Some(if winning { stm } else { stm ^ 1 })
}

/// The game's block: the result from White's view (score pairs by the sign
/// of White's points less Black's) and the kept positions.
fn block(index: u32, end: End, outcome: Option<Outcome>, plies: usize, records: Vec<Record>) -> GameBlock {
    let (result, points) = match &outcome {
        Some(Outcome { scores: Some(s), .. }) => (1 + (s[0] - s[1]).signum(), Some(*s)),
        Some(Outcome { winner: Some(w), .. }) => (if *w == 0 { 2 } else { 0 }, None),
        _ => (1, None),
    };
    let point = |p: i32| p.clamp(0, NO_POINTS as i32 - 1) as u8;
    let (white_points, black_points) = points.map_or((NO_POINTS, NO_POINTS), |s| (point(s[0]), point(s[1])));
    GameBlock {
        index,
        result: result as u8,
        white_points,
        black_points,
        end,
        plies: plies.min(u16::MAX as usize) as u16,
        records,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_from_white_view() {
        let pair = Outcome { winner: None, scores: Some([1, 3]), reason: String::new() };
        let b = block(0, End::Rules, Some(pair), 10, vec![]);
        assert_eq!((b.result, b.white_points, b.black_points), (0, 1, 3));
        let even = Outcome { winner: None, scores: Some([2, 2]), reason: String::new() };
        assert_eq!(block(0, End::Rules, Some(even), 10, vec![]).result, 1);
        assert_eq!(block(0, End::Resign, Some(Outcome::win(0, "x")), 10, vec![]).result, 2);
        assert_eq!(block(0, End::PlyCap, None, 10, vec![]).result, 1);
        assert_eq!(ahead_side(Score::Cp(-1200), 0, 1000), Some(1));
        assert_eq!(ahead_side(Score::Mate(3), 1, 1000), Some(1));
        assert_eq!(ahead_side(Score::Cp(999), 1, 1000), None);
    }

    #[test]
    fn kept_positions_are_quiet() {
        use crate::variants::chess::Chess;
        let cfg =
            PlayConfig { seed: 9, nodes: 500, random_plies: 6, max_plies: 80, resign_score: 1000, resign_plies: 8 };
        let tt = TranspositionTable::new(1);
        let (block, nodes) = play_game::<Chess>(&cfg, 0, &tt);
        assert!(nodes > 0 && !block.records.is_empty());
        for r in &block.records {
            let pos = Position::<Chess>::from_fen(&r.fen).expect("fen");
            assert!(!pos.in_check(), "{}", r.fen);
        }
        // exd5 captures, e4e5 does not; a promotion is tactical.
        let pos = Position::<Chess>::from_fen("4k3/P7/8/3p4/4P3/8/8/4K3 w - - 0 1").expect("fen");
        let find = |uci: &str| pos.legal_moves().into_iter().find(|&m| pos.move_to_uci(m) == uci).expect(uci);
        assert!(is_tactical(&pos, find("e4d5")));
        assert!(!is_tactical(&pos, find("e4e5")));
        assert!(is_tactical(&pos, find("a7a8q")));
        assert_eq!(trainable(&pos, find("e4e5"), Score::Cp(50)), Some(50));
        assert_eq!(trainable(&pos, find("e4e5"), Score::Mate(3)), None);
        assert_eq!(trainable(&pos, find("e4d5"), Score::Cp(50)), None);
    }
}
