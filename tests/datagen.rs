//! `calvin datagen`: tiny runs of every variant read back, continuing a
//! run (after a clean stop and after a game cut off while written), one
//! thread is deterministic, settings that differ and a file another run
//! still writes are refused.

mod common;

use calvin::datagen::format::{self, DataFile, End, NO_POINTS};
use calvin::registry::{VARIANTS, new_game};
use calvin::search::DECISIVE;
use std::path::{Path, PathBuf};
use std::process::Command;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("calvin-datagen-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// Positions in `datagen("chess", 2, _, &["--quiet"])`'s file: the data
/// of the trainer's tests (it changes with the search).
const CHESS_TWO_GAMES: usize = 50;

/// Runs `calvin datagen` with small settings and `extra`; returns (exit code, stderr).
fn datagen(variant: &str, games: u32, out: &Path, extra: &[&str]) -> (i32, String) {
    let games = games.to_string();
    let mut args = vec!["datagen", "--variant", variant, "--games", &games, "--nodes", "400"];
    args.extend(["--random-plies", "4", "--max-plies", "40", "--hash", "1", "--seed", "5"]);
    args.extend(["--out", out.to_str().expect("utf-8 path")]);
    args.extend(extra);
    let o = Command::new(env!("CARGO_BIN_EXE_calvin")).args(&args).output().expect("runs calvin");
    (o.status.code().unwrap_or(-1), String::from_utf8_lossy(&o.stderr).into_owned())
}

/// Runs `calvin datagen COMMAND INPUT OUTPUT` (eval, terms, features); it must succeed.
fn convert(command: &str, input: &Path, output: &Path) {
    let o = Command::new(env!("CARGO_BIN_EXE_calvin")).args(["datagen", command]).args([input, output]).output();
    let o = o.expect("runs calvin");
    assert!(o.status.success(), "datagen {command} {}: {}", input.display(), String::from_utf8_lossy(&o.stderr));
}

fn read(path: &Path) -> DataFile {
    format::parse(&std::fs::read(path).expect("file")).expect("parses")
}

#[test]
fn every_variant_writes_a_file_that_reads_back() {
    for &v in VARIANTS {
        let out = temp(&format!("{v}.bin"));
        let (code, err) = datagen(v, 2, &out, &["--quiet"]);
        assert_eq!(code, 0, "{v}: {err}");
        let data = read(&out);
        assert_eq!(data.header.variant, v);
        assert_eq!((data.header.seed, data.header.nodes, data.header.random_plies), (5, 400, 4));
        assert_eq!(data.trailing, 0);
        let mut indices: Vec<u32> = data.games.iter().map(|g| g.index).collect();
        indices.sort();
        assert_eq!(indices, [0, 1], "{v}");
        assert!(data.positions() > 0, "{v}: no positions kept");
        for g in &data.games {
            assert!(g.result <= 2 && g.plies <= 40 && g.plies >= 4, "{v}: {g:?}");
            // Positions searched: plies 4.. of the game, and on an adjudicated
            // game the one whose search ended it (its ply is the game's length).
            assert!(g.records.len() <= (g.plies - 3) as usize, "{v}: more positions than searched plies");
            if g.end == End::PlyCap {
                assert_eq!((g.result, g.plies), (1, 40));
            }
            assert_eq!(g.white_points == NO_POINTS, g.black_points == NO_POINTS);
            for r in &g.records {
                assert!((r.score as i32).abs() < DECISIVE, "{v}: {r:?}");
                let last = if g.end == End::Resign { g.plies } else { g.plies - 1 };
                assert!(r.ply >= 4 && r.ply <= last, "{v}: {r:?}");
                let mut game = new_game(v).expect("variant");
                game.set_position(Some(&r.fen), &[]).unwrap_or_else(|e| panic!("{v}: {} does not parse: {e}", r.fen));
                assert_eq!(game.fen(), r.fen, "{v}");
                let side = r.fen.split_whitespace().nth(1).expect("side field");
                assert_eq!(side, ["w", "b"][r.stm as usize], "{v}: {r:?}");
                assert!(game.outcome().is_none(), "{v}: a finished position was kept: {}", r.fen);
            }
        }
    }
}

#[test]
fn one_thread_is_deterministic_and_two_play_the_same_games() {
    let (a, b, c) = (temp("det-a.bin"), temp("det-b.bin"), temp("det-c.bin"));
    assert_eq!(datagen("chess", 3, &a, &["--quiet"]).0, 0);
    assert_eq!(datagen("chess", 3, &b, &["--quiet"]).0, 0);
    assert_eq!(std::fs::read(&a).expect("a"), std::fs::read(&b).expect("b"));
    assert_eq!(datagen("chess", 3, &c, &["--quiet", "--threads", "2"]).0, 0);
    let mut games = read(&c).games;
    games.sort_by_key(|g| g.index);
    assert_eq!(games, read(&a).games);
}

/// `datagen info` into a pipe its reader has closed (`| head -1` after
/// its line): no panic, no error, exit 0.
#[test]
fn info_into_a_closed_pipe_exits_quietly() {
    let file = temp("info-pipe.bin");
    assert_eq!(datagen("chess", 1, &file, &["--quiet"]).0, 0);
    let mut child = Command::new(env!("CARGO_BIN_EXE_calvin"))
        .args(["datagen", "info", file.to_str().expect("utf-8")])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("runs calvin");
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("exits");
    assert_eq!((out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned()), (Some(0), String::new()));
}

#[test]
fn a_stopped_run_continues_without_duplicates() {
    let (whole, parts) = (temp("whole.bin"), temp("parts.bin"));
    assert_eq!(datagen("ita", 4, &whole, &["--quiet"]).0, 0);
    assert_eq!(datagen("ita", 2, &parts, &["--quiet"]).0, 0);
    assert_eq!(read(&parts).games.len(), 2);
    assert_eq!(datagen("ita", 4, &parts, &["--quiet"]).0, 0);
    assert_eq!(std::fs::read(&parts).expect("parts"), std::fs::read(&whole).expect("whole"));
    // Asking for games the file already holds plays none.
    assert_eq!(datagen("ita", 3, &parts, &["--quiet"]).0, 0);
    assert_eq!(std::fs::read(&parts).expect("parts"), std::fs::read(&whole).expect("whole"));
}

#[test]
fn a_file_another_run_writes_is_refused() {
    let out = temp("locked.bin");
    assert_eq!(datagen("chess", 1, &out, &["--quiet"]).0, 0);
    let before = std::fs::read(&out).expect("file");
    // A run still writing holds the lock, as this handle does.
    let holder = std::fs::OpenOptions::new().append(true).open(&out).expect("open");
    holder.lock().expect("lock");
    let (code, err) = datagen("chess", 2, &out, &["--quiet"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is being written by another datagen run"), "{err}");
    assert_eq!(std::fs::read(&out).expect("file"), before);
    // Once it has ended, the run continues the file.
    drop(holder);
    assert_eq!(datagen("chess", 2, &out, &["--quiet"]).0, 0);
    assert_eq!(read(&out).games.len(), 2);
}

#[test]
fn a_game_cut_off_while_written_is_dropped_and_played_again() {
    let (whole, cut) = (temp("cut-whole.bin"), temp("cut.bin"));
    assert_eq!(datagen("ito-shogi", 3, &whole, &["--quiet"]).0, 0);
    let bytes = std::fs::read(&whole).expect("whole");
    let last = read(&whole).games.last().expect("games").encode().len();
    std::fs::write(&cut, &bytes[..bytes.len() - last / 2]).expect("write");
    let data = read(&cut);
    assert_eq!((data.games.len(), data.trailing), (2, (last - last / 2) as u64));
    let (code, err) = datagen("ito-shogi", 3, &cut, &[]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("games 1/1"), "{err}");
    assert_eq!(std::fs::read(&cut).expect("cut"), bytes);
}

#[test]
fn other_settings_and_bad_arguments_are_refused() {
    let out = temp("settings.bin");
    assert_eq!(datagen("etcetera", 1, &out, &["--quiet"]).0, 0);
    let before = std::fs::read(&out).expect("file");
    let (code, err) = datagen("etcetera", 2, &out, &["--quiet", "--seed", "6"]);
    assert_eq!(code, 2);
    assert!(err.contains("other settings"), "{err}");
    assert_eq!(std::fs::read(&out).expect("file"), before);
    let (code, err) = datagen("shogi", 1, &temp("x.bin"), &[]);
    assert_eq!(code, 2);
    assert!(err.contains("unknown variant 'shogi'"), "{err}");
    let (code, err) = datagen("chess", 1, &temp("y.bin"), &["--nodes", "many"]);
    assert_eq!(code, 2);
    assert!(err.contains("--nodes wants a whole number"), "{err}");
    let o = Command::new(env!("CARGO_BIN_EXE_calvin")).args(["datagen", "info"]).output().expect("runs");
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn the_python_reader_agrees_with_the_engine() {
    common::need_python3("tools/train/calvin_data.py");
    for v in ["ita", "ito-shogi", "historia-sako"] {
        let out = temp(&format!("py-{v}.bin"));
        assert_eq!(datagen(v, 2, &out, &["--quiet"]).0, 0);
        let mut bytes = std::fs::read(&out).expect("file");
        bytes.extend_from_slice(&[9, 0, 0]); // a block cut off
        std::fs::write(&out, &bytes).expect("write");
        let engine = Command::new(env!("CARGO_BIN_EXE_calvin")).args(["datagen", "info"]).arg(&out).output();
        let reader = Command::new("python3")
            .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/tools/train/calvin_data.py"))
            .arg(&out)
            .output();
        let (engine, reader) = (engine.expect("calvin runs"), reader.expect("python3 runs"));
        assert!(engine.status.success() && reader.status.success(), "{}", String::from_utf8_lossy(&reader.stderr));
        let text = String::from_utf8_lossy(&engine.stdout).into_owned();
        assert!(text.contains("trailing-bytes 3"), "{text}");
        assert_eq!(text, String::from_utf8_lossy(&reader.stdout), "{v}");
    }
}

/// The engine's `seen_from` for every colour and square of `V`, a line each.
fn seen_from_table<V: calvin::variant::Variant>() -> String {
    use calvin::geometry::Geometry;
    let mut out = String::new();
    for colour in 0..2 {
        for sq in 0..V::G::SQUARES {
            let (rank, file) = (sq / V::G::FILES, sq % V::G::FILES);
            out += &format!("{colour} {rank} {file} {}\n", calvin::variant::seen_from::<V>(colour, sq));
        }
    }
    out
}

#[test]
fn the_python_tools_see_squares_as_the_engine_does() {
    common::need_python3("tools/train/calvin_data.py");
    use calvin::variants::{chess::Chess, historia::HistoriaSako};
    for (name, want) in [("historia-sako", seen_from_table::<HistoriaSako>()), ("chess", seen_from_table::<Chess>())] {
        let script = format!(
            "import sys; sys.path.insert(0, 'tools/train'); import calvin_data as c\n\
             for colour in range(2):\n    for sq in range(64):\n        r, f = divmod(sq, 8)\n        \
             print(colour, r, f, c.seen_from('{name}', colour, r, f, 8, 8))"
        );
        let o = Command::new("python3")
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(["-c", &script])
            .output()
            .expect("python3 runs");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(String::from_utf8_lossy(&o.stdout), want, "{name}");
    }
}

#[test]
fn eval_writes_the_formula_evaluation_of_every_position() {
    let (data, evals) = (temp("eval.bin"), temp("eval.out"));
    assert_eq!(datagen("historia-sako", 1, &data, &["--quiet"]).0, 0);
    convert("eval", &data, &evals);
    let raw = std::fs::read(&evals).expect("evals");
    let records: Vec<_> = read(&data).games.into_iter().flat_map(|g| g.records).collect();
    assert_eq!(raw.len(), 4 * records.len());
    let mut game = calvin::registry::new_game_with("historia-sako", &Default::default()).expect("variant");
    let eval = game.builtin_evaluation();
    let mut differs = 0;
    for (r, e) in records.iter().zip(raw.chunks(4)) {
        game.set_position(Some(&r.fen), &[]).expect("fen");
        let sign = if r.stm == 0 { 1 } else { -1 };
        let white = sign * game.formula_evaluate(&eval);
        assert_eq!(i32::from_le_bytes([e[0], e[1], e[2], e[3]]), white, "{}", r.fen);
        differs += usize::from(sign * game.evaluate(&eval) != white);
    }
    // Historia Ŝako's built-in network is added in play, never written here.
    assert!(differs * 2 > records.len(), "{differs} of {}", records.len());
}

#[test]
fn terms_dotted_with_their_weights_are_the_static_evaluation() {
    let (data, evals, terms) = (temp("terms.bin"), temp("terms.eval"), temp("terms.out"));
    assert_eq!(datagen("etcetera", 1, &data, &["--quiet"]).0, 0);
    for (command, out) in [("eval", &evals), ("terms", &terms)] {
        convert(command, &data, out);
    }
    let le = |b: &[u8]| i32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    let evals: Vec<i32> = std::fs::read(&evals).expect("evals").chunks(4).map(le).collect();
    let raw = std::fs::read(&terms).expect("terms");
    assert_eq!(&raw[..8], b"CALVINTM");
    let columns = u16::from_le_bytes([raw[10], raw[11]]) as usize;
    let (mut at, mut weights) = (12, Vec::new());
    for _ in 0..columns {
        at += 1 + raw[at] as usize;
        weights.push(le(&raw[at..]));
        at += 4;
    }
    let rows: Vec<&[u8]> = raw[at..].chunks(4 * columns).collect();
    assert_eq!(rows.len(), evals.len());
    assert!(!evals.is_empty());
    for (row, eval) in rows.iter().zip(evals) {
        let dot: i32 = row.chunks(4).zip(&weights).map(|(x, w)| le(x) * w).sum();
        assert_eq!(dot, eval);
    }
}

/// The trainer's Python: the virtual environment `tools/train/run.sh` (and
/// `.ci/run`) makes, else `python3`; the test fails without numpy and scipy.
/// The tests that need them are ignored by a plain `cargo test` (the summary
/// counts them) and run with `--ignored`, as `.ci/run` does.
fn trainer_python() -> PathBuf {
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/train/.venv/bin/python");
    let python = if venv.exists() { venv } else { PathBuf::from("python3") };
    let ok = Command::new(&python).args(["-c", "import numpy, scipy"]).output().is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "needs numpy and scipy: python3 -m venv tools/train/.venv; tools/train/.venv/bin/pip install -r tools/train/requirements.txt"
    );
    python
}

#[test]
#[ignore = "needs numpy and scipy (tools/train/.venv; .ci/run runs it with --ignored)"]
fn the_texel_fit_runs_on_top_of_the_engine_eval() {
    let python = trainer_python();
    let (data, weights) = (temp("texel.bin"), temp("texel.json"));
    assert_eq!(datagen("ito-shogi", 4, &data, &["--quiet"]).0, 0);
    let o = Command::new(python)
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/tools/train/texel.py"))
        .arg(&data)
        .args(["--engine", env!("CARGO_BIN_EXE_calvin"), "--l2", "1e-7", "--out"])
        .arg(&weights)
        .output()
        .expect("python runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let json = std::fs::read_to_string(&weights).expect("weights");
    for key in ["\"on_top_of_engine_eval\": true", "\"engine eval\"", "\"ranks\": 31", "\"files\": 1", "\"pst\""] {
        assert!(json.contains(key), "{key} missing in {json}");
    }
}

#[test]
#[ignore = "needs numpy and scipy (tools/train/.venv; .ci/run runs it with --ignored)"]
fn the_texel_fit_fits_the_term_weights_and_prints_them() {
    let python = trainer_python();
    let (data, weights) = (temp("texel-terms.bin"), temp("texel-terms.json"));
    assert_eq!(datagen("chess", 4, &data, &["--quiet"]).0, 0);
    let o = Command::new(&python)
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/tools/train/texel.py"))
        .arg(&data)
        .args(["--engine", env!("CARGO_BIN_EXE_calvin"), "--terms", "--l2", "1e-7", "--eval-k", "380", "--out"])
        .arg(&weights)
        .output()
        .expect("python runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let json = std::fs::read_to_string(&weights).expect("weights");
    let keys = [
        "\"terms fit\"",
        "\"terms\"",
        "\"terms_engine\"",
        "\"danger_units2\"",
        "\"mobility\": 2,",
        "\"eval_K\": 380.0",
    ];
    for key in keys {
        assert!(json.contains(key), "{key} missing in {json}");
    }
    let o = Command::new(&python)
        .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/tools/train/eval_weights.py"))
        .arg(&weights)
        .output()
        .expect("python runs");
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success() && text.contains("EvalWeights {\n    tempo: "), "{text}");
    assert!(text.contains("    passed: [") && text.contains("    danger_max: "), "{text}");
}

/// `tools/wdl/fit.py` fits a variant drawless when no game of its data was
/// drawn by the rules (a ply-cap draw is datagen's adjudication), and the
/// flags decide instead of the data.
#[test]
#[ignore = "needs numpy and scipy (tools/train/.venv; .ci/run runs it with --ignored)"]
fn the_wdl_fit_is_drawless_where_the_data_has_no_draw_by_the_rules() {
    let python = trainer_python();
    let (ito, chess) = (temp("wdl-ito.bin"), temp("wdl-chess.bin"));
    // Long enough games that some end by the rules (Ito Shogi at seed 1,
    // one at the ply cap; chess at seed 16, two draws by the rules).
    assert_eq!(datagen("ito-shogi", 6, &ito, &["--quiet", "--max-plies", "300", "--seed", "1"]).0, 0);
    assert_eq!(datagen("chess", 6, &chess, &["--quiet", "--max-plies", "300", "--seed", "16"]).0, 0);
    let info = |p: &Path| {
        let (code, out, _) = calvin(&["datagen", "info", p.to_str().expect("utf-8")]);
        assert_eq!(code, 0);
        let line = |key: &str| out.lines().find(|l| l.starts_with(key)).expect(key).to_string();
        let positions: usize =
            line("games ").split_whitespace().nth(3).and_then(|n| n.parse().ok()).expect("positions");
        (positions, line("results "), line("ends "))
    };
    // The data the test needs: draws in each file, Ito Shogi's one by the
    // ply cap (its rules have no draw), chess's two by the rules.
    let (ito_positions, ito_results, ito_ends) = info(&ito);
    let (chess_positions, chess_results, chess_ends) = info(&chess);
    assert!(ito_results.contains(" draws 1 ") && ito_ends.contains(" ply-cap 1 "), "{ito_results} / {ito_ends}");
    assert!(
        chess_results.contains(" draws 2 ") && chess_ends.contains(" ply-cap 0 "),
        "{chess_results} / {chess_ends}"
    );
    // Each variant's row: (positions fitted, the `a` column).
    let fit = |flags: &[&str]| {
        let o = Command::new(&python)
            .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/tools/wdl/fit.py"))
            .args([&ito, &chess])
            .args(flags)
            .output()
            .expect("python runs");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let out = String::from_utf8_lossy(&o.stdout).into_owned();
        let row = |variant: &str| {
            let line = out.lines().find(|l| l.starts_with(&format!("| {variant} |"))).expect(variant);
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            (cells[3].parse::<usize>().expect("positions"), cells[6].to_string())
        };
        (row("ito-shogi"), row("chess"))
    };
    // From the data: Ito Shogi drawless (its drawn game's positions left out),
    // chess with a draw rate (every position).
    let ((ito_n, ito_a), (chess_n, chess_a)) = fit(&[]);
    assert_eq!(ito_a, "0 (drawless)");
    assert!(ito_n < ito_positions, "{ito_n} of {ito_positions}");
    assert!(chess_a.contains(" ± ") && !chess_a.starts_with("0.0 "), "{chess_a}");
    assert_eq!(chess_n, chess_positions);
    // Forced the other way round.
    let ((ito_n, ito_a), (chess_n, chess_a)) = fit(&["--drawless", "chess", "--with-draws", "ito-shogi"]);
    assert!(ito_a.contains(" ± "), "{ito_a}");
    assert_eq!(ito_n, ito_positions);
    assert_eq!(chess_a, "0 (drawless)");
    assert!(chess_n < chess_positions, "{chess_n} of {chess_positions}");
}

/// The score of `fen` by a fresh `calvin` (empty table), `go nodes N`:
/// centipawns, or None for a mate.
fn fresh_score(variant: &str, fen: &str, nodes: u32) -> Option<i16> {
    let script = format!("setoption name UCI_Variant value {variant}\nposition fen {fen}\ngo nodes {nodes}\n");
    let mut score = None;
    for line in common::until_bestmove(&script) {
        if let Some(rest) = line.split(" score cp ").nth(1) {
            score = Some(rest.split_whitespace().next().and_then(|s| s.parse().ok()));
        } else if line.contains(" score mate ") {
            score = Some(None);
        }
    }
    score.expect("a score line")
}

#[test]
fn relabel_scores_every_strided_position_again_and_continues() {
    common::need_python3("tools/train/relabel.py");
    let (data, out) = (temp("relabel-in.bin"), temp("relabel-out.bin"));
    assert_eq!(datagen("historia-sako", 3, &data, &["--quiet"]).0, 0);
    let relabel = || {
        Command::new("python3")
            .arg(concat!(env!("CARGO_MANIFEST_DIR"), "/tools/train/relabel.py"))
            .arg(&data)
            .arg(&out)
            .args(["--engine", env!("CARGO_BIN_EXE_calvin"), "--variant", "historia-sako"])
            .args(["--nodes", "300", "--stride", "2", "--workers", "1"])
            .output()
            .expect("python runs")
    };
    let o = relabel();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let (before, after) = (read(&data), read(&out));
    assert_eq!(before.header, after.header);
    assert_eq!(before.games.len(), after.games.len());
    for (g, h) in before.games.iter().zip(&after.games) {
        assert_eq!((g.index, g.result, g.end, g.plies), (h.index, h.result, h.end, h.plies));
        // Every second position, in order, but for those the teacher finds
        // a mate in (a fresh engine at the same nodes finds it too).
        let strided: Vec<&str> = g.records.iter().step_by(2).map(|r| r.fen.as_str()).collect();
        let mut kept = h.records.iter().map(|r| r.fen.as_str()).peekable();
        for fen in strided {
            if kept.next_if_eq(&fen).is_none() {
                assert_eq!(fresh_score("historia-sako", fen, 300), None, "{fen} left out, not decided");
            }
        }
        assert_eq!(kept.next(), None, "a position that is not every second one");
    }
    // The first position was searched first, with an empty table: the score
    // is that of a fresh engine.
    let first = &after.games[0].records[0];
    assert_eq!(Some(first.score), fresh_score("historia-sako", &first.fen, 300));
    // A second run finds every game done and adds nothing.
    let bytes = std::fs::read(&out).expect("file");
    let o = relabel();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("3 games, 3 done before, 0 to score"));
    assert_eq!(std::fs::read(&out).expect("file"), bytes);
}

/// `datagen features` of a tiny run of every variant, read back field by
/// field: header, and per position side to move, result, score and the
/// features seen by each side (those of the engine's own feature function,
/// padded with 0xFFFF).
#[test]
fn features_write_every_position_exactly() {
    for variant in VARIANTS {
        let (data, feats) = (temp(&format!("f-{variant}.bin")), temp(&format!("f-{variant}.ft")));
        assert_eq!(datagen(variant, 1, &data, &["--quiet"]).0, 0, "{variant}");
        convert("features", &data, &feats);
        let raw = std::fs::read(&feats).expect("features");
        let file = read(&data);
        let mut game = calvin::registry::new_game_with(variant, &Default::default()).expect("variant");
        let u16_at = |at: usize| u16::from_le_bytes([raw[at], raw[at + 1]]);
        let name = variant.as_bytes();
        assert_eq!(&raw[..8], b"CALVINFT");
        assert_eq!(u16_at(8), 1);
        assert_eq!(&raw[11..11 + name.len()], name);
        let mut at = 11 + name.len();
        let count = u32::from_le_bytes(raw[at..at + 4].try_into().expect("4 bytes")) as usize;
        let slots = u16_at(at + 4) as usize;
        let n = u64::from_le_bytes(raw[at + 6..at + 14].try_into().expect("8 bytes")) as usize;
        at += 14;
        let records: Vec<_> = file.games.iter().flat_map(|g| g.records.iter().map(move |r| (g.result, r))).collect();
        assert_eq!(n, records.len(), "{variant}");
        assert_eq!(raw.len(), at + n * (4 + 4 * slots), "{variant}");
        let mut widest = 0;
        for (result, r) in records {
            game.set_position(Some(&r.fen), &[]).expect("fen");
            let (f, sides) = game.nnue_features();
            assert_eq!(f, count);
            assert_eq!((raw[at], raw[at + 1]), (r.stm, result));
            assert_eq!(i16::from_le_bytes([raw[at + 2], raw[at + 3]]), r.score);
            at += 4;
            for side in &sides {
                let got: Vec<u16> = (0..slots).map(|i| u16_at(at + 2 * i)).collect();
                let mut want = side.clone();
                widest = widest.max(want.len());
                want.resize(slots, u16::MAX);
                assert_eq!(got, want, "{variant}: {}", r.fen);
                assert!(side.iter().all(|&x| (x as usize) < count));
                at += 2 * slots;
            }
        }
        assert_eq!(widest, slots, "{variant}: the slots are the widest position's");
    }
}

/// Two Historia Ŝako games and their network features, as `NAME.bin` and
/// `NAME.ft` in the test's folder.
fn feature_file(name: &str) -> (PathBuf, PathBuf) {
    let (data, feats) = (temp(&format!("{name}.bin")), temp(&format!("{name}.ft")));
    assert_eq!(datagen("historia-sako", 2, &data, &["--quiet"]).0, 0);
    convert("features", &data, &feats);
    (data, feats)
}

/// The Python side of the network (`tools/nnue/check.py`, numpy only)
/// computes exactly the engine's integer evaluation of every position of a
/// feature file, with eight output buckets of 4 pieces (the positions,
/// all with 17 to 32 pieces on the board, read the upper four).
#[test]
#[ignore = "needs numpy and scipy (tools/train/.venv; .ci/run runs it with --ignored)"]
fn the_python_network_check_agrees_with_the_engine() {
    use calvin::eval::nnue::{Network, feature_count};
    use calvin::variants::historia::HistoriaSako;
    let python = trainer_python();
    let (data, feats) = feature_file("nn");
    let net_path = temp("nn.nn");
    let mut x = 99u64;
    let net = Network::from_fn("historia-sako", feature_count::<HistoriaSako>(), 32, (8, 4), |_| {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((x >> 33) % 201) as i16 - 100
    });
    std::fs::write(&net_path, net.to_bytes()).expect("net");
    let check = concat!(env!("CARGO_MANIFEST_DIR"), "/tools/nnue/check.py");
    let o = Command::new(&python).arg(check).args([&net_path, &feats]).arg("0").output().expect("python runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let python_evals = check_py_evals(&String::from_utf8_lossy(&o.stdout));
    let records: Vec<_> = read(&data).games.into_iter().flat_map(|g| g.records).collect();
    let positions: Vec<_> =
        records.iter().map(|r| calvin::position::Position::<HistoriaSako>::from_fen(&r.fen).expect("fen")).collect();
    let engine_evals: Vec<i32> = positions.iter().map(|p| net.evaluate(p)).collect();
    let buckets: std::collections::BTreeSet<usize> = positions.iter().map(|p| net.bucket(p)).collect();
    assert_eq!(buckets.into_iter().collect::<Vec<_>>(), [4, 5, 6, 7]);
    assert!(engine_evals.len() > 10);
    assert_eq!(python_evals, engine_evals);
}

/// The Python `tools/nnue/train.py` runs with: the virtual environment
/// `tools/nnue/setup.sh` makes (PyPI's torch) when it exists, else the first
/// of `python3` and `/usr/bin/python3` that imports torch and numpy (Debian
/// 12's `python3-torch`, 1.13 on the CPU, which `.ci/run` installs). Returns
/// it and the torch version it reports; the test fails without one.
fn torch_python() -> (PathBuf, String) {
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/nnue/.venv/bin/python");
    let candidates = if venv.exists() { vec![venv] } else { vec!["python3".into(), "/usr/bin/python3".into()] };
    for python in &candidates {
        let o = Command::new(python).args(["-c", "import numpy, torch; print(torch.__version__)"]).output();
        if let Ok(o) = o
            && o.status.success()
        {
            return (python.clone(), String::from_utf8_lossy(&o.stdout).trim().to_string());
        }
    }
    panic!(
        "needs PyTorch and numpy, which {candidates:?} do not import: tools/nnue/setup.sh (tools/nnue/.venv), \
         or Debian's: apt-get install python3-torch python3-numpy"
    );
}

/// The trainer (`tools/nnue/train.py`) on two chess games, on the CPU:
/// its loss falls, it writes a net of the asked shape that the engine loads
/// through `EvalFile`, whose `network eval` is the plain-Python reference's
/// (`tools/nnue/reference.py`) and `check.py`'s; resumed with nothing left to
/// train, it prints that net's validation loss. `.ci/run` runs it with
/// `--ignored`, with Debian's torch.
#[test]
#[ignore = "needs PyTorch: tools/nnue/.venv (tools/nnue/setup.sh) or Debian's python3-torch; .ci/run runs it with --ignored"]
fn train_py_writes_a_net_the_engine_loads() {
    use calvin::eval::nnue::Network;
    use calvin::variants::chess::Chess;
    use std::io::Write;
    let (python, torch) = torch_python();
    println!("train.py runs with {} (torch {torch})", python.display());
    let (data, feats) = (temp("train.bin"), temp("train.ft"));
    assert_eq!(datagen("chess", 2, &data, &["--quiet"]).0, 0);
    convert("features", &data, &feats);
    let records: Vec<_> = read(&data).games.into_iter().flat_map(|g| g.records).collect();
    assert_eq!(records.len(), CHESS_TWO_GAMES);
    let trained = temp("trained.nn");
    let tool = |name: &str| format!("{}/tools/nnue/{name}", env!("CARGO_MANIFEST_DIR"));
    let run = |args: &[&str]| {
        let o = Command::new(&python).args(args).output().expect("python runs");
        assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let (feats_arg, trained_arg) = (feats.to_str().expect("utf-8"), trained.to_str().expect("utf-8"));
    let train = |extra: &[&str]| {
        let tp = tool("train.py");
        let mut args = vec![tp.as_str(), "--features", feats_arg, "--out", trained_arg, "--device", "cpu"];
        args.extend(["--hidden", "16", "--epochs", "8", "--batch", "32", "--lr", "3e-3", "--threads", "1"]);
        args.extend(extra);
        run(&args)
    };
    // The number after `key` on the line that holds it.
    let after = |out: &str, key: &str| -> String {
        let line = out.lines().find(|l| l.contains(key)).unwrap_or_else(|| panic!("no '{key}' in:\n{out}"));
        line.split(key).nth(1).and_then(|r| r.split_whitespace().next()).expect("a number").trim_end_matches(',').into()
    };
    let first = train(&[]);
    println!("{first}");
    assert!(first.contains(&format!("train {}, validation 1;", CHESS_TWO_GAMES - 1)), "{first}");
    assert!(
        first.contains("net: F 864 -> H 16 x 2 -> 1, 204 virtual features, 2 steps per epoch, crelu, on cpu"),
        "{first}"
    );
    // Every epoch's losses are numbers; the training loss falls (measured with
    // torch 1.13: 0.0814 in the first epoch, 0.0247 in the eighth).
    let epochs: Vec<&str> = first.lines().filter(|l| l.starts_with("epoch ")).collect();
    assert_eq!(epochs.len(), 8, "{first}");
    let loss = |line: &str, key: &str| -> f64 { after(line, key).parse().expect("a loss") };
    for e in &epochs {
        assert!(loss(e, ": train ").is_finite() && loss(e, ", validation ").is_finite(), "{e}");
    }
    assert!(loss(epochs[7], ": train ") < loss(epochs[0], ": train ") / 2.0, "{first}");
    // The file: header (25 bytes), 864x16 and 16 i16 feature weights and
    // biases, 32 i16 output weights, an i32 output bias.
    let net_bytes = std::fs::read(&trained).expect("the trained net");
    assert_eq!(net_bytes.len(), 25 + 2 * (864 * 16 + 16 + 32) + 4);
    let net = Network::read_file(trained_arg).expect("the trained net reads");
    assert_eq!((net.variant.as_str(), net.features, net.hidden), ("chess", 864, 16));
    // check.py's integer inference on every position is the engine's; the
    // dequantized float net is within 1 cp of it (only the last division
    // differs), the checkpoint's float model within a few (quantization).
    let checked = run(&[&tool("check.py"), trained_arg, feats_arg, "0"]);
    let check_evals = check_py_evals(&checked);
    let engine_evals: Vec<i32> = records
        .iter()
        .map(|r| net.evaluate(&calvin::position::Position::<Chess>::from_fen(&r.fen).expect("fen")))
        .collect();
    assert_eq!(check_evals, engine_evals);
    // check.py's summary line that holds `key`: (mean, max), from "= MEAN cp, max MAX cp".
    let summary = |key: &str| -> (f64, f64) {
        let line = checked.lines().find(|l| l.starts_with('#') && l.contains(key));
        let line = line.unwrap_or_else(|| panic!("no '{key}' in:\n{checked}"));
        let number = |k: &str| -> f64 { after(line, k).parse().unwrap_or_else(|_| panic!("{line}")) };
        (number("| = "), number(" cp, max "))
    };
    let dequantized = summary("dequantized float");
    let float_model = summary("float model");
    println!("check.py: |engine - dequantized| {dequantized:?} cp, |engine - float model| {float_model:?} cp");
    assert!(dequantized.1 < 1.0, "{checked}");
    assert!(float_model.0 < 5.0, "{checked}");
    // The engine loads the net by `EvalFile`: its `network eval` of three of
    // the positions is reference.py's (plain Python, from the FEN) and check.py's.
    let picks = [0, records.len() / 2, records.len() - 1];
    let fens: Vec<&str> = picks.iter().map(|&i| records[i].fen.as_str()).collect();
    let mut input = format!("setoption name EvalFile value {trained_arg}\n");
    for fen in &fens {
        input += &format!("position fen {fen}\neval\n");
    }
    input += "quit\n";
    let mut child = Command::new(env!("CARGO_BIN_EXE_calvin"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("runs calvin");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("writes");
    let out = String::from_utf8_lossy(&child.wait_with_output().expect("ends").stdout).into_owned();
    assert!(out.contains(&format!("info string EvalFile {trained_arg}: chess network loaded (864x16)")), "{out}");
    let tail = format!(" weights file {trained_arg} (network 864x16)");
    let shown: Vec<i32> = out
        .lines()
        .filter_map(|l| l.strip_prefix("info string network eval "))
        .map(|l| l.strip_suffix(&tail).unwrap_or_else(|| panic!("{l}")).parse().expect("a number"))
        .collect();
    // reference.py's evaluation of `fens` by the net file `net`.
    let reference_evals = |net: &str| -> Vec<i32> {
        let mut args = vec![tool("reference.py"), net.to_string(), "chess".to_string()];
        args.extend(fens.iter().map(|f| f.to_string()));
        let out = run(&args.iter().map(String::as_str).collect::<Vec<_>>());
        out.lines().map(|l| l.split_whitespace().next().expect("a value").parse().expect("a number")).collect()
    };
    let reference = reference_evals(trained_arg);
    let from_check: Vec<i32> = picks.iter().map(|&i| check_evals[i]).collect();
    println!("network eval of positions {picks:?}: engine {shown:?}, reference.py {reference:?}");
    assert_eq!(shown, reference);
    assert_eq!(shown, from_check);
    // A checkpoint with nothing left to train reports its validation loss:
    // the last epoch's, on the same files; the net it writes is the same.
    let resumed = train(&["--resume"]);
    assert!(resumed.contains("nothing to train: checkpoint already at epoch 8"), "{resumed}");
    assert_eq!(after(&resumed, "its validation loss "), after(epochs[7], ", validation "));
    assert_eq!(std::fs::read(&trained).expect("the rewritten net"), net_bytes);
    // `--init NET` starts from a net file's weights (fine-tuning): with
    // nothing to train it writes NET's bytes again; a net of another shape
    // is refused, naming both.
    let (copy, tp) = (temp("init.nn"), tool("train.py"));
    let copy_arg = copy.to_str().expect("utf-8");
    let init = |hidden: &str| {
        let args = [tp.as_str(), "--features", feats_arg, "--out", copy_arg, "--device", "cpu", "--threads", "1"];
        let extra = ["--hidden", hidden, "--epochs", "0", "--init", trained_arg];
        Command::new(&python).args(args).args(extra).output().expect("python runs")
    };
    let o = init("16");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains(&format!("initialised from {trained_arg}: validation loss ")));
    assert_eq!(std::fs::read(&copy).expect("the net from --init"), net_bytes);
    let o = init("8");
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&format!(
            "{trained_arg}: variant/F/H/activation/on-top ('chess', 864, 16, 0, False) with 1 output buckets, \
             training ('chess', 864, 8, 0, False) with 1"
        )),
        "{err}"
    );
    // `--buckets 8`: one output layer per 4 pieces on the board (32 at most
    // in the data), a version 4 file the engine reads; its evaluation of
    // every position is check.py's, of three reference.py's.
    let bucketed = temp("bucketed.nn");
    let bucketed_arg = bucketed.to_str().expect("utf-8");
    let args = [tp.as_str(), "--features", feats_arg, "--out", bucketed_arg, "--device", "cpu", "--threads", "1"];
    let extra = ["--hidden", "16", "--epochs", "2", "--batch", "32", "--buckets", "8"];
    let out = run(&[&args[..], &extra[..]].concat());
    assert!(out.contains("output buckets: 8 of 4 board pieces each (up to 32)"), "{out}");
    let net = Network::read_file(bucketed_arg).expect("the bucketed net reads");
    assert_eq!((net.buckets(), net.divisor, net.shape().as_str()), (8, 4, "864x16, 8 output buckets"));
    let positions: Vec<_> =
        records.iter().map(|r| calvin::position::Position::<Chess>::from_fen(&r.fen).expect("fen")).collect();
    let buckets: std::collections::BTreeSet<usize> = positions.iter().map(|p| net.bucket(p)).collect();
    assert!(buckets.len() >= 2, "{buckets:?}");
    let engine_evals: Vec<i32> = positions.iter().map(|p| net.evaluate(p)).collect();
    let checked = run(&[&tool("check.py"), bucketed_arg, feats_arg, "0"]);
    let check_evals = check_py_evals(&checked);
    assert_eq!(check_evals, engine_evals);
    assert_eq!(reference_evals(bucketed_arg), picks.iter().map(|&i| engine_evals[i]).collect::<Vec<_>>());
}

/// The evaluations `tools/nnue/check.py` prints: the third column of its
/// lines that are not `#` comments.
fn check_py_evals(out: &str) -> Vec<i32> {
    let line = |l: &str| -> i32 { l.split_whitespace().nth(2).expect("three columns").parse().expect("a number") };
    out.lines().filter(|l| !l.starts_with('#')).map(line).collect()
}

/// Runs `calvin ARGS`; returns (exit code, stdout, stderr).
fn calvin(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_calvin")).args(args).output().expect("runs calvin");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (o.status.code().unwrap_or(-1), text(&o.stdout), text(&o.stderr))
}

/// The settings of the shard tests: short games, most ended by resign adjudication or the ply cap.
const SHARD_RUN: [&str; 12] = [
    "--quiet",
    "--max-plies",
    "80",
    "--resign-score",
    "400",
    "--resign-plies",
    "4",
    "--random-plies",
    "4",
    "--hash",
    "1",
    "--nodes",
];

#[test]
fn three_shards_merged_are_the_single_run() {
    let whole = temp("shard-whole.bin");
    let extra = [&SHARD_RUN[..], &["400"]].concat();
    assert_eq!(datagen("chess", 6, &whole, &extra).0, 0);
    let shards: Vec<PathBuf> = (1..=3).map(|i| temp(&format!("shard-{i}.bin"))).collect();
    for (i, s) in shards.iter().enumerate() {
        let shard = format!("{}/3", i + 1);
        let (code, err) = datagen("chess", 6, s, &[&extra[..], &["--shard", &shard]].concat());
        assert_eq!(code, 0, "{err}");
        let mut indices: Vec<u32> = read(s).games.iter().map(|g| g.index).collect();
        indices.sort();
        assert_eq!(indices, [i as u32, i as u32 + 3], "shard {shard}");
    }
    let merged = temp("shard-merged.bin");
    let m = merged.to_str().expect("utf-8");
    let names: Vec<&str> = shards.iter().map(|p| p.to_str().expect("utf-8")).collect();
    // Given in any order, the games come out by number.
    let (code, out, err) = calvin(&["datagen", "merge", m, names[2], names[0], names[1]]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, format!("datagen: merged 6 games (229 positions) from 3 files into {m}\n"));
    let info = |p: &Path| calvin(&["datagen", "info", p.to_str().expect("utf-8")]).1;
    let expected = "variant chess seed 5 nodes 400 random-plies 4 max-plies 80 resign-score 400 resign-plies 4 hash 1\n\
                    games 6 positions 229 trailing-bytes 0\n\
                    results white-wins 2 draws 3 black-wins 1\n\
                    ends rules 0 ply-cap 3 adjudicated 3\n";
    assert_eq!(info(&whole), expected);
    assert_eq!(info(&merged), expected);
    // The same positions (as a multiset) and games; one thread: the same bytes.
    let positions = |p: &Path| {
        let mut v: Vec<(String, i16, u16, u8)> = read(p)
            .games
            .iter()
            .flat_map(|g| g.records.iter().map(move |r| (r.fen.clone(), r.score, r.ply, g.result)))
            .collect();
        v.sort();
        v
    };
    assert_eq!(positions(&merged).len(), 229);
    assert_eq!(positions(&merged), positions(&whole));
    assert_eq!(std::fs::read(&merged).expect("merged"), std::fs::read(&whole).expect("whole"));
}

#[test]
fn bad_shards_and_merges_are_refused() {
    for bad in ["0/3", "4/3", "x/y", "3"] {
        let (code, err) = datagen("chess", 2, &temp("bad-shard.bin"), &["--shard", bad]);
        assert_eq!(code, 2, "{bad}");
        assert!(
            err.starts_with(&format!(
                "datagen: error: --shard wants I/N with 1 <= I <= N (whole numbers), not '{bad}'\n"
            )),
            "{err}"
        );
    }
    assert!(!temp("bad-shard.bin").exists());
    let (a, b, c) = (temp("merge-a.bin"), temp("merge-b.bin"), temp("merge-c.bin"));
    assert_eq!(datagen("chess", 2, &a, &["--quiet", "--shard", "1/2"]).0, 0);
    assert_eq!(datagen("chess", 2, &b, &["--quiet", "--shard", "2/2", "--seed", "6"]).0, 0);
    assert_eq!(datagen("chess", 2, &c, &["--quiet"]).0, 0);
    let out = temp("merge-out.bin");
    let s = |p: &Path| p.to_str().expect("utf-8").to_string();
    let (code, _, err) = calvin(&["datagen", "merge", &s(&out), &s(&a), &s(&b)]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with(&format!("datagen: error: {} was written with other settings than {}", s(&b), s(&a))),
        "{err}"
    );
    let (code, _, err) = calvin(&["datagen", "merge", &s(&out), &s(&a), &s(&c)]);
    assert_eq!(code, 2);
    assert!(err.starts_with(&format!("datagen: error: game 0 is in both {} and {}\n", s(&a), s(&c))), "{err}");
    std::fs::write(&b, b"CALVINDX").expect("write");
    let (code, _, err) = calvin(&["datagen", "merge", &s(&out), &s(&a), &s(&b)]);
    assert_eq!(code, 2);
    assert!(err.starts_with(&format!("datagen: error: {}: not a calvin datagen file", s(&b))), "{err}");
    let (code, _, err) = calvin(&["datagen", "merge", &s(&out), &s(&out)]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = calvin(&["datagen", "merge", &s(&out)]);
    assert_eq!(code, 2);
    assert!(err.starts_with("datagen: error: merge needs OUT and at least one IN"), "{err}");
    assert!(!out.exists());
}

/// `tools/nnue/remap.py` writes chess's features in IAGO's layout: every
/// position's features, both sides' views, are those `reference.py` reads
/// from the same board as an iago-b or iago-c position with an empty
/// reserve.
#[test]
#[ignore = "needs numpy and scipy (tools/train/.venv; .ci/run runs it with --ignored)"]
fn chess_features_remapped_are_the_iago_features_of_the_same_board() {
    let python = trainer_python();
    let (data, feats) = (temp("remap.bin"), temp("remap.ft"));
    assert_eq!(datagen("chess", 2, &data, &["--quiet"]).0, 0);
    convert("features", &data, &feats);
    let boards: Vec<String> = read(&data)
        .games
        .iter()
        .flat_map(|g| g.records.iter().map(|r| r.fen.split(' ').next().expect("a board").to_string()))
        .collect();
    assert_eq!(boards.len(), CHESS_TWO_GAMES);
    let list = temp("remap.boards");
    std::fs::write(&list, boards.join("\n")).expect("write");
    for variant in ["iago-b", "iago-c"] {
        let out = temp(&format!("remap-{variant}.ft"));
        let tools = concat!(env!("CARGO_MANIFEST_DIR"), "/tools/nnue");
        let o = Command::new(&python)
            .arg(format!("{tools}/remap.py"))
            .args([&feats, &out])
            .arg(variant)
            .output()
            .expect("python runs");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        // Each position's features (0xFFFF left out) against reference.py's, both views.
        let check = "import sys; sys.path.insert(0, sys.argv[1]); import nnue_io, reference\n\
                     v, nf, m, rec = nnue_io.open_ft(sys.argv[2]); boards = open(sys.argv[3]).read().split()\n\
                     assert (v, nf, m, len(rec)) == (sys.argv[4], 1152, 36, len(boards)), (v, nf, m, len(rec))\n\
                     for r, b in zip(rec, boards):\n    \
                     for p in (0, 1):\n        \
                     got = sorted(int(f) for f in r['feat'][p] if f != 0xFFFF)\n        \
                     assert got == sorted(reference.features(sys.argv[4], b + '[] w - - 0 1', p)), (b, p)\n\
                     print(len(boards))";
        let o = Command::new(&python)
            .args(["-c", check, tools, out.to_str().expect("utf-8"), list.to_str().expect("utf-8"), variant])
            .output()
            .expect("python runs");
        assert!(o.status.success(), "{variant}: {}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(String::from_utf8_lossy(&o.stdout), format!("{CHESS_TWO_GAMES}\n"), "{variant}");
    }
}

/// `nnue_io.mirror_table` (train.py's `--mirror`) maps the features of each
/// of reference.py's positions, in both views, to those of the position
/// mirrored left to right, as reference.py reads them from the mirrored FEN
/// (castling rights and hands are not board features); and mirroring twice
/// gives back every feature.
#[test]
#[ignore = "needs numpy (tools/train/.venv; .ci/run runs it with --ignored)"]
fn the_trainers_mirror_maps_features_to_the_mirrored_positions() {
    let script = r#"
import sys
sys.path.insert(0, sys.argv[1])
import numpy as np
import nnue_io, reference

def mirrored(fen):
    board, rest = fen.split(" ", 1)
    hand = ""
    if "[" in board:
        board, hand = board.split("[")
        hand = "[" + hand
    rows = []
    for row in board.split("/"):
        cells = "".join("." * int(c) if c.isdigit() else c for c in row)[::-1]
        out, run = "", 0
        for c in cells:
            if c == ".":
                run += 1
                continue
            out += (str(run) if run else "") + c
            run = 0
        rows.append(out + (str(run) if run else ""))
    return "/".join(rows) + hand + " " + rest

checked = 0
for variant, fen in reference.POSITIONS:
    nf = reference.feature_count(variant)
    table = nnue_io.mirror_table(variant, nf)
    assert (table[table] == np.arange(65536)).all(), variant
    for persp in (0, 1):
        images = sorted(int(table[f]) for f in reference.features(variant, fen, persp))
        assert images == sorted(reference.features(variant, mirrored(fen), persp)), (variant, fen, persp)
        checked += 1
print(f"mirror checked on {checked} views; mirrored {reference.POSITIONS[1][1]} is {mirrored(reference.POSITIONS[1][1])}")
"#;
    let o = Command::new(trainer_python())
        .args(["-c", script, concat!(env!("CARGO_MANIFEST_DIR"), "/tools/nnue")])
        .output()
        .expect("python runs");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{out}{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        out.trim(),
        "mirror checked on 16 views; mirrored r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1 \
         is r2k3r/1bpqpp1p/1pnp2nb/3NP3/3P2p1/p1Q2N2/PPPBBPPP/R2K3R w KQkq - 0 1"
    );
}
