//! Every scenario the parser accepts finishes or stops at a budget with bounded work: the
//! extremes of the key table, run natively.

use tcplab::sim::Stop;
use tcplab::{run, RunOptions, Scenario};

fn stop_of(q: &str, options: &RunOptions) -> (Stop, bool, u64) {
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
        "mss=64&rwnd=1073741824&autotune=0&bw=100000&rtt=2000&app=bulk&dur=600&queue=1000000",
        &RunOptions::default(),
    );
    assert_eq!((by, exhausted), (Stop::PacketBudget, true));
}

#[test]
fn the_event_budget_stops_a_long_fast_run() {
    let options = RunOptions {
        max_events: 100_000,
        ..RunOptions::default()
    };
    let (by, exhausted, events) = stop_of("app=bulk&dur=600&bw=100000&flows=64", &options);
    assert_eq!((by, exhausted, events), (Stop::Budget, true, 100_000));
}

#[test]
fn the_other_stops_say_what_they_are() {
    let o = RunOptions::default();
    assert_eq!(stop_of("", &o).0, Stop::Finished);
    assert_eq!(stop_of("app=bulk&dur=1", &o).0, Stop::TimeLimit);
    assert_eq!(stop_of("body=1GB&dur=0.1", &o).0, Stop::TimeLimit);
    assert!(!stop_of("body=1GB&dur=0.1", &o).1);
}

/// The links a hostile user found: BBR with a huge window under random loss keeps thousands of
/// holes open, which once made each event cost in proportion to them.
const HOLES: [&str; 2] = [
    "cc=bbr&app=bulk&dur=600&rtt=200&rwnd=1073741824&loss=1",
    "cc=bbr&app=bulk&dur=600&bw=80&rtt=2000&mss=64&rwnd=1073741824&queue=1000&loss=1&iw=1000",
];

#[test]
fn the_budget_counts_the_work_of_many_holes() {
    let budget = 1_500_000;
    let runs: Vec<_> = HOLES
        .iter()
        .map(|q| {
            let s = Scenario::parse(q).unwrap_or_else(|e| panic!("{q}: {e}"));
            let options = RunOptions {
                max_events: budget,
                ..RunOptions::default()
            };
            (q, run(&s, &options))
        })
        .collect();
    for (q, r) in &runs {
        // Events and the charged work together reach the budget, and the events never pass it.
        assert_eq!(r.summary.stopped_by, Stop::Budget, "{q}");
        assert!(r.summary.events + r.work >= budget, "{q}");
        assert!(r.summary.events <= budget, "{q}");
    }
    // The second link's timeouts deem its whole window of holes lost, a walk over thousands of
    // segments each time: charged as work, so fewer events ran than the budget allows alone.
    let (q, r) = &runs[1];
    assert!(r.summary.timeouts > 0, "{q}");
    assert!(r.work > 0, "{q}");
    assert!(
        r.summary.events < budget,
        "{q}: {} events",
        r.summary.events
    );
}
