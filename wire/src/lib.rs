//! A run's view and steps on their way from the worker to the page: postcard bytes (serde's
//! compact, non-self-describing form), a few bytes a field, transferred rather than copied, and
//! read without parsing text. A crate of its own only so that the page's build can optimise
//! these hot paths for speed (`[profile.page.package.tcplab-wire]` in the workspace's
//! Cargo.toml) while the rest of the page is optimised for size: 100 000 steps read in half
//! the time (docs/performance.md, "The player's steps").

use tcplab::player::Steps;
use tcplab::view::RunView;
use tcplab::{RunOptions, Scenario};

/// The page's event budget. The worker simulates 6 to 9 million events a second on a long run
/// in Chromium (docs/performance.md), so a run stops after at most a few seconds; the runner's
/// budget is ten times larger, and a run that needs more says so and names the command that
/// finishes it.
pub const PAGE_MAX_EVENTS: u64 = 20_000_000;

/// The options of the page's runs: the page's budget, every trace. A view's run takes them as
/// they are; the worker's other runs change only what they record.
pub fn page_options() -> RunOptions {
    RunOptions {
        max_events: PAGE_MAX_EVENTS,
        ..RunOptions::default()
    }
}

/// The view of a run with [`page_options`], as the worker answers the charts (it times the run
/// besides) and as the page's build makes the default scenario's, which comes with the page
/// (web/build.rs).
pub fn page_view(scenario: &Scenario) -> RunView {
    RunView::new(scenario, &tcplab::run(scenario, &page_options()))
}

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

    /// The default page fetches its view (web/build.rs), so its size is part of a first
    /// visit's: 173 472 bytes when every number was its eight bytes, 45 783 with the series as
    /// columns of differences (`tcplab::view`'s `packed`).
    #[test]
    fn the_default_view_goes_as_columns_of_differences() {
        let view = page_view(&Scenario::default());
        let bytes = encode_view(&view).expect("written");
        let numbers: usize = view
            .flows
            .iter()
            .map(|f| 7 * f.window.len() + 2 * (f.sends.len() + f.acks.len() + f.rtt.len()))
            .sum::<usize>()
            + 2 * (view.queue.len() + view.sojourn.len());
        assert!(numbers > 10_000, "{numbers} numbers");
        assert!(
            bytes.len() * 3 < numbers * 8,
            "{} bytes for {numbers} numbers",
            bytes.len()
        );
    }
}
