//! Hostile input for the scenario parser: random bytes, random strings over the query's own
//! alphabet, and soups of real keys with absurd values, from a seeded generator (so the corpus is
//! the generator and a seed). Shared by `tests/fuzz_scenario.rs` and
//! `examples/fuzz_scenario.rs`.

use std::panic;
use std::time::{Duration, Instant};

use tcplab::rng::SimRng;
use tcplab::scenario::{Key, Problem};
use tcplab::Scenario;

const ALPHABET: &[u8] = b"=&%,.-+0123456789eE abcdefghijklmnopqrstuvwxyzKMGBib%?#;/\\\"'\x00\xff";

const NASTY: &[&str] = &[
    "",
    "-",
    "-0",
    "0",
    "1",
    "1e309",
    "NaN",
    "nan",
    "inf",
    "-inf",
    "1e-400",
    "0.1%",
    "%",
    "%%",
    "%2",
    "%zz",
    "99999999999999999999999999",
    "18446744073709551616",
    "18446744073709551615",
    "0x10",
    "1_000",
    "١٢",
    "１２",
    "1.",
    ".5",
    "5..5",
    "1,2,3",
    ",",
    "1,,2",
    "28ms",
    "1gbit",
    "20Mb",
    "4MiB",
    "2.5MB",
    "10s",
    "reno",
    "bbr",
    "msgs",
    "post-slow-start",
    "\u{202e}",
    "😀",
];

fn pick<'a, T>(rng: &mut SimRng, items: &'a [T]) -> &'a T {
    &items[(rng.next_u64() % items.len() as u64) as usize]
}

pub fn input(rng: &mut SimRng) -> String {
    match rng.next_u64() % 4 {
        // Random bytes, lossily made a string (a hand-edited or corrupted link).
        0 => {
            let n = (rng.next_u64() % 64) as usize;
            let bytes: Vec<u8> = (0..n).map(|_| rng.next_u64() as u8).collect();
            String::from_utf8_lossy(&bytes).into_owned()
        }
        // The query's own alphabet, at random.
        1 => {
            let n = (rng.next_u64() % 80) as usize;
            (0..n).map(|_| char::from(*pick(rng, ALPHABET))).collect()
        }
        // Real keys with absurd values, repeated keys, unknown keys.
        _ => {
            let n = 1 + (rng.next_u64() % 8) as usize;
            let parts: Vec<String> = (0..n)
                .map(|_| {
                    let key = if rng.next_u64().is_multiple_of(10) {
                        "bogus".to_string()
                    } else {
                        pick(rng, &Key::ALL).name().to_string()
                    };
                    let value = if rng.next_u64().is_multiple_of(3) {
                        format!("{}", rng.next_u64() as i64 as f64 * rng.uniform().powi(8))
                    } else {
                        (*pick(rng, NASTY)).to_string()
                    };
                    format!("{key}={value}")
                })
                .collect();
            parts.join("&")
        }
    }
}

/// Checks one input; `Err` describes what was wrong.
pub fn check(query: &str) -> Result<bool, String> {
    let start = Instant::now();
    let parsed =
        panic::catch_unwind(|| Scenario::parse(query)).map_err(|_| "panicked".to_string())?;
    if start.elapsed() > Duration::from_millis(50) {
        return Err(format!("took {:?}", start.elapsed()));
    }
    match parsed {
        Ok(s) => {
            // What was accepted prints and reads back to itself.
            let again =
                Scenario::parse(&s.to_query()).map_err(|e| format!("reprint refused: {e}"))?;
            if again != s {
                return Err("reprint differs".into());
            }
            Ok(true)
        }
        Err(e) => {
            let key = e.key();
            // An unknown key is named as given, made printable (control characters and
            // overlong input are shown escaped or cut).
            let named = Key::from_name(key).is_some() || matches!(e.problem(), Problem::UnknownKey);
            let unknown = matches!(e.problem(), Problem::UnknownKey);
            if !named || !(unknown || e.to_string().starts_with(key)) {
                return Err(format!("error names no key: {e}"));
            }
            Ok(false)
        }
    }
}
