//! The scenario parser against 200 000 hostile inputs on every test run (the example
//! `fuzz_scenario` runs millions: docs/performance.md).

#![cfg(not(target_arch = "wasm32"))]

mod fuzz;

use tcplab::rng::SimRng;

#[test]
fn hostile_queries_are_accepted_or_refused_by_name_never_panicking() {
    std::panic::set_hook(Box::new(|_| {}));
    let mut rng = SimRng::new(20261130);
    let mut accepted = 0;
    for i in 0..200_000 {
        let q = fuzz::input(&mut rng);
        match fuzz::check(&q) {
            Ok(ok) => accepted += usize::from(ok),
            Err(why) => panic!("input {i}: {why}: {q:?}"),
        }
    }
    // The soups must reach both outcomes, or the generator has gone blind.
    assert!(accepted > 100 && accepted < 190_000, "{accepted} accepted");
}
