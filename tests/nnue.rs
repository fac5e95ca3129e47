//! Networks through `EvalFile`: loaded for the variant they name, refused
//! with one error line when missing, truncated or of another shape (the
//! engine keeps what it had), shown by `eval`, and used by the search.

use calvin::eval::nnue::{Network, feature_count};
use calvin::position::Position;
use calvin::registry::{RuleOptions, new_game_with_rules};
use calvin::variant::Variant;
use calvin::variants::chess::Chess;
use calvin::variants::historia::HistoriaSako;
use std::io::Write;
use std::process::{Command, Stdio};

/// A network of `V`'s shape with weights from a fixed LCG.
fn net<V: Variant>(name: &str) -> Network {
    let mut x = 12345u64;
    Network::from_fn(name, feature_count::<V>(), 32, (1, 1), |_| {
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

/// Every value of every IAGO rule option keeps the class's network: `eval`
/// shows its line. Gating, drops and the notation keep the rulings' eight
/// piece types (the notation, no rule, the rulings' game and network too);
/// the other options add the Amazon, and the network is widened to it
/// (it reads as a Queen). Where the start position is the rulings' the
/// value is the rulings' (`protocol/sessions/evalfile.session`: 33 and 21);
/// a reserve without the Amazon gives the value the rulings give its start
/// position.
#[test]
fn every_iago_rule_option_evaluates_with_the_network() {
    // Iago-b's network has 8 output buckets, iago-c's one.
    let iago_b = (
        "built-in (network 1152x256 SCReLU, 8 output buckets)",
        "built-in (network 1296x256 SCReLU, 8 output buckets, A read as Q)",
    );
    let iago_c = ("built-in (network 1152x256 SCReLU)", "built-in (network 1296x256 SCReLU, A read as Q)");
    // The class's own reserve (the rulings) and two others without the Amazon.
    for (variant, start_eval, own, others, (rulings, widened)) in
        [("iago-b", 33, "MC", ["QMC", "M"], iago_b), ("iago-c", 21, "QMC", ["MC", "M"], iago_c)]
    {
        // (option, value, its default, the network, the start's value if the rulings').
        let mut cases = vec![
            ("IagoGating", "false", "true", rulings, Some(start_eval)),
            ("IagoDrops", "false", "true", rulings, Some(start_eval)),
            ("IagoCastlingGates", "true", "false", widened, Some(start_eval)),
            ("IagoBareKing", "true", "false", widened, Some(start_eval)),
            ("IagoPromotion", "reserve-only", "equipment", widened, Some(start_eval)),
            ("IagoPromotion", "fide", "equipment", widened, Some(start_eval)),
            ("IagoNotation", "iago", "uci", rulings, Some(start_eval)),
            ("IagoReserve", "A", "default", widened, None),
            ("IagoReserve", "MCA", "default", widened, None),
            ("IagoReserve", "QMCA", "default", widened, None),
            ("IagoReserve", own, "default", rulings, Some(start_eval)),
            ("IagoReserve", others[0], "default", widened, None),
            ("IagoReserve", others[1], "default", widened, None),
        ];
        if variant == "iago-b" {
            cases.push(("IagoReserve", "none", "default", widened, None));
        }
        let mut input = format!("setoption name UCI_Variant value {variant}\n");
        for (option, value, default, _, _) in &cases {
            input += &format!(
                "setoption name {option} value {value}\nposition startpos\neval\nsetoption name {option} value {default}\n"
            );
        }
        input += "quit\n";
        let lines = session(&input);
        let nets: Vec<&String> = lines.iter().filter(|l| l.starts_with("info string network eval ")).collect();
        assert_eq!(nets.len(), cases.len(), "{variant}: {lines:?}");
        for ((option, value, _, source, want), line) in cases.iter().zip(&nets) {
            let (eval, from) = line["info string network eval ".len()..].split_once(" weights ").unwrap();
            assert_eq!(from, *source, "{variant} {option} {value}");
            if let Some(want) = want {
                assert_eq!(eval, want.to_string(), "{variant} {option} {value}");
            }
        }
        // A reserve without the Amazon: its start position under the rulings.
        for reserve in others {
            let i = cases.iter().position(|c| c.0 == "IagoReserve" && c.1 == reserve).unwrap();
            let mut rules = RuleOptions::default();
            calvin::variants::iago::options::RESERVE.apply(&mut rules, reserve).unwrap();
            let fen = new_game_with_rules(variant, &rules).unwrap().start_fen();
            let lines =
                session(&format!("setoption name UCI_Variant value {variant}\nposition fen {fen}\neval\nquit\n"));
            let line = lines.iter().find(|l| l.starts_with("info string network eval ")).unwrap();
            assert!(line.ends_with(rulings), "{line}");
            assert_eq!(line.replace(rulings, widened), *nets[i], "{variant} IagoReserve {reserve}: {fen}");
        }
    }
}

/// `EvalFile` with an IAGO network reaches every rule option: the shipped
/// eight-type file loaded while chess is played serves iago-b's rulings and,
/// widened, its other options; a network of the nine types (the Amazon's
/// own rows) serves the options alone, and the rulings keep theirs.
#[test]
fn eval_file_networks_under_the_iago_rule_options() {
    use calvin::variants::iago::IagoBRules;
    type IagoBX = IagoBRules<true, true, true>;
    let dir = std::env::temp_dir().join(format!("calvin-nnue-iago-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let nine = dir.join("nine.nn").to_string_lossy().into_owned();
    let wide = net::<IagoBX>("iago-b");
    std::fs::write(&nine, wide.to_bytes()).expect("write");
    let start = Position::<IagoBX>::from_fen(IagoBX::START_FEN).expect("fen");
    // The whole evaluation (not on top of the formula).
    let want = wide.evaluate(&start);
    let input = format!(
        "setoption name EvalFile value weights/iago-b.nn\n\
         setoption name UCI_Variant value iago-b\nsetoption name IagoCastlingGates value true\n\
         position startpos\neval\nsetoption name IagoCastlingGates value false\nposition startpos\neval\n\
         setoption name EvalFile value {nine}\nsetoption name IagoBareKing value true\n\
         setoption name EvalFile value {nine}\nposition startpos\neval\n\
         setoption name IagoBareKing value false\nposition startpos\neval\nquit\n"
    );
    let lines: Vec<String> = session(&input)
        .into_iter()
        .filter(|l| !l.starts_with("info string eval ") && !l.starts_with("info string weights"))
        .filter(|l| !l.starts_with("info string variant"))
        .collect();
    let file = "weights file weights/iago-b.nn (network";
    let expected = [
        "info string EvalFile weights/iago-b.nn: iago-b network loaded (1152x256 SCReLU, 8 output buckets), used when \
         iago-b is played"
            .to_string(),
        format!("info string network eval 33 {file} 1296x256 SCReLU, 8 output buckets, A read as Q)"),
        format!("info string network eval 33 {file} 1152x256 SCReLU, 8 output buckets)"),
        format!("info string error EvalFile {nine}: wrong shape: 1296 features, iago-b has 1152"),
        format!("info string EvalFile {nine}: iago-b network loaded (1296x32)"),
        format!("info string network eval {want} weights file {nine} (network 1296x32)"),
        format!("info string network eval 33 {file} 1152x256 SCReLU, 8 output buckets)"),
    ];
    assert_eq!(lines, expected);
}
