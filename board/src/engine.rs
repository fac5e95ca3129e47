//! An opponent or analyser: any UCI engine, one process per role and game,
//! driven by a worker thread that reports back to its game.

use calvin_uci_client::{Error, Process, Writer};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::time::{Duration, Instant};

/// A generous deadline for the handshake (`uciok`, `readyok`).
const HANDSHAKE: Duration = Duration::from_secs(30);

/// Starts `argv[0]` with the other words as arguments (no shell); dropping
/// it sends `quit` and kills the engine if it has not ended within 500 ms.
pub fn spawn(argv: &[String]) -> Result<Process, String> {
    let program = argv.first().ok_or("empty engine command")?;
    let mut proc = Process::spawn(argv, None, None).map_err(|e| format!("cannot start {program}: {e}"))?;
    proc.quit_on_drop(Duration::from_millis(500));
    Ok(proc)
}

/// A failed conversation in words; `what` names the answer awaited.
pub fn describe(e: &Error, what: &str) -> String {
    match e {
        Error::Timeout => format!("the engine did not answer {what} in time"),
        Error::Exited => "the engine process has exited".into(),
        Error::Garbage(sent) => format!("the engine {sent}"),
        Error::LineBreak => "a command with a line break was refused".into(),
    }
}

/// What a worker reports to its game.
pub enum Event {
    /// The handshake is done; the engine's `id name`.
    Ready(Option<String>),
    Info {
        epoch: u64,
        line: String,
    },
    BestMove {
        epoch: u64,
        mv: String,
    },
    Died(String),
}

/// One search: the position, the `go` line and when to give up waiting.
pub struct Job {
    pub epoch: u64,
    pub setup: Vec<String>,
    pub go: String,
    /// After this instant the worker sends `stop`; 20 s later it gives up.
    pub deadline: Option<Instant>,
}

/// The game's handle on an engine worker.
pub struct EngineSlot {
    pub name: String,
    pub status: String,
    pub alive: bool,
    /// Jobs sent and not yet answered by a `bestmove`.
    pub pending: u32,
    jobs: Option<Sender<Job>>,
    writer: Option<Writer>,
}

impl EngineSlot {
    /// Starts the worker: the process starts, the handshake runs on the
    /// worker's thread, and `report` receives every event.
    pub fn start(argv: Vec<String>, variant: String, report: impl Fn(Event) -> bool + Send + 'static) -> EngineSlot {
        let name = argv.first().map(|p| p.rsplit('/').next().unwrap_or(p).to_string()).unwrap_or_default();
        let proc = match spawn(&argv) {
            Ok(p) => p,
            Err(e) => {
                return EngineSlot {
                    name,
                    status: format!("failed: {e}"),
                    alive: false,
                    pending: 0,
                    jobs: None,
                    writer: None,
                };
            }
        };
        let writer = proc.writer();
        let (tx, rx) = channel();
        std::thread::spawn(move || worker(proc, variant, rx, report));
        EngineSlot { name, status: "starting".into(), alive: true, pending: 0, jobs: Some(tx), writer: Some(writer) }
    }

    pub fn submit(&mut self, job: Job) -> bool {
        if !self.alive {
            return false;
        }
        match &self.jobs {
            Some(tx) if tx.send(job).is_ok() => {
                self.pending += 1;
                true
            }
            _ => false,
        }
    }

    /// Sends `stop` at once (the worker then reads the `bestmove`).
    pub fn stop(&self) {
        if let Some(w) = &self.writer {
            let _ = w.send("stop");
        }
    }

    pub fn died(&mut self, why: &str) {
        self.alive = false;
        self.pending = 0;
        self.status = format!("died: {why}");
        self.jobs = None;
        self.writer = None;
    }
}

impl Drop for EngineSlot {
    fn drop(&mut self) {
        // The worker leaves its loop when the job channel closes; a search
        // still running is stopped so that it sees the close soon.
        self.stop();
    }
}

fn handshake(proc: &mut Process, variant: &str) -> Result<Option<String>, String> {
    let uci = proc.handshake(HANDSHAKE).map_err(|e| describe(&e, "uci"))?;
    match uci.combo_values("UCI_Variant") {
        Some(vs) if vs.contains(&variant) => {
            proc.send(&format!("setoption name UCI_Variant value {variant}")).map_err(|e| describe(&e, "setoption"))?
        }
        None if variant == "chess" => {}
        _ => return Err(format!("{} does not play {variant}", proc.name)),
    }
    proc.query(&["ucinewgame".into()], HANDSHAKE).map_err(|e| describe(&e, "isready"))?;
    Ok(uci.id_name.map(|n| n.chars().take(60).collect()))
}

fn worker(mut proc: Process, variant: String, jobs: Receiver<Job>, report: impl Fn(Event) -> bool) {
    let name = match handshake(&mut proc, &variant) {
        Ok(n) => n,
        Err(e) => {
            report(Event::Died(e));
            return;
        }
    };
    if !report(Event::Ready(name)) {
        return;
    }
    while let Ok(job) = jobs.recv() {
        let mut sent = Ok(());
        for line in job.setup.iter().chain(std::iter::once(&job.go)) {
            sent = sent.and_then(|_| proc.send(line));
        }
        if sent.is_err() {
            report(Event::Died("the engine process has exited".into()));
            return;
        }
        let mut stopped_at: Option<Instant> = None;
        loop {
            match proc.recv(Duration::from_millis(200)) {
                Ok(line) => {
                    if let Some(rest) = line.strip_prefix("bestmove") {
                        let mv = rest.split_whitespace().next().unwrap_or("(none)").to_string();
                        if !report(Event::BestMove { epoch: job.epoch, mv }) {
                            return;
                        }
                        break;
                    }
                    if line.starts_with("info ") && !report(Event::Info { epoch: job.epoch, line }) {
                        let _ = proc.send("stop");
                    }
                }
                Err(Error::Timeout) => {
                    let now = Instant::now();
                    match (job.deadline, stopped_at) {
                        (Some(d), None) if now > d => {
                            let _ = proc.send("stop");
                            stopped_at = Some(now);
                        }
                        (_, Some(s)) if now > s + Duration::from_secs(20) => {
                            report(Event::Died("no bestmove 20 s after stop".into()));
                            return;
                        }
                        _ => {}
                    }
                }
                Err(e) => {
                    report(Event::Died(describe(&e, "a line")));
                    return;
                }
            }
        }
    }
}
