//! Feeds the scenario parser millions of hostile inputs (`tests/fuzz/mod.rs`): every one must be
//! accepted, print and read back to itself, or be refused with an error that names a key; none
//! may panic or take long.
//!
//! `cargo run --release -p tcplab --example fuzz_scenario -- 10000000 [seed]`
//!
//! A failure prints the input and its number and stops with status 1.

#[path = "../tests/fuzz/mod.rs"]
mod fuzz;

use std::panic;
use std::time::Instant;

use tcplab::rng::SimRng;

fn main() {
    let mut args = std::env::args().skip(1);
    let count: u64 = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(1);
    panic::set_hook(Box::new(|_| {}));
    let mut rng = SimRng::new(seed);
    let start = Instant::now();
    let mut accepted = 0u64;
    for i in 0..count {
        let q = fuzz::input(&mut rng);
        match fuzz::check(&q) {
            Ok(ok) => accepted += u64::from(ok),
            Err(why) => {
                eprintln!("input {i} of seed {seed}: {why}\n{q:?}");
                std::process::exit(1);
            }
        }
    }
    println!(
        "{count} inputs, {accepted} accepted, {} refused with a key named, no panic, in {:.1} s",
        count - accepted,
        start.elapsed().as_secs_f64()
    );
}
