//! Long runs keep bounded traces: ten minutes of a 1 Gbit/s flow with 1 % loss, and a minute
//! of a clean one, hold no more trace rows than the caps allow however many events they see.

use tcplab::{run, RunOptions, Scenario};

/// Rows a series may hold: its cap (32 768 shared among the flows, 512 to 8192 each).
const MAX_ROWS: usize = 8192;

fn check(q: &str) -> u64 {
    let s = Scenario::parse(q).unwrap_or_else(|e| panic!("{q}: {e}"));
    let r = run(&s, &RunOptions::default());
    for f in &r.traces.flows {
        for (name, rows, pushed) in [
            ("window", f.window.rows().len(), f.window.pushed()),
            ("sends", f.sends.rows().len(), f.sends.pushed()),
            (
                "retransmits",
                f.retransmits.rows().len(),
                f.retransmits.pushed(),
            ),
            ("acks", f.acks.rows().len(), f.acks.pushed()),
            ("sacks", f.sacks.rows().len(), f.sacks.pushed()),
        ] {
            assert!(
                rows <= MAX_ROWS,
                "{q}: {name} keeps {rows} rows of {pushed}"
            );
        }
        assert!(f.delivered.bins().count() <= 2048);
    }
    assert!(r.traces.queue.rows().len() <= MAX_ROWS);
    assert!(r.traces.drops.rows().len() <= MAX_ROWS);
    r.summary.events
}

#[test]
fn ten_minutes_of_a_lossy_gigabit_flow_keep_bounded_traces() {
    let events = check("app=bulk&dur=600&bw=1000&loss=1&rwnd=1073741824");
    assert!(events > 300_000, "{events}");
}

#[test]
fn a_minute_of_a_clean_gigabit_flow_keeps_bounded_traces() {
    let events = check("app=bulk&dur=60&bw=1000");
    // Millions of events, a few thousand rows each series.
    assert!(events > 5_000_000, "{events}");
}
