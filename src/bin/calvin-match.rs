//! calvin-match: plays games between two UCI engines, refereed by calvin's
//! rules. See `protocol/match-runner.md` and `calvin-match --help`.

use calvin::runner::config::{Command, parse_args, usage};
use calvin::runner::run_match;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("merge") {
        std::process::exit(calvin::runner::results::merge_main(&args[1..], &mut std::io::stdout().lock()));
    }
    let cfg = match parse_args(&args) {
        Ok(Command::Help) => {
            print!("{}", usage());
            return;
        }
        Ok(Command::Run(cfg)) => cfg,
        Err(e) => {
            eprintln!("calvin-match: {e}");
            std::process::exit(2);
        }
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let ran = match cfg.spsa {
        Some(_) => calvin::runner::spsa::run_spsa(&cfg, &mut out).map(|_| ()),
        None => run_match(&cfg, &mut out).map(|_| ()),
    };
    if let Err(e) = ran {
        eprintln!("calvin-match: {e}");
        std::process::exit(1);
    }
}
