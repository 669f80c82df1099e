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
    /// Each seed's run reached `dur` before its workload was done (it has no completion
    /// time, but took longer than `dur`), in seed order.
    pub unfinished: Vec<bool>,
    /// The point's `dur`, ms: what a row none of whose runs finished names.
    pub dur_ms: Option<f64>,
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
            let summary = |k: usize| match batch.and_then(|b| b.results.get(i * seeds + k)) {
                Some(Some(crate::worker::pool::Done::Summary(s))) => Some(s.clone()),
                _ => None,
            };
            let per_seed: Vec<Option<f64>> = (0..seeds)
                .map(|k| summary(k).and_then(|s| spec.metric.of(&s, spec.axis.share_flow())))
                .collect();
            let unfinished: Vec<bool> = (0..seeds)
                .map(|k| summary(k).is_some_and(|s| s.time_limit_reached))
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
                unfinished,
                dur_ms: scenario.as_ref().ok().map(|s| s.dur_s * 1e3),
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
        // The ideal path has no loss, so under a loss sweep its line stays flat: the gap is
        // what loss costs. Its pace after slow start is the link's or rwnd/RTT, whichever is
        // less (a 64 KiB window over 150 ms sends 44 segments a round trip, not the link's).
        Metric::Completion if base.app == App::Body => Some(lang.pick(
            "ideal path, no loss: slow start from IW, then min(link, rwnd/RTT)",
            "理想路径（无丢包）：从 IW 慢启动，之后按 min(链路速率, rwnd/RTT)",
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

/// Why the chart draws no theory for `metric`, where it draws none: said in the chart's legend
/// rather than leaving a reader to look for a line.
pub fn theory_note(
    base: &Scenario,
    metric: Metric,
    flow: Option<usize>,
    lang: Lang,
) -> Option<&'static str> {
    let body = base.app == App::Body;
    match metric {
        Metric::Goodput | Metric::Completion if flow.is_some() => Some(lang.pick(
            "no theory line: the theory treats every flow alike, not one flow's value alone",
            "无理论曲线：理论对所有流一视同仁，不针对单个流的取值",
        )),
        Metric::Goodput if body => Some(lang.pick(
            "no theory line: a body's theory is its completion time (metric: completion time)",
            "无理论曲线：请求体的理论是其完成时间（指标选“完成时间”）",
        )),
        Metric::Completion if !body => Some(lang.pick(
            "no theory line: the lab's completion theory is a body's (app=body)",
            "无理论曲线：本实验室的完成时间理论只针对请求体（app=body）",
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sweep_s_theory_is_named_or_its_absence_explained() {
        let body = Scenario::parse("rtt=150&bw=100&loss=0.1&rwnd=65536").unwrap_or_default();
        // A body's completion has its theory: the ideal path, flat over loss.
        let curve = theory_curve(&body, Key::Loss, Metric::Completion, 0.1, 5.0);
        assert!(curve.len() > 50);
        assert!(
            curve.iter().all(|c| c.1 == curve[0].1),
            "no loss on the ideal path"
        );
        for lang in Lang::ALL {
            let name = theory_name(&body, Key::Loss, Metric::Completion, lang);
            assert!(name.is_some_and(|n| n.contains("rwnd/RTT")), "{lang:?}");
            assert_eq!(theory_note(&body, Metric::Completion, None, lang), None);
            // Its goodput has none, and the chart says why.
            assert!(theory_curve(&body, Key::Loss, Metric::Goodput, 0.1, 5.0).is_empty());
            assert!(theory_note(&body, Metric::Goodput, None, lang).is_some());
        }
        let bulk = Scenario::parse("preset=loss-sweep").unwrap_or_default();
        assert_eq!(theory_note(&bulk, Metric::Goodput, None, Lang::En), None);
        assert!(theory_note(&bulk, Metric::Completion, None, Lang::Zh).is_some());
        assert!(theory_note(&bulk, Metric::Goodput, Some(1), Lang::En).is_some());
    }

    /// Seeds 1 to 3 of a 1 MB body under 1 % loss over 150 ms, with `dur` at `dur_s`, run
    /// as the pool runs a sweep's batch; the page's points of its one value.
    fn three_seeds(dur_s: f64) -> Vec<Point> {
        use crate::batch::Batch;
        use crate::model::plan::PlanKey;
        use crate::model::views::Axis;
        let mut base =
            Scenario::parse("rtt=150&bw=100&rwnd=65536&body=1MB&loss=1").unwrap_or_default();
        base.dur_s = dur_s;
        let Ok(axis) = Axis::parse(Key::Loss, "1", &base, "values") else {
            panic!("a value");
        };
        let spec = SweepSpec {
            axis,
            seeds: 3,
            metric: Metric::Completion,
        };
        let batch = Batch::ran(PlanKey::Sweep(base.clone(), spec.clone()));
        points(&base, &spec, Some(&batch))
    }

    #[test]
    fn a_sweep_s_row_counts_the_seeds_that_ran_out_of_time_and_says_so() {
        use crate::sweep::table::{completion_text, finished_text, ratio_text};
        let full = three_seeds(60.0);
        let mut t: Vec<f64> = full[0].seeds.iter().flatten().copied().collect();
        t.sort_by(f64::total_cmp);
        assert_eq!(t.len(), 3, "every seed finishes in 60 s");

        // One seed of three finishes: the median is more than the time limit, not its time.
        let dur_ms = ((t[0] + t[1]) / 2.0).round();
        let p = &three_seeds(dur_ms / 1e3)[0];
        assert_eq!(p.unfinished.iter().filter(|u| **u).count(), 2);
        assert_eq!(p.seeds.iter().flatten().count(), 1);
        let Some(row) = &p.row else {
            panic!("a row");
        };
        assert_eq!(row.completion_median_exceeds_ms, Some(dur_ms));
        assert_eq!(
            finished_text(row, Lang::En).as_deref(),
            Some("1 of 3 finished")
        );
        assert_eq!(
            finished_text(row, Lang::Zh).as_deref(),
            Some("3 次中 1 次完成")
        );
        let shown = completion_text(row, p.dur_ms, Lang::En).unwrap_or_default();
        assert_eq!(
            shown,
            format!("> {}", crate::model::format::duration(dur_ms))
        );
        assert!(ratio_text(row).is_some_and(|r| r.starts_with("> ")));

        // None finishes: the row says why, in either language.
        let p = &three_seeds(t[0] / 2e3)[0];
        let Some(row) = &p.row else {
            panic!("a row");
        };
        assert_eq!(row.finished, Some(0));
        let en = completion_text(row, p.dur_ms, Lang::En).unwrap_or_default();
        assert!(
            en.starts_with("none finished within dur = ") && en.ends_with("; raise dur"),
            "{en}"
        );
        let zh = completion_text(row, p.dur_ms, Lang::Zh).unwrap_or_default();
        assert!(zh.contains("均未完成") && zh.contains("dur"), "{zh}");
    }
}
