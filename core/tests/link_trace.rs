//! Links of delivery opportunities: a Mahimahi trace's opportunities become the bottleneck's
//! departures one for one, and the seeded models carry their mean.

use tcplab::link::opportunity::{LinkTrace, OPPORTUNITY_BYTES};
use tcplab::link::{Direction, Fate, Path};
use tcplab::time::Instant;
use tcplab::{run, RunOptions, Scenario};

fn trace(text: &str) -> LinkTrace {
    LinkTrace::parse(text).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_trace_s_opportunities_become_departures_one_for_one() {
    // Opportunities at 1, 1, 2, 5, 5, 5 and 9 ms, repeating every 9 ms. Twenty packets of an
    // opportunity's size, all queued at once, leave at the trace's instants, lap after lap.
    let text = "1\n1\n2\n5\n5\n5\n9\n";
    let s = Scenario::parse_with_trace("queue=100", trace(text)).expect("a scenario");
    let mut p = Path::new(&s);
    let departs: Vec<u64> = (0..20)
        .map(
            |_| match p.offer(Direction::Data, 0, Instant::ZERO, OPPORTUNITY_BYTES, true) {
                Fate::Delivered { departs, .. } => departs.as_nanos(),
                Fate::Dropped(c) => panic!("dropped: {c:?}"),
            },
        )
        .collect();
    let want: Vec<u64> = (0..20)
        .map(|i| {
            let ms = [1, 1, 2, 5, 5, 5, 9][i % 7];
            ((i / 7) as u64 * 9 + ms) * 1_000_000
        })
        .collect();
    assert_eq!(departs, want);
    // The trace read back from the text it prints is the same trace.
    assert_eq!(trace(&trace(text).text()), trace(text));
}

#[test]
fn a_bulk_flow_over_a_trace_gets_the_trace_s_rate() {
    // 1000 opportunities a second: 12.032 Mbit/s, of which a 1460-byte segment in its 1512
    // bytes carries 1460/1512.
    let text: String = (1..=1000).map(|ms| format!("{ms}\n")).collect();
    let s = Scenario::parse_with_trace("cc=cubic&rtt=40&queue=100&app=bulk&dur=20", trace(&text))
        .expect("a scenario");
    assert_eq!(s.bw_mbps, 12.032);
    assert!(s.to_query().contains("link=trace"));
    let r = run(&s, &RunOptions::default());
    let payload = 12.032e6 / 8.0 * 1460.0 / 1512.0 / 1e6;
    let g = r.summary.goodput_MBps.unwrap_or(0.0);
    assert!(
        (g - payload).abs() < 0.05 * payload,
        "{g} MB/s against {payload}"
    );
    assert_eq!(r.invariants, tcplab::sim::Invariants::default());
}

#[test]
fn the_models_carry_their_mean_and_a_query_cannot_name_a_trace() {
    for q in [
        "cc=bbr&rtt=40&bw=20&link=lte&queue=500&app=bulk&dur=60",
        "cc=bbr&rtt=40&bw=20&link=wifi&queue=500&app=bulk&dur=60",
    ] {
        let s = Scenario::parse(q).expect("a scenario");
        let r = run(&s, &RunOptions::default());
        let g = r.summary.goodput_MBps.unwrap_or(0.0);
        // Against what this seed's link could carry over the run: a minute of LTE is one
        // draw of its rate's walk, anywhere from about half the mean to one and a half
        // (the model's long-run mean is the unit tests' in link/opportunity.rs).
        let model = s.link_model().expect("a link of opportunities");
        let wire = s.mss + tcplab::packet::header_bytes(s.ts);
        let bins = tcplab::view::capacity(
            &model,
            tcplab::time::Duration::from_millis(1000),
            tcplab::time::Instant::from_secs_f64(60.0),
            (s.mss, wire),
        );
        let could = bins.iter().map(|(_, r)| r.0).sum::<f64>() / bins.len() as f64;
        assert!(
            g > 0.8 * could && g <= 1.001 * could,
            "{q}: {g} MB/s of the {could} MB/s the link could carry"
        );
        let mean = 20.0 / 8.0;
        assert!(
            could > 0.4 * mean && could < 1.6 * mean,
            "{q}: {could} MB/s"
        );
    }
    let e = Scenario::parse("link=trace").map(|_| ()).unwrap_err();
    assert_eq!(e.key(), "link");
    // The page's read of its own link: the trace it holds, where the link asks for one.
    let held = std::sync::Arc::new(trace("1\n2\n"));
    let read = Scenario::parse_lenient_with_trace("rtt=30&link=trace", Some(held.clone()));
    assert!(read.errors.is_empty(), "{:?}", read.errors);
    assert_eq!(read.scenario.link_trace.as_ref(), Some(&held));
    let fixed = Scenario::parse_lenient_with_trace("rtt=30", Some(held));
    assert_eq!(fixed.scenario.link, tcplab::scenario::LinkKind::Fixed);
    let none = Scenario::parse_lenient_with_trace("rtt=30&link=trace", None);
    assert_eq!(none.errors.len(), 1);
    assert_eq!(none.scenario.rtt_ms, 30.0);
    let e = Scenario::parse("link=lte&sched=1:bw:5")
        .map(|_| ())
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "sched: a bw change needs link=fixed (link=lte sets the rate itself)"
    );
}

/// The verdict holds a run to what its link could carry while the goodput was measured: a body
/// that finished in a trace's fast first second is not "142 % of the link's rate" against the
/// trace's slower ten-second mean, and over any link of opportunities the goodput stays within
/// what the link offered over the same span (every byte delivered took an opportunity in it).
#[test]
fn the_verdict_compares_the_goodput_with_the_link_while_it_was_measured() {
    use tcplab::theory::verdict::{verdict, Limit};
    // 1 s of 4 opportunities a millisecond (48 Mbit/s), then 9 s of one every 2 ms (6 Mbit/s).
    let mut text = String::new();
    for ms in 1..=1000 {
        text.push_str(&format!("{ms}\n{ms}\n{ms}\n{ms}\n"));
    }
    for ms in (1002..=10_000).step_by(2) {
        text.push_str(&format!("{ms}\n"));
    }
    let s = Scenario::parse_with_trace("app=body&body=1000000&rtt=20&queue=200", trace(&text))
        .expect("a scenario");
    let r = run(&s, &RunOptions::summary_only());
    let g = r.summary.goodput_MBps.expect("a goodput");
    let offered = r.link_offered.expect("a link of opportunities").0;
    let v = verdict(&s, &r);
    assert!(
        r.summary.completion_ms.is_some_and(|c| c < 1000.0),
        "{:?}",
        r.summary.completion_ms
    );
    // The fast second's payload rate, not the trace's mean (about 1 MB/s).
    let fast = 4.0 * f64::from(OPPORTUNITY_BYTES) * 1000.0 * 1448.0 / 1500.0 / 1e6;
    assert!(
        (offered / fast - 1.0).abs() < 0.02,
        "{offered} against {fast} MB/s"
    );
    assert_eq!(v.link_mbps.0, offered);
    assert!(
        g <= offered,
        "{g} above the {offered} MB/s the link offered"
    );
    // Against the trace's long-run mean the body would read above the link's rate.
    let mean = tcplab::theory::path::Limits::of(&s).link.0;
    assert!(g > 1.5 * mean, "{g} against the mean's {mean} MB/s");
    assert_eq!(v.limit, Limit::LinkRate, "{v:?}");
    // Over the seeded links, each seed's walk: never above what the link offered.
    for q in [
        "preset=cellular",
        "link=lte&bw=20&app=bulk&dur=10&seed=3",
        "link=wifi&bw=20&app=bulk&dur=10&seed=5",
    ] {
        let s = Scenario::parse(q).expect("a scenario");
        let r = run(&s, &RunOptions::summary_only());
        let g = r.summary.goodput_MBps.expect("a goodput");
        let offered = r.link_offered.expect("a link of opportunities").0;
        assert!(g <= offered * 1.000_001, "{q}: {g} above {offered} MB/s");
        assert_eq!(verdict(&s, &r).link_mbps.0, offered, "{q}");
    }
    // A fixed rate keeps its own.
    let fixed = run(
        &Scenario::parse("bw=10").expect("a scenario"),
        &RunOptions::summary_only(),
    );
    assert_eq!(fixed.link_offered, None);
}
