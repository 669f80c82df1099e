//! While a lesson's question waits for its answer the charts are veiled past the player's time,
//! and their legends and readouts must not give away what comes after it: no retransmission,
//! drop or sample counted before it happens, no segment read as SACKed or ACKed before it is.
//! Unveiled, or veiled once the run is over, they read the whole run as they always did.

use std::rc::Rc;

use tcplab::view::RunView;

use super::cursor::Readout;
use super::cwnd::Cwnd;
use super::frame::{Frame, Scale};
use super::goodput::Goodput;
use super::legend::Item;
use super::messages::{Distribution, Latency};
use super::plot::{At, Figure};
use super::queue::Queue;
use super::rtt::Rtt;
use super::sequence::Sequence;
use super::style::Style;
use super::Ctx;
use crate::i18n::Lang;
use crate::worker::protocol::run_view;

/// The fast-retransmit lesson's run: segment 15 dropped, three duplicate ACKs, one fast
/// retransmit.
fn lesson() -> Rc<RunView> {
    Rc::new(run_view("preset=lesson-fast-retransmit"))
}

/// Where the lesson's third part stands the player: the second duplicate ACK, before the third
/// and the fast retransmit it sets off.
fn before_the_retransmission(v: &RunView) -> f64 {
    let f = &v.flows[0];
    let rtx = f.retransmits.first().expect("a retransmission").0;
    f.acks
        .iter()
        .map(|a| a.0)
        .rfind(|&t| t < rtx)
        .expect("an ACK before the retransmission")
}

fn ctx(v: &Rc<RunView>, until: Option<f64>) -> Ctx {
    Ctx::new(v.clone(), Lang::En).known_until(until)
}

fn labels(items: &[Item]) -> Vec<String> {
    items.iter().map(|i| i.label.clone()).collect()
}

fn rows(r: Option<Readout>) -> Vec<String> {
    r.map(|r| r.rows.into_iter().map(|row| row.text).collect())
        .unwrap_or_default()
}

/// The instants a text names ("… at 407.3 ms"), in ms, as rounded for reading.
fn instants(text: &str) -> Vec<f64> {
    text.split("at ")
        .skip(1)
        .filter_map(|rest| {
            let (n, unit) = rest.split_once(' ')?;
            let n: f64 = n.trim_end_matches(',').replace(',', "").parse().ok()?;
            match unit.trim_start_matches(|c: char| !c.is_alphabetic()) {
                u if u.starts_with("ms") => Some(n),
                u if u.starts_with('s') => Some(n * 1000.0),
                _ => None,
            }
        })
        .collect()
}

/// How far an instant as written can be from the instant (`fmt::time` rounds to 0.1 ms under a
/// second, to 1 ms above): less than the 0.6 ms between this run's ACKs.
const ROUNDING: f64 = 0.5;

/// A plotting area 1000 device pixels wide over the run.
fn frame(v: &RunView) -> Frame {
    Frame {
        x: Scale {
            lo: 0.0,
            hi: v.end_ms,
            log: false,
            px: 0..1000,
        },
        y: Scale {
            lo: 0.0,
            hi: 1.0,
            log: false,
            px: 0..300,
        },
        size: (1000, 300),
    }
}

fn style() -> Style {
    Style::new(1.0, 16.0)
}

#[test]
fn the_time_sequence_graph_counts_and_reads_no_retransmission_to_come() {
    let v = lesson();
    let k = before_the_retransmission(&v);
    let whole = Sequence(ctx(&v, None));
    let veiled = Sequence(ctx(&v, Some(k)));
    assert!(
        labels(&whole.legend()).contains(&"retransmission (1)".to_string()),
        "{:?}",
        labels(&whole.legend())
    );
    let said = labels(&veiled.legend());
    assert!(
        !said.iter().any(|l| l.contains("retransmission")),
        "veiled at {k} ms: {said:?}"
    );

    // The segment last sent by the player's time, and the one the loss took (bytes 20,440 to
    // 21,900, sent at the drop): whole, each is read with its SACK and its ACK, the lost one
    // with its retransmission; veiled, none of those has happened yet.
    let f = &v.flows[0];
    let last = *f.sends.iter().rfind(|s| s.0 <= k).expect("a send");
    let lost = *f
        .sends
        .iter()
        .find(|s| s.1 > f.retransmits[0].1)
        .expect("the lost segment");
    let (fr, st) = (frame(&v), style());
    for (t, y, whole_says) in [
        (k, last.1, &["SACKed at", "ACKed at"][..]),
        (lost.0, lost.1, &["retransmitted at", "ACKed at"][..]),
    ] {
        let whole_rows = rows(whole.readout(At::new(t, Some(y), None), &fr, &st));
        for s in whole_says {
            assert!(
                whole_rows.iter().any(|r| r.contains(s)),
                "{s}: {whole_rows:?}"
            );
        }
        let veiled_rows = rows(veiled.readout(At::new(t, Some(y), None), &fr, &st));
        for r in &veiled_rows {
            assert!(
                instants(r).iter().all(|&at| at <= k + ROUNDING),
                "veiled at {k} ms, a later instant: {r}"
            );
            for s in ["SACKed at", "ACKed at", "retransmitted", "run's end"] {
                assert!(!r.contains(s), "veiled at {k} ms: {r}");
            }
        }
        assert!(
            veiled_rows.iter().any(|r| r == "not ACKed yet"),
            "{veiled_rows:?}"
        );
    }
}

#[test]
fn the_window_chart_names_no_ssthresh_before_the_loss_is_detected() {
    let v = lesson();
    let k = before_the_retransmission(&v);
    let whole = labels(&Cwnd(ctx(&v, None)).legend(1e6, false));
    let veiled = labels(&Cwnd(ctx(&v, Some(k))).legend(1e6, false));
    assert!(whole.contains(&"ssthresh".to_string()), "{whole:?}");
    assert!(!veiled.contains(&"ssthresh".to_string()), "{veiled:?}");
}

#[test]
fn the_queue_counts_no_drop_to_come() {
    let v = lesson();
    let drop = v.drops.first().expect("the staged drop").t;
    let whole = labels(&Queue(ctx(&v, None)).legend(100.0, None));
    let before = labels(&Queue(ctx(&v, Some(drop - 1.0))).legend(100.0, None));
    let at = labels(&Queue(ctx(&v, Some(drop))).legend(100.0, None));
    let staged = |l: &Vec<String>| l.iter().any(|s| s.starts_with("scheduled drop (drop=) (1"));
    assert!(staged(&whole), "{whole:?}");
    assert!(!before.iter().any(|s| s.contains("drop=")), "{before:?}");
    assert!(staged(&at), "{at:?}");
}

#[test]
fn the_round_trip_chart_counts_only_the_samples_taken() {
    let v = lesson();
    let k = before_the_retransmission(&v);
    let f = &v.flows[0];
    let taken = f.rtt.iter().filter(|s| s.0 <= k).count();
    assert!(
        taken > 0 && taken < f.rtt.len(),
        "{taken} of {}",
        f.rtt.len()
    );
    let whole = labels(&Rtt(ctx(&v, None)).legend(1000.0));
    let veiled = labels(&Rtt(ctx(&v, Some(k))).legend(1000.0));
    assert_eq!(whole[0], format!("RTT samples ({})", f.rtt.len()));
    assert_eq!(veiled[0], format!("RTT samples ({taken})"));
}

#[test]
fn the_goodput_read_by_the_player_s_time_owes_nothing_to_what_follows() {
    let v = lesson();
    let k = before_the_retransmission(&v);
    // The same run with everything after the player's time changed: ten times the goodput,
    // and round trips ten times as long.
    let mut other = (*v).clone();
    let f = &mut other.flows[0];
    for b in f.goodput.iter_mut().filter(|b| b.0 + 1.0 > k) {
        b.1 *= 10.0;
    }
    for w in f.window.iter_mut().filter(|w| w.t > k) {
        w.srtt_ms = w.srtt_ms.map(|s| s * 10.0);
    }
    let other = Rc::new(other);
    let (fr, st) = (frame(&v), style());
    let read = |v: &Rc<RunView>, until| {
        rows(Goodput(ctx(v, until)).readout(At::new(k, None, None), &fr, &st))
    };
    assert_ne!(
        read(&v, None),
        read(&other, None),
        "the whole run reads ahead"
    );
    assert_eq!(read(&v, Some(k)), read(&other, Some(k)));
}

/// The head-of-line lesson's run: messages held behind each loss and released at once.
#[test]
fn the_message_charts_give_no_latency_stall_or_loss_to_come() {
    let v = Rc::new(run_view("preset=hol-blocking&dur=3"));
    let h = v.hol.first().expect("a stall").clone();
    // Inside the first stall: its messages are held, their release still to come.
    let k = (h.start_ms + h.end_ms) / 2.0;
    let veiled = Latency(ctx(&v, Some(k)));
    let points = veiled.points();
    for &(sent, latency) in points.free.iter().chain(&points.held) {
        assert!(sent + latency <= k + 1e-9, "read at {} ms", sent + latency);
    }
    assert!(points.lost.is_empty(), "{:?}", points.lost);
    let said = labels(&veiled.legend(&points, 1000.0));
    let begun = v.hol.iter().filter(|s| s.start_ms <= k).count();
    assert!(
        said.contains(&format!("head-of-line stall ({begun})")),
        "{said:?}"
    );
    assert!(!said.iter().any(|l| l.starts_with("p99")), "{said:?}");
    let (fr, st) = (frame(&v), style());
    let read = rows(veiled.readout(At::new(k, None, None), &fr, &st));
    assert!(
        read.iter().any(|r| r.ends_with("not released yet")),
        "{read:?}"
    );
    for r in &read {
        assert!(instants(r).iter().all(|&at| at <= k + ROUNDING), "{r}");
    }

    let whole = Latency(ctx(&v, None));
    let all = labels(&whole.legend(&whole.points(), 1000.0));
    assert!(
        all.contains(&format!("head-of-line stall ({})", v.hol.len())),
        "{all:?}"
    );
    assert!(all.iter().any(|l| l.starts_with("p99")), "{all:?}");
    let read = rows(whole.readout(At::new(k, None, None), &fr, &st));
    assert!(read.iter().any(|r| r.starts_with("stall ")), "{read:?}");

    // The distribution marks the run's percentiles only once the run is over.
    assert!(Distribution(ctx(&v, Some(k))).marks().is_empty());
    assert_eq!(Distribution(ctx(&v, None)).marks().len(), 2);
}

/// Veiled once the run is over, every legend and readout is the whole run's.
#[test]
fn veiled_after_the_end_the_charts_read_the_whole_run() {
    let v = lesson();
    let after = Some(v.end_ms + 1.0);
    let (fr, st) = (frame(&v), style());
    let (whole, late) = (ctx(&v, None), ctx(&v, after));
    assert_eq!(
        Sequence(whole.clone()).legend(),
        Sequence(late.clone()).legend()
    );
    assert_eq!(
        Cwnd(whole.clone()).legend(1e6, true),
        Cwnd(late.clone()).legend(1e6, true)
    );
    assert_eq!(
        Queue(whole.clone()).legend(100.0, Some(50.0)),
        Queue(late.clone()).legend(100.0, Some(50.0))
    );
    assert_eq!(
        Rtt(whole.clone()).legend(1000.0),
        Rtt(late.clone()).legend(1000.0)
    );
    let y = v.flows[0].sends.last().map(|s| s.1);
    for t in [0.0, 250.0, 305.0, 407.5, v.end_ms] {
        let figures: [(Box<dyn Figure>, Box<dyn Figure>); 4] = [
            (
                Box::new(Sequence(whole.clone())),
                Box::new(Sequence(late.clone())),
            ),
            (Box::new(Cwnd(whole.clone())), Box::new(Cwnd(late.clone()))),
            (
                Box::new(Goodput(whole.clone())),
                Box::new(Goodput(late.clone())),
            ),
            (
                Box::new(Queue(whole.clone())),
                Box::new(Queue(late.clone())),
            ),
        ];
        for (a, b) in figures {
            assert_eq!(
                a.readout(At::new(t, y, None), &fr, &st),
                b.readout(At::new(t, y, None), &fr, &st),
                "{t}"
            );
        }
    }
}

/// The top of the value axis `figure` draws, 1200 pixels wide (on the SVG backend, which the
/// page's module does not build).
#[cfg(not(target_arch = "wasm32"))]
fn drawn_top(figure: &dyn Figure) -> f64 {
    let st = style();
    let (svg, _drawing) = super::svg::Svg::new((1200, 400));
    let root = plotters::drawing::IntoDrawingArea::into_drawing_area(svg);
    let frame = figure.draw(&root, &st).expect("the chart draws");
    frame.y.hi
}

#[cfg(not(target_arch = "wasm32"))]
#[test]
fn veiled_the_value_axes_fit_what_is_shown_not_what_is_hidden() {
    // The slow-start lesson's run: its window reaches megabytes, its second part looks at the
    // first 20 segments.
    let v = Rc::new(run_view("preset=post-slow-start"));
    let f = &v.flows[0];
    let mss = f64::from(v.theory.mss);
    let k = f
        .window
        .iter()
        .find(|w| w.cwnd >= 20.0 * mss)
        .expect("cwnd reaches 20 segments")
        .t;
    let window_max = f.window.iter().map(|w| w.cwnd).fold(0.0, f64::max);
    assert!(window_max > 50.0 * 20.0 * mss, "{window_max}");
    // The window and the data in flight by then (the receive window, over two and a half
    // times that, is named above the chart as the BDP is).
    let shown_window = f
        .window
        .iter()
        .filter(|w| w.t <= k)
        .flat_map(|w| [w.cwnd, w.in_flight])
        .fold(0.0, f64::max);

    let whole = drawn_top(&Cwnd(ctx(&v, None)));
    let veiled = drawn_top(&Cwnd(ctx(&v, Some(k))));
    assert!(whole >= window_max, "whole: {whole} for {window_max}");
    assert!(
        veiled >= shown_window && veiled <= 1.1 * shown_window,
        "veiled at {k} ms: {veiled} for {shown_window} shown"
    );

    let sent = |until: f64| {
        f.sends
            .iter()
            .filter(|s| s.0 <= until)
            .map(|s| s.1)
            .fold(0.0, f64::max)
    };
    // Veiled, the time axis runs to the player's horizon, the run's end unsaid.
    let horizon = ctx(&v, Some(k)).horizon(Some(500.0));
    assert_eq!(horizon.span(), (0.0, 500.0));
    assert_eq!(horizon.drawn_span(), (0.0, k));
    let whole = drawn_top(&Sequence(ctx(&v, None)));
    let veiled = drawn_top(&Sequence(ctx(&v, Some(k))));
    assert!(whole >= sent(v.end_ms), "whole: {whole}");
    assert!(
        veiled >= sent(k) && veiled <= 1.1 * sent(k),
        "veiled at {k} ms: {veiled} for {} sent",
        sent(k)
    );
}

/// The Mathis lesson asks what the formula gives and what Reno will get: while its question
/// waits, the goodput chart draws no Mathis line nor names its rate, and the queue chart says
/// nothing of what a full queue makes a packet wait (the bufferbloat lesson's ping). Unveiled,
/// both are there.
#[cfg(not(target_arch = "wasm32"))]
#[test]
fn no_theory_line_or_note_answers_a_waiting_question() {
    let v = Rc::new(run_view("preset=post-slow-start&loss=1&dur=3"));
    let mathis = v
        .theory
        .mathis_mbps
        .expect("a lossy path has a Mathis rate");
    let said =
        |until: Option<f64>| super::plot::svg(&Goodput(ctx(&v, until)), 1200.0).document("goodput");
    let rate = super::fmt::rate(mathis);
    assert!(said(None).contains("Mathis"), "unveiled");
    assert!(said(None).contains(&rate), "unveiled: {rate}");
    let veiled = said(Some(1000.0));
    assert!(!veiled.contains("Mathis"), "veiled");
    assert!(Queue(ctx(&v, None)).note().is_some());
    assert_eq!(Queue(ctx(&v, Some(1000.0))).note(), None);
}
