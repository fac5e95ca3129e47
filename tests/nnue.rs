//! Networks through `EvalFile`: loaded for the variant they name, refused
//! with one error line when missing, truncated or of another shape (the
//! engine keeps what it had), shown by `eval`, and used by the search.

use calvin::eval::nnue::{Network, feature_count};
use calvin::position::Position;
use calvin::variant::Variant;
use calvin::variants::chess::Chess;
use calvin::variants::historia::HistoriaSako;
use std::io::Write;
use std::process::{Command, Stdio};

/// A network of `V`'s shape with weights from a fixed LCG.
fn net<V: Variant>(name: &str) -> Network {
    let mut x = 12345u64;
    Network::from_fn(name, feature_count::<V>(), 32, |_| {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((x >> 33) % 41) as i16 - 20
    })
}

/// Runs the engine on `input`; returns its `info string` lines.
fn session(input: &str) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_calvin"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("runs calvin");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("writes");
    let out = child.wait_with_output().expect("ends");
    String::from_utf8_lossy(&out.stdout).lines().filter(|l| l.starts_with("info string")).map(String::from).collect()
}

#[test]
fn eval_file_loads_a_network_and_refuses_bad_ones() {
    let dir = std::env::temp_dir().join(format!("calvin-nnue-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let good = net::<HistoriaSako>("historia-sako");
    let bytes = good.to_bytes();
    let path = |n: &str| dir.join(n).to_string_lossy().into_owned();
    std::fs::write(path("h.nn"), &bytes).expect("write");
    std::fs::write(path("cut.nn"), &bytes[..bytes.len() - 10]).expect("write");
    std::fs::write(path("chess.nn"), net::<Chess>("chess").to_bytes()).expect("write");
    // Historia's shape under chess's name, and chess's shape under Historia's.
    std::fs::write(path("named.nn"), net::<HistoriaSako>("chess").to_bytes()).expect("write");
    std::fs::write(path("shape.nn"), net::<Chess>("historia-sako").to_bytes()).expect("write");
    let fen = "2nen3/2q1pppp/pppp4/8/8/4PPPP/PPPP4/R1RK3N[QBBNEEkrrbbe] w - - 0 5";
    let want = good.evaluate(&Position::<HistoriaSako>::from_fen(fen).expect("fen"));
    let input = format!(
        "setoption name UCI_Variant value historia-sako\nposition fen {fen}\n\
         setoption name EvalFile value {h}\neval\n\
         setoption name EvalFile value {cut}\nsetoption name EvalFile value {shape}\n\
         setoption name EvalFile value {named}\nsetoption name EvalFile value {missing}\neval\n\
         setoption name EvalFile value {chess}\n\
         go nodes 2000\nisready\nsetoption name EvalFile value <none>\neval\nquit\n",
        h = path("h.nn"),
        cut = path("cut.nn"),
        shape = path("shape.nn"),
        named = path("named.nn"),
        missing = path("none.nn"),
        chess = path("chess.nn"),
    );
    let lines = session(&input);
    let network = format!("info string network eval {want} weights file {} (network 1008x32)", path("h.nn"));
    let chess_features = feature_count::<Chess>();
    let expected = [
        format!("info string EvalFile {}: historia-sako network loaded (1008x32)", path("h.nn")),
        network.clone(),
        format!("info string error EvalFile {}: truncated: the file ends in the output weights", path("cut.nn")),
        format!(
            "info string error EvalFile {}: wrong shape: {chess_features} features, historia-sako has 1008",
            path("shape.nn")
        ),
        format!(
            "info string error EvalFile {}: wrong shape: 1008 features, chess has {chess_features}",
            path("named.nn")
        ),
        format!("info string error EvalFile {}: cannot be read (no such file)", path("none.nn")),
        // The network is still the first one.
        network,
        format!(
            "info string EvalFile {}: chess network loaded ({chess_features}x32), used when chess is played",
            path("chess.nn")
        ),
        "info string EvalFile <none>: every variant evaluates without learned weights".into(),
    ];
    let got: Vec<&String> = lines
        .iter()
        .filter(|l| {
            !l.starts_with("info string eval ")
                && !l.starts_with("info string weights")
                && !l.starts_with("info string variant")
        })
        .collect();
    assert_eq!(got, expected.iter().collect::<Vec<_>>());
    // After `<none>`, `eval` has no network line.
    assert!(lines.last().is_some_and(|l| l.starts_with("info string weights none")), "{lines:?}");
}
