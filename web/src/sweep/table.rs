//! The table under the sweep's chart: seed 000's table, one row per value, with the columns of
//! `tcplab sweep --table` (each number's exact value kept in `data-raw`, as the CSV writes it).

use tcplab::scenario::Key;
use tcplab::sweep::{Prediction, SweepRow};
use yew::prelude::*;

use super::chart::key_tick;
use super::data::Point;
use crate::i18n::Lang;
use crate::model::format::{duration, number};

/// A column of the table after the key's: its heading, whether the sweep has anything to show
/// in it, and its cell. The CSV (`tcplab sweep --table`) keeps every column; the table shows
/// those with a value in some row, so that a bulk flow's sweep is not half dashes (no
/// completion, no request latency, no second flow's share) and fits a laptop's width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Column {
    Runs,
    Finished,
    Goodput,
    GoodputRange,
    Completion,
    P99,
    Retransmitted,
    Theory,
    MeasuredOverTheory,
    Share,
    Jain,
}

impl Column {
    const ALL: [Column; 11] = [
        Column::Runs,
        Column::Finished,
        Column::Goodput,
        Column::GoodputRange,
        Column::Completion,
        Column::P99,
        Column::Retransmitted,
        Column::Theory,
        Column::MeasuredOverTheory,
        Column::Share,
        Column::Jain,
    ];

    /// The heading, its unit, and the CSV's column the cells under it hold (`data-col`).
    fn heading(self, lang: Lang, share_flow: usize) -> (String, &'static str, &'static str) {
        let (text, unit, col) = match self {
            Column::Runs => (lang.pick("runs", "运行数"), "", "runs"),
            Column::Finished => (lang.pick("finished", "完成数"), "", "finished"),
            Column::Goodput => (
                lang.pick("goodput median", "有效吞吐中位数"),
                "MB/s",
                "goodput_median_MBps",
            ),
            Column::GoodputRange => (
                lang.pick("least – most", "最小 – 最大"),
                "MB/s",
                "goodput_min_MBps",
            ),
            Column::Completion => (
                lang.pick("completion median", "完成时间中位数"),
                "ms",
                "completion_median_ms",
            ),
            Column::P99 => (
                lang.pick("p99 latency median", "p99 时延中位数"),
                "ms",
                "p99_median_ms",
            ),
            Column::Retransmitted => (
                lang.pick("retransmitted median", "重传中位数"),
                "%",
                "retrans_median_pct",
            ),
            Column::Theory => (lang.pick("theory", "理论值"), "", "theory"),
            Column::MeasuredOverTheory => (
                lang.pick("measured / theory", "实测 / 理论"),
                "×",
                "measured_over_theory",
            ),
            Column::Share => {
                let text = match lang {
                    Lang::En => format!("flow {}'s share median", share_flow + 1),
                    Lang::Zh => format!("流 {} 份额中位数", share_flow + 1),
                };
                return (text, "", "share_median");
            }
            Column::Jain => (
                lang.pick("Jain's index median", "Jain 指数中位数"),
                "",
                "jain_median",
            ),
        };
        (text.to_string(), unit, col)
    }

    /// A column of every run's figures (the runs, the goodput, the retransmissions, the
    /// theory): shown whatever the rows, before the first is back too.
    fn every_run(self) -> bool {
        matches!(
            self,
            Column::Runs
                | Column::Goodput
                | Column::GoodputRange
                | Column::Retransmitted
                | Column::Theory
        )
    }

    /// Whether `row` has something for this column to show.
    fn has(self, row: &SweepRow) -> bool {
        match self {
            Column::Finished => row.finished.is_some(),
            Column::Completion => completion_text(row, None, Lang::En).is_some(),
            Column::P99 => row.p99_ms.is_some(),
            Column::MeasuredOverTheory => ratio_text(row).is_some(),
            Column::Share => row.share.is_some(),
            Column::Jain => row.jain.is_some(),
            Column::Runs
            | Column::Goodput
            | Column::GoodputRange
            | Column::Retransmitted
            | Column::Theory => true,
        }
    }

    /// The columns the table shows for `rows`: those of every run, and those some row has a
    /// value for.
    fn shown<'a>(rows: impl Iterator<Item = &'a SweepRow> + Clone) -> Vec<Column> {
        Column::ALL
            .into_iter()
            .filter(|&c| c.every_run() || rows.clone().any(|r| c.has(r)))
            .collect()
    }

    /// The cell of point `p` (its row over the runs back so far) in this column.
    fn cell(self, p: &Point, seeds: u32, lang: Lang) -> Html {
        let row = p.row.as_ref();
        match self {
            Column::Runs => {
                let runs = row.map_or(0, |r| r.runs);
                html! {
                    <td class="num" data-col="runs" data-raw={runs.to_string()}>
                        { if p.complete { runs.to_string() } else { format!("{runs} / {seeds}") } }
                    </td>
                }
            }
            Column::Finished => html! {
                <td class="num" data-col="finished"
                    data-raw={row.and_then(|r| r.finished).map(|n| n.to_string()).unwrap_or_default()}>
                    { row.and_then(|r| finished_text(r, lang)).unwrap_or_else(|| "—".to_string()) }
                </td>
            },
            Column::Goodput => number_cell(
                row.and_then(|r| r.goodput_mbps).map(|s| s.median),
                "goodput_median_MBps",
            ),
            Column::GoodputRange => {
                let spread = row.and_then(|r| r.goodput_mbps);
                let end = |v: Option<f64>, col: &'static str| {
                    html! {
                        <span data-col={col} data-raw={raw(v)}>
                            { v.map_or("—".to_string(), |v| number(v, 3)) }
                        </span>
                    }
                };
                html! {
                    <td class="num range">
                        { end(spread.map(|s| s.min), "goodput_min_MBps") }
                        { " – " }
                        { end(spread.map(|s| s.max), "goodput_max_MBps") }
                    </td>
                }
            }
            // The median's time, or the bound it passes (in the CSV's next column), or why no
            // run has a time.
            Column::Completion => {
                let completion = row.and_then(|r| completion_text(r, p.dur_ms, lang));
                let none_finished = row.is_some_and(|r| r.finished == Some(0) && r.runs > 0);
                html! {
                    <td class={classes!("num", completion.is_none().then_some("none"),
                            none_finished.then_some("why-none"))}
                        data-col="completion_median_ms"
                        data-raw={raw(row.and_then(|r| r.completion_ms).map(|s| s.median))}>
                        <span data-col="completion_median_exceeds_ms"
                            data-raw={raw(row.and_then(|r| r.completion_median_exceeds_ms))}>
                            { completion.unwrap_or_else(|| "—".to_string()) }
                        </span>
                    </td>
                }
            }
            Column::P99 => number_cell(
                row.and_then(|r| r.p99_ms).map(|s| s.median),
                "p99_median_ms",
            ),
            Column::Retransmitted => number_cell(
                row.and_then(|r| r.retrans_pct).map(|s| s.median),
                "retrans_median_pct",
            ),
            Column::Theory => {
                let (theory, unit) = match row.map(|r| r.prediction) {
                    Some(Prediction::GoodputMbps(v)) => (Some(v.0), "MB/s"),
                    Some(Prediction::CompletionMs(v)) => (Some(v), "ms"),
                    None => (None, ""),
                };
                html! {
                    <td class="num" data-col="theory" data-raw={raw(theory)}>
                        { theory.map_or("—".to_string(), |t| format!("{} {unit}", number(t, 3))) }
                    </td>
                }
            }
            Column::MeasuredOverTheory => {
                let ratio = row.and_then(ratio_text);
                html! {
                    <td class={classes!("num", ratio.is_none().then_some("none"))}
                        data-col="measured_over_theory"
                        data-raw={raw(row.and_then(|r| r.measured_over_theory))}>
                        <span data-col="measured_over_theory_exceeds"
                            data-raw={raw(row.and_then(|r| r.measured_over_theory_exceeds))}>
                            { ratio.unwrap_or_else(|| "—".to_string()) }
                        </span>
                    </td>
                }
            }
            Column::Share => {
                number_cell(row.and_then(|r| r.share).map(|s| s.median), "share_median")
            }
            Column::Jain => number_cell(row.and_then(|r| r.jain).map(|s| s.median), "jain_median"),
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct TableProps {
    pub lang: Lang,
    pub key_: Key,
    pub points: Vec<Point>,
    pub seeds: u32,
    /// The flow (0-based) whose share the share column gives.
    pub share_flow: usize,
}

/// A number cell: three significant digits shown, the CSV's text in `data-raw`.
fn number_cell(v: Option<f64>, col: &'static str) -> Html {
    match v.filter(|v| v.is_finite()) {
        Some(v) => html! {
            <td class="num" data-col={col} data-raw={format!("{v}")}>{ number(v, 3) }</td>
        },
        None => html! { <td class="num none" data-col={col} data-raw="">{ "—" }</td> },
    }
}

/// How many of a row's runs finished their workload: "1 of 3 finished"; `None` for a workload
/// without an end (a bulk flow runs to `dur`).
pub fn finished_text(row: &SweepRow, lang: Lang) -> Option<String> {
    let n = row.finished?;
    Some(match lang {
        Lang::En => format!("{n} of {} finished", row.runs),
        Lang::Zh => format!("{} 次中 {n} 次完成", row.runs),
    })
}

/// The completion median as the table says it: its time; "> 10 s" where the median lands on a
/// run that did not finish (it took longer than that); and, where no run finished, why there
/// is no time (`dur_ms`, the point's `dur`). `None`: no completion applies.
pub fn completion_text(row: &SweepRow, dur_ms: Option<f64>, lang: Lang) -> Option<String> {
    if let Some(c) = row.completion_ms {
        return Some(number(c.median, 3));
    }
    if row.finished == Some(0) && row.runs > 0 {
        let dur = dur_ms
            .or(row.time_limit_ms)
            .map_or_else(String::new, duration);
        return Some(match lang {
            Lang::En => format!("none finished within dur = {dur}; raise dur"),
            Lang::Zh => format!("dur = {dur} 内均未完成；请增大 dur"),
        });
    }
    row.completion_median_exceeds_ms
        .map(|b| format!("> {}", duration(b)))
}

/// Measured over theory: the ratio, or "> 1.61" where the median is only bounded.
pub fn ratio_text(row: &SweepRow) -> Option<String> {
    match (row.measured_over_theory, row.measured_over_theory_exceeds) {
        (Some(r), _) => Some(number(r, 3)),
        (None, Some(b)) => Some(format!("> {}", number(b, 3))),
        (None, None) => None,
    }
}

/// A number's exact text for `data-raw`, as the CSV writes it; empty for none.
fn raw(v: Option<f64>) -> String {
    v.filter(|v| v.is_finite())
        .map(|v| format!("{v}"))
        .unwrap_or_default()
}

#[function_component]
pub fn SweepTable(props: &TableProps) -> Html {
    let lang = props.lang;
    let columns = Column::shown(props.points.iter().filter_map(|p| p.row.as_ref()));
    // Each heading names the column of the cells under it (`data-col`, the CSV's), so that a
    // test can hold the two in the same order.
    html! {
        <div class="table-wrap">
            <table class="sweep-table" id="sweep-table">
                <thead>
                    <tr>
                        <th scope="col" data-col="value">{ props.key_.name() }</th>
                        { for columns.iter().map(|c| {
                            let (h, unit, col) = c.heading(lang, props.share_flow);
                            html! {
                                <th scope="col" data-col={col}>{ h }
                                    if !unit.is_empty() { <span class="th-unit">{ format!(" ({unit})") }</span> }
                                </th>
                            }
                        }) }
                    </tr>
                </thead>
                <tbody>
                    { for props.points.iter().map(|p| html! {
                        <tr data-value={p.value.clone()} data-complete={p.complete.to_string()}
                            class={classes!((!p.complete).then_some("partial"))}>
                            <th scope="row" data-raw={p.value.clone()}>
                                { p.x.map_or(p.value.clone(), |x| key_tick(props.key_, x)) }
                            </th>
                            { for columns.iter().map(|c| c.cell(p, props.seeds, lang)) }
                            if let Some(e) = &p.error {
                                <td class="row-error" role="alert">{ e.clone() }</td>
                            }
                        </tr>
                    }) }
                </tbody>
            </table>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use tcplab::sweep::{Prediction, Spread, SweepRow};

    use super::*;

    fn row(finished: Option<usize>, median: Option<f64>, exceeds: Option<f64>) -> SweepRow {
        SweepRow {
            value: "1".into(),
            runs: 3,
            goodput_mbps: None,
            completion_ms: median.map(|m| Spread {
                median: m,
                min: m,
                max: m,
            }),
            p99_ms: None,
            retrans_pct: None,
            share: None,
            jain: None,
            prediction: Prediction::CompletionMs(6000.0),
            measured_over_theory: median.map(|m| m / 6000.0),
            finished,
            time_limit_ms: finished.map(|_| 10_000.0),
            completion_median_exceeds_ms: exceeds,
            measured_over_theory_exceeds: exceeds.map(|b| b / 6000.0),
        }
    }

    #[test]
    fn a_sweep_row_says_how_many_finished_and_what_its_median_is_at_least() {
        let bounded = row(Some(1), None, Some(10_000.0));
        assert_eq!(
            finished_text(&bounded, Lang::En).as_deref(),
            Some("1 of 3 finished")
        );
        assert_eq!(
            completion_text(&bounded, Some(10_000.0), Lang::En).as_deref(),
            Some("> 10 s")
        );
        assert_eq!(ratio_text(&bounded).as_deref(), Some("> 1.67"));
        let none = row(Some(0), None, Some(10_000.0));
        assert_eq!(
            completion_text(&none, Some(10_000.0), Lang::En).as_deref(),
            Some("none finished within dur = 10 s; raise dur")
        );
        assert_eq!(
            completion_text(&none, Some(10_000.0), Lang::Zh).as_deref(),
            Some("dur = 10 s 内均未完成；请增大 dur")
        );
        let known = row(Some(3), Some(6391.0), None);
        assert_eq!(
            completion_text(&known, Some(10_000.0), Lang::En).as_deref(),
            Some("6,391")
        );
        assert_eq!(ratio_text(&known).as_deref(), Some("1.07"));
        // A bulk flow has no end: nothing to finish, no time.
        let bulk = row(None, None, None);
        assert_eq!(finished_text(&bulk, Lang::En), None);
        assert_eq!(completion_text(&bulk, Some(10_000.0), Lang::En), None);
    }

    #[test]
    fn the_table_shows_the_columns_some_row_has_a_value_for() {
        // A bulk flow's rows: no end, so nothing finished and no completion; no requests, so
        // no latency; one flow, so no share and no index.
        let bulk = SweepRow {
            prediction: Prediction::CompletionMs(6000.0),
            ..row(None, None, None)
        };
        assert_eq!(
            Column::shown([&bulk, &bulk].into_iter()),
            [
                Column::Runs,
                Column::Goodput,
                Column::GoodputRange,
                Column::Retransmitted,
                Column::Theory
            ]
        );
        // One row of a body that finished brings its columns, for every row.
        let finished = row(Some(3), Some(6391.0), None);
        let two_flows = SweepRow {
            share: Some(Spread {
                median: 0.5,
                min: 0.4,
                max: 0.6,
            }),
            ..bulk.clone()
        };
        assert_eq!(
            Column::shown([&bulk, &finished, &two_flows].into_iter()),
            [
                Column::Runs,
                Column::Finished,
                Column::Goodput,
                Column::GoodputRange,
                Column::Completion,
                Column::Retransmitted,
                Column::Theory,
                Column::MeasuredOverTheory,
                Column::Share
            ]
        );
        // Before any row is back, the columns of every run.
        assert_eq!(Column::shown(std::iter::empty()).len(), 5);
    }
}
