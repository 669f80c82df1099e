//! Sweeps, the matrix, comparisons and exports, in the browser: the page's own keys read and
//! written, refused with the key named; a batch's runs in the runner's order; the page's table
//! equal to `tcplab sweep --table`; the worker's summaries and traces as the runner prints
//! them; the theory's curve; and the charts drawn.
#![cfg(target_arch = "wasm32")]

use std::rc::Rc;

use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use tcplab::metrics::trace::TraceKind;
use tcplab::scenario::Key;
use tcplab::sweep::{prediction, table_csv, Prediction, SweepRow};
use tcplab::{RunOptions, Scenario};
use tcplab_web::batch::Batch;
use tcplab_web::charts::canvas::Drawing;
use tcplab_web::charts::style::Style;
use tcplab_web::i18n::Lang;
use tcplab_web::model::address;
use tcplab_web::model::page::{Action, Page};
use tcplab_web::model::plan::{matrix_plan, sweep_plan, PlanKey};
use tcplab_web::model::views::{Axis, MatrixSpec, Metric, PageKeys, SweepSpec, View};
use tcplab_web::sweep::chart::SweepChart;
use tcplab_web::sweep::data;
use tcplab_web::sweep::matrix::{self, Heatmap};
use tcplab_web::worker::pool::{size_for, Done, Finished};
use tcplab_web::worker::protocol::{answer, Reply, Request, Want};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn page(search: &str) -> Page {
    Page::new(address::parse_search(search), Lang::En, false)
}

#[wasm_bindgen_test]
fn the_page_keys_read_and_write_canonically() {
    let p = page("?preset=loss-sweep&view=sweep&key=loss&values=0.1,1%25,2&seeds=3&lang=en");
    assert_eq!(p.banner, vec![]);
    assert_eq!(p.keys.view, View::Sweep);
    assert_eq!(p.keys.sweep.axis.values, ["0.1", "1", "2"]);
    assert_eq!(
        p.search(),
        "?preset=loss-sweep&view=sweep&key=loss&values=0.1,1,2&seeds=3&metric=goodput&lang=en"
    );
    // Units are applied and written back in the key's own unit.
    let p = page("?view=sweep&key=body&values=10kB,1MB&metric=completion");
    assert_eq!(p.keys.sweep.axis.values, ["10000", "1000000"]);
    assert_eq!(p.keys.sweep.metric, Metric::Completion);
    // The matrix's defaults are seed 004's.
    let p = page("?preset=multi-flow&view=matrix");
    assert_eq!(
        p.search(),
        "?preset=multi-flow&view=matrix&key=flows&values=1,4,8,16&key2=rtt&values2=10,50,100\
         &key3=loss&values3=0,0.1,1&seeds=1&metric=goodput"
    );
    // A comparison's scenarios are whole queries, percent-encoded.
    let p = page("?cc=reno&view=compare&b=cc%3Dbbr%26rtt%3D50&c=rtt%3D50&lang=en");
    assert_eq!(p.banner, vec![]);
    assert_eq!(p.compared().len(), 3);
    assert_eq!(p.keys.others[0].to_query(), "cc=bbr&rtt=50");
    assert_eq!(
        p.search(),
        "?cc=reno&view=compare&b=cc%3Dbbr%26rtt%3D50&c=rtt%3D50&lang=en"
    );
    let again = page(&p.search());
    assert_eq!(again.keys, p.keys);
    // One run writes none of them.
    assert_eq!(page("?rtt=50&key=rtt&values=1,2").search(), "?rtt=50");
}

fn bad(search: &str) -> (String, String) {
    let b = page(search).banner.into_iter().next().expect("a banner");
    (b.key, b.message)
}

#[wasm_bindgen_test]
fn a_bad_page_key_is_named() {
    let (k, m) = bad("?view=graph");
    assert_eq!(k, "view");
    assert!(m.contains("lab, sweep, matrix, compare"), "{m}");
    let (k, m) = bad("?view=sweep&key=mtu");
    assert_eq!(k, "key");
    assert!(
        m.contains("loss, rtt, iw, body, bw, rwnd, flows, conns"),
        "{m}"
    );
    let (k, m) = bad("?view=sweep&key=loss&values=1,,2");
    assert_eq!(
        (k.as_str(), m.as_str()),
        ("values", "values: value 2 is empty")
    );
    let (k, m) = bad("?view=sweep&key=loss&values=1,70");
    assert_eq!(k, "values");
    assert!(m.contains("0 to 50%"), "the scenario's own range: {m}");
    let (k, m) = bad("?view=sweep&key=loss&values=1,1");
    assert_eq!(k, "values");
    assert!(m.contains("twice"), "{m}");
    let (k, _) = bad("?view=sweep&seeds=0");
    assert_eq!(k, "seeds");
    let (k, m) = bad("?view=sweep&key=loss&values=0.1,0.2,0.5,1,2,5,10,20,30&seeds=50");
    assert_eq!(k, "seeds");
    assert!(m.contains("450 runs") && m.contains("400"), "{m}");
    let (k, _) = bad("?view=sweep&metric=speed");
    assert_eq!(k, "metric");
    let (k, m) = bad("?view=compare&b=rtt%3Dabc");
    assert_eq!(k, "b");
    assert!(m.contains("rtt") && m.contains("0.1 to 2000 ms"), "{m}");
    let (k, _) = bad("?view=compare&c=rtt%3D5");
    assert_eq!(k, "c");
    let (k, m) = bad("?view=sweep&seeds=2&seeds=3");
    assert_eq!((k.as_str(), m.as_str()), ("seeds", "seeds: repeated key"));
    let (k, _) = bad("?view=matrix&key=rtt&key2=rtt");
    assert_eq!(k, "key2");
    // A matrix's knobs are checked in every view, though only the matrix uses them.
    let (k, m) = bad("?key2=zzz");
    assert_eq!(k, "key2");
    assert!(m.contains("unknown value \"zzz\""), "{m}");
    let (k, m) = bad("?view=sweep&values3=zzz");
    assert_eq!(
        (k.as_str(), m.as_str()),
        ("values3", "values3: needs key3=")
    );
    let (k, _) = bad("?view=sweep&key3=rtt&values3=zzz");
    assert_eq!(k, "values3");
    // The scenario still runs; the view keeps its defaults.
    let p = page("?rtt=50&view=sweep&key=mtu");
    assert_eq!(p.scenario.rtt_ms, 50.0);
    assert_eq!(p.keys.sweep.axis.key, Key::Loss);
}

#[wasm_bindgen_test]
fn a_sweep_runs_value_by_value_with_seeds_ascending() {
    let base = Scenario::parse("preset=loss-sweep&seed=7").expect("a scenario");
    let spec = SweepSpec {
        axis: Axis::parse(Key::Loss, "0.5,2", &base, "values").expect("values"),
        seeds: 3,
        metric: Metric::Goodput,
    };
    let plan = sweep_plan(&base, &spec);
    let queries: Vec<&str> = plan.jobs.iter().map(|j| j.query.as_str()).collect();
    assert_eq!(
        queries,
        [
            "preset=loss-sweep&loss=0.5&seed=7",
            "preset=loss-sweep&loss=0.5&seed=8",
            "preset=loss-sweep&loss=0.5&seed=9",
            "preset=loss-sweep&loss=2&seed=7",
            "preset=loss-sweep&loss=2&seed=8",
            "preset=loss-sweep&loss=2&seed=9",
        ]
    );
    assert!(plan.jobs.iter().all(|j| j.want == Want::Summary));
    // A value that no longer fits the scenario is an error from the start, not a job.
    let mut small = base.clone();
    small.mss = 64;
    let rwnd = SweepSpec {
        axis: Axis::parse(Key::Rwnd, "200,65536", &small, "values").expect("values"),
        seeds: 1,
        metric: Metric::Goodput,
    };
    let plan = sweep_plan(&base, &rwnd);
    assert_eq!((plan.size(), plan.jobs.len()), (2, 1));
    assert!(plan.errors[0].1.contains("rwnd"), "{:?}", plan.errors);
    // The matrix: panels, rows, columns, then seeds.
    let m = MatrixSpec::default_for(&base);
    let plan = matrix_plan(&base, &m);
    assert_eq!(plan.size(), 36);
    assert_eq!(plan.jobs[1].query, "preset=loss-sweep&rtt=50&loss=0&seed=7");
    assert_eq!(
        plan.jobs[3].query,
        "preset=loss-sweep&rtt=10&loss=0&flows=4&seed=7"
    );
}

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
        let text = serde_json::to_string(&Request {
            id: i as u64,
            query: job.query.clone(),
            want: Want::Summary,
        })
        .expect("a request");
        let reply: Reply = serde_json::from_str(&answer(&text, || 0.0)).expect("a reply");
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
        rows.push(SweepRow::new(key, &point, &runs));
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
        let request = serde_json::to_string(&Request {
            id: 3,
            query: query.to_string(),
            want: Want::Trace(kind.name().to_string()),
        })
        .expect("a request");
        let reply: Reply = serde_json::from_str(&answer(&request, || 0.0)).expect("a reply");
        assert_eq!(
            reply.csv.as_deref(),
            Some(direct.trace_csv(kind).as_str()),
            "{kind}"
        );
    }
    let request = r#"{"id":4,"query":"","want":{"trace":"rtt"}}"#;
    let reply: Reply = serde_json::from_str(&answer(request, || 0.0)).expect("a reply");
    assert!(reply.error.expect("refused").contains("allowed cwnd"));
    let request = r#"{"id":5,"query":"rtt=50","want":"summary"}"#;
    let reply: Reply = serde_json::from_str(&answer(request, || 0.0)).expect("a reply");
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
    let root = CanvasBackend::with_canvas_object(canvas.clone())
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
            metric: Metric::Goodput,
            points: points.clone(),
            lang,
        });
        assert!(inked > 3000, "{lang:?}: {inked} pixels inked");
    }

    let m = MatrixSpec {
        rows: Axis::parse(Key::Flows, "1,2", &base, "values").expect("rows"),
        cols: Axis::parse(Key::Rtt, "10,50", &base, "values2").expect("cols"),
        panels: None,
        seeds: 1,
        metric: Metric::Goodput,
    };
    let batch = ran(2, PlanKey::Matrix(base.clone(), m.clone()));
    let cells = matrix::cells(&m, Some(&batch));
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

#[wasm_bindgen_test]
fn a_batch_keeps_only_its_own_results_and_cancel_stops_it() {
    let base = Scenario::default();
    let p = page("?view=sweep&key=iw&values=1,10&seeds=1");
    let key = p.plan_key().expect("a sweep runs");
    let plan = Rc::new(key.plan());
    let p = p.apply(Action::Started {
        id: 4,
        key: key.clone(),
        plan,
        now_ms: 0.0,
        workers: 2,
    });
    let summary = tcplab::run(&base, &RunOptions::default()).summary;
    // A result of an older batch is dropped.
    let p = p.apply(Action::Finished(
        Finished {
            batch: 3,
            index: 0,
            done: Done::Summary(Rc::new(summary.clone())),
        },
        1.0,
    ));
    assert_eq!(p.current_batch().map(Batch::done), Some(0));
    let p = p.apply(Action::Finished(
        Finished {
            batch: 4,
            index: 0,
            done: Done::Summary(Rc::new(summary)),
        },
        1.0,
    ));
    assert_eq!(p.current_batch().map(Batch::done), Some(1));
    let p = p.apply(Action::Cancelled);
    assert!(p
        .current_batch()
        .is_some_and(|b| b.cancelled && !b.running()));
    // A new spec is a new plan: the old batch no longer shows.
    let mut spec = p.keys.sweep.clone();
    spec.seeds = 2;
    let p = p.apply(Action::Sweep(spec));
    assert!(p.current_batch().is_none());
    assert!(p.search().contains("seeds=2"));
    let _ = PageKeys::default_for(&base);
}
