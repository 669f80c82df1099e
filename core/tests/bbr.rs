//! BBR v1 through whole runs: it keeps a lossy long path full where the loss-based algorithms
//! collapse, it keeps the bottleneck queue well under a BDP, and it dips to four packets every
//! ten seconds or so to measure the propagation delay afresh.

use tcplab::capture::analyze::CaptureFile;
use tcplab::metrics::trace::TraceKind;
use tcplab::packet::HEADER_BYTES;
use tcplab::sim::Invariants;
use tcplab::{run, RunOptions, RunResult, Scenario};

const MSS: f64 = 1460.0;

fn run_query(q: &str) -> RunResult {
    let s = Scenario::parse(q).unwrap_or_else(|e| panic!("{q}: {e}"));
    let r = run(&s, &RunOptions::default());
    assert_eq!(r.invariants, Invariants::default(), "{q}");
    r
}

/// The most payload a link of `mbps` can carry, in MB/s: every 1460-byte segment takes 1460 +
/// 52 bytes of the link (IPv4, TCP and the timestamp option), and the ACKs go the other way.
fn payload_capacity_mbytes(mbps: f64) -> f64 {
    mbps / 8.0 * MSS / (MSS + f64::from(HEADER_BYTES))
}

fn goodput(r: &RunResult) -> f64 {
    r.summary.goodput_MBps.unwrap_or(0.0)
}

#[test]
fn bbr_keeps_a_lossy_long_path_full_where_reno_and_cubic_collapse() {
    // 1% random loss on 100 Mbit/s and 50 ms: Mathis et al. give loss-based TCP about
    // 1.22 * MSS / (RTT * sqrt(p)) = 0.36 MB/s, 3% of the link. BBR v1 does not read loss as
    // congestion: its window follows the measured bandwidth and RTT, and recovery only holds
    // it for one round (packet conservation) before restoring it.
    let capacity = payload_capacity_mbytes(100.0);
    let q = |cc: &str| format!("cc={cc}&rtt=50&bw=100&loss=1&app=bulk&dur=30");
    let bbr = run_query(&q("bbr"));
    assert!(
        goodput(&bbr) >= 0.8 * capacity,
        "bbr: {:.2} MB/s of {capacity:.2}",
        goodput(&bbr)
    );
    for cc in ["reno", "cubic"] {
        let r = run_query(&q(cc));
        assert!(
            goodput(&r) < 0.2 * capacity,
            "{cc}: {:.2} MB/s of {capacity:.2}",
            goodput(&r)
        );
    }
}

#[test]
fn bbr_keeps_the_queue_under_a_bdp_even_when_the_buffer_is_deep() {
    // A clean path with a 5000-packet buffer, 12 BDPs: a loss-based sender would fill it.
    // BBR caps inflight at cwnd_gain * BDP = 2 BDP, so at most one BDP can wait in the queue, and
    // in ProbeBW it paces at the bandwidth it measured, so the queue it builds is the 1.25
    // phase's quarter BDP, drained by the 0.75 phase that follows. Startup does build about two
    // BDPs of queue (its cwnd gain is 2.89), which Drain then empties: the check starts at 2 s,
    // well after Startup (about 12 rounds of 50 ms) and Drain (about one round).
    let q = |cc: &str| format!("cc={cc}&rtt=50&bw=100&queue=5000&app=bulk&dur=20");
    let r = run_query(&q("bbr"));
    let bdp_packets = 100e6 / 8.0 * 0.050 / (MSS + f64::from(HEADER_BYTES));
    let queued = queue_after(&r, 2.0);
    assert!(queued.len() > 100, "{} queue rows", queued.len());
    let mean = queued.iter().sum::<f64>() / queued.len() as f64;
    let p90 = queued[queued.len() * 9 / 10];
    let max = queued[queued.len() - 1];
    // The trace is thinned to each bin's first, lowest, highest and last rows, which weighs the
    // extremes more than a plain average would: the bounds leave room for that. One BDP is
    // 413 packets; measured, the mean is about 0.05 BDP and the highest about 0.3.
    assert!(mean <= 0.5 * bdp_packets, "mean {mean:.0} packets");
    assert!(p90 <= bdp_packets, "p90 {p90:.0} packets");
    assert!(max <= 1.5 * bdp_packets, "max {max:.0} packets");
    // And the link stays busy.
    let capacity = payload_capacity_mbytes(100.0);
    assert!(goodput(&r) >= 0.9 * capacity, "{:.2} MB/s", goodput(&r));

    // CUBIC on the same path fills the buffer until the receive window stops it (4 MiB, about
    // six BDPs of data in flight).
    let cubic = queue_after(&run_query(&q("cubic")), 2.0);
    let cubic_p90 = cubic[cubic.len() * 9 / 10];
    assert!(
        cubic_p90 >= 2.0 * bdp_packets,
        "cubic p90 {cubic_p90:.0} packets"
    );
}

/// The queue trace's values from `from_s` on, sorted.
fn queue_after(r: &RunResult, from_s: f64) -> Vec<f64> {
    let mut v: Vec<f64> = r
        .traces
        .queue
        .rows()
        .iter()
        .filter(|(t, _)| t.as_secs_f64() >= from_s)
        .map(|(_, v)| v[0])
        .collect();
    v.sort_by(f64::total_cmp);
    v
}

#[test]
fn bbr_probes_rtt_about_every_ten_seconds() {
    // The min_rtt filter lasts 10 s; when it expires, ProbeRTT holds cwnd at four packets for
    // at least 200 ms and a round, and the next filter window starts when it ends. On a clean
    // path the RTT never beats the handshake's, so ProbeRTT comes every 10 s plus the dip: three
    // times in 35 s.
    let r = run_query("cc=bbr&rtt=50&bw=100&app=bulk&dur=35");
    let low = 4.0 * MSS + MSS / 2.0;
    let mut dips: Vec<(f64, f64)> = Vec::new(); // (start, end) in seconds
    let mut start: Option<f64> = None;
    for (t, row) in r.traces.flows[0].window.rows() {
        let t = t.as_secs_f64();
        let cwnd = row[0];
        match (start, cwnd <= low) {
            // Startup begins at ten segments: only count dips after it.
            (None, true) if t > 1.0 => start = Some(t),
            (Some(s), false) => {
                dips.push((s, t));
                start = None;
            }
            _ => {}
        }
    }
    assert!((2..=4).contains(&dips.len()), "dips at {dips:?}");
    for &(s, e) in &dips {
        // At least 200 ms at four packets; the trace's thinning may shave a little off the ends.
        assert!((0.15..=0.5).contains(&(e - s)), "dip {s:.3}..{e:.3} s");
    }
    for pair in dips.windows(2) {
        let period = pair[1].0 - pair[0].0;
        assert!(
            (10.0..=11.5).contains(&period),
            "period {period:.3} s in {dips:?}"
        );
    }
    assert!(
        (10.0..=11.0).contains(&dips[0].0),
        "first at {:.3} s",
        dips[0].0
    );
}

#[test]
fn bbr_runs_are_deterministic() {
    for q in [
        "cc=bbr&rtt=50&bw=100&loss=1&app=bulk&dur=5&seed=3",
        "cc=bbr&rtt=20&bw=50&queue=30&app=bulk&dur=5&flows=3&seed=8",
    ] {
        let a = run_query(q);
        let b = run_query(q);
        let json = |r: &RunResult| serde_json::to_string(&r.summary).unwrap_or_default();
        assert!(!json(&a).is_empty());
        assert_eq!(json(&a), json(&b), "{q}");
        for kind in [TraceKind::Cwnd, TraceKind::Queue, TraceKind::Seq] {
            assert_eq!(a.trace_csv(kind), b.trace_csv(kind), "{q}: {kind}");
        }
    }
}

/// The sender's bursts in its own capture, from `from_s` after its first data on: each one's
/// segments (those that left at one instant, a GSO packet's), and the time from one to the next
/// (us).
fn gso_bursts(r: &RunResult, from_s: f64) -> (Vec<u32>, Vec<f64>) {
    let bytes = &r.capture.as_ref().expect("a capture").bytes;
    let file = CaptureFile::read(bytes, &mut |_| {}).expect("the lab's file");
    let all = file.bursts(1, 1).expect("one connection");
    let from = all.first().map_or(0, |b| b.at_ns) + (from_s * 1e9) as u64;
    let bursts: Vec<_> = all.iter().filter(|b| b.at_ns >= from).collect();
    let gaps = bursts
        .windows(2)
        .map(|w| (w[1].at_ns - w[0].at_ns) as f64 / 1e3);
    (bursts.iter().map(|b| b.segments).collect(), gaps.collect())
}

#[test]
fn bbr_paces_a_gso_packet_of_a_1024th_of_a_second_at_a_time() {
    // Linux's `tcp_tso_autosize` and `tcp_update_skb_after_send`: at 100 Mbit/s BBR's rate at
    // the unit gain, 100e6 / 8 × 1448 / 1500 × 0.99 = 11.95 MB/s, gives GSO packets of 11 666
    // bytes, 8 segments of 1448, leaving every 8 × 1448 / 11.95 MB/s = 970 us; ProbeBW's 1.25
    // and 0.75 phases give 10 and 6. (The kernel twin's test holds Linux's capture to these.)
    let q = "cc=bbr&rtt=50&bw=100&mss=1448&app=bulk&dur=4";
    let s = Scenario::parse(q).unwrap_or_else(|e| panic!("{q}: {e}"));
    let r = run(
        &s,
        &RunOptions {
            capture: Some(tcplab::capture::CaptureOptions::default()),
            ..RunOptions::summary_only()
        },
    );
    let (sizes, gaps) = gso_bursts(&r, 2.0);
    let count = |n: u32| sizes.iter().filter(|&&s| s == n).count();
    assert_eq!(
        count(6) + count(8) + count(10),
        sizes.len(),
        "every burst is one of ProbeBW's three: {sizes:?}"
    );
    assert!(count(8) * 10 > sizes.len() * 7, "most at the unit gain");
    let mut unit: Vec<f64> = gaps
        .iter()
        .zip(&sizes)
        .filter(|&(_, &n)| n == 8)
        .map(|(&g, _)| g)
        .collect();
    unit.sort_by(f64::total_cmp);
    let median = unit[unit.len() / 2];
    let expected = 8.0 * 1448.0 / (100e6 / 8.0 * 1448.0 / 1500.0 * 0.99) * 1e6;
    assert!(
        (median - expected).abs() < 2.0,
        "a burst of 8 every {median:.1} us, {expected:.1} expected"
    );
    // The connection's first ten segments leave unpaced, as one burst (the initial window).
    let (first, _) = gso_bursts(&r, 0.0);
    assert_eq!(
        first.first(),
        Some(&10),
        "the initial window: {:?}",
        &first[..4]
    );
}
