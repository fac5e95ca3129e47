//! CECP (XBoard/WinBoard protocol version 2), entered with `xboard`.
//!
//! As Fairy-Stockfish does it: `protover 2` is answered with the features
//! (variants, setboard, usermove, ping, highlight, options); for each variant
//! XBoard does not know, `variant` is answered with `setup` (piece letters,
//! board size, holdings, parent variant, start FEN) and one `piece` line per
//! piece with its moves in Betza notation, so XBoard can draw the board;
//! `lift` is answered with `highlight` so it can show the legal moves.
//!
//! [`Cecp`] is the protocol over the session's [`Core`]; [`State`] is what
//! it remembers between commands (sides, moves, time control).

use super::core::Core;
use super::options::Changed;
use super::text::MoveText;
use super::{Flow, Mode, Protocol, Timing};
use crate::engine_game::EngineGame;
use crate::errors::{MoveError, OptionError, PositionError};
use crate::game::VariantDesc;
use crate::registry::{RuleOptions, VARIANTS, new_game_with};
use crate::search::{Event, Score};
use crate::timeman::Limits;
use std::fmt::Display;
use std::io::Write;

/// What the CECP session remembers between commands: the sides, the game's
/// moves and the time control.
#[derive(Clone, Debug, Default)]
pub struct State {
    /// The side the engine plays; `None` in force mode.
    pub engine_side: Option<usize>,
    /// A search runs whose move the engine will play.
    pub thinking: bool,
    /// `analyze` mode.
    pub analyzing: bool,
    pub post: bool,
    /// The start position (`None`: the variant's) and the moves since, canonical.
    pub start_fen: Option<String>,
    pub moves: Vec<String>,
    /// `level MPS BASE INC`: moves per session, base and increment in ms.
    pub level: Option<(u32, u64, u64)>,
    /// `st`: fixed time per move in ms.
    pub st: Option<u64>,
    /// `sd`: depth limit.
    pub sd: Option<i32>,
    /// `time` and `otim`: the engine's and the opponent's clocks in ms.
    pub time: Option<u64>,
    pub otim: Option<u64>,
    /// The last `lift` square (canonical) and its igui victims, for multi-leg entry.
    pub lifted: Option<String>,
    /// `hard`: the engine ponders on the opponent's expected move (`easy`: not).
    pub ponder: bool,
    /// The expected move the engine ponders on while its search runs
    /// (canonical): the opponent playing it is a ponder hit.
    pub pondering: Option<String>,
    /// The expected move to ponder on once nothing else runs, and the
    /// number of moves of the game it was expected after.
    pub ponder_next: Option<(String, usize)>,
    /// The score of the running search (thinking or pondering), from the
    /// engine's view: its last line.
    pub search_score: Option<Score>,
    /// The score of the search of the engine's last move (its view): what
    /// it answers a draw offer by.
    pub last_score: Option<Score>,
    /// How many own moves in a row (from move [`DRAW_OFFER_FROM_MOVE`] on)
    /// were chosen with a level score; at [`DRAW_OFFER_MOVES`] the engine offers a draw.
    pub level_moves: u32,
}

/// A score within this many centipawns of 0 is level: a draw by the
/// engine's judgement (CECP's draw offers).
pub const DRAW_LEVEL_CP: i32 = 10;
/// The engine offers a draw after this many own moves in a row chosen with
/// a level score...
pub const DRAW_OFFER_MOVES: u32 = 10;
/// ...each played at this move number or later.
pub const DRAW_OFFER_FROM_MOVE: u32 = 40;

/// XBoard's piece types in its own order (`-pieceToCharTable`): slot i of
/// a table is drawn as XBoard's piece i; the last letter is the King.
const XBOARD_ORDER: &str = "PNBRQFEACWMOHIJGDVLSU";

/// The parent variant XBoard inherits rules from (Fairy-Stockfish's template).
pub fn template(d: &VariantDesc) -> &'static str {
    let promoted = d.pieces.iter().any(|p| p.letter.starts_with('+'));
    if d.captures_to_hand {
        if promoted { "shogi" } else { "crazyhouse" }
    } else if d.gating {
        "seirawan"
    } else if !d.hand_types.is_empty() {
        "bughouse"
    } else {
        "fairy"
    }
}

/// The XBoard slot of each piece type (index 0 unused); the King gets slot
/// `XBOARD_ORDER.len()` (the last letter of the table).
pub fn xboard_slots(d: &VariantDesc) -> Vec<usize> {
    let n = d.pieces.len();
    let king_slot = XBOARD_ORDER.len();
    let mut slot = vec![usize::MAX; n + 1];
    let mut used = vec![false; king_slot + 1];
    let take = |t: usize, s: usize, slot: &mut Vec<usize>, used: &mut Vec<bool>| {
        if slot[t] == usize::MAX && !used[s] {
            slot[t] = s;
            used[s] = true;
        }
    };
    let letter_slot = |l: &str| XBOARD_ORDER.find(l);
    for t in 1..=n {
        if t == d.king as usize {
            take(t, king_slot, &mut slot, &mut used);
        } else if t == d.pawn as usize {
            take(t, 0, &mut slot, &mut used);
        }
    }
    // Orthodox pieces by letter when the movement's first atom agrees (R6 is a Rook).
    for t in 1..=n {
        let p = &d.pieces[t - 1];
        let atom = p.betza.chars().find(|c| c.is_ascii_uppercase());
        if "NBRQ".contains(p.letter) && atom.map(String::from).as_deref() == Some(p.letter) {
            take(t, letter_slot(p.letter).unwrap_or(0), &mut slot, &mut used);
        }
    }
    // Compounds XBoard draws: Archbishop and Chancellor.
    for t in 1..=n {
        match d.pieces[t - 1].betza {
            "BN" | "NB" => take(t, 7, &mut slot, &mut used),
            "RN" | "NR" => take(t, 8, &mut slot, &mut used),
            _ => {}
        }
    }
    let promoted = |t: usize| d.pieces[t - 1].letter.starts_with('+');
    // Pieces with a promoted face need a slot below 11: XBoard's promoted
    // form of slot i is slot i + 11.
    let faces = d.pieces.iter().any(|p| p.letter.starts_with('+'));
    for t in (1..=n).filter(|&t| !promoted(t)) {
        if let Some(s) = letter_slot(d.pieces[t - 1].letter)
            && (!faces || s < 11)
        {
            take(t, s, &mut slot, &mut used);
        }
    }
    for t in (1..=n).filter(|&t| !promoted(t)) {
        let limit = if faces { 11 } else { king_slot };
        if let Some(s) = (1..limit).find(|&s| !used[s]) {
            take(t, s, &mut slot, &mut used);
        }
    }
    for t in (1..=n).filter(|&t| promoted(t)) {
        let base = d.pieces[t - 1].letter.trim_start_matches('+');
        if let Some(b) = (1..=n).find(|&b| d.pieces[b - 1].letter == base)
            && slot[b] < 11
        {
            take(t, slot[b] + 11, &mut slot, &mut used);
        }
    }
    slot
}

/// The `-pieceToCharTable` string: White's letters by slot, then Black's.
pub fn piece_table(d: &VariantDesc) -> String {
    let slots = xboard_slots(d);
    let king_slot = XBOARD_ORDER.len();
    let mut white = vec!['.'; king_slot + 1];
    for (t, &s) in slots.iter().enumerate().skip(1) {
        if s <= king_slot {
            let l = d.pieces[t - 1].letter;
            white[s] = if l.starts_with('+') { '+' } else { l.chars().next().unwrap_or('.') };
        }
    }
    let w: String = white.iter().collect();
    format!("{w}{}", w.to_lowercase())
}

/// XBoard's holdings size: every used slot up to the last one a hand can hold.
pub fn holdings(d: &VariantDesc) -> usize {
    if d.hand_types.is_empty() {
        return 0;
    }
    let slots = xboard_slots(d);
    let last = d.hand_types.iter().map(|&t| slots[t as usize]).max().unwrap_or(0);
    slots[1..].iter().filter(|&&s| s <= last).count()
}

/// The Betza description XBoard gets for a piece: ours, with what XBoard's
/// Betza cannot say replaced by a superset (the variant's hook), plus
/// castling and drop zones.
pub fn xboard_betza(d: &VariantDesc, t: u8, game: &dyn EngineGame) -> String {
    let p = &d.pieces[t as usize - 1];
    let mut b = game.xboard_betza(p.letter, p.betza).unwrap_or(p.betza).to_string();
    if t == d.king && d.castling {
        b += "O2";
    }
    if d.hand_types.contains(&t) {
        b += &format!("@{}", game.xboard_drop_ranks().unwrap_or(d.ranks));
    }
    b
}

/// `level MPS BASE INC`: moves per session, base and increment in ms.
fn parse_level(rest: &str) -> Option<(u32, u64, u64)> {
    let t: Vec<&str> = rest.split_whitespace().collect();
    let [mps, base, inc] = t.as_slice() else {
        return None;
    };
    let inc = inc.parse::<f64>().ok().filter(|i| (0.0..1e9).contains(i))?;
    Some((mps.parse::<u32>().ok()?, parse_level_time(base)?, (inc * 1000.0) as u64))
}

/// The first word of `s` as a number.
fn arg_num(s: &str) -> Option<i64> {
    s.split_whitespace().next().and_then(|t| t.parse::<i64>().ok())
}

/// Whether an unknown word is a move (XBoard's `usermove=0` style).
fn looks_like_move(cmd: &str, rest: &str) -> bool {
    rest.is_empty()
        && cmd.len() >= 4
        && cmd.chars().any(|c| c.is_ascii_digit() || c == '@')
        && cmd.chars().all(|c| c.is_ascii_alphanumeric() || c == '@' || c == ',')
}

/// The engine's variant for XBoard's name (`normal` is chess); other names
/// are taken as they are.
pub fn xboard_variant(name: &str) -> &str {
    VARIANTS
        .iter()
        .find(|v| new_game_with(v, &RuleOptions::default()).is_some_and(|g| g.xboard_name() == Some(name)))
        .copied()
        .unwrap_or(name)
}

fn parse_level_time(s: &str) -> Option<u64> {
    match s.split_once(':') {
        Some((m, sec)) => {
            m.parse::<u64>().ok()?.checked_mul(60_000)?.checked_add(sec.parse::<u64>().ok()?.checked_mul(1000)?)
        }
        None => Some((s.parse::<f64>().ok()? * 60_000.0) as u64),
    }
}

impl State {
    /// The state on entering CECP: the engine plays Black.
    pub fn new() -> Self {
        State { engine_side: Some(1), ..State::default() }
    }

    /// The state after `new`: a new game, keeping `post`, pondering
    /// (`hard`) and the time control (`level`, `st`).
    pub fn new_game(&self) -> Self {
        State { post: self.post, level: self.level, st: self.st, ponder: self.ponder, ..State::new() }
    }

    /// Whether the engine accepts a draw offer: the search of its last
    /// move scored the position drawn or lost for it (at most
    /// [`DRAW_LEVEL_CP`], or a mate against it). Without such a search (no
    /// own move yet in this game) it does not.
    pub fn accepts_draw(&self) -> bool {
        match self.last_score {
            Some(Score::Cp(v)) => v <= DRAW_LEVEL_CP,
            Some(Score::Mate(m)) => m < 0,
            None => false,
        }
    }

    /// After the search of an own move at move number `fullmove` that
    /// scored `score`: whether the engine offers a draw with this move
    /// (the [`DRAW_OFFER_MOVES`]th own move in a row with a level score,
    /// all from move [`DRAW_OFFER_FROM_MOVE`] on; the count starts again
    /// after an offer).
    pub fn after_own_move(&mut self, score: Option<Score>, fullmove: u32) -> bool {
        self.last_score = score;
        let level = matches!(score, Some(Score::Cp(v)) if v.abs() <= DRAW_LEVEL_CP);
        self.level_moves = if level && fullmove >= DRAW_OFFER_FROM_MOVE { self.level_moves + 1 } else { 0 };
        if self.level_moves >= DRAW_OFFER_MOVES {
            self.level_moves = 0;
            return true;
        }
        false
    }

    /// The search limits from the time control, `us` to move.
    pub fn limits(&self, us: usize) -> Limits {
        let mut l = Limits { depth: self.sd, ..Limits::default() };
        if let Some(st) = self.st {
            l.movetime = Some(st);
        } else if let Some((mps, base, inc)) = self.level {
            let mine = self.time.unwrap_or(base);
            let theirs = self.otim.unwrap_or(base);
            let (w, b) = if us == 0 { (mine, theirs) } else { (theirs, mine) };
            l.wtime = Some(w);
            l.btime = Some(b);
            if inc > 0 {
                l.winc = Some(inc);
                l.binc = Some(inc);
            }
            if mps > 0 {
                let played = (self.moves.len() as u32 + 1 - us as u32) / 2;
                l.movestogo = Some(mps - played % mps);
            }
        } else if self.sd.is_none() {
            l.movetime = Some(1000);
        }
        l
    }

    /// Sets the time control: `level`, `st`, `sd`, `time`, `otim`; the
    /// error text for a bad argument.
    pub fn set_clock(&mut self, cmd: &str, rest: &str) -> Result<(), &'static str> {
        match cmd {
            "level" => {
                self.level = Some(parse_level(rest).ok_or("level needs MPS BASE INC")?);
                self.st = None;
            }
            "st" => match rest.parse::<f64>() {
                Ok(s) if (0.0..1e9).contains(&s) => self.st = Some((s * 1000.0) as u64),
                _ => return Err("st needs seconds"),
            },
            "sd" => match arg_num(rest) {
                Some(d) if (1..=1000).contains(&d) => self.sd = Some(d as i32),
                _ => return Err("sd needs a depth 1..1000"),
            },
            _ => {
                let cs = arg_num(rest).ok_or("time needs centiseconds")?;
                let ms = Some((cs.max(0) as u64).saturating_mul(10));
                if cmd == "time" {
                    self.time = ms;
                } else {
                    self.otim = ms;
                }
            }
        }
        Ok(())
    }
}

/// CECP over the session's core, with its own [`State`].
pub struct Cecp<'a, W: Write> {
    pub core: &'a mut Core<W>,
    pub state: &'a mut State,
}

impl<W: Write> Protocol for Cecp<'_, W> {
    /// What a CECP command does during a search (see [`Timing`]): the
    /// commands that end a game or leave a mode abandon the search, as
    /// XBoard expects; `ping` is answered after the engine's move.
    fn timing(&self, cmd: &str, rest: &str) -> Timing {
        if let Some(expected) = &self.state.pondering {
            // Pondering: the expected move goes on with the search (a
            // ponder hit); everything else that would wait for the search
            // or change the game ends the pondering first.
            match cmd {
                "usermove" => {
                    let hit = self.read_move(rest).is_ok_and(|m| &m == expected);
                    return if hit { Timing::Urgent } else { Timing::Interrupt };
                }
                "protover" | "go" | "playother" | "memory" | "cores" | "option" | "perft" | "easy" => {
                    return Timing::Interrupt;
                }
                _ => {}
            }
        }
        match cmd {
            "uci" | "usi" | "new" | "variant" | "force" | "result" | "setboard" | "undo" | "remove" | "analyze"
            | "exit" | "white" | "black" => Timing::Interrupt,
            "usermove" if self.state.analyzing => Timing::Interrupt,
            "protover" | "go" | "playother" | "memory" | "cores" | "option" | "perft" | "usermove" => Timing::Change,
            // While analysing (no end in sight) every earlier command is done.
            "ping" | "draw" if self.core.endless() => Timing::Now,
            // A draw offer is answered after the move being thought on, by its score.
            "ping" | "draw" => Timing::Change,
            "d" | "lift" => Timing::ReadOnly,
            "" | "quit" | "?" => Timing::Urgent,
            _ if looks_like_move(cmd, rest) => self.timing("usermove", cmd),
            _ => Timing::Now,
        }
    }

    /// Handles one CECP line: the protocol's own words here, the engine's
    /// and the game's commands below.
    fn execute(&mut self, line: &str) -> Flow {
        let line = line.trim();
        let (cmd, rest) = super::split_command(line);
        self.core.command = line.to_string();
        match cmd {
            "" | "accepted" | "rejected" | "random" | "computer" | "name" | "rating" | "ics" | "hint" | "bk"
            | "put" | "hover" | "." | "nopause" | "xboard" => {}
            "hard" => self.state.ponder = true,
            "easy" => {
                self.state.ponder = false;
                self.state.ponder_next = None;
            }
            "draw" => {
                if self.state.engine_side.is_some() && self.state.accepts_draw() {
                    self.core.say("offer draw");
                }
            }
            "quit" => return Flow::Quit,
            "uci" => return Flow::Switch(Mode::Uci),
            "usi" => return Flow::Switch(Mode::Usi),
            // Move now: the engine's own search (pondering goes on).
            "?" if self.state.pondering.is_none() => self.core.stop_search(),
            "?" => {}
            "post" => self.state.post = true,
            "nopost" => self.state.post = false,
            "level" | "st" | "sd" | "time" | "otim" => self.clock(cmd, rest),
            "protover" | "ping" | "memory" | "cores" | "option" | "lift" | "d" | "perft" => {
                self.engine_command(cmd, rest)
            }
            _ => self.game_command(cmd, rest),
        }
        Flow::Continue
    }

    /// Prints a search event: thinking output and the engine's move.
    fn on_event(&mut self, ev: Event) {
        match ev {
            Event::Info(i) => {
                if i.multipv == 1 && (self.state.thinking || self.state.pondering.is_some()) {
                    self.state.search_score = Some(i.score);
                }
                if self.state.post && i.multipv == 1 {
                    let score = match i.score {
                        Score::Cp(v) => v,
                        Score::Mate(m) if m > 0 => 100000 + m,
                        Score::Mate(m) => -100000 + m,
                    };
                    let w = self.writer();
                    let pv: Vec<String> = i.pv.iter().map(|m| w.write(m)).collect();
                    let l = format!("{} {} {} {} {}", i.depth, score, i.time_ms / 10, i.nodes, pv.join(" "));
                    self.core.say(&l);
                }
            }
            Event::BestMove { best, ponder, .. } => {
                if !std::mem::take(&mut self.state.thinking) {
                    // Analysis, an abandoned search, or pondering that ended
                    // without a hit.
                    self.state.pondering = None;
                    return;
                }
                match best {
                    Some(m) => {
                        let out = self.write_move(&m);
                        let fullmove = fullmove_number(&self.core.engine.game().fen());
                        if self.core.engine.push_move(&m).is_ok() {
                            self.state.moves.push(m);
                            let score = self.state.search_score.take();
                            if self.state.after_own_move(score, fullmove) {
                                self.core.say("offer draw");
                            }
                            for l in out {
                                self.core.say(&format!("move {l}"));
                            }
                            if !self.check_over()
                                && self.state.ponder
                                && let Some(p) = ponder
                            {
                                self.state.ponder_next = Some((p, self.state.moves.len()));
                            }
                        }
                    }
                    None => {
                        self.check_over();
                    }
                }
            }
        }
    }

    /// `Error (why): the command`.
    fn error(&mut self, msg: &dyn Display) {
        let l = format!("Error ({msg}): {}", self.core.command);
        self.core.say(&l);
    }

    /// The move of a search being stopped is not played; pondering ends.
    fn abandon_move(&mut self) {
        self.state.thinking = false;
        self.state.pondering = None;
    }

    /// Nothing runs or waits: after its move the engine ponders on the
    /// opponent's expected move (`hard`).
    fn idle(&mut self) {
        let Some((expected, after)) = self.state.ponder_next.take() else {
            return;
        };
        let game = self.core.engine.game();
        let opponent = game.side_to_move();
        if !self.state.ponder
            || self.state.analyzing
            || after != self.state.moves.len()
            || self.state.engine_side != Some(opponent ^ 1)
        {
            return;
        }
        // Not on a move that ends the game: there is nothing to search after it.
        let mut next = game.clone_box();
        if next.push_move(&expected).is_err() || next.outcome().is_some() {
            return;
        }
        // The clock as it will stand after the expected move.
        let mut then = self.state.clone();
        then.moves.push(expected.clone());
        let limits = then.limits(opponent ^ 1);
        if self.core.start_ponder(&expected, limits) {
            self.state.search_score = None;
            self.state.pondering = Some(expected);
        }
    }
}

impl<W: Write> Cecp<'_, W> {
    /// XBoard's move texts.
    fn writer(&self) -> MoveText {
        self.core.move_text(Mode::Cecp)
    }

    /// `setup` and `piece` lines for a variant XBoard does not know.
    fn setup(&mut self) {
        let d = self.core.engine.game().describe();
        if self.core.engine.game().xboard_name() == Some("normal") {
            return;
        }
        let fen = self.core.engine.game().xboard_fen_out(d.start_fen);
        let l =
            format!("setup ({}) {}x{}+{}_{} {}", piece_table(&d), d.files, d.ranks, holdings(&d), template(&d), fen);
        self.core.say(&l);
        for t in 1..=d.pieces.len() as u8 {
            let letter = d.pieces[t as usize - 1].letter;
            let l = format!("piece {letter}& {}", xboard_betza(&d, t, self.core.engine.game()));
            self.core.say(&l);
        }
    }

    fn features(&mut self) {
        // A variant without an XBoard name (Ito Shogi's 31 ranks are beyond
        // XBoard's board limits) is not offered, though `variant <name>` works.
        let vars: Vec<&str> = VARIANTS
            .iter()
            .filter_map(|v| new_game_with(v, &RuleOptions::default()).and_then(|g| g.xboard_name()))
            .collect();
        let l = format!(
            "feature myname=\"{}\" setboard=1 usermove=1 ping=1 time=1 draw=1 sigint=0 sigterm=0 \
             reuse=1 analyze=1 colors=0 name=0 nps=0 memory=1 smp=1 highlight=1 variants=\"{}\"",
            super::uci::ENGINE_NAME,
            vars.join(",")
        );
        self.core.say(&l);
        for o in super::options::options(self.core.engine.variant()) {
            if let Some(l) = super::options::cecp_line(&o) {
                self.core.say(&l);
            }
        }
        self.core.say("feature done=1");
    }

    /// Rebuilds the game from the start position and the move list.
    fn replay(&mut self) -> Result<(), PositionError> {
        let moves: Vec<&str> = self.state.moves.iter().map(String::as_str).collect();
        let fen = self.state.start_fen.clone();
        self.core.engine.set_position(fen.as_deref(), &moves)
    }

    /// Prints the result if the game is over; returns whether it is.
    fn check_over(&mut self) -> bool {
        match self.core.engine.game().outcome() {
            Some(o) => {
                let l = result_line(&o);
                self.core.say(&l);
                true
            }
            None => false,
        }
    }

    /// Starts thinking on the engine's move if it is its turn.
    fn maybe_think(&mut self) {
        if self.state.analyzing {
            self.state.thinking = false;
            self.core.start_search(Limits { infinite: true, ..Limits::default() });
            return;
        }
        let stm = self.core.engine.game().side_to_move();
        if self.state.engine_side == Some(stm) && self.core.engine.game().outcome().is_none() {
            self.state.thinking = true;
            let l = self.state.limits(stm);
            self.core.start_search(l);
        }
    }

    /// A move text from XBoard as the engine's move (multi-leg igui included).
    fn read_move(&self, text: &str) -> Result<String, MoveError> {
        let m = self.writer().read(text)?;
        if let Some((a, b)) = m.split_once(',') {
            // An igui: to the victim and back (`e5a5,a5e5`) is `e5a5`.
            if a.len() >= 4 && b.len() >= 4 {
                let legs = |s: &str| {
                    let sq = super::text::map_squares(s, |f, r| Some((f, r)))?;
                    let i = sq[1..].find(|c: char| c.is_ascii_lowercase())? + 1;
                    Some((sq[..i].to_string(), sq[i..].to_string()))
                };
                if let (Some((f1, t1)), Some((f2, t2))) = (legs(a), legs(b))
                    && t1 == f2
                    && t2 == f1
                {
                    return Ok(format!("{f1}{t1}"));
                }
            }
            return Err(MoveError::NotAMove { text: text.into() });
        }
        Ok(m)
    }

    /// An engine move as XBoard reads it: an igui (`e5a5` with the Leaper
    /// staying) goes to the victim and back.
    fn write_move(&self, m: &str) -> Vec<String> {
        let w = self.writer();
        if let Some((from, to)) = self.igui_squares(m) {
            let a = w.write(&format!("{from}{to}"));
            let b = w.write(&format!("{to}{from}"));
            return vec![format!("{a},"), b];
        }
        vec![w.write(m)]
    }

    /// The two squares of a move if it is an igui capture (the capturer
    /// stays on its square).
    fn igui_squares(&self, m: &str) -> Option<(String, String)> {
        if !self.core.engine.game().is_igui(m) {
            return None;
        }
        match square_list(m).as_slice() {
            [from, to] => Some((from.clone(), to.clone())),
            _ => None,
        }
    }

    /// `highlight` for the legal moves of the piece on `square` (canonical).
    fn highlight(&mut self, square: &str) {
        let d = self.core.engine.game().describe();
        let Some(fen_board) = board_grid(&self.core.engine.game().fen(), d.files, d.ranks) else {
            return;
        };
        let mut marks = vec![None::<char>; d.files * d.ranks];
        for m in self.core.engine.game().legal_moves() {
            let sqs = square_list(&m);
            if m.contains('@') || sqs.len() < 2 || sqs[0] != square {
                continue;
            }
            let Some(to) = square_index(&sqs[1], d.files) else {
                continue;
            };
            let promo = m.chars().last().is_some_and(|c| c.is_ascii_lowercase());
            let c = if promo {
                'M'
            } else if fen_board.get(to).copied().flatten().is_some() {
                'R'
            } else {
                'Y'
            };
            if to < marks.len() {
                marks[to] = Some(c);
            }
        }
        let mut rows = Vec::new();
        for r in (0..d.ranks).rev() {
            let mut s = String::new();
            let mut run = 0;
            for f in 0..d.files {
                match marks[r * d.files + f] {
                    Some(c) => {
                        if run > 0 {
                            s += &run.to_string();
                            run = 0;
                        }
                        s.push(c);
                    }
                    None => run += 1,
                }
            }
            if run > 0 {
                s += &run.to_string();
            }
            rows.push(s);
        }
        self.core.say(&format!("highlight {}", rows.join("/")));
    }

    /// The commands about the game: sides, position, moves, analysis.
    fn game_command(&mut self, cmd: &str, rest: &str) {
        match cmd {
            "new" => {
                let _ = self.core.engine.set_variant(xboard_variant("normal"));
                self.core.engine.new_game();
                *self.state = self.state.new_game();
            }
            "variant" => match self.core.engine.set_variant(xboard_variant(rest)) {
                Ok(()) => {
                    self.state.start_fen = None;
                    self.state.moves.clear();
                    self.setup();
                }
                Err(OptionError::UnknownVariant { .. }) => self.error(&"unknown variant"),
                Err(e) => self.error(&e),
            },
            "force" => self.state.engine_side = None,
            "result" => {
                self.state.engine_side = None;
                self.state.analyzing = false;
            }
            "go" => {
                self.state.engine_side = Some(self.core.engine.game().side_to_move());
                if !self.check_over() {
                    self.maybe_think();
                }
            }
            "playother" => self.state.engine_side = Some(self.core.engine.game().side_to_move() ^ 1),
            "white" | "black" => self.state.engine_side = Some(if cmd == "white" { 1 } else { 0 }),
            "setboard" => self.setboard(rest),
            "undo" | "remove" => self.undo(if cmd == "undo" { 1 } else { 2 }),
            "analyze" => {
                self.state.analyzing = true;
                self.state.engine_side = None;
                self.maybe_think();
            }
            "exit" => self.state.analyzing = false,
            "usermove" => self.usermove(rest),
            // A bare move (usermove=0 style) or an unknown command.
            _ if looks_like_move(cmd, rest) => self.usermove(cmd),
            _ => self.error(&"unknown command"),
        }
    }

    /// The time control: `level`, `st`, `sd`, `time`, `otim`.
    fn clock(&mut self, cmd: &str, rest: &str) {
        if let Err(msg) = self.state.set_clock(cmd, rest) {
            self.error(&msg);
        }
    }

    /// The commands about the engine: features, `ping`, memory, cores,
    /// options, `lift`, `d`, `perft`.
    fn engine_command(&mut self, cmd: &str, rest: &str) {
        match cmd {
            "protover" => self.features(),
            "ping" => self.core.say(&format!("pong {rest}")),
            "memory" => match arg_num(rest) {
                Some(mb) if mb >= 1 => {
                    if let Err(e) = self.core.engine.set_hash(mb as usize) {
                        self.error(&e);
                    }
                }
                _ => self.error(&"memory needs megabytes"),
            },
            "cores" => match arg_num(rest) {
                Some(n) if n >= 1 => {
                    if let Err(e) = self.core.engine.set_threads(n as usize) {
                        self.error(&e);
                    }
                }
                _ => self.error(&"cores needs a number of threads"),
            },
            "option" => {
                let (name, value) = match rest.split_once('=') {
                    Some((n, v)) => (n.trim(), Some(v.trim())),
                    None => (rest, None),
                };
                match self.core.set_option(name, value) {
                    Ok(Changed::Variant | Changed::Rules) => self.setup(),
                    Ok(Changed::Nothing | Changed::Weights(_)) => {}
                    Err(e) => self.error(&e),
                }
            }
            "lift" => {
                let w = self.writer();
                match w.read(rest) {
                    Ok(sq) if square_index(&sq, self.core.engine.game().describe().files).is_some() => {
                        self.state.lifted = Some(sq.clone());
                        self.highlight(&sq);
                    }
                    _ => self.error(&"lift needs a square"),
                }
            }
            "d" => {
                let text = format!("{}\nFen: {}", self.core.engine.game().pretty(), self.core.engine.game().fen());
                self.core.say(&text);
            }
            _ => match arg_num(rest) {
                Some(d) if (1..=64).contains(&d) => {
                    let w = self.writer();
                    self.core.start_perft(d as u32, w);
                }
                _ => self.error(&"perft needs a depth 1..64"),
            },
        }
    }

    /// `setboard <FEN>`: the new position, or `tellusererror` keeping the old.
    fn setboard(&mut self, rest: &str) {
        let fen = self.core.engine.game().xboard_fen_in(rest);
        match self.core.engine.set_position(Some(&fen), &[]) {
            Ok(()) => {
                self.state.start_fen = Some(fen);
                self.state.moves.clear();
                self.maybe_think();
            }
            Err(e) => self.core.say(&format!("tellusererror Illegal position: {e}")),
        }
    }

    /// `undo` (n = 1) and `remove` (n = 2).
    fn undo(&mut self, n: usize) {
        if self.state.moves.len() < n {
            return self.error(&"command not legal now");
        }
        let keep = self.state.moves.len() - n;
        self.state.moves.truncate(keep);
        if let Err(e) = self.replay() {
            self.error(&e);
        }
        if self.state.analyzing {
            self.maybe_think();
        }
    }

    fn usermove(&mut self, text: &str) {
        // The expected move: the pondering search goes on under the clock.
        if let Some(expected) = self.state.pondering.take() {
            if self.read_move(text).is_ok_and(|m| m == expected)
                && self.core.engine.push_move_searching(&expected).is_ok()
            {
                self.state.moves.push(expected);
                self.state.thinking = true;
                self.core.ponderhit();
                return;
            }
            // (Not reached: another move ends the pondering first.)
            self.core.stop_search();
        }
        let played = self.read_move(text).and_then(|m| self.core.engine.push_move(&m).map(|()| m));
        match played {
            Ok(m) => {
                self.state.moves.push(m);
                if !self.check_over() {
                    self.maybe_think();
                }
            }
            Err(e) => {
                let l = match e.detail() {
                    None => format!("Illegal move: {text}"),
                    Some(why) => format!("Illegal move ({why}): {text}"),
                };
                self.core.say(&l);
            }
        }
    }
}

/// The fullmove number of a FEN (its last field; 1 if it has none).
fn fullmove_number(fen: &str) -> u32 {
    fen.split_whitespace().last().and_then(|n| n.parse().ok()).unwrap_or(1)
}

/// The line XBoard reads when the game has ended.
fn result_line(o: &crate::variant::Outcome) -> String {
    let r = match o.winner {
        Some(0) => "1-0",
        Some(_) => "0-1",
        None => "1/2-1/2",
    };
    match o.scores {
        Some(s) => format!("{r} {{{} {}:{}}}", o.reason, s[0], s[1]),
        None => format!("{r} {{{}}}", o.reason),
    }
}

/// The squares named in a move text, in order.
pub fn square_list(m: &str) -> Vec<String> {
    let mut out = Vec::new();
    let _ = super::text::map_squares(m, |f, r| {
        out.push(format!("{f}{r}"));
        Some((f, r))
    });
    out
}

/// A canonical square's index (rank * files + file).
pub fn square_index(sq: &str, files: usize) -> Option<usize> {
    let mut c = sq.chars();
    let f = c.next()?;
    if !f.is_ascii_lowercase() {
        return None;
    }
    let f = (f as u8 - b'a') as usize;
    let r: usize = c.as_str().parse().ok()?;
    (f < files && r >= 1).then(|| (r - 1) * files + f)
}

/// The board of a FEN as piece letters by square index (rank * files + file);
/// promoted pieces by their letter.
pub fn board_grid(fen: &str, files: usize, ranks: usize) -> Option<Vec<Option<char>>> {
    let board = fen.split_whitespace().next()?;
    let board = board.split('[').next()?;
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != ranks {
        return None;
    }
    let mut g = vec![None; files * ranks];
    for (i, row) in rows.iter().enumerate() {
        let r = ranks - 1 - i;
        let mut f = 0;
        let mut n = 0;
        for c in row.chars() {
            if let Some(d) = c.to_digit(10) {
                n = n * 10 + d as usize;
                continue;
            }
            f += n;
            n = 0;
            if c == '+' {
                continue;
            }
            if f < files {
                g[r * files + f] = Some(c);
            }
            f += 1;
        }
    }
    Some(g)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::new_game;

    fn desc(v: &str) -> VariantDesc {
        new_game(v).unwrap().describe()
    }

    #[test]
    fn piece_tables() {
        assert_eq!(piece_table(&desc("chess")), "PNBRQ................Kpnbrq................k");
        let iago = desc("iago-b");
        assert_eq!(piece_table(&iago), "PNBRQ..CM............Kpnbrq..cm............k");
        assert_eq!(holdings(&iago), 7);
        assert_eq!(template(&iago), "seirawan");
        let ita = desc("ita");
        assert_eq!(piece_table(&ita), "P.BR.F..C.........LS..p.br.f..c.........ls..");
        assert_eq!(holdings(&ita), 0);
        assert_eq!(template(&ita), "fairy");
        let ito = desc("ito-shogi");
        assert_eq!(template(&ito), "shogi");
        assert_eq!(piece_table(&ito), "PTHGS...C..+++++...+.Kpthgs...c..+++++...+.k");
        assert_eq!(template(&desc("historia-sako")), "bughouse");
    }

    /// The draw rules: a level score (|cp| <= 10) on 10 own moves in a row
    /// from move 40 on offers a draw, and the count starts again; a draw
    /// offer is accepted at +10 cp or worse.
    #[test]
    fn draw_offers_and_acceptance() {
        let mut st = State::new();
        assert!(!st.accepts_draw(), "no search yet");
        let level = Some(Score::Cp(-10));
        // Nine level moves before move 40 count for nothing.
        for m in 31..40 {
            assert!(!st.after_own_move(level, m));
        }
        assert_eq!(st.level_moves, 0);
        for m in 40..49 {
            assert!(!st.after_own_move(level, m), "move {m}");
        }
        assert!(st.after_own_move(Some(Score::Cp(10)), 49), "the 10th");
        assert_eq!(st.level_moves, 0);
        // An 11 cp score breaks the run: 10 more are needed.
        for m in 50..59 {
            assert!(!st.after_own_move(level, m));
        }
        assert!(!st.after_own_move(Some(Score::Cp(11)), 59));
        for m in 60..69 {
            assert!(!st.after_own_move(Some(Score::Cp(0)), m));
        }
        assert!(!st.after_own_move(Some(Score::Mate(-30)), 69), "a mate is not level");
        assert_eq!(st.level_moves, 0);
        // Accepting: drawn or lost for the engine.
        for (score, accepts) in [
            (Score::Cp(10), true),
            (Score::Cp(-400), true),
            (Score::Mate(-3), true),
            (Score::Cp(11), false),
            (Score::Mate(2), false),
        ] {
            st.after_own_move(Some(score), 70);
            assert_eq!(st.accepts_draw(), accepts, "{score:?}");
        }
        assert!(!st.after_own_move(None, 71) && !st.accepts_draw(), "a search without a score line");
    }

    #[test]
    fn grids() {
        let g = board_grid("4k3/8/8/8/8/8/8/4K2R w K - 0 1", 8, 8).unwrap();
        assert_eq!(g[4], Some('K'));
        assert_eq!(g[7], Some('R'));
        assert_eq!(g[60], Some('k'));
        assert_eq!(square_index("j10", 10), Some(99));
        assert_eq!(square_list("e7e8q"), vec!["e7", "e8"]);
        let ita = new_game_with("ita", &RuleOptions::default()).unwrap();
        assert_eq!(
            ita.xboard_fen_in("b2rffr2b/2l1ss1l2/2c4c2/10/p1pp2pp1p/10/P1PP2PP1P/2C4C2/2L1SS1L2/B2RFFR2B w - - 0 1"),
            "b2rffr2b/2l1ss1l2/2c4c2/10/p1pp2pp1p/10/P1PP2PP1P/2C4C2/2L1SS1L2/B2RFFR2B w e1ac,f1ac,e10ac,f10ac - 0 1"
        );
    }
}
