//! Plays one game between two engines and referees it with the project's
//! own rules: every move is checked by [`AnyGame::push_move`], every ending
//! comes from [`AnyGame::outcome`], and the clocks are kept here.

use super::engine::{Engine, EngineCmd, Fault, FaultKind, GoReply};
use super::openings::Opening;
use super::record::{Forfeit, GameRecord};
use super::timecontrol::{Clock, Limits, go_command};
use crate::errors::MoveError;
use crate::game::AnyGame;
use crate::notation::looks_like_move;
use crate::protocol::parse::MAX_POSITION_MOVES;
use crate::registry::{RuleOptions, new_game_with_rules};
use crate::variant::Outcome;
use std::time::Duration;

/// One engine of a match as configured.
#[derive(Clone, Debug, Default)]
pub struct Player {
    pub name: String,
    pub cmd: EngineCmd,
    pub limits: Limits,
}

/// Settings every game shares.
#[derive(Clone, Debug)]
pub struct GameSettings {
    pub variant: String,
    /// Wait for `uciok` / `readyok`.
    pub start_timeout: Duration,
    /// Wait for a `bestmove` when neither a clock nor a time per move limits it.
    pub move_timeout: Duration,
    /// After a time forfeit: how long `stop` may take before the engine is restarted.
    pub stop_grace: Duration,
    /// Adjudicate a draw after this many plies played by the engines.
    pub max_plies: Option<usize>,
    pub debug: bool,
    /// The rule options both engines were given: the referee's game follows them.
    pub rules: RuleOptions,
}

impl GameSettings {
    /// The settings a match's configuration gives every game.
    pub fn of(cfg: &super::config::MatchConfig) -> Self {
        GameSettings {
            variant: cfg.variant.clone(),
            start_timeout: cfg.start_timeout,
            move_timeout: cfg.move_timeout,
            stop_grace: cfg.stop_grace,
            max_plies: cfg.max_plies,
            debug: cfg.debug,
            rules: cfg.rules,
        }
    }
}

/// The side to move (0 = White).
pub fn side_to_move(game: &dyn AnyGame) -> usize {
    game.side_to_move()
}

/// The `position` command for a game: `startpos` when it starts from the
/// variant's start position, else the FEN; then every move.
pub fn position_command(start_fen: &str, standard: bool, moves: &[String]) -> String {
    let mut s = if standard { "position startpos".to_string() } else { format!("position fen {start_fen}") };
    if !moves.is_empty() {
        s += " moves";
        for m in moves {
            s.push(' ');
            s += m;
        }
    }
    s
}

/// Why a game that has not ended is adjudicated a draw before the next
/// move, if it is: `--maxplies` counts the plies the engines played; and a
/// game whose `position` command holds the most moves calvin reads
/// (`MAX_POSITION_MOVES`, opening included) ends there, since no engine
/// could be told the next position (Ita has no repetition rule, so two
/// engines can shuffle without end).
fn move_limit(max_plies: Option<usize>, plies: usize, moves: usize) -> Option<String> {
    match max_plies {
        Some(max) if plies >= max => Some(format!("adjudication: move limit ({max} plies)")),
        _ if moves >= MAX_POSITION_MOVES => {
            Some(format!("adjudication: move limit ({MAX_POSITION_MOVES} moves, the most a position command holds)"))
        }
        _ => None,
    }
}

fn illegal_reason(name: &str, mv: &str, err: &MoveError) -> String {
    match err.detail() {
        None => format!("illegal move by {name}: {mv}"),
        Some(why) => format!("illegal move by {name}: {mv} ({why})"),
    }
}

/// Plays a game. `players` and `slots` are indexed by colour (0 = White);
/// a slot holds the running engine, is filled when empty, and is emptied
/// (the engine killed) when the engine failed, so that the next game
/// starts it afresh.
pub fn play_game(
    number: u32,
    opening: &Opening,
    players: [&Player; 2],
    slots: [&mut Option<Engine>; 2],
    set: &GameSettings,
) -> GameRecord {
    let mut game = opening.game(&set.variant, &set.rules).expect("openings are checked when they are read");
    let standard =
        new_game_with_rules(&set.variant, &set.rules).map(|g| g.start_fen() == game.start_fen()).unwrap_or(false);
    let mut rec = GameRecord {
        number,
        variant: set.variant.clone(),
        white: players[0].name.clone(),
        black: players[1].name.clone(),
        time_control: [players[0].limits.describe(), players[1].limits.describe()],
        start_fen: game.start_fen(),
        moves: opening.moves.clone(),
        opening_plies: opening.moves.len(),
        outcome: Outcome::draw("unfinished"),
        forfeit: None,
    };
    // The variant says what a forfeit scores (Ita's time result for every fault).
    let forfeit = game.clone_box();
    let finish = |rec: &mut GameRecord, loser: usize, how: Forfeit, reason: String| {
        rec.outcome = forfeit.forfeit(loser, &reason);
        rec.forfeit = Some((loser, how));
    };
    let fault_forfeit = |f: &Fault| match f.kind {
        FaultKind::Crash => Forfeit::Crash,
        FaultKind::Stall => Forfeit::Stall,
        FaultKind::Garbage => Forfeit::Garbage,
    };

    // Start (or reuse) both engines and tell them a new game begins.
    for c in 0..2 {
        let log = set.debug.then(|| format!("[{number} {}]", players[c].name));
        if slots[c].is_none() {
            match Engine::start(&players[c].cmd, set.start_timeout, log) {
                Ok(e) => *slots[c] = Some(e),
                Err(f) => {
                    finish(&mut rec, c, fault_forfeit(&f), f.describe(&players[c].name));
                    return rec;
                }
            }
        }
        let e = slots[c].as_mut().expect("engine started");
        if let Err(f) = e.new_game(set.start_timeout) {
            *slots[c] = None;
            finish(&mut rec, c, fault_forfeit(&f), f.describe(&players[c].name));
            return rec;
        }
    }

    let mut clocks = [Clock::new(&players[0].limits, 0), Clock::new(&players[1].limits, 1)];
    let mut plies = 0usize;
    loop {
        if let Some(o) = game.outcome() {
            rec.outcome = o;
            return rec;
        }
        if let Some(reason) = move_limit(set.max_plies, plies, rec.moves.len()) {
            rec.outcome = Outcome::draw(&reason);
            return rec;
        }
        let side = side_to_move(game.as_ref());
        let name = &players[side].name;
        let position = position_command(&rec.start_fen, standard, &rec.moves);
        let go = go_command(&clocks, side);
        let allowed = clocks[side].allowed();
        let engine = slots[side].as_mut().expect("engine started");
        match engine.go(&position, &go, allowed.unwrap_or(set.move_timeout)) {
            GoReply::Move { text, elapsed } => {
                if let Err(allowed) = clocks[side].spend(elapsed) {
                    let reason = format!(
                        "time forfeit: {name} took {:.3} s, allowed {:.3} s",
                        elapsed.as_secs_f64(),
                        allowed.as_secs_f64()
                    );
                    finish(&mut rec, side, Forfeit::Time, reason);
                    return rec;
                }
                if !looks_like_move(&text) {
                    *slots[side] = None;
                    let f = Fault::new(FaultKind::Garbage, format!("sent 'bestmove {text}', which is not a move"));
                    finish(&mut rec, side, Forfeit::Garbage, f.describe(name));
                    return rec;
                }
                if let Err(e) = game.push_move(&text) {
                    let reason = illegal_reason(name, &text, &e);
                    finish(&mut rec, side, Forfeit::Illegal, reason);
                    return rec;
                }
                rec.moves.push(text);
                plies += 1;
            }
            GoReply::Timeout => match allowed {
                Some(allowed) => {
                    if !engine.stop(set.stop_grace) {
                        *slots[side] = None;
                    }
                    let reason = format!("time forfeit: {name} sent no move within {:.3} s", allowed.as_secs_f64());
                    finish(&mut rec, side, Forfeit::Time, reason);
                    return rec;
                }
                None => {
                    *slots[side] = None;
                    let f = Fault::new(
                        FaultKind::Stall,
                        format!("sent no bestmove within {:.1} s", set.move_timeout.as_secs_f64()),
                    );
                    finish(&mut rec, side, Forfeit::Stall, f.describe(name));
                    return rec;
                }
            },
            GoReply::Fault(f) => {
                *slots[side] = None;
                finish(&mut rec, side, fault_forfeit(&f), f.describe(name));
                return rec;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::new_game;

    #[test]
    fn games_end_at_the_move_limits() {
        assert_eq!(move_limit(None, 500, 504), None);
        assert_eq!(move_limit(Some(30), 29, 35), None);
        assert_eq!(move_limit(Some(30), 30, 36).as_deref(), Some("adjudication: move limit (30 plies)"));
        assert_eq!(move_limit(None, 19_995, 19_999), None);
        let at_cap = Some("adjudication: move limit (20000 moves, the most a position command holds)");
        assert_eq!(move_limit(None, 19_996, 20_000).as_deref(), at_cap);
        assert_eq!(move_limit(Some(30_000), 19_996, 20_000).as_deref(), at_cap);
    }

    #[test]
    fn position_commands() {
        assert_eq!(position_command("x", true, &[]), "position startpos");
        let mv = vec!["e2e4".to_string(), "e7e5".to_string()];
        assert_eq!(position_command("8/8 w - - 0 1", false, &mv), "position fen 8/8 w - - 0 1 moves e2e4 e7e5");
    }

    #[test]
    fn illegal_move_reasons() {
        let illegal =
            |text: &str, rule: Option<&str>| MoveError::Illegal { text: text.into(), rule: rule.map(String::from) };
        assert_eq!(illegal_reason("A", "e1e3", &illegal("e1e3", None)), "illegal move by A: e1e3");
        assert_eq!(
            illegal_reason("A", "a1a2", &illegal("a1a2", Some("it would repeat a position for the third time"))),
            "illegal move by A: a1a2 (it would repeat a position for the third time)"
        );
        let over = MoveError::GameOver { result: "1-0".into(), reason: "checkmate".into() };
        assert_eq!(illegal_reason("A", "a1a2", &over), "illegal move by A: a1a2 (the game is over (1-0, checkmate))");
    }

    #[test]
    fn forfeits_in_score_games() {
        let ita = new_game("ita").unwrap();
        let o = ita.forfeit(0, "time forfeit");
        assert_eq!(o.scores, Some([1, 4]));
        assert_eq!(o.winner, Some(1));
        let o = ita.forfeit(1, "time forfeit");
        assert_eq!(o.scores, Some([4, 1]));
        assert_eq!(o.winner, Some(0));
        let o = new_game("chess").unwrap().forfeit(1, "crash");
        assert_eq!((o.winner, o.scores), (Some(0), None));
    }

    #[test]
    fn side_from_fen() {
        let mut g = new_game("chess").unwrap();
        assert_eq!(side_to_move(g.as_ref()), 0);
        g.push_move("e2e4").unwrap();
        assert_eq!(side_to_move(g.as_ref()), 1);
    }
}
