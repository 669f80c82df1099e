//! The seed posts reproduced: each test names the measurement, the lab's set-up and the
//! tolerance with its reason. Numbers from `reference/*.csv` of the project's shared material,
//! quoted here so the tests stand alone; docs/validation.md sets them side by side.

use tcplab::{run, RunOptions, Scenario};

fn run_query(q: &str) -> tcplab::Summary {
    let s = Scenario::parse(q).unwrap_or_else(|e| panic!("{q}: {e}"));
    run(&s, &RunOptions::default()).summary
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n == 0 {
        return f64::NAN;
    }
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

#[test]
fn seed_003_a_2_5_mb_post_finishes_inside_slow_start() {
    // The post: 1 Gbit/s, 31.537 ms ping, MSS 1460, IW 10, a 2,499,986-byte body read by the
    // server in 7.31 RTTs. Ideal slow start needs 8 rounds for its 1713 segments, the last one
    // arriving 7 RTTs after the first; the issue allows 6.8 to 7.8 for serialisation and ACK
    // timing.
    let s = run_query("preset=post-slow-start");
    let rtts = s.transfer_rtts.unwrap_or(f64::NAN);
    assert!((6.8..=7.8).contains(&rtts), "transfer {rtts} RTTs");
    assert_eq!(s.data_segments_sent, 1713);
    assert_eq!(s.retransmitted_segments, 0);
    // The long flow on the same path reaches the link rate, ~11x the POST's goodput.
    let goodput = s.goodput_MBps.unwrap_or(0.0);
    assert!((8.0..=13.0).contains(&goodput), "{goodput} MB/s");
}

#[test]
fn seed_000_reno_under_random_loss_follows_mathis() {
    // The post's sweep: MSS 16332, 4 MiB window, loss on both directions; measured/Mathis
    // 0.89 to 1.21 for loss >= 0.5 %. Reno here, run 30 s (not the post's 5.5 s) so the steady
    // state the formula describes outweighs the first slow start's overshoot; median of 5 seeds.
    // Tolerance 0.7..1.5, the issue's: Mathis's constant assumes periodic loss and no timeouts,
    // and delayed ACKs at a few segments of window cost more than a quarter at 5 % (20 ms).
    for rtt in [20, 100] {
        for loss in [0.5, 1.0, 2.0, 5.0] {
            let mut ratios = Vec::new();
            let mut mathis = 0.0;
            for seed in 1..=5 {
                let q = format!(
                    "preset=loss-sweep&rtt={rtt}&loss={loss}&ackloss={loss}&dur=30&seed={seed}"
                );
                let s = run_query(&q);
                mathis = s.mathis_MBps.unwrap_or(f64::NAN);
                ratios.push(s.goodput_MBps.unwrap_or(0.0) / mathis);
            }
            let m = median(ratios.clone());
            assert!(
                (0.7..=1.5).contains(&m),
                "rtt {rtt} ms, loss {loss} %: measured/Mathis {m:.2} ({ratios:.2?}), Mathis {mathis:.2} MB/s"
            );
        }
    }
}

#[test]
fn seed_000_without_loss_the_window_is_the_limit() {
    // The post: 193.57 MB/s at 20 ms and 41.46 at 100 ms, under the 4 MiB window's 209.7 and
    // 41.9 MB/s. At 20 ms the lab's 5.5 s run, handshake and slow start included, comes within
    // 10 % of the limit. At 100 ms Linux is slower than the post's macOS: its autotuning starts
    // from a 64 KiB buffer, four of the seed's 16 KB segments, and needs round trips of 100 ms to
    // open up, so the kernel twin measures 37.3 MB/s
    // (`tcplab-kernel run 'preset=loss-sweep&rtt=100&loss=0&ackloss=0'`, docs/validation.md);
    // the lab comes within 5 % of that.
    for (rtt, limit, lower) in [
        (20.0, 209.715_2, 0.9 * 209.715_2),
        (100.0, 41.943_04, 0.95 * 37.3),
    ] {
        let s = run_query(&format!("preset=loss-sweep&rtt={rtt}&loss=0&ackloss=0"));
        let g = s.goodput_MBps.unwrap_or(0.0);
        assert!((s.window_limit_MBps - limit).abs() < 1e-6);
        assert!(g <= limit && g > lower, "rtt {rtt}: {g} MB/s vs {limit}");
    }
    // With a fixed 4 MiB buffer the window is open from the first round trip.
    let s = run_query("preset=loss-sweep&rtt=100&loss=0&ackloss=0&autotune=0");
    let g = s.goodput_MBps.unwrap_or(0.0);
    assert!(g > 0.9 * 41.943_04, "{g}");
}

#[test]
fn seed_000_retransmitted_bytes_track_the_loss_rate() {
    // The post: "retransmitted bytes are about the loss rate". Within a factor of 1.5 either way.
    for loss in [1.0, 5.0] {
        let s = run_query(&format!(
            "preset=loss-sweep&loss={loss}&ackloss={loss}&dur=30"
        ));
        let pct = s.retrans_bytes_pct.unwrap_or(f64::NAN);
        assert!(
            pct > loss / 1.5 && pct < loss * 1.5,
            "loss {loss} %: {pct} % retransmitted"
        );
    }
}
