//! Bufferbloat and its cure, end to end: one CUBIC bulk flow over 100 Mbit/s and 50 ms with a
//! 1 000-packet queue, then four of them with a latency probe beside, under each queue
//! discipline; and ECN, which trades CoDel's drops for marks.

use tcplab::metrics::summary::Summary;
use tcplab::player::{StepKind, StepWindow};
use tcplab::{run, RunOptions, Scenario};

const PATH: &str = "cc=cubic&rtt=50&bw=100&queue=1000&app=bulk";

fn summary(q: &str) -> Summary {
    let s = Scenario::parse(q).unwrap_or_else(|e| panic!("{q}: {e}"));
    run(&s, &RunOptions::default()).summary
}

fn sojourn(s: &Summary) -> (f64, f64) {
    let d = s
        .queue_delay_ms
        .as_ref()
        .expect("data passed the bottleneck");
    (d.p50, d.p99)
}

fn goodput(s: &Summary) -> f64 {
    s.goodput_MBps.expect("data was delivered")
}

/// A deep drop-tail buffer stands full: the window fills it. CoDel keeps the standing queue at
/// its 5 ms target and gives up little of the link: one CUBIC flow's cut (to 0.7 of its
/// window) on a path whose queue no longer covers it costs a few percent until the window
/// regrows.
#[test]
fn codel_cures_a_deep_fifo_s_standing_queue_at_little_cost() {
    let fifo = summary(&format!("{PATH}&dur=60"));
    let codel = summary(&format!("{PATH}&dur=60&aqm=codel"));
    let (fifo_p50, _) = sojourn(&fifo);
    assert!(fifo_p50 > 50.0, "FIFO's median sojourn {fifo_p50} ms");
    let (_, codel_p99) = sojourn(&codel);
    assert!(codel_p99 < 25.0, "CoDel's p99 sojourn {codel_p99} ms");
    assert!(codel.aqm_drops > 0 && codel.queue_drops == 0);
    assert!(
        goodput(&codel) >= 0.9 * goodput(&fifo),
        "CoDel {} MB/s against FIFO's {}",
        goodput(&codel),
        goodput(&fifo)
    );
}

/// Four bulk flows and a ping every 10 ms: behind a full FIFO the ping waits with them;
/// FQ-CoDel serves it as the sparse flow it is, and its round trip stays at the path's.
#[test]
fn fq_codel_keeps_a_ping_at_the_base_rtt_under_four_bulk_flows() {
    let q = format!("{PATH}&flows=4&probe=10&dur=20");
    let probe_p99 = |s: &Summary| {
        s.probe
            .as_ref()
            .and_then(|p| p.p99_ms)
            .expect("the probe was answered")
    };
    let fifo = summary(&q);
    let fq = summary(&format!("{q}&aqm=fq_codel"));
    assert!(
        probe_p99(&fifo) > 80.0,
        "FIFO: ping p99 {} ms",
        probe_p99(&fifo)
    );
    assert!(
        probe_p99(&fq) <= 50.0 + 10.0,
        "FQ-CoDel: ping p99 {} ms for a 50 ms path",
        probe_p99(&fq)
    );
    // Each bulk flow has its own CoDel: every one's wait is held near target, the FIFO's
    // all stand in one queue.
    assert_eq!(fq.per_flow_queue_delay_ms.len(), 4);
    for (own, shared) in fq
        .per_flow_queue_delay_ms
        .iter()
        .zip(&fifo.per_flow_queue_delay_ms)
    {
        let (own, shared) = (own.as_ref().expect("sent"), shared.as_ref().expect("sent"));
        assert!(own.p99 < 25.0 && shared.p50 > 50.0, "{own:?} {shared:?}");
    }
    assert!(summary(&format!("{PATH}&dur=1"))
        .per_flow_queue_delay_ms
        .is_empty());
    let p = fq.probe.as_ref().expect("a probe ran");
    assert_eq!(p.sent, 2000, "one every 10 ms for 20 s");
    assert_eq!(p.lost, 0, "a sparse flow is never CoDel's to drop");
    assert!(p.jitter_ms.is_some_and(|j| j < 1.0), "{p:?}");
}

/// RFC 3168 with CoDel: the marks take the drops' place, so nothing is retransmitted for
/// them, and the window answers each as it would a loss, so the goodput is the same.
#[test]
fn ecn_trades_codel_s_drops_for_marks() {
    let drops = summary(&format!("{PATH}&dur=30&aqm=codel"));
    let marks = summary(&format!("{PATH}&dur=30&aqm=codel&ecn=1"));
    assert!(drops.retransmitted_segments > 0);
    assert!(
        marks.retransmitted_segments * 10 <= drops.retransmitted_segments,
        "{} retransmissions with ECN, {} without",
        marks.retransmitted_segments,
        drops.retransmitted_segments
    );
    assert!(marks.ecn_marks > 0 && marks.aqm_drops == 0);
    let (g0, g1) = (goodput(&drops), goodput(&marks));
    assert!(
        (g1 - g0).abs() <= 0.05 * g0,
        "goodput {g1} with ECN, {g0} without"
    );
}

/// Each echoed mark cuts a loss-based window as a loss would; BBR v1, as Linux's, takes no
/// signal from it: its window after the echo is what its model says, not a cut.
#[test]
fn an_echoed_mark_cuts_cubic_s_window_and_not_bbr_s() {
    for (cc, cuts) in [("cubic", true), ("bbr", false)] {
        let q = format!("cc={cc}&rtt=50&bw=100&queue=1000&app=bulk&dur=4&aqm=codel&ecn=1");
        let s = Scenario::parse(&q).unwrap_or_else(|e| panic!("{q}: {e}"));
        let r = run(
            &s,
            &RunOptions {
                record_steps: Some(StepWindow::WHOLE_RUN),
                ..RunOptions::default()
            },
        );
        let steps = r.steps.expect("recorded").steps;
        let echoes: Vec<(usize, u64, u64)> = steps
            .iter()
            .enumerate()
            .filter_map(|(i, s)| match s.kind {
                StepKind::EcnEcho {
                    cwnd_before,
                    ssthresh,
                } => Some((i, cwnd_before, ssthresh)),
                _ => None,
            })
            .collect();
        assert!(!echoes.is_empty(), "{cc}: marks were echoed");
        // A teacher's "next key event" stops at each echo.
        assert!(echoes.iter().all(|&(i, ..)| steps[i].kind.is_landmark()));
        for (i, before, ssthresh) in echoes {
            if cuts {
                // CUBIC's beta, 717/1024 of the window, at once (`bictcp_recalc_ssthresh`).
                let want = before as f64 * 717.0 / 1024.0;
                assert!(
                    (ssthresh as f64 - want).abs() <= 1448.0,
                    "{cc}: {before} -> {ssthresh}"
                );
            }
            // The window two round trips later, PRR's reduction done.
            let t = steps[i].t_ms + 2.0 * 55.0;
            let after = steps
                .iter()
                .skip(i)
                .find(|s| s.t_ms >= t)
                .map_or(before, |s| s.state.cwnd);
            if cuts {
                assert!(
                    (after as f64) <= 0.75 * before as f64,
                    "{cc}: cwnd {before} -> {after} a round trip after the echo"
                );
            } else {
                assert!(
                    (after as f64) >= 0.9 * before as f64,
                    "{cc}: cwnd {before} -> {after} a round trip after the echo"
                );
            }
        }
        assert_eq!(r.summary.retransmitted_segments, 0, "{cc}");
    }
}
