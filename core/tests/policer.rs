//! A policer before the bottleneck: it holds a flow to its rate by dropping, never by queueing.

use tcplab::{run, RunOptions, Scenario};

fn summary(q: &str) -> tcplab::Summary {
    run(
        &Scenario::parse(q).expect("scenario"),
        &RunOptions::default(),
    )
    .summary
}

#[test]
fn a_policer_holds_a_flow_to_its_rate_by_loss_alone() {
    // 10 Mbit/s policed on a 100 Mbit/s link; a body, so that every drop is repaired before
    // the run ends (a time limit leaves the last round trip's drops unsent).
    let s = summary("rtt=20&bw=100&police=10&body=8MB");
    let payload = 10.0 / 8.0 * 1460.0 / 1512.0;
    let g = s.goodput_MBps.expect("a goodput");
    assert!(g <= payload * 1.03, "{g} MB/s over the policed {payload}");
    assert!(g > payload * 0.5, "{g} MB/s");
    assert!(s.policer_drops > 0);
    // The drops are the policer's: no queue overflows, and nothing waits behind it.
    assert_eq!(s.queue_drops, 0);
    assert_eq!(s.dropped_data, 0);
    assert_eq!(s.retransmitted_segments, s.policer_drops);
    let q = s.queue_delay_ms.expect("a sojourn");
    assert!(q.p99 < 2.0, "{q:?}");
}

#[test]
fn a_policer_above_the_flow_s_rate_drops_nothing_and_none_passes_more_than_its_bucket_allows() {
    let free = summary("rtt=20&bw=10&police=20&app=bulk&dur=5");
    assert_eq!(free.policer_drops, 0);
    // A token bucket's promise: over any span, at most the bucket plus the rate times the
    // span gets through. Payload is less than the wire bytes that spent the tokens.
    for burst in [3_000u64, 200_000] {
        let q = format!("rtt=20&bw=100&police=10&police_burst={burst}&app=bulk&dur=5");
        let r = run(
            &Scenario::parse(&q).expect("scenario"),
            &RunOptions::default(),
        );
        let allowed = burst as f64 + 10e6 / 8.0 * 5.0;
        let delivered = r.delivered[0] as f64;
        assert!(
            delivered <= allowed,
            "{q}: {delivered} bytes past the policer, {allowed} allowed"
        );
        // A bucket of two segments drops from every burst the sender sends at line rate,
        // and its flow starves in timeouts; a deep one passes most of what it allows.
        if burst > 100_000 {
            assert!(delivered > 0.5 * allowed, "{q}: {delivered}");
        }
        assert!(r.summary.policer_drops > 0, "{q}");
    }
}

#[test]
fn a_policer_under_a_managed_queue_drops_before_it() {
    let s = summary("rtt=20&bw=100&police=10&aqm=fq_codel&app=bulk&dur=5");
    assert!(s.policer_drops > 0);
    assert_eq!(s.aqm_drops + s.queue_drops, 0);
}

#[test]
fn the_policer_preset_loses_far_more_and_gets_less_than_a_shaper_at_its_rate() {
    // Flach et al. (SIGCOMM 2016) found policed flows losing several times as much as others,
    // and getting less than the policed rate. The preset's shaped twin is a 10 Mbit/s link
    // with a queue of 1.5 BDPs.
    let policed = summary("preset=policer");
    let shaped = summary("preset=policer&bw=10&police=0&queue=50");
    let payload = 10.0 / 8.0 * 1460.0 / 1512.0;
    let (p, s) = (
        policed.goodput_MBps.unwrap_or(0.0),
        shaped.goodput_MBps.unwrap_or(0.0),
    );
    assert!(
        p < 0.8 * payload,
        "policed {p:.3} MB/s of the policer's {payload:.3}"
    );
    assert!(s > 0.95 * payload, "shaped {s:.3} MB/s");
    let (rp, rs) = (
        policed.retrans_bytes_pct.unwrap_or(0.0),
        shaped.retrans_bytes_pct.unwrap_or(0.0),
    );
    assert!(
        rp > 5.0 * rs,
        "retransmitted: policed {rp:.2} %, shaped {rs:.2} %"
    );
}

#[test]
fn a_policed_flow_recovers_as_linuxs_does() {
    // `preset=policer` (10 Mbit/s policed on 100, 40 ms, 30 s) through the kernel twin
    // (`tcplab-kernel run 'preset=policer'`, and `&cc=bbr`): CUBIC gets 0.821 and 0.855 MB/s and
    // resends 0.41 % of its bytes; BBR resends 6.6 to 7.3 % in six runs (median 7.0). What
    // decides both is how the receiver answers a recovery's out-of-order segments: Linux holds
    // its SACKs back after the third (`tcp_comp_sack_delay_ns`), and a receiver that answered
    // each segment at once had CUBIC at 0.58 MB/s and BBR at 4.9 % (docs/validation.md).
    let cubic = summary("preset=policer");
    let g = cubic.goodput_MBps.expect("a goodput");
    assert!(
        (g / 0.838 - 1.0).abs() <= 0.10,
        "CUBIC {g} MB/s against Linux's 0.838"
    );
    let resent = cubic.retrans_bytes_pct.expect("a share resent");
    assert!((resent - 0.41).abs() <= 0.1, "CUBIC resends {resent} %");
    let bbr = summary("preset=policer&cc=bbr");
    let resent = bbr.retrans_bytes_pct.expect("a share resent");
    assert!(
        (resent / 7.0 - 1.0).abs() <= 0.15,
        "BBR resends {resent} % against Linux's 7.0"
    );
}
