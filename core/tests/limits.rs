//! Every scenario the parser accepts finishes or stops at a budget with bounded work: the
//! extremes of the key table, run natively.

use tcplab::{run, RunOptions, Scenario};

fn stop_of(q: &str, options: &RunOptions) -> (String, bool, u64) {
    let s = Scenario::parse(q).unwrap_or_else(|e| panic!("{q}: {e}"));
    let r = run(&s, options);
    (
        r.summary.stopped_by,
        r.summary.budget_exhausted,
        r.summary.events,
    )
}

#[test]
fn a_gigabyte_window_of_tiny_segments_stops_at_the_packet_budget() {
    // 1 GiB of 64-byte segments over a 2 s path at 100 Gbit/s would put millions of packets on
    // the wire; the run stops once 400 000 are, and says so.
    let (by, exhausted, _) = stop_of(
        "mss=64&rwnd=1073741824&bw=100000&rtt=2000&app=bulk&dur=600&queue=1000000",
        &RunOptions::default(),
    );
    assert_eq!((by.as_str(), exhausted), ("packet_budget", true));
}

#[test]
fn the_event_budget_stops_a_long_fast_run() {
    let options = RunOptions {
        max_events: 100_000,
        ..RunOptions::default()
    };
    let (by, exhausted, events) = stop_of("app=bulk&dur=600&bw=100000&flows=64", &options);
    assert_eq!(
        (by.as_str(), exhausted, events),
        ("event_budget", true, 100_000)
    );
}

#[test]
fn the_other_stops_say_what_they_are() {
    let o = RunOptions::default();
    assert_eq!(stop_of("", &o).0, "finished");
    assert_eq!(stop_of("app=bulk&dur=1", &o).0, "time_limit");
    assert_eq!(stop_of("body=1GB&dur=0.1", &o).0, "time_limit");
    assert!(!stop_of("body=1GB&dur=0.1", &o).1);
}
