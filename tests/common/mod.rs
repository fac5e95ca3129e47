//! Helpers shared by the integration tests (each test crate uses some of them).
#![allow(dead_code)]

/// A fixed xorshift64 sequence from `seed`: the random games of the
/// invariant tests are the same in every run.
pub fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    let mut state = seed | 1;
    move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    }
}

/// A move index below `len` drawn from `next`.
pub fn pick(next: &mut impl FnMut() -> u64, len: usize) -> usize {
    (next() % len as u64) as usize
}

/// Whether `python3` runs; where it does not, a note that `what` is not tested.
pub fn python3(what: &str) -> bool {
    let ok = std::process::Command::new("python3")
        .arg("--version")
        .stdout(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        eprintln!("python3 not found: {what} not tested");
    }
    ok
}
