//! A sweep's numbers, from its batch: each value's runs as they come back, its table row (the
//! same `tcplab::sweep::SweepRow` the runner's `sweep --table` prints), and the theory's curve
//! over the swept range.

use tcplab::scenario::Key;
use tcplab::sweep::{prediction, table_csv, Prediction, SweepRow};
use tcplab::{App, Scenario};

use crate::batch::Batch;
use crate::i18n::Lang;
use crate::model::views::{Metric, SweepSpec};

/// One value of the knob and its runs so far.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    /// As the canonical query writes it.
    pub value: String,
    /// The value as a number in the key's unit.
    pub x: Option<f64>,
    /// The metric of each seed's run, in seed order (`None`: not back yet, or not measured).
    pub seeds: Vec<Option<f64>>,
    /// The row over the runs back so far.
    pub row: Option<SweepRow>,
    /// Every seed is back.
    pub complete: bool,
    pub error: Option<String>,
    /// Runs that stopped at the page's event budget.
    pub exhausted: usize,
}

pub fn points(base: &Scenario, spec: &SweepSpec, batch: Option<&Batch>) -> Vec<Point> {
    let seeds = spec.seeds as usize;
    spec.axis
        .values
        .iter()
        .enumerate()
        .map(|(i, value)| {
            let range = i * seeds..(i + 1) * seeds;
            let runs = batch
                .map(|b| b.summaries(range.clone()))
                .unwrap_or_default();
            let back = batch.map_or(0, |b| {
                b.results
                    .get(range.clone())
                    .unwrap_or_default()
                    .iter()
                    .filter(|r| r.is_some())
                    .count()
            });
            let per_seed: Vec<Option<f64>> = (0..seeds)
                .map(|k| {
                    batch.and_then(|b| match b.results.get(i * seeds + k) {
                        Some(Some(crate::worker::pool::Done::Summary(s))) => {
                            spec.metric.of(s, spec.axis.share_flow())
                        }
                        _ => None,
                    })
                })
                .collect();
            let scenario = spec.axis.point(base, i);
            let row = match (&scenario, runs.is_empty()) {
                (Ok(s), false) => Some(SweepRow::new(spec.axis.key, s, &runs, spec.axis.flow)),
                _ => None,
            };
            Point {
                value: value.clone(),
                x: value.parse().ok(),
                seeds: per_seed,
                row,
                complete: back == seeds,
                error: scenario
                    .err()
                    .or_else(|| batch.and_then(|b| b.error(range))),
                exhausted: runs.iter().filter(|s| s.budget_exhausted).count(),
            }
        })
        .collect()
}

/// The table as CSV, every value whose seeds are all back: what `tcplab sweep --table` prints.
pub fn csv(key: Key, points: &[Point]) -> String {
    let rows: Vec<SweepRow> = points
        .iter()
        .filter(|p| p.complete)
        .filter_map(|p| p.row.clone())
        .collect();
    table_csv(key, &rows)
}

/// The metric of a row: its median and its spread over the seeds.
pub fn spread(row: &SweepRow, metric: Metric) -> Option<tcplab::sweep::Spread> {
    match metric {
        Metric::Goodput => row.goodput_mbps,
        Metric::Completion => row.completion_ms,
        Metric::P99 => row.p99_ms,
        Metric::Retrans => row.retrans_pct,
        Metric::Share => row.share,
        Metric::Jain => row.jain,
    }
}

/// The theory's value for `metric` at one scenario, when the theory speaks of that metric.
pub fn theory_of(s: &Scenario, metric: Metric) -> Option<f64> {
    match (prediction(s), metric) {
        (Prediction::GoodputMbps(v), Metric::Goodput) => Some(v.0),
        (Prediction::CompletionMs(v), Metric::Completion) => Some(v),
        _ => None,
    }
    .filter(|v| v.is_finite() && *v > 0.0)
}

/// The value text of `x` for `key`: whole-number keys are rounded.
fn value_text(key: Key, x: f64) -> String {
    let whole = matches!(
        key,
        Key::Iw | Key::Body | Key::Rwnd | Key::Flows | Key::Conns | Key::Mss | Key::Queue
    );
    if whole {
        format!("{}", x.round().max(0.0) as u64)
    } else {
        format!("{x:.6}")
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    }
}

/// The theory over the swept range, on a dense logarithmic grid from `lo` to `hi` (the formula
/// at each point, as the table's theory column computes it).
pub fn theory_curve(
    base: &Scenario,
    key: Key,
    metric: Metric,
    lo: f64,
    hi: f64,
) -> Vec<(f64, f64)> {
    if !(lo > 0.0 && hi > lo && hi.is_finite()) {
        return Vec::new();
    }
    const N: usize = 96;
    let mut out: Vec<(f64, f64)> = Vec::with_capacity(N + 1);
    for i in 0..=N {
        let x = lo * (hi / lo).powf(i as f64 / N as f64);
        let mut s = base.clone();
        s.at_ms = None;
        let text = value_text(key, x);
        if s.set(key, &text).is_err() {
            continue;
        }
        let Ok(xv) = s.value_text(key).parse::<f64>() else {
            continue;
        };
        if let Some(y) = theory_of(&s, metric) {
            if out.last().is_none_or(|l| l.0 < xv) {
                out.push((xv, y));
            }
        }
    }
    out
}

/// The theory's name, by its formula.
pub fn theory_name(base: &Scenario, key: Key, metric: Metric, lang: Lang) -> Option<&'static str> {
    match metric {
        Metric::Completion if base.app == App::Body => Some(lang.pick(
            "ideal slow start: IW·(2^k−1) segments in k RTTs, then the link",
            "理想慢启动：k 个 RTT 送出 IW·(2^k−1) 段，之后按链路速率",
        )),
        Metric::Goodput if base.app != App::Body => {
            if key == Key::Loss || base.loss_pct > 0.0 {
                Some(lang.pick(
                    "min(Mathis 1.22·MSS/(RTT·√p), rwnd/RTT) × flows, at most the link",
                    "min(Mathis 1.22·MSS/(RTT·√p), rwnd/RTT) × 流数，不超过链路速率",
                ))
            } else {
                Some(lang.pick(
                    "min(link rate, flows × rwnd/RTT)",
                    "min(链路速率, 流数 × rwnd/RTT)",
                ))
            }
        }
        _ => None,
    }
}
