//! A run's view and steps on their way from the worker to the page: postcard bytes (serde's
//! compact, non-self-describing form), a few bytes a field, transferred rather than copied, and
//! read without parsing text. A crate of its own only so that the page's build can optimise
//! these hot paths for speed (`[profile.page.package.tcplab-wire]` in the workspace's
//! Cargo.toml) while the rest of the page is optimised for size: 100 000 steps read in half
//! the time (docs/performance.md, "The player's steps").

use tcplab::player::Steps;
use tcplab::view::RunView;

/// A run's steps as the worker sends them.
pub fn encode_steps(steps: &Steps) -> Result<Vec<u8>, String> {
    postcard::to_allocvec(steps).map_err(|e| format!("the run's steps could not be written: {e}"))
}

/// A run's steps as the page reads them.
pub fn decode_steps(bytes: &[u8]) -> Result<Steps, String> {
    postcard::from_bytes(bytes).map_err(|e| format!("the run's steps are unreadable: {e}"))
}

/// A run's view for the charts, as the worker sends it: the same postcard bytes as the steps,
/// smaller than its JSON and read without parsing text (docs/performance.md,
/// "Input to charts drawn").
pub fn encode_view(view: &RunView) -> Result<Vec<u8>, String> {
    postcard::to_allocvec(view).map_err(|e| format!("the run's view could not be written: {e}"))
}

/// A run's view as the page reads it.
pub fn decode_view(bytes: &[u8]) -> Result<RunView, String> {
    postcard::from_bytes(bytes).map_err(|e| format!("the run's view is unreadable: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tcplab::{RunOptions, Scenario};

    /// Postcard is not self-describing: a field left out when empty would shift every byte
    /// after it, so a view must come back whole, with its empty lists and its many flows alike.
    #[test]
    fn a_view_comes_back_as_it_went() {
        for query in [
            "",
            "flows=3&cc=cubic,bbr,reno&loss=0.01",
            "sched=1:rtt:80&link=lte",
        ] {
            let scenario = Scenario::parse(query).expect(query);
            let result = tcplab::run(&scenario, &RunOptions::default());
            let view = RunView::new(&scenario, &result);
            let bytes = encode_view(&view).expect("written");
            assert_eq!(decode_view(&bytes).as_ref(), Ok(&view), "{query}");
            let json = serde_json::to_string(&view).expect("json");
            assert!(
                bytes.len() < json.len(),
                "{query}: {} bytes against {}",
                bytes.len(),
                json.len()
            );
        }
        assert!(decode_view(&[1, 2, 3]).is_err());
    }
}
