//! Where a view's time goes outside the page, for one scenario: the run with the charts'
//! traces (and without any), building its view, writing it as the worker sends it, and reading
//! it as the page does. Medians of 30 runs, in milliseconds (docs/performance.md, "Dragging").
//!
//!     cargo run --release -p tcplab-wire --example view_cost -- 'preset=multi-flow'

use std::process::ExitCode;
use std::time::Instant;

use tcplab::view::RunView;
use tcplab::{RunOptions, Scenario, Tracing};

const RUNS: usize = 30;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1e3
}

fn main() -> ExitCode {
    let query = std::env::args().nth(1).unwrap_or_default();
    let scenario = match Scenario::parse(&query) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("view_cost: {e}");
            return ExitCode::from(2);
        }
    };
    let charts = RunOptions {
        traces: Tracing::Charts,
        ..tcplab_wire::page_options()
    };
    let bare = RunOptions {
        traces: Tracing::Off,
        ..charts
    };
    let mut rows: [(&str, Vec<f64>); 5] = [
        ("run, the charts' traces", vec![]),
        ("run, no traces", vec![]),
        ("view built", vec![]),
        ("view written (worker)", vec![]),
        ("view read (page)", vec![]),
    ];
    for _ in 0..RUNS {
        let t = Instant::now();
        std::hint::black_box(tcplab::run(&scenario, &bare));
        rows[1].1.push(ms(t));
        let t = Instant::now();
        let result = tcplab::run(&scenario, &charts);
        rows[0].1.push(ms(t));
        let t = Instant::now();
        let view = RunView::new(&scenario, &result);
        rows[2].1.push(ms(t));
        let t = Instant::now();
        let bytes = match tcplab_wire::encode_view(&view) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("view_cost: {e}");
                return ExitCode::FAILURE;
            }
        };
        rows[3].1.push(ms(t));
        let t = Instant::now();
        if let Err(e) = tcplab_wire::decode_view(&bytes) {
            eprintln!("view_cost: {e}");
            return ExitCode::FAILURE;
        }
        rows[4].1.push(ms(t));
    }
    println!("{query}: medians of {RUNS} runs");
    for (what, times) in rows {
        println!("  {what:<26} {:7.2} ms", median(times));
    }
    ExitCode::SUCCESS
}
