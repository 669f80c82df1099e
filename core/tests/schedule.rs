//! The path's schedule (`sched`) and ACK aggregation (`ackagg`): each change applies at its
//! instant, and the flows answer as the new path lets them.

use tcplab::link::{Direction, Fate, Path};
use tcplab::time::Instant;
use tcplab::{run, RunOptions, RunResult, Scenario};

fn scenario(q: &str) -> Scenario {
    Scenario::parse(q).unwrap_or_else(|e| panic!("{q}: {e}"))
}

fn result(q: &str) -> RunResult {
    run(&scenario(q), &RunOptions::default())
}

/// Payload bytes the receiver read between `from` and `to` seconds, in Mbit/s.
fn goodput_mbps(r: &RunResult, from: f64, to: f64) -> f64 {
    let (from, to) = (Instant::from_secs_f64(from), Instant::from_secs_f64(to));
    let bytes: u64 = r
        .traces
        .flows
        .iter()
        .flat_map(|f| f.delivered.bins())
        .filter(|&(t, _)| t >= from && t < to)
        .map(|(_, b)| b)
        .sum();
    bytes as f64 * 8.0 / (to - from).as_secs_f64() / 1e6
}

fn departures(p: &mut Path, at: Instant, n: usize) -> Vec<Instant> {
    (0..n)
        .map(|_| match p.offer(Direction::Data, 0, at, 1500, true) {
            Fate::Delivered { departs, .. } => departs,
            Fate::Dropped(c) => panic!("dropped: {c:?}"),
        })
        .collect()
}

#[test]
fn the_bottleneck_s_departure_spacing_changes_at_t_exactly() {
    // 1500 bytes take 120 us at 100 Mbit/s, 1.2 ms at 10. Forty packets offered 2.4 ms before
    // the change: twenty leave before it at the old spacing, the one on the link at 1 s
    // finishes at the old rate, and the rest leave at the new spacing.
    let mut p = Path::new(&scenario("bw=100&queue=100&sched=1:bw:10"));
    let t = Instant::from_secs_f64(1.0);
    let start = Instant(t.as_nanos() - 2_400_000);
    let d = departures(&mut p, start, 40);
    let gaps: Vec<u64> = d.windows(2).map(|w| (w[1] - w[0]).as_nanos()).collect();
    assert_eq!(
        d[19], t,
        "the twentieth leaves at the instant of the change"
    );
    assert!(gaps[..19].iter().all(|&g| g == 120_000), "{gaps:?}");
    assert!(gaps[19..].iter().all(|&g| g == 1_200_000), "{gaps:?}");
}

#[test]
fn a_bulk_flow_follows_a_drop_to_the_new_rate() {
    // 100 Mbit/s, then 10 from 10 s: in the 5 s after the drop, within 10 % of the new rate's
    // payload (a 1460-byte segment in a 1512-byte packet).
    let r = result("cc=cubic&rtt=40&bw=100&queue=500&app=bulk&dur=16&sched=10:bw:10");
    let payload = 10.0 * 1460.0 / 1512.0;
    let after = goodput_mbps(&r, 10.0, 15.0);
    assert!(
        (after - payload).abs() <= 0.1 * payload,
        "{after:.2} Mbit/s after the drop, {payload:.2} the link's payload rate"
    );
    let before = goodput_mbps(&r, 5.0, 10.0);
    assert!(before > 80.0, "{before:.2} Mbit/s before the drop");
    // A managed queue reads the same schedule as each packet starts: never more than the new
    // rate's payload after the drop (CoDel's drops as the sojourn jumps cost CUBIC some of it).
    let codel = result("cc=cubic&rtt=40&bw=100&aqm=codel&app=bulk&dur=16&sched=10:bw:10");
    let after = goodput_mbps(&codel, 10.0, 15.0);
    assert!(
        after <= 1.01 * payload && after > 0.5 * payload,
        "CoDel: {after:.2} Mbit/s after the drop"
    );
    assert_eq!(r.invariants, tcplab::sim::Invariants::default());
}

#[test]
fn loss_and_queue_changes_take_effect_at_their_instant() {
    // No random loss until 5 s, then 2 %: every data drop comes after it.
    let r = result("rtt=20&bw=50&app=bulk&dur=10&sched=5:loss:2");
    let random = f64::from(tcplab::link::DropCause::Data.code());
    let drops: Vec<_> = r
        .traces
        .drops
        .rows()
        .into_iter()
        .filter(|row| row.1[1] == random)
        .collect();
    assert!(!drops.is_empty());
    let five = Instant::from_secs_f64(5.0);
    assert!(drops.iter().all(|row| row.0 >= five), "a drop before 5 s");
    // A queue cut to 5 packets at 3 s: the queue trace never passes 5 from then on.
    let r = result("rtt=20&bw=50&queue=1000&app=bulk&dur=6&sched=3:queue:5");
    let late: Vec<f64> = r
        .traces
        .queue
        .rows()
        .into_iter()
        .filter(|row| row.0 >= Instant::from_secs_f64(3.5))
        .map(|row| row.1[0])
        .collect();
    assert!(!late.is_empty());
    assert!(
        late.iter().all(|&q| q <= 5.0),
        "{:?}",
        late.iter().fold(0.0f64, |a, &b| a.max(b))
    );
    assert!(r.summary.queue_drops > 0);
}

#[test]
fn an_rtt_change_moves_the_flow_s_rtt_samples() {
    let r = result("rtt=20&bw=10&queue=10&app=bulk&dur=8&sched=4:rtt:200");
    let rtts = r.traces.flows[0].rtt.rows();
    let min_between = |a: f64, b: f64| {
        rtts.iter()
            .filter(|row| row.0 >= Instant::from_secs_f64(a) && row.0 < Instant::from_secs_f64(b))
            .map(|row| row.1[0])
            .fold(f64::INFINITY, f64::min)
    };
    let early = min_between(1.0, 4.0);
    let late = min_between(5.0, 8.0);
    assert!((20.0..40.0).contains(&early), "{early} ms before");
    assert!((200.0..240.0).contains(&late), "{late} ms after");
}

#[test]
fn aggregated_acks_reach_the_sender_in_bursts_on_the_grid() {
    // ACKs released every 8 ms, 20 ms of RTT split 10 + 10: every ACK reaches the sender at a
    // multiple of 8 ms plus the ACK direction's 10 ms.
    let q = "cc=bbr&rtt=20&bw=50&app=bulk&dur=3&ackagg=8";
    let r = result(q);
    let acks = r.traces.flows[0].acks.rows();
    assert!(acks.len() > 100);
    for row in &acks {
        let since = row.0.as_nanos() - 10_000_000;
        assert_eq!(since % 8_000_000, 0, "an ACK at {:?}", row.0);
    }
    // The same flow without aggregation sees its ACKs spread at the packets' spacing.
    let plain = result("cc=bbr&rtt=20&bw=50&app=bulk&dur=3");
    let spread = plain.traces.flows[0]
        .acks
        .rows()
        .iter()
        .filter(|row| (row.0.as_nanos() - 10_000_000) % 8_000_000 != 0)
        .count();
    assert!(spread > 100, "{spread}");
    // BBR keeps its rate through the bursts: its extra-acked allowance lets it send while the
    // ACKs are held (Linux bbr_update_ack_aggregation), so it fills most of the link.
    let g = r.summary.goodput_MBps.expect("a goodput") * 8.0;
    assert!(g > 0.8 * 50.0 * 1460.0 / 1512.0, "{g} Mbit/s");
}

#[test]
fn aggregated_acks_raise_bbr_s_target_window_by_what_they_bunch() {
    // Linux's bbr_update_ack_aggregation: the data ACKed in an epoch beyond what the bandwidth
    // estimate explains is the `extra_acked` allowance, which bbr_set_cwnd adds to its target
    // of cwnd_gain BDPs. ACKs held for 8 ms bunch about 8 ms of the link's packets at once.
    let view = |q: &str| tcplab::view::RunView::new(&scenario(q), &result(q));
    let agg = view("cc=bbr&rtt=20&bw=50&app=bulk&dur=3&ackagg=8");
    let plain = view("cc=bbr&rtt=20&bw=50&app=bulk&dur=3");
    let late = |v: &tcplab::view::RunView| -> Vec<(f64, f64)> {
        v.flows[0]
            .bbr
            .iter()
            .filter(|b| b.t > 1500.0)
            .filter_map(|b| Some((b.target_cwnd_bytes?, b.extra_acked_bytes)))
            .collect()
    };
    let (agg, plain) = (late(&agg), late(&plain));
    assert!(!agg.is_empty() && !plain.is_empty());
    let most = |xs: &[(f64, f64)]| xs.iter().map(|x| x.1).fold(0.0, f64::max);
    // 8 ms of 50 Mbit/s is 50 000 bytes, 34 packets of 1460; the filter keeps the largest
    // bunch, capped at 100 ms of the estimate.
    let bunched = most(&agg);
    assert!(
        (30_000.0..120_000.0).contains(&bunched),
        "extra_acked with 8 ms bunches: {bunched} bytes"
    );
    // ACKs a packet apart bunch little: a delayed ACK's two packets and the pacer's jitter.
    let spread = most(&plain);
    assert!(
        spread < bunched / 2.0,
        "extra_acked {spread} bytes without aggregation, {bunched} with"
    );
    // The target holds the allowance on top of cwnd_gain BDPs of the model.
    for (target, extra) in &agg {
        assert!(
            target >= extra,
            "target {target} below its allowance {extra}"
        );
    }
}

#[test]
fn the_schedule_is_part_of_the_scenario_s_canonical_form() {
    let s = scenario("sched=10:bw:10mbit,20:rtt:0.1s&ackagg=4");
    assert_eq!(s.to_query(), "ackagg=4&sched=10:bw:10,20:rtt:100");
    assert_eq!(scenario(&s.to_query()), s);
    let e = Scenario::parse("sched=10:bw:10,20:mss:100").expect_err("refused");
    assert_eq!(
        e.to_string(),
        "sched: entry \"20:mss:100\": mss cannot be scheduled (allowed bw, loss, rtt, ackloss, queue)"
    );
}

#[test]
fn a_scheduled_run_is_the_same_every_time() {
    let q = "rtt=30&bw=50&loss=0.5&app=bulk&dur=6&sched=2:bw:5,3:loss:0,4:rtt:80,5:bw:80&ackagg=2";
    let a = result(q);
    let b = result(q);
    assert_eq!(a.summary, b.summary);
    assert_eq!(a.delivered, b.delivered);
}
