//! "My number, explained": each cause found reproduces the number when its scenario runs.

use tcplab::diagnose::{explain, Cause, ExplainError, Explanation, Measured, TOLERANCE};
use tcplab::{run, RunOptions, Scenario};

fn asked(q: &str, m: Measured) -> Explanation {
    explain(&Scenario::parse(q).expect("path"), m).expect("an explanation")
}

/// Runs each candidate's scenario: it gives the number within the tolerance.
fn each_reproduces(e: &Explanation, m: Measured) {
    for c in &e.candidates {
        let s = Scenario::parse(&c.scenario).expect("the candidate's link parses");
        let r = run(&s, &RunOptions::default()).summary;
        let (got, want) = match m {
            Measured::Goodput(g) => (r.goodput_MBps.unwrap_or(0.0), g),
            Measured::Time(t) => (r.completion_ms.unwrap_or(f64::INFINITY), t),
        };
        assert!(
            ((got - want) / want).abs() <= TOLERANCE,
            "{:?} ({}) gives {got}, not {want}",
            c.cause,
            c.scenario
        );
        assert_eq!(got, c.result, "{}", c.scenario);
    }
}

fn causes(e: &Explanation) -> Vec<Cause> {
    e.candidates.iter().map(|c| c.cause).collect()
}

#[test]
fn seed_003_s_post_is_explained_by_a_window_or_a_bottleneck_not_by_slow_start() {
    // 28 ms, 1 Gbit/s, a 20 Mb body, measured at 1.8 MB/s.
    let m = Measured::Goodput(1.8);
    let e = asked("rtt=28&bw=1000&body=20Mb", m);
    each_reproduces(&e, m);
    assert!(
        e.ruled_out.iter().any(|r| r.cause == Cause::PathAlone),
        "slow start alone gives {:?} MB/s",
        e.baseline
    );
    assert!(e.baseline.is_some_and(|b| b > 10.0), "{:?}", e.baseline);
    for c in [
        Cause::ReceiveWindow,
        Cause::Bottleneck,
        Cause::Loss,
        Cause::Policer,
    ] {
        assert!(causes(&e).contains(&c), "{c:?} in {:?}", e.candidates);
    }
    // A goodput counts from the first byte: a pause before it cannot explain one.
    assert!(e.ruled_out.iter().any(|r| r.cause == Cause::ThinkTime));
    let rwnd = e
        .candidates
        .iter()
        .find(|c| c.cause == Cause::ReceiveWindow)
        .map(|c| c.value)
        .unwrap_or(0.0);
    // About 64 KB, less what slow start costs.
    assert!((40_000.0..70_000.0).contains(&rwnd), "{rwnd}");
}

#[test]
fn the_answer_follows_the_body_and_the_rtt() {
    let m = Measured::Goodput(1.8);
    let value = |e: &Explanation, c: Cause| {
        e.candidates
            .iter()
            .find(|x| x.cause == c)
            .map(|x| x.value)
            .unwrap_or(f64::NAN)
    };
    let short = asked("rtt=28&body=20Mb", m);
    let long = asked("rtt=28&body=200MB", m);
    let far = asked("rtt=100&body=20Mb", m);
    each_reproduces(&long, m);
    each_reproduces(&far, m);
    // A longer body needs a slower bottleneck for the same goodput: less of it is slow start.
    assert!(value(&long, Cause::Bottleneck) < value(&short, Cause::Bottleneck));
    // Four times the RTT, four times the window for the same rate, near enough.
    let ratio = value(&far, Cause::ReceiveWindow) / value(&short, Cause::ReceiveWindow);
    assert!((3.0..5.0).contains(&ratio), "{ratio}");
}

#[test]
fn a_body_s_time_can_be_a_server_s_think_time() {
    let m = Measured::Time(1500.0);
    let e = asked("rtt=28&body=20Mb", m);
    each_reproduces(&e, m);
    let think = e
        .candidates
        .iter()
        .find(|c| c.cause == Cause::ThinkTime)
        .expect("a think time");
    // The path alone takes 244 ms; the pause is most of the rest.
    assert!((1_150.0..1_300.0).contains(&think.value), "{}", think.value);
}

#[test]
fn a_number_the_path_beats_needs_no_cause_and_bad_questions_are_refused() {
    let e = asked("rtt=28&body=20Mb", Measured::Goodput(50.0));
    assert!(e.candidates.is_empty());
    let path = Scenario::parse("app=bulk").expect("path");
    assert_eq!(
        explain(&path, Measured::Time(100.0)),
        Err(ExplainError::TimeNeedsBody(tcplab::App::Bulk))
    );
    let e = explain(&path, Measured::Goodput(-1.0)).map_err(|e| e.to_string());
    assert_eq!(
        e,
        Err("--goodput: -1 is out of range (allowed above 0 to 100000 MB/s)".into())
    );
}
