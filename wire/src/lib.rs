//! A run's steps on their way from the worker to the page: postcard bytes (serde's compact,
//! non-self-describing form), a few bytes a field, transferred rather than copied, and read
//! without parsing text. A crate of its own only so that the page's build can optimise this
//! one hot path for speed (`[profile.page.package.tcplab-wire]` in the workspace's
//! Cargo.toml) while the rest of the page is optimised for size: 100 000 steps read in half
//! the time (docs/performance.md, "The player's steps").

use tcplab::player::Steps;

/// A run's steps as the worker sends them.
pub fn encode_steps(steps: &Steps) -> Result<Vec<u8>, String> {
    postcard::to_allocvec(steps).map_err(|e| format!("the run's steps could not be written: {e}"))
}

/// A run's steps as the page reads them.
pub fn decode_steps(bytes: &[u8]) -> Result<Steps, String> {
    postcard::from_bytes(bytes).map_err(|e| format!("the run's steps are unreadable: {e}"))
}
