//! The engine facade, as Stockfish's `engine.h`: the current game, the
//! options, the transposition table and the running search. It knows no
//! protocol: the protocol loops (UCI, USI, CECP) call it and format what it reports.

use crate::engine_game::EngineGame;
use crate::errors::{MoveError, OptionError, PositionError};
use crate::eval::weights::{Weights, WeightsError, read_bytes};
use crate::eval::{Evaluation, WeightsChoice};
use crate::registry::{RuleOptions, VARIANTS, VariantId, new_game_with};
use crate::rng::SplitMix64;
use crate::search::skill::{self, Skill, SkillChoice};
use crate::search::{Event, Histories, Memory, Shared};
use crate::timeman::Limits;
use crate::tt::TranspositionTable;
use crossbeam_channel::{Receiver, Sender, unbounded};
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::thread::JoinHandle;

pub const DEFAULT_HASH_MB: usize = 16;
pub const MAX_HASH_MB: usize = 65536;
pub const MAX_THREADS: usize = 256;
/// The stack of every search thread (deep recursion with large frames):
/// the search's one constant.
pub use crate::search::params::THREAD_STACK_BYTES as SEARCH_STACK_BYTES;
pub use crate::timeman::{DEFAULT_MOVE_OVERHEAD_MS, MAX_MOVE_OVERHEAD_MS};

/// The most threads this machine may get: its cores times 8.
pub fn threads_limit() -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (cores * 8).min(MAX_THREADS)
}

/// The machine's memory in MiB, where the system says it (Linux).
pub fn memory_mb() -> Option<usize> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

struct Running {
    shared: Arc<Shared>,
    handle: JoinHandle<u64>,
}

/// The `position` command the game was last set from: GUIs send the whole
/// game with every move, and a command that repeats this one and adds moves
/// plays only the added ones (at 14,761 plies, 0.75 ms a command instead of
/// the 80 ms of reading the game from its start).
struct LastPosition {
    fen: Option<String>,
    moves: Vec<String>,
}

/// The engine's state is private: the protocols read it through the
/// accessors, change it through the setters (which check their input and
/// wait for a running search where they must), and learn what a search
/// finds from its events ([`Engine::events`]).
pub struct Engine {
    game: Box<dyn EngineGame>,
    /// What `game` was set from, while nothing else has changed it.
    last_position: Option<LastPosition>,
    hash_mb: usize,
    threads: usize,
    multipv: usize,
    /// How the variant plans its clock (`ItaTimeMode`: Ita's regeneration
    /// modes; other variants ignore it).
    time_mode: String,
    /// The rule options every new game is built with (see [`Engine::set_rules`]).
    rules: RuleOptions,
    /// `Move Overhead`: milliseconds kept back from each move's time.
    move_overhead_ms: u64,
    /// `Skill Level`, `UCI_LimitStrength`, `UCI_Elo` (see [`crate::search::skill`]).
    skill_level: i32,
    limit_strength: bool,
    elo: i32,
    /// The seed of the weakened searches' choices, and how many have been
    /// made since it was set (each search draws from the next seed).
    skill_seed: u64,
    skill_searches: u64,
    tt: Arc<TranspositionTable>,
    /// The search threads' histories, kept from one move to the next.
    histories: Arc<Histories>,
    /// The evaluations `EvalFile` set, per evaluation slot
    /// ([`EngineGame::eval_slot`]); each search gets its slot's (a new
    /// file replaces it, and the old one is freed when the last search
    /// using it ends).
    evals: HashMap<usize, Evaluation>,
    /// A slot `evals` lacks plays with the hand-set evaluation (`EvalFile
    /// <none>`) rather than the built-in one.
    handset: bool,
    running: Option<Running>,
    events_tx: Sender<Event>,
    /// Search events (info lines, the best move) for the protocol to print.
    events: Receiver<Event>,
}

impl Default for Engine {
    fn default() -> Self {
        Self::new()
    }
}

impl Engine {
    pub fn new() -> Self {
        let (events_tx, events) = unbounded();
        Engine {
            game: new_game_with(VARIANTS[0], &RuleOptions::default()).expect("default variant"),
            last_position: None,
            hash_mb: DEFAULT_HASH_MB,
            threads: 1,
            multipv: 1,
            // The default of the variants' clock modes (their first mode).
            time_mode: crate::registry::clock_modes().first().map_or(String::new(), |c| c.modes[0].to_string()),
            rules: RuleOptions::default(),
            move_overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
            skill_level: skill::FULL_STRENGTH,
            limit_strength: false,
            elo: skill::FULL_ELO,
            // Games vary from one run of the engine to the next.
            skill_seed: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64),
            skill_searches: 0,
            tt: Arc::new(TranspositionTable::new(DEFAULT_HASH_MB)),
            histories: Arc::default(),
            evals: HashMap::new(),
            handset: false,
            running: None,
            events_tx,
            events,
        }
    }

    pub fn variant(&self) -> &'static str {
        self.game.variant()
    }

    /// The evaluation a game `g` of any variant is played with.
    pub fn evaluation_of(&self, g: &dyn EngineGame) -> Evaluation {
        if let Some(e) = self.evals.get(&g.eval_slot()) {
            return e.clone();
        }
        let builtin = g.builtin_evaluation();
        match self.handset {
            // Nothing to fit: the hand-set evaluation cannot be refused.
            true => g.evaluation_with(&builtin, WeightsChoice::HandSet).unwrap_or(builtin),
            false => builtin,
        }
    }

    /// The evaluation the current game is played with.
    pub fn evaluation(&self) -> Evaluation {
        self.evaluation_of(self.game.as_ref())
    }

    /// The current game (the position being searched while a search runs).
    pub fn game(&self) -> &dyn EngineGame {
        self.game.as_ref()
    }

    /// Plays one more move in the current game (waiting for a running search).
    pub fn push_move(&mut self, mv: &str) -> Result<(), MoveError> {
        self.wait();
        self.game_mut().push_move(mv)
    }

    /// What running searches report: `Info` lines and one `BestMove` per `go`.
    pub fn events(&self) -> &Receiver<Event> {
        &self.events
    }

    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    pub fn threads(&self) -> usize {
        self.threads
    }

    pub fn multipv(&self) -> usize {
        self.multipv
    }

    pub fn set_multipv(&mut self, n: usize) {
        self.multipv = n.max(1);
    }

    pub fn time_mode(&self) -> &str {
        &self.time_mode
    }

    pub fn move_overhead_ms(&self) -> u64 {
        self.move_overhead_ms
    }

    /// `Move Overhead`: 0..=[`MAX_MOVE_OVERHEAD_MS`] milliseconds kept back
    /// from each move's time for the protocol's round trip.
    pub fn set_move_overhead(&mut self, ms: usize) -> Result<(), OptionError> {
        if ms > MAX_MOVE_OVERHEAD_MS as usize {
            return Err(OptionError::Range {
                name: "Move Overhead",
                min: 0,
                max: MAX_MOVE_OVERHEAD_MS as usize,
                note: "",
            });
        }
        self.move_overhead_ms = ms as u64;
        Ok(())
    }

    /// `Skill Level`: [`skill::LOWEST`]..=[`skill::FULL_STRENGTH`].
    pub fn set_skill_level(&mut self, level: i64) -> Result<(), OptionError> {
        let (min, max) = (skill::LOWEST as i64, skill::FULL_STRENGTH as i64);
        if !(min..=max).contains(&level) {
            return Err(OptionError::Between { name: "Skill Level", min, max });
        }
        self.skill_level = level as i32;
        Ok(())
    }

    /// `UCI_LimitStrength`: play at `UCI_Elo` rather than at `Skill Level`.
    pub fn set_limit_strength(&mut self, on: bool) {
        self.limit_strength = on;
    }

    /// `UCI_Elo`: [`skill::MIN_ELO`]..=[`skill::FULL_ELO`].
    pub fn set_elo(&mut self, elo: i64) -> Result<(), OptionError> {
        let (min, max) = (skill::MIN_ELO as i64, skill::FULL_ELO as i64);
        if !(min..=max).contains(&elo) {
            return Err(OptionError::Between { name: "UCI_Elo", min, max });
        }
        self.elo = elo as i32;
        Ok(())
    }

    /// The strength the options ask for; `None` at full strength.
    pub fn skill(&self) -> Option<Skill> {
        if self.limit_strength { Skill::from_elo(self.elo) } else { Skill::level(self.skill_level) }
    }

    /// Sets the seed of the weakened searches' choices: the same seed and
    /// the same searches choose the same moves.
    pub fn set_skill_seed(&mut self, seed: u64) {
        self.skill_seed = seed;
        self.skill_searches = 0;
    }

    /// The clock planning mode the variant is asked with (`ItaTimeMode`).
    pub fn set_time_mode(&mut self, mode: &str) {
        self.time_mode = mode.to_string();
    }

    /// Switches variant (a new game from its start position).
    pub fn set_variant(&mut self, name: &str) -> Result<(), OptionError> {
        let unknown = || OptionError::UnknownVariant { name: name.into(), known: VARIANTS.join(" ") };
        let id = VariantId::from_name(name).ok_or_else(unknown)?;
        id.check_rules(&self.rules).map_err(|e| OptionError::Rule(e.to_string()))?;
        let g = new_game_with(name, &self.rules).ok_or_else(unknown)?;
        self.wait();
        *self.game_mut() = g;
        self.clear_memory();
        Ok(())
    }

    /// `EvalFile`: loads the weights file at `path` for the variant it
    /// names (the current one, or another that this engine plays: they apply
    /// when it is played); `None`, empty or `<default>` restores every
    /// variant's built-in weights, `<none>` sets every variant to its
    /// hand-set evaluation (no learned weights). Returns what was done, for the GUI; on an
    /// error every variant keeps its weights. The hash is cleared (its
    /// scores came from the old evaluation).
    pub fn set_eval_file(&mut self, path: Option<&str>) -> Result<String, OptionError> {
        let path = path.map(str::trim).unwrap_or_default();
        self.wait();
        let every = match path {
            "" | "<default>" => Some(WeightsChoice::BuiltIn),
            "<none>" => Some(WeightsChoice::HandSet),
            _ => None,
        };
        if let Some(choice) = every {
            self.evals.clear();
            self.handset = matches!(choice, WeightsChoice::HandSet);
            self.clear_memory();
            return Ok(match choice {
                WeightsChoice::HandSet => "EvalFile <none>: every variant evaluates without learned weights".into(),
                _ => "EvalFile <default>: every variant evaluates with its built-in weights".into(),
            });
        }
        let fail = |error| OptionError::EvalFile { path: path.into(), error };
        let bytes = read_bytes(path).map_err(fail)?;
        if bytes.starts_with(crate::eval::nnue::MAGIC) {
            return self.set_network_file(&bytes, path);
        }
        let w = Weights::from_bytes(&bytes).map_err(fail)?;
        let when = self.set_eval_of(&w.variant, WeightsChoice::File(&w, path)).map_err(fail)?;
        Ok(format!("EvalFile {path}: {} weights loaded ({}){when}", w.variant, w.description))
    }

    /// `EvalFile` with a network file's bytes: the network evaluates the variant
    /// it names (its piece weights stay, unused while it does).
    fn set_network_file(&mut self, bytes: &[u8], path: &str) -> Result<String, OptionError> {
        let fail = |error| OptionError::EvalFile { path: path.into(), error };
        let net = crate::eval::nnue::Network::from_bytes(bytes).map_err(fail)?;
        let when = self.set_eval_of(&net.variant, WeightsChoice::Net(&net, path)).map_err(fail)?;
        Ok(format!("EvalFile {path}: {} network loaded ({}){when}", net.variant, net.shape()))
    }

    /// Applies `choice` to the evaluation of a game of `variant` (the
    /// current game, or a new one of another variant: evaluations are kept
    /// per variant), then to each other set of tables the variant keeps
    /// (IAGO's rule options: the file serves them too where it fits), and
    /// clears the hash; returns what to add for a variant not played now.
    fn set_eval_of(&mut self, variant: &str, choice: WeightsChoice) -> Result<String, WeightsError> {
        let current = variant == self.variant();
        let set = |engine: &mut Self, g: &dyn EngineGame| -> Result<(), WeightsError> {
            let new = g.evaluation_with(&engine.evaluation_of(g), choice)?;
            engine.evals.insert(g.eval_slot(), new);
            Ok(())
        };
        if current {
            let game = self.game.clone_engine_game();
            set(self, game.as_ref())?;
        } else {
            let other = new_game_with(variant, &RuleOptions::default())
                .ok_or_else(|| WeightsError::UnknownVariant(variant.into()))?;
            set(self, other.as_ref())?;
        }
        for rules in RuleOptions::each_table() {
            if let Some(g) = new_game_with(variant, &rules) {
                // The table the first call set fits; another may not.
                let _ = set(self, g.as_ref());
            }
        }
        self.clear_memory();
        Ok(if current { String::new() } else { format!(", used when {variant} is played") })
    }

    /// A new table of `mb` MiB; beyond the machine's memory it is refused
    /// and the old table kept.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), OptionError> {
        if !(1..=MAX_HASH_MB).contains(&mb) {
            return Err(OptionError::Range { name: "Hash", min: 1, max: MAX_HASH_MB, note: "" });
        }
        if let Some(total_mb) = memory_mb().filter(|&t| mb > t / 2) {
            return Err(OptionError::Memory { mb, total_mb });
        }
        self.wait();
        self.hash_mb = mb;
        self.tt = Arc::new(TranspositionTable::new(mb));
        Ok(())
    }

    /// Search threads: 1 up to the cores times 8.
    pub fn set_threads(&mut self, n: usize) -> Result<(), OptionError> {
        let max = threads_limit();
        if !(1..=max).contains(&n) {
            return Err(OptionError::Range {
                name: "Threads",
                min: 1,
                max,
                note: " on this machine (its cores times 8)",
            });
        }
        self.threads = n;
        Ok(())
    }

    /// Forgets what searches learnt: the table and the histories.
    fn clear_memory(&self) {
        self.tt.clear();
        self.histories.clear();
    }

    pub fn clear_hash(&mut self) {
        self.wait();
        self.clear_memory();
    }

    pub fn new_game(&mut self) {
        self.wait();
        self.clear_memory();
        let g = new_game_with(self.variant(), &self.rules).expect("current variant");
        *self.game_mut() = g;
    }

    pub fn rules(&self) -> &RuleOptions {
        &self.rules
    }

    /// Sets the rule options. If `concerns` (the variants the changed option
    /// is about) holds the current variant, its game starts again from the
    /// start position, as after `ucinewgame` (`Ok(true)`); otherwise the
    /// current game is kept and the options apply from the next game of
    /// those variants on. Options the current variant cannot be played
    /// under are refused and the old ones kept.
    pub fn set_rules(&mut self, rules: RuleOptions, concerns: &[&str]) -> Result<bool, OptionError> {
        let rebuilt = concerns.contains(&self.variant());
        if rebuilt && let Some(id) = VariantId::from_name(self.variant()) {
            id.check_rules(&rules).map_err(|e| OptionError::Rule(e.to_string()))?;
        }
        self.rules = rules;
        if rebuilt {
            self.new_game();
        }
        Ok(rebuilt)
    }

    /// Sets the game from a start position (`None`: the variant's) and
    /// moves; on an error the game stays as it was.
    pub fn set_position(&mut self, fen: Option<&str>, moves: &[&str]) -> Result<(), PositionError> {
        self.wait();
        let played = self.game.moves_played();
        if let Some(last) = &mut self.last_position
            && last.fen.as_deref() == fen
            && last.moves.len() == played
            && moves.len() >= played
            && last.moves.iter().zip(moves).all(|(a, b)| a == b)
        {
            let mut game = self.game.clone_engine_game();
            for m in &moves[played..] {
                game.push_move(m)?;
            }
            self.game = game;
            last.moves.extend(moves[played..].iter().map(|m| m.to_string()));
            return Ok(());
        }
        self.game.set_position(fen, moves)?;
        self.last_position =
            Some(LastPosition { fen: fen.map(str::to_string), moves: moves.iter().map(|m| m.to_string()).collect() });
        Ok(())
    }

    pub fn searching(&self) -> bool {
        self.running.as_ref().is_some_and(|r| !r.handle.is_finished())
    }

    /// Starts a search in the background; its events arrive on `events`.
    pub fn go(&mut self, limits: Limits) {
        self.wait();
        let game = self.game.clone_engine_game();
        self.spawn_search(game, limits);
    }

    /// Starts a search of the position after `mv` (pondering on the
    /// opponent's expected move), the game left as it is; `false` (nothing
    /// started) if `mv` is not legal here.
    pub fn go_after(&mut self, mv: &str, limits: Limits) -> bool {
        self.wait();
        let mut game = self.game.clone_engine_game();
        if game.push_move(mv).is_err() {
            return false;
        }
        self.spawn_search(game, limits);
        true
    }

    /// Plays `mv` in the game while the search runs, which goes on: the
    /// opponent played the move a pondering search (see
    /// [`Engine::go_after`]) expected, so it searches this position already.
    pub fn push_move_searching(&mut self, mv: &str) -> Result<(), MoveError> {
        self.game_mut().push_move(mv)
    }

    /// The game, to change other than by [`Engine::set_position`]: the
    /// next `position` command is then read from its start.
    fn game_mut(&mut self) -> &mut Box<dyn EngineGame> {
        self.last_position = None;
        &mut self.game
    }

    fn spawn_search(&mut self, game: Box<dyn EngineGame>, limits: Limits) {
        // The variant plans its clock (Ita's regenerates).
        let mut limits = game.plan_clock(limits, &self.time_mode);
        limits.move_overhead = Some(self.move_overhead_ms);
        if let Some(skill) = self.skill().map(|s| game.skill(s)) {
            limits.nodes = Some(limits.nodes.map_or(skill.nodes, |n| n.min(skill.nodes)));
            let seed = SplitMix64::new(self.skill_seed.wrapping_add(self.skill_searches)).next_u64();
            self.skill_searches += 1;
            limits.skill = Some(Box::new(SkillChoice { skill, seed }));
        }
        let shared = Arc::new(Shared::new(limits.ponder));
        let tt = self.tt.clone();
        let histories = self.histories.clone();
        let eval = self.evaluation_of(game.as_ref());
        let tx = self.events_tx.clone();
        let (threads, multipv) = (self.threads, self.multipv);
        let sh = shared.clone();
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(SEARCH_STACK_BYTES)
            .spawn(move || {
                let run = std::panic::AssertUnwindSafe(|| {
                    game.search(
                        &limits,
                        threads,
                        multipv,
                        &sh,
                        Memory { tt: &tt, eval: &eval, histories: &histories },
                        &tx,
                    )
                });
                std::panic::catch_unwind(run).unwrap_or_else(|_| {
                    // A bug must not cost the game on time: answer with a legal move.
                    let best = game.legal_moves().into_iter().next();
                    let _ = tx.send(Event::BestMove { best, ponder: None, over: None });
                    0
                })
            })
            .expect("spawn search");
        self.running = Some(Running { shared, handle });
    }

    pub fn stop(&self) {
        if let Some(r) = &self.running {
            r.shared.stop.store(true, Ordering::Relaxed);
            r.shared.released.store(true, Ordering::Relaxed);
        }
    }

    /// Whether the running search has stopped searching (on its limits, or
    /// told to), though a `go infinite` or `go ponder` one still waits to answer.
    pub fn search_halted(&self) -> bool {
        self.running.as_ref().is_none_or(|r| r.shared.stopped())
    }

    pub fn ponderhit(&self) {
        if let Some(r) = &self.running {
            r.shared.pondering.store(false, Ordering::Relaxed);
        }
    }

    /// Waits for a running search to finish (stopping it first). Its
    /// `BestMove` is still delivered on `events`.
    pub fn wait(&mut self) {
        if let Some(r) = self.running.take() {
            r.shared.stop.store(true, Ordering::Relaxed);
            r.shared.released.store(true, Ordering::Relaxed);
            let _ = r.handle.join();
        }
    }

    /// Blocks until the running search ends by itself; returns its node count.
    pub fn join(&mut self) -> u64 {
        self.running.take().map(|r| r.handle.join().unwrap_or(0)).unwrap_or(0)
    }

    pub fn tt(&self) -> &TranspositionTable {
        &self.tt
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(e: &mut Engine, fen: Option<&str>, moves: &str) -> Result<(), PositionError> {
        e.set_position(fen, &moves.split_whitespace().collect::<Vec<_>>())
    }

    /// The FEN a fresh engine reads from the same command.
    fn fresh(fen: Option<&str>, moves: &str) -> String {
        let mut e = Engine::new();
        set(&mut e, fen, moves).expect("a legal command");
        e.game().fen()
    }

    /// The moves `last_position` holds (what the next command may extend).
    fn kept(e: &Engine) -> Option<usize> {
        e.last_position.as_ref().map(|l| l.moves.len())
    }

    #[test]
    fn a_position_command_that_adds_moves_plays_only_those() {
        let mut e = Engine::new();
        set(&mut e, None, "e2e4 e7e5").unwrap();
        assert_eq!(e.game().fen(), "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2");
        set(&mut e, None, "e2e4 e7e5 g1f3").unwrap();
        assert_eq!((e.game().fen(), kept(&e)), (fresh(None, "e2e4 e7e5 g1f3"), Some(3)));
        // An illegal added move: the error, and the game as it was.
        let err = set(&mut e, None, "e2e4 e7e5 g1f3 b8b6").unwrap_err();
        assert_eq!(err, PositionError::Move(MoveError::Illegal { text: "b8b6".into(), rule: None }));
        assert_eq!((e.game().fen(), kept(&e)), (fresh(None, "e2e4 e7e5 g1f3"), Some(3)));
        // A move taken back, another line, another start: read from the start.
        set(&mut e, None, "e2e4 e7e5").unwrap();
        assert_eq!(e.game().fen(), fresh(None, "e2e4 e7e5"));
        set(&mut e, None, "d2d4 d7d5").unwrap();
        assert_eq!(e.game().fen(), fresh(None, "d2d4 d7d5"));
        let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        set(&mut e, Some(kiwipete), "e1g1").unwrap();
        set(&mut e, Some(kiwipete), "e1g1 a8b8").unwrap();
        assert_eq!((e.game().fen(), kept(&e)), (fresh(Some(kiwipete), "e1g1 a8b8"), Some(2)));
        // A move played another way: the next command is read whole.
        e.push_move("d5e6").unwrap();
        assert_eq!(kept(&e), None);
        set(&mut e, Some(kiwipete), "e1g1 a8b8 c3b5").unwrap();
        assert_eq!(e.game().fen(), fresh(Some(kiwipete), "e1g1 a8b8 c3b5"));
        // So is the first command of a new game.
        e.new_game();
        assert_eq!(kept(&e), None);
        set(&mut e, None, "e2e4").unwrap();
        assert_eq!(e.game().fen(), fresh(None, "e2e4"));
    }
}
