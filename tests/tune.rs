//! The search's tunable numbers as UCI options (`TUNE_<NAME>`, the cargo
//! feature `tune`; see `src/search/params.rs`). The options' tests run only in
//! the tune build:
//!
//! ```text
//! cargo test --profile quick --features tune --test tune
//! ```
//!
//! (`.ci/run` runs it so). In the default build the one test here checks that
//! the engine offers no such option.

use std::io::Write;
use std::process::{Command, Stdio};

/// The engine's whole output for `script` (which ends in `quit`).
fn session(script: &str) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_calvin"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("runs calvin");
    child.stdin.take().expect("stdin").write_all(script.as_bytes()).expect("write");
    let out = child.wait_with_output().expect("calvin ends");
    String::from_utf8_lossy(&out.stdout).lines().map(str::to_string).collect()
}

/// The default build's `bench` line, which the tune build at its defaults
/// must print too (the same search). It changes with every network shipped.
const DEFAULT_BENCH: &str = "Nodes searched  : 495442";

fn lines_with<'a>(out: &'a [String], part: &str) -> Vec<&'a str> {
    out.iter().filter(|l| l.contains(part)).map(String::as_str).collect()
}

#[cfg(not(feature = "tune"))]
#[test]
fn the_default_build_has_no_tunable_options() {
    let out = session("uci\nsetoption name TUNE_RFP_MARGIN value 150\nbench\nquit\n");
    assert_eq!(lines_with(&out, "option name TUNE_"), Vec::<&str>::new());
    assert_eq!(lines_with(&out, "info string error"), ["info string error unknown option 'TUNE_RFP_MARGIN'"]);
    assert_eq!(lines_with(&out, "Nodes searched"), [DEFAULT_BENCH]);
}

#[cfg(feature = "tune")]
#[test]
fn tunable_options_are_listed_with_their_bounds() {
    let out = session("uci\nquit\n");
    let tune = lines_with(&out, "option name TUNE_");
    assert_eq!(tune.len(), 25, "{tune:?}");
    assert_eq!(tune[1], "option name TUNE_RFP_MARGIN type spin default 90 min 20 max 300");
    assert_eq!(tune[13], "option name TUNE_LMR_DIVISOR type spin default 225 min 100 max 500");
    assert_eq!(tune[18], "option name TUNE_LMR_TT_PV type spin default 0 min 0 max 2");
    assert_eq!(tune[19], "option name TUNE_PROBCUT_MARGIN type spin default 0 min 0 max 600");
    assert_eq!(tune[22], "option name TUNE_SE_MIN_DEPTH type spin default 8 min 4 max 12");
    assert_eq!(tune[23], "option name TUNE_NODE_TM_BASE type spin default 150 min 100 max 300");
    assert_eq!(tune[24], "option name TUNE_NODE_TM_WEIGHT type spin default 0 min 0 max 300");
}

/// The defaults search exactly as the default build ([`DEFAULT_BENCH`]); another
/// value changes the search, and setting the default back restores it (the
/// reduction table is computed again when the LMR numbers change).
#[cfg(feature = "tune")]
#[test]
fn tunable_options_change_the_search() {
    let out = session(
        "bench\n\
         setoption name TUNE_RFP_MARGIN value 150\nbench\n\
         setoption name TUNE_RFP_MARGIN value 90\nsetoption name TUNE_LMR_DIVISOR value 300\nbench\n\
         setoption name TUNE_LMR_DIVISOR value 225\nbench\n\
         setoption name TUNE_RFP_MARGIN value 9999\nsetoption name tune_rfp_margin value x\nbench\n\
         quit\n",
    );
    assert_eq!(
        lines_with(&out, "Nodes searched"),
        [DEFAULT_BENCH, "Nodes searched  : 616967", "Nodes searched  : 662679", DEFAULT_BENCH, DEFAULT_BENCH]
    );
    // Bad values are refused and the old value kept.
    assert_eq!(
        lines_with(&out, "info string error"),
        [
            "info string error TUNE_RFP_MARGIN must be 20..300",
            "info string error option tune_rfp_margin: 'x' is not a number",
        ]
    );
}

/// The search's parts that are off by default (0): cut-node, bad-capture,
/// table-capture and table-PV reductions, ProbCut and history pruning. Each changes
/// the search when set, and setting it back to 0 restores it.
#[cfg(feature = "tune")]
#[test]
fn tunable_parts_off_by_default_change_the_search_when_on() {
    let out = session(
        "setoption name TUNE_LMR_CUT_NODE value 2\nbench\nsetoption name TUNE_LMR_CUT_NODE value 0\n\
         setoption name TUNE_LMR_BAD_CAPTURE value 1\nbench\nsetoption name TUNE_LMR_BAD_CAPTURE value 0\n\
         setoption name TUNE_LMR_TT_CAPTURE value 1\nbench\nsetoption name TUNE_LMR_TT_CAPTURE value 0\n\
         setoption name TUNE_LMR_TT_PV value 1\nbench\nsetoption name TUNE_LMR_TT_PV value 0\n\
         setoption name TUNE_PROBCUT_MARGIN value 200\nbench\nsetoption name TUNE_PROBCUT_MARGIN value 0\n\
         setoption name TUNE_HISTORY_PRUNE_MARGIN value 4000\nbench\nsetoption name TUNE_HISTORY_PRUNE_MARGIN value 0\n\
         bench\nquit\n",
    );
    assert_eq!(
        lines_with(&out, "Nodes searched"),
        [
            "Nodes searched  : 565509",
            "Nodes searched  : 509523",
            "Nodes searched  : 515170",
            "Nodes searched  : 493450",
            "Nodes searched  : 518314",
            "Nodes searched  : 517946",
            DEFAULT_BENCH
        ]
    );
}
