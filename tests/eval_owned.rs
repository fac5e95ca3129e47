//! The evaluation is owned: loading an `EvalFile` again and again frees the
//! evaluation it replaces. Alone in its test binary, so that no other test's
//! allocations move the resident set it reads.

use calvin::engine::Engine;

/// The resident set of this process in KiB (`VmRSS` in `/proc/self/status`).
fn rss_kib() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).expect("a VmRSS line");
    line.split_whitespace().nth(1).and_then(|kb| kb.parse().ok()).expect("VmRSS in kB")
}

#[test]
fn loading_an_eval_file_a_thousand_times_leaves_the_memory_where_it_was() {
    let mut engine = Engine::new();
    let load = |engine: &mut Engine| {
        let net = engine.set_eval_file(Some("weights/chess.nn")).expect("the chess network");
        assert_eq!(net, "EvalFile weights/chess.nn: chess network loaded (864x256 SCReLU, 8 output buckets)");
        let weights = engine.set_eval_file(Some("weights/chess.weights")).expect("the chess weights");
        assert!(weights.starts_with("EvalFile weights/chess.weights: chess weights loaded ("), "{weights}");
    };
    // The allocator's arenas settle first.
    for _ in 0..20 {
        load(&mut engine);
    }
    let before = rss_kib();
    for _ in 0..1000 {
        load(&mut engine);
    }
    let after = rss_kib();
    let grown = after.saturating_sub(before);
    eprintln!("1,000 loads: {before} -> {after} KiB");
    assert!(grown < 2048, "1,000 loads grew the resident set by {grown} KiB ({before} -> {after})");
}
