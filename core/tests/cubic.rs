//! CUBIC as RFC 9438 draws it: after one loss on a clean path the window follows W_cubic(t),
//! and against random loss it beats the Reno (Mathis) rate on a long path, as seed 002 found.

use tcplab::metrics::trace::window_col;
use tcplab::time::{Duration, Instant};
use tcplab::{run, RunOptions, RunResult, Scenario};

fn run_query(q: &str) -> RunResult {
    let s = Scenario::parse(q).unwrap_or_else(|e| panic!("{q}: {e}"));
    run(&s, &RunOptions::default())
}

#[test]
fn after_one_loss_the_window_follows_w_cubic() {
    // 100 Mbit/s, 100 ms, a queue and a receive window too big to matter: the only loss is the
    // staged one, in slow start. Every ACK after recovery grows the window toward
    // W_cubic(t + RTT) (RFC 9438 §4.2), so the window at t sits on W_cubic(t) to within the
    // growth of one round trip: 2 %, where the curve is above Reno's estimate.
    let mss = 1460.0;
    let r = run_query(
        "cc=cubic&hystart=0&rtt=100&bw=100&queue=100000&rwnd=1073741824&app=bulk&dur=20&drop=3000",
    );
    let flow = &r.traces.flows[0];
    let curve = *flow.cubic_epochs.first().expect("an epoch after the loss");
    assert_eq!(flow.cubic_epochs.len(), 1, "one loss, one epoch");
    let end = Instant::from_secs(20);
    let mut checked = 0;
    let mut worst: f64 = 0.0;
    for (t, row) in flow.window.rows() {
        if t <= curve.epoch_start + Duration::from_millis(200) || t >= end {
            continue;
        }
        let cwnd = row[window_col::CWND] / mss;
        let w = curve.w_at(t);
        let err = (cwnd - w).abs() / w;
        worst = worst.max(err);
        checked += 1;
    }
    assert!(checked > 100, "{checked} points");
    assert!(
        worst < 0.02,
        "worst relative error {worst:.4} (K {:.2} s, W_max {:.0})",
        curve.k,
        curve.w_max
    );
}

fn median_goodput(q: &str) -> f64 {
    let mut v: Vec<f64> = (1..=5)
        .map(|seed| {
            run_query(&format!("{q}&seed={seed}"))
                .summary
                .goodput_MBps
                .unwrap_or(0.0)
        })
        .collect();
    v.sort_by(f64::total_cmp);
    v[2]
}

#[test]
fn seed_002_cubic_beats_mathis_on_a_long_path_with_little_loss() {
    // The post (macOS CUBIC, RTT 100 ms): measured/Mathis 2.10 at 0.1 % loss, 1.04 at 3 %.
    // The shape the issue asks for: above 1.5 at 0.1 %, falling toward 1 as loss grows to 3 %
    // (below 1.5 there, and below its 0.1 % value), and ahead of Reno at 0.1 %.
    let ratio = |loss: f64, cc: &str| {
        let q = format!("preset=cubic-vs-reno&cc={cc}&loss={loss}&ackloss={loss}");
        let mathis = run_query(&q).summary.mathis_MBps.unwrap_or(f64::NAN);
        median_goodput(&q) / mathis
    };
    let low = ratio(0.1, "cubic");
    let high = ratio(3.0, "cubic");
    assert!(low > 1.5, "0.1 %: {low:.2}");
    assert!(high < 1.5 && high < low, "3 %: {high:.2} vs {low:.2}");
    let reno = ratio(0.1, "reno");
    assert!(low > reno, "CUBIC {low:.2} vs Reno {reno:.2}");
}

#[test]
fn two_cubic_flows_share_the_link_no_more_evenly_than_linuxs_do() {
    // Two flows starting together on 100 Mbit/s, 40 ms, for 30 s: Jain's index over the run.
    // The kernel twin measures 0.970, 0.881, 0.852, 0.956 and 0.913 for seeds 1 to 5 in one
    // sitting, 0.900, 0.985, 0.997, 0.898 and 0.892 in another, and 0.925, 0.882, 0.977,
    // 0.899, 0.833 and 0.875 for seeds 1 to 6 in a third (`tcplab-kernel run
    // 'cc=cubic&rtt=40&bw=100&queue=300&app=bulk&flows=2&dur=30&seed=N'`): HyStart leaves one
    // flow with two to three times the other's window (seed 1: 169 and 492 segments, at 263
    // and 304 ms, in Linux as in the lab), and CUBIC does not even them out within 30 s, so
    // Linux's median is 0.900 and eleven runs of sixteen stay under 0.96. The lab must not
    // claim an even share either: over twenty seeds its median under 0.98 and a quarter of
    // them under 0.95; nor a split worse than Linux's worst (0.833). Its shares spread less
    // than Linux's (0.84 to 0.88, median 0.85): docs/validation.md, "CUBIC's convergence".
    let mut v: Vec<f64> = (1..=20)
        .map(|seed| {
            run_query(&format!(
                "cc=cubic&rtt=40&bw=100&queue=300&app=bulk&flows=2&dur=30&seed={seed}"
            ))
            .summary
            .jain_fairness
            .unwrap_or(0.0)
        })
        .collect();
    v.sort_by(f64::total_cmp);
    let median = (v[9] + v[10]) / 2.0;
    assert!(median < 0.98, "an even share: {median:.3}: {v:?}");
    assert!(v[4] < 0.95, "an even share in three seeds of four: {v:?}");
    assert!(v[0] > 0.833, "worse than Linux's worst: {v:?}");
}

#[test]
fn hystart_leaves_slow_start_before_the_queue_overflows() {
    // 100 Mbit/s, 100 ms (a BDP of 826 packets) behind a queue of 1000: slow start alone
    // overshoots to twice the BDP and loses thousands of packets; HyStart's ACK-train rule ends
    // it once a round's ACKs span half the RTT. With no W_max known, Linux's CUBIC then grows
    // 5 % per round trip (`cnt` capped at 20), so the queue does fill, 1.5 s or so later, and
    // loses what one round's 5 % overshoot makes: a tenth of slow start's losses, or less.
    let q = "cc=cubic&rtt=100&bw=100&queue=1000&rwnd=100000000&app=bulk";
    let with = run_query(&format!("{q}&dur=5&hystart=1")).summary;
    let without = run_query(&format!("{q}&dur=5&hystart=0")).summary;
    assert!(without.queue_drops > 1000, "{}", without.queue_drops);
    assert!(
        with.queue_drops * 10 < without.queue_drops,
        "{} vs {}",
        with.queue_drops,
        without.queue_drops
    );
    // The first second is slow start and its exit: nothing is lost in it.
    let early = run_query(&format!("{q}&dur=1&hystart=1")).summary;
    assert_eq!(early.queue_drops, 0);
}
