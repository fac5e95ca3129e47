//! `tools/train/to_weights.py` writes exactly the built-in weights
//! from the fit they came from, and the `EvalFile` test files from theirs.
//! They fail where `python3` is missing.

mod common;

use std::process::{Command, Stdio};

/// Runs the converter into a temporary file; returns its bytes.
fn convert(json: &str, variant: &str, letters: &str, description: Option<&str>, name: &str) -> Vec<u8> {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = std::env::temp_dir().join(format!("calvin-weights-test-{}-{name}", std::process::id()));
    let mut cmd = Command::new("python3");
    cmd.arg(format!("{root}/tools/train/to_weights.py")).arg(format!("{root}/{json}")).args([variant, letters]);
    cmd.arg(&out);
    if let Some(d) = description {
        cmd.args(["--description", d]);
    }
    let st = cmd.stdout(Stdio::null()).status().expect("python3 runs");
    assert!(st.success(), "to_weights.py {json}");
    let bytes = std::fs::read(&out).expect("the converter's output");
    let _ = std::fs::remove_file(&out);
    bytes
}

fn committed(path: &str) -> Vec<u8> {
    std::fs::read(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).expect(path)
}

#[test]
fn converter_writes_the_committed_files() {
    common::need_python3("tools/train/to_weights.py");
    for (variant, letters) in [
        ("chess", "PNBRQK"),
        ("historia-sako", "KQRBNEP"),
        ("iago-b", "PNBRQKMC"),
        ("iago-c", "PNBRQKMC"),
        ("ita", "FSLCRBP"),
        ("etcetera", "KREMGP"),
    ] {
        let fit = format!("tools/train/results/{variant}.json");
        let written = convert(&fit, variant, letters, None, variant);
        assert_eq!(written, committed(&format!("weights/{variant}.weights")), "{variant}");
    }
    let d = Some("test: built-in chess, pawns +50");
    let pawn50 = convert("tests/weights/chess-pawn50.json", "chess", "P,N,B,R,Q,K", d, "pawn50");
    assert_eq!(pawn50, committed("tests/weights/chess-pawn50.weights"));
    let ita = convert("tests/weights/ita-pawn10.json", "ita", "FSLCRBP", Some("test: ita pawns +10"), "ita");
    assert_eq!(ita, committed("tests/weights/ita-pawn10.weights"));
    let d = Some("test: historia queen in hand +7");
    let hand = convert("tests/weights/historia-hand7.json", "historia-sako", "KQRBNEP", d, "hand");
    assert_eq!(hand, committed("tests/weights/historia-hand7.weights"));
}

#[test]
fn converter_refuses_letters_the_fit_does_not_cover() {
    common::need_python3("tools/train/to_weights.py");
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("python3")
        .arg(format!("{root}/tools/train/to_weights.py"))
        .arg(format!("{root}/tools/train/results/chess.json"))
        .args(["chess", "PNBRQ", "/nonexistent/out.weights"])
        .output()
        .expect("python3 runs");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "the fit has values for pieces not in LETTERS: k\n");
}
