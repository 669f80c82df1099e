//! Exact behaviour on a clean path: with no loss a body needs the round trips ideal slow start
//! predicts, and a long flow settles at the smaller of the link rate and the window limit.

use tcplab::packet::HEADER_BYTES;
use tcplab::theory::slow_start::{rounds_to_send, segments_for};
use tcplab::{run, RunOptions, Scenario};

fn run_query(q: &str) -> tcplab::RunResult {
    let s = Scenario::parse(q).unwrap_or_else(|e| panic!("{q}: {e}"));
    run(&s, &RunOptions::default())
}

#[test]
fn a_body_finishes_in_the_round_trips_ideal_slow_start_predicts() {
    // A path so fast that serialisation is negligible and so deep that nothing is dropped: only
    // slow start sets the pace. After k round trips iw * (2^k - 1) segments have been sent; the
    // last of K rounds reaches the receiver K - 1 round trips after the first, so the transfer
    // (first byte in to last byte read) takes K - 1 RTTs, +-1 for delayed ACKs and rounding.
    // The receive buffer is fixed at 1 GiB: autotuning's first, smaller windows would hold
    // back the larger initial windows by a round trip (as Linux's do).
    for iw in [1u32, 4, 10, 40] {
        for body in [1_000u64, 100_000, 2_500_000, 10_000_000] {
            let q = format!(
                "cc=reno&rtt=50&bw=100000&queue=100000&rwnd=1073741824&autotune=0&iw={iw}&body={body}&dur=60"
            );
            let r = run_query(&q);
            let k = rounds_to_send(iw, segments_for(body, 1460));
            let transfer = r.summary.transfer_rtts.unwrap_or(f64::NAN);
            let expected = f64::from(k) - 1.0;
            assert!(
                (transfer - expected).abs() <= 1.0,
                "{q}: {transfer:.2} RTTs, ideal slow start says {expected}"
            );
            // Handshake (1 RTT) + the transfer + the first byte's half RTT.
            let completion = r.summary.completion_rtts.unwrap_or(f64::NAN);
            assert!(
                (completion - (expected + 1.5)).abs() <= 1.0,
                "{q}: {completion:.2}"
            );
            assert_eq!(r.summary.retransmitted_segments, 0, "{q}");
        }
    }
}

/// Payload rate of a link of `mbps` once every packet's headers are paid, in MB/s.
fn payload_rate(mbps: f64, mss: u32) -> f64 {
    mbps / 8.0 * f64::from(mss) / f64::from(mss + HEADER_BYTES)
}

#[test]
fn a_long_flow_settles_at_the_link_rate() {
    // 5 %: the tolerance for a settled flow; CUBIC's sawtooth on a queue of several BDPs
    // keeps the link busy, so the median 0.5 s window is within a fraction of that.
    for cc in ["reno", "cubic"] {
        let q = format!("cc={cc}&rtt=20&bw=100&app=bulk&dur=20");
        let r = run_query(&q);
        let p50 = r.summary.throughput_windows_MBps.map_or(0.0, |w| w.p50);
        let link = payload_rate(100.0, 1460);
        assert!((p50 - link).abs() / link < 0.05, "{q}: {p50} vs {link}");
    }
}

#[test]
fn a_long_flow_settles_at_the_window_limit() {
    // A 1 MiB receive window over 50 ms: 20.97 MB/s, far under the 1 Gbit/s link.
    let q = "cc=cubic&rtt=50&bw=1000&rwnd=1048576&app=bulk&dur=20";
    let r = run_query(q);
    let p50 = r.summary.throughput_windows_MBps.map_or(0.0, |w| w.p50);
    let limit = r.summary.window_limit_MBps;
    assert!((limit - 20.971_52).abs() < 1e-9);
    assert!((p50 - limit).abs() / limit < 0.05, "{p50} vs {limit}");
    assert_eq!(r.summary.queue_drops, 0);
}

#[test]
fn the_handshake_takes_one_round_trip() {
    let r = run_query("rtt=31.537");
    let h = r.summary.handshake_ms.unwrap_or(f64::NAN);
    // One RTT plus the SYN's serialisation at 1 Gbit/s.
    assert!((h - 31.537).abs() < 0.01, "{h}");
}
