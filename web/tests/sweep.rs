//! Sweeps, the matrix, comparisons and exports, in the browser: the page's table equal to
//! `tcplab sweep --table`; the worker's summaries and traces as the runner prints them; the
//! theory's curve; and the charts drawn. The page's own keys and a batch's runs are tested with
//! the model (`src/model/views.rs`, `src/model/plan.rs`), on the host too.
#![cfg(target_arch = "wasm32")]

use std::rc::Rc;

use plotters::prelude::*;
use tcplab::metrics::trace::TraceKind;
use tcplab::scenario::Key;
use tcplab::sweep::{prediction, table_csv, Prediction, SweepRow};
use tcplab::{RunOptions, Scenario};
use tcplab_web::batch::Batch;
use tcplab_web::charts::canvas::Drawing;
use tcplab_web::charts::canvas2d::Canvas2d;
use tcplab_web::charts::style::Style;
use tcplab_web::i18n::Lang;
use tcplab_web::model::plan::PlanKey;
use tcplab_web::model::views::{Axis, MatrixSpec, Metric, SweepSpec};
use tcplab_web::sweep::chart::SweepChart;
use tcplab_web::sweep::data;
use tcplab_web::sweep::matrix::{self, Heatmap};
use tcplab_web::worker::pool::{size_for, Done};
use tcplab_web::worker::protocol::{answer, encode_request, Reply, Request, Want};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// Runs `key`'s values over `query` with `seeds` seeds as the runner does, and the same runs
/// gathered as the page gathers its batch.
fn both(query: &str, key: Key, values: &str, seeds: u32) -> (String, String) {
    let base = Scenario::parse(query).expect("a scenario");
    let spec = SweepSpec {
        axis: Axis::parse(key, values, &base, "values").expect("values"),
        seeds,
        metric: Metric::Goodput,
    };
    let key_ = PlanKey::Sweep(base.clone(), spec.clone());
    let plan = Rc::new(key_.plan());
    let mut batch = Batch::new(1, key_, plan.clone(), 0.0, 2);
    // The worker's answers, in reverse order as a pool may deliver them.
    for (i, job) in plan.jobs.iter().enumerate().rev() {
        let text = encode_request(&Request {
            id: i as u64,
            query: job.query.clone(),
            want: Want::Summary,
            trace: None,
        })
        .expect("a request");
        let reply: Reply = answer(&text, || 0.0);
        let summary = reply.summary.expect("a summary");
        batch.record(i, Done::Summary(Rc::new(summary)), 1.0);
    }
    assert!(batch.finished());
    let page = data::csv(key, &data::points(&base, &spec, Some(&batch)));
    let mut rows = Vec::new();
    for i in 0..spec.axis.values.len() {
        let point = spec.axis.point(&base, i).expect("a point");
        let runs: Vec<_> = (0..u64::from(seeds))
            .map(|k| {
                let mut s = point.clone();
                s.seed += k;
                tcplab::run(&s, &RunOptions::default()).summary
            })
            .collect();
        rows.push(SweepRow::new(key, &point, &runs, None));
    }
    (page, table_csv(key, &rows))
}

#[wasm_bindgen_test]
fn the_page_table_is_the_runners() {
    let (page, runner) = both("preset=loss-sweep&dur=3", Key::Loss, "0.5,2", 3);
    assert_eq!(page, runner);
    assert_eq!(page.lines().count(), 3);
    let (page, runner) = both("", Key::Body, "100KB,1MB", 2);
    assert_eq!(page, runner);
    assert!(
        page.contains(",ms,"),
        "a body's theory is its completion time: {page}"
    );
}

#[wasm_bindgen_test]
fn the_worker_prints_traces_as_the_runner_does() {
    let query = "rtt=50&loss=1";
    let s = Scenario::parse(query).expect("a scenario");
    let direct = tcplab::run(&s, &RunOptions::default());
    for kind in [TraceKind::Cwnd, TraceKind::Seq, TraceKind::Queue] {
        let request = encode_request(&Request {
            id: 3,
            query: query.to_string(),
            want: Want::Trace(kind.name().to_string()),
            trace: None,
        })
        .expect("a request");
        let reply: Reply = answer(&request, || 0.0);
        assert_eq!(
            reply.csv.as_deref(),
            Some(direct.trace_csv(kind).as_str()),
            "{kind}"
        );
    }
    let request = |id, query: &str, want| {
        encode_request(&Request {
            id,
            query: query.into(),
            want,
            trace: None,
        })
        .expect("a request")
    };
    let reply: Reply = answer(&request(4, "", Want::Trace("rtts".into())), || 0.0);
    assert!(reply.error.expect("refused").contains("allowed cwnd"));
    let reply: Reply = answer(&request(5, "rtt=50", Want::Summary), || 0.0);
    let summary = reply.summary.expect("a summary");
    assert_eq!(summary.scenario, "rtt=50");
    assert!(reply.view.is_none(), "a summary alone");
}

#[wasm_bindgen_test]
fn the_pool_is_one_worker_per_core_at_most_four() {
    assert_eq!(size_for(2.0), 2);
    assert_eq!(size_for(16.0), 4);
    assert_eq!(size_for(0.0), 1);
    assert_eq!(size_for(f64::NAN), 1);
}

#[wasm_bindgen_test]
fn the_theory_curve_is_the_formula_between_the_points() {
    let base = Scenario::parse("preset=loss-sweep").expect("a scenario");
    let curve = data::theory_curve(&base, Key::Loss, Metric::Goodput, 0.1, 5.0);
    assert!(curve.len() > 50);
    assert!(
        curve
            .windows(2)
            .all(|w| w[1].0 > w[0].0 && w[1].1 <= w[0].1),
        "falls with loss"
    );
    for &(x, y) in curve.iter().step_by(10) {
        let mut s = base.clone();
        s.loss_pct = x;
        let Prediction::GoodputMbps(tcplab::rate::MBytePerS(m)) = prediction(&s) else {
            panic!("a rate")
        };
        assert!(
            (m - y).abs() < 1e-9 * m.max(1.0),
            "at {x} %: {m} against {y}"
        );
    }
    assert!(
        data::theory_name(&base, Key::Loss, Metric::Goodput, Lang::En)
            .is_some_and(|n| n.contains("Mathis"))
    );
    assert!(data::theory_curve(&base, Key::Loss, Metric::P99, 0.1, 5.0).is_empty());
}

fn draw(drawing: &dyn Drawing) -> usize {
    let doc = web_sys::window()
        .and_then(|w| w.document())
        .expect("a document");
    let canvas: web_sys::HtmlCanvasElement = doc
        .create_element("canvas")
        .expect("a canvas")
        .dyn_into()
        .expect("a canvas");
    canvas.set_width(900);
    canvas.set_height(400);
    let root = Canvas2d::new(&canvas)
        .expect("a 2D context")
        .into_drawing_area();
    root.fill(&WHITE).expect("fill");
    drawing.draw(&root, &Style::new(1.0, 16.0)).expect("drawn");
    root.present().expect("present");
    let ctx: web_sys::CanvasRenderingContext2d = canvas
        .get_context("2d")
        .ok()
        .flatten()
        .expect("a context")
        .dyn_into()
        .expect("2d");
    let data = ctx
        .get_image_data(0.0, 0.0, 900.0, 400.0)
        .expect("pixels")
        .data();
    data.chunks(4)
        .filter(|p| p[0] < 200 || p[1] < 200 || p[2] < 200)
        .count()
}

/// `key`'s batch `id` as the pool gathers it, every run done in process.
fn ran(id: u64, key: PlanKey) -> Batch {
    let plan = Rc::new(key.plan());
    let mut batch = Batch::new(id, key, plan.clone(), 0.0, 2);
    for (i, job) in plan.jobs.iter().enumerate() {
        let s = Scenario::parse(&job.query).expect("a scenario");
        let summary = tcplab::run(&s, &RunOptions::default()).summary;
        batch.record(i, Done::Summary(Rc::new(summary)), 1.0);
    }
    batch
}

#[wasm_bindgen_test]
fn the_sweep_chart_and_the_heatmap_draw() {
    let base = Scenario::parse("preset=loss-sweep&dur=2").expect("a scenario");
    let spec = SweepSpec {
        axis: Axis::parse(Key::Loss, "0,0.5,2", &base, "values").expect("values"),
        seeds: 2,
        metric: Metric::Goodput,
    };
    let batch = ran(1, PlanKey::Sweep(base.clone(), spec.clone()));
    let points = data::points(&base, &spec, Some(&batch));
    for lang in Lang::ALL {
        let inked = draw(&SweepChart {
            base: base.clone(),
            key: Key::Loss,
            flow: None,
            metric: Metric::Goodput,
            points: points.clone(),
            lang,
        });
        assert!(inked > 3000, "{lang:?}: {inked} pixels inked");
    }

    // A body's completion where seeds ran out of time: their triangles at dur, the median's
    // bound, the ideal path's line.
    let body = Scenario::parse("rtt=150&bw=100&rwnd=65536&body=1MB&dur=3.5").expect("a scenario");
    let spec = SweepSpec {
        axis: Axis::parse(Key::Loss, "1,5", &body, "values").expect("values"),
        seeds: 3,
        metric: Metric::Completion,
    };
    let batch = ran(3, PlanKey::Sweep(body.clone(), spec.clone()));
    let points = data::points(&body, &spec, Some(&batch));
    assert_eq!(points[1].row.as_ref().and_then(|r| r.finished), Some(0));
    let inked = draw(&SweepChart {
        base: body.clone(),
        key: Key::Loss,
        flow: None,
        metric: Metric::Completion,
        points,
        lang: Lang::Zh,
    });
    assert!(inked > 3000, "{inked} pixels inked");

    let m = MatrixSpec {
        rows: Axis::parse(Key::Flows, "1,2", &base, "values").expect("rows"),
        cols: Axis::parse(Key::Rtt, "10,50", &base, "values2").expect("cols"),
        panels: None,
        seeds: 1,
        metric: Metric::Goodput,
    };
    let batch = ran(2, PlanKey::Matrix(base.clone(), m.clone()));
    let cells = matrix::cells(&base, &m, Some(&batch));
    assert!(cells.iter().all(|c| c.complete && c.spread.is_some()));
    let csv = matrix::csv(&m, &cells);
    assert_eq!(
        csv.lines().next(),
        Some("flows,rtt,runs,goodput_MBps_median,goodput_MBps_min,goodput_MBps_max")
    );
    assert_eq!(csv.lines().count(), 5);
    let inked = draw(&Heatmap {
        spec: m,
        cells,
        lang: Lang::Zh,
    });
    assert!(inked > 20_000, "the cells are filled: {inked}");
}
