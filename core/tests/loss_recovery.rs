//! Loss recovery told as scenarios, each read from the player's record of a staged loss: what
//! RFC 8985's tail loss probe, RFC 5681's window rules and Linux's timer do with it.

use tcplab::player::{Step, StepKind, StepWindow, Steps};
use tcplab::{run, RunOptions, Scenario};

fn record(q: &str) -> (Steps, tcplab::Summary) {
    let s = Scenario::parse(q).unwrap_or_else(|e| panic!("{q}: {e}"));
    let r = run(
        &s,
        &RunOptions {
            record_steps: Some(StepWindow::WHOLE_RUN),
            ..RunOptions::default()
        },
    );
    (r.steps.unwrap_or_default(), r.summary)
}

fn first<'a>(steps: &'a Steps, what: &str, f: impl Fn(&StepKind) -> bool) -> &'a Step {
    steps
        .steps
        .iter()
        .find(|s| f(&s.kind))
        .unwrap_or_else(|| panic!("no {what} step"))
}

/// The last of ten segments is lost: no ACK will ever come for it, so only a timer can draw
/// it out. With one segment outstanding the probe's timeout, 2·SRTT + minrto, lies past the
/// RTO's (SRTT + minrto): Linux caps it at the RTO's deadline and, having one timer for both,
/// sends the probe then, which SACK-based recovery repairs. The RTO must not win the tie.
#[test]
fn a_lost_last_segment_is_drawn_out_by_the_probe_not_the_timeout() {
    for rtt in [10, 31, 100, 400] {
        let (steps, summary) = record(&format!("body=14600&drop=10&rtt={rtt}"));
        assert_eq!(summary.timeouts, 0, "rtt {rtt}");
        let probes = steps
            .steps
            .iter()
            .filter(|s| matches!(s.kind, StepKind::LossProbe { .. }))
            .count();
        assert_eq!(probes, 1, "rtt {rtt}");
        assert!(summary.completion_ms.is_some(), "rtt {rtt}");
    }
}

/// RFC 5681 §3.1 and Linux's `tcp_may_raise_cwnd`: a duplicate ACK, though it SACKs new data,
/// does not grow the window; so the window cut at the fast retransmit is that of before the
/// duplicate ACKs.
#[test]
fn duplicate_acks_do_not_grow_the_window_before_recovery() {
    for cc in ["reno", "cubic"] {
        let (steps, _) = record(&format!("cc={cc}&rtt=100&drop=5&body=20000"));
        let dup = first(&steps, "duplicate ACK", |k| {
            matches!(k, StepKind::DuplicateAck { .. })
        });
        let before = dup.state.cwnd;
        let fr = first(&steps, "fast retransmit", |k| {
            matches!(k, StepKind::FastRetransmit { .. })
        });
        let StepKind::FastRetransmit { cwnd_before, .. } = fr.kind else {
            unreachable!()
        };
        assert_eq!(cwnd_before, before, "{cc}");
    }
}
