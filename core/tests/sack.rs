//! SACK is never the worse choice: across the loss grid of docs/validation.md (the cells the
//! kernel twin validates), NewReno without SACK (`sack=0`) does not beat SACK-based recovery
//! by more than 3 % on the mean of nine seeds (where ACKs are lost too, by no more than Linux's
//! own NewReno does, with a margin). It did before Linux's `tcp_remove_reno_sacks`
//! crediting, when the ACK that filled a hole counted again what duplicate ACKs had counted.
//! Nine, not the kernel comparison's three: the slow path with lost ACKs sees some thirty losses
//! a run, whose seed-to-seed spread (about 12 %) a median of three cannot resolve to 3 %.

use tcplab::{run, RunOptions, Scenario};

fn mean_goodput(q: &str) -> f64 {
    let v: Vec<f64> = (1..=SEEDS)
        .map(|seed| {
            let s =
                Scenario::parse(&format!("{q}&seed={seed}")).unwrap_or_else(|e| panic!("{q}: {e}"));
            run(&s, &RunOptions::default())
                .summary
                .goodput_MBps
                .unwrap_or(0.0)
        })
        .collect();
    v.iter().sum::<f64>() / v.len() as f64
}

const SEEDS: u64 = 9;

#[test]
fn sack_0_never_beats_sack_1_by_more_than_3_percent() {
    let mut paths = Vec::new();
    for rtt in [20u32, 100] {
        for loss in ["0.5", "1", "2"] {
            let queue = (100e6 * f64::from(rtt) / 1e3 / 8.0 / 1500.0).ceil();
            paths.push((format!("rtt={rtt}&bw=100&loss={loss}&queue={queue}"), 1.03));
        }
    }
    // Where ACKs are lost too, Linux's own NewReno is ahead: the kernel twin's CUBIC over
    // seeds 1 to 9 gets 0.350 MB/s with `sack=0` and 0.335 with `sack=1` (4.5 % ahead), the lab
    // 4.6 % ahead over forty seeds. SACK must not fall further behind than that, with the
    // margin its spread over nine seeds needs.
    paths.push(("rtt=50&bw=20&loss=1&ackloss=1&queue=84".into(), 1.10));
    paths.push(("rtt=10&bw=50&loss=0.2&queue=42".into(), 1.03));
    let mut worse = Vec::new();
    for cc in ["reno", "cubic", "bbr"] {
        for (path, most) in &paths {
            let q = format!("cc={cc}&{path}&rwnd=4MiB&mss=1448&app=bulk&dur=15");
            let with = mean_goodput(&format!("{q}&sack=1"));
            let without = mean_goodput(&format!("{q}&sack=0"));
            if without > with * most {
                worse.push(format!(
                    "{q}: sack=0 {without:.3} MB/s, sack=1 {with:.3} MB/s"
                ));
            }
        }
    }
    assert!(worse.is_empty(), "{worse:#?}");
}
