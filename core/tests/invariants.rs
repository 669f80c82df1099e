//! Invariants every run must keep, over random scenarios: every byte delivered once and in
//! order, no more in flight than the windows allow, time never running backwards, and the same
//! scenario giving the same result byte for byte.

#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use tcplab::player::StepWindow;
use tcplab::sim::Invariants;
use tcplab::{run, App, RunOptions, Scenario, Tracing};

/// Small but varied scenarios: every loss model, recovery flavour, algorithm and queue
/// discipline, short enough
/// for a debug build to run dozens of them.
fn scenarios() -> impl Strategy<Value = String> {
    (
        (
            prop::sample::select(vec!["reno", "cubic", "bbr"]),
            1u32..200,
            prop::sample::select(vec![1.0f64, 10.0, 50.0, 100.0]),
            prop::sample::select(vec![0.0f64, 0.1, 1.0, 5.0]),
            prop::sample::select(vec![0.0f64, 1.0, 5.0]),
            prop::sample::select(vec![1.0f64, 3.0]),
            5u32..400,
        ),
        (
            prop::sample::select(vec![536u32, 1460, 9000]),
            1u32..40,
            prop::bool::ANY,
            prop::sample::select(vec![0u32, 40]),
            prop::sample::select(vec!["body", "bulk", "msgs"]),
            1u64..3_000_000,
            1u32..4,
            any::<u64>(),
        ),
        prop::collection::vec(1u64..400, 0..4),
        prop::sample::select(vec![20_000u64, 200_000, 4_194_304]),
        prop::sample::select(vec!["fifo", "red", "codel", "fq_codel", "pie"]),
    )
        .prop_map(
            |(
                (cc, rtt, bw, loss, ackloss, burst, queue),
                (mss, iw, sack, delack, app, body, flows, seed),
                drops,
                rwnd,
                aqm,
            )| {
                // Messages: up to 300 of them every 1 to 20 ms, over 0 (UDP) to 3 connections.
                let msgs = format!(
                    "&msg={}&every={}&count={}&conns={}",
                    1 + body % 3000,
                    1 + seed % 20,
                    1 + body % 300,
                    flows % 4
                );
                let drop: Vec<String> = drops.iter().map(u64::to_string).collect();
                let rwnd = rwnd.max(2 * u64::from(mss));
                format!(
                    "cc={cc}&rtt={rtt}&bw={bw}&loss={loss}&ackloss={ackloss}&burst={burst}&queue={queue}\
                     &mss={mss}&iw={iw}&rwnd={rwnd}&sack={}&delack={delack}&app={app}&body={body}\
                     &flows={flows}&dur=2&seed={seed}&aqm={aqm}&drop={}{}",
                    u8::from(sack),
                    drop.join(","),
                    if app == "msgs" { msgs.as_str() } else { "" }
                )
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn every_run_keeps_the_invariants(query in scenarios()) {
        let s = Scenario::parse(&query).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let options = RunOptions {
            max_events: 3_000_000,
            record_steps: Some(StepWindow::WHOLE_RUN),
            // Every flow's segments, so that the order of each one's is checked below.
            traces: Tracing::Full,
            ..RunOptions::default()
        };
        let r = run(&s, &options);
        prop_assert_eq!(r.invariants, Invariants::default(), "{}", query);

        // Every body byte read exactly once when the run finished; never more than written.
        if s.app == App::Body {
            for &d in &r.delivered {
                prop_assert!(d <= s.body, "{} read {} of {}", query, d, s.body);
            }
            if r.summary.completion_ms.is_some() {
                prop_assert!(r.delivered.iter().all(|&d| d == s.body), "{}", query);
            }
        }

        // Every message read at most once, never before it was written.
        if let Some(log) = &r.messages {
            for m in &log.records {
                if let Some(read) = m.read {
                    prop_assert!(read >= m.write && !m.lost, "{}", query);
                }
            }
            let read = log.records.iter().filter(|m| m.read.is_some()).count() as u64;
            prop_assert_eq!(r.summary.msgs.as_ref().map(|m| m.received), Some(read));
        }

        // Steps never run backwards either, and each kind has a sentence.
        if let Some(steps) = &r.steps {
            prop_assert!(steps.steps.windows(2).all(|w| w[0].t_ms <= w[1].t_ms));
            prop_assert!(!steps.steps.is_empty());
        }

        // Traces never run backwards.
        for f in &r.traces.flows {
            let rows = f.window.rows();
            prop_assert!(rows.windows(2).all(|w| w[0].0 <= w[1].0));
            let sends = f.sends.rows();
            prop_assert!(sends.windows(2).all(|w| w[0].0 <= w[1].0 && w[0].1[0] < w[1].1[0]));
        }

        // Determinism: the same scenario, the same JSON.
        // Recording the player's steps must not change the run.
        let again = run(&s, &RunOptions { record_steps: None, ..options });
        let a = serde_json::to_string(&r.summary).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let b = serde_json::to_string(&again.summary).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&a, &b);
        prop_assert_eq!(r.trace_csv(tcplab::metrics::trace::TraceKind::Seq), again.trace_csv(tcplab::metrics::trace::TraceKind::Seq));

        // A run for its summary alone keeps no traces and gives the same summary.
        let bare = run(&s, &RunOptions { record_steps: None, traces: Tracing::Off, ..options });
        let c = serde_json::to_string(&bare.summary).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(a, c);
        prop_assert_eq!(bare.traces.flows.len(), r.traces.flows.len());
        prop_assert!(bare.traces.flows.iter().all(|f| f.window.rows().is_empty() && f.delivered.bins().next().is_none()));
        prop_assert!(bare.traces.queue.rows().is_empty() && bare.traces.drops.rows().is_empty());
    }
}

/// Runs that go through timeouts without SACK, where the sender's reckoning of what has left
/// the network leans on duplicate ACKs: the observer's own count of the data in flight must
/// stay within cwnd once the sender is back in the Open state.
#[test]
fn newreno_after_timeouts_keeps_the_window() {
    for query in [
        "cc=reno&sack=0&loss=5&app=bulk&dur=30&bw=10",
        "preset=loss-sweep&sack=0&loss=5",
        "cc=cubic&sack=0&loss=3&ackloss=3&app=bulk&dur=20&rtt=80&seed=2",
    ] {
        let s = Scenario::parse(query).unwrap_or_else(|e| panic!("{query}: {e}"));
        let r = run(&s, &RunOptions::default());
        assert!(r.summary.timeouts > 0, "{query} has no timeout to test");
        assert_eq!(r.invariants, Invariants::default(), "{query}");
    }
}

/// The charts' traces are the full ones less the segments, ACKs and RTT samples of every flow
/// but the first, whose window rows are those at which its cwnd changed: the same run, the same
/// rows wherever both keep them.
#[test]
fn the_charts_traces_are_the_full_ones_less_the_other_flows_segments() {
    use tcplab::metrics::series::Series;
    use tcplab::metrics::trace::window_col;
    // Rows by their bits: a window row's unbounded ssthresh is NaN.
    fn bits<const N: usize>(s: &Series<N>) -> Vec<(u64, [u64; N])> {
        s.rows()
            .into_iter()
            .map(|(t, v)| (t.0, v.map(f64::to_bits)))
            .collect()
    }
    let s = Scenario::parse("rtt=20&bw=20&app=bulk&dur=3&flows=3&loss=0.5").expect("a scenario");
    let with = |traces| {
        run(
            &s,
            &RunOptions {
                traces,
                ..RunOptions::default()
            },
        )
    };
    let (full, charts) = (with(Tracing::Full), with(Tracing::Charts));
    assert_eq!(
        serde_json::to_string(&full.summary).ok(),
        serde_json::to_string(&charts.summary).ok()
    );
    for (i, (f, c)) in full
        .traces
        .flows
        .iter()
        .zip(&charts.traces.flows)
        .enumerate()
    {
        if i == 0 {
            assert!(bits(&f.window) == bits(&c.window), "flow {i}'s window");
        } else {
            // Every row of the full trace that changed cwnd, and only those (unthinned here).
            assert!(!f.window.is_thinned());
            let changes: Vec<_> = bits(&f.window)
                .into_iter()
                .scan(None, |last, row| {
                    let cwnd = row.1[window_col::CWND];
                    Some((last.replace(cwnd) != Some(cwnd)).then_some(row))
                })
                .flatten()
                .collect();
            assert!(
                changes.len() * 2 < f.window.rows().len(),
                "flow {i}: few rows saved"
            );
            assert!(bits(&c.window) == changes, "flow {i}'s window");
        }
        assert!(
            f.delivered.bins().eq(c.delivered.bins()),
            "flow {i}'s goodput"
        );
        assert!(
            !f.sends.rows().is_empty() && !f.rtt.rows().is_empty() && !f.sacks.rows().is_empty()
        );
        let detail = |t: &tcplab::metrics::trace::FlowTrace| {
            (
                bits(&t.sends),
                bits(&t.retransmits),
                bits(&t.acks),
                bits(&t.sacks),
                bits(&t.sack_blocks),
                bits(&t.rtt),
            )
        };
        if i == 0 {
            assert!(detail(f) == detail(c), "the first flow's segments");
        } else {
            assert_eq!(
                c.sends.pushed() + c.acks.pushed() + c.rtt.pushed() + c.sacks.pushed(),
                0
            );
        }
    }
    assert!(bits(&full.traces.queue) == bits(&charts.traces.queue));
    assert!(bits(&full.traces.sojourn) == bits(&charts.traces.sojourn));
}
