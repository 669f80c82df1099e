//! The table under the sweep's chart: seed 000's table, one row per value, with the columns of
//! `tcplab sweep --table` (each number's exact value kept in `data-raw`, as the CSV writes it).

use tcplab::scenario::Key;
use tcplab::sweep::{Prediction, SweepRow};
use yew::prelude::*;

use super::chart::key_tick;
use super::data::Point;
use crate::i18n::Lang;
use crate::model::format::{duration, number};

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
fn cell(v: Option<f64>, col: &'static str) -> Html {
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
    // Each heading names the column of the cells under it (`data-col`, the CSV's), so that a
    // test can hold the two in the same order.
    let head = [
        (props.key_.name().to_string(), "", "value"),
        (lang.pick("runs", "运行数").to_string(), "", "runs"),
        (lang.pick("finished", "完成数").to_string(), "", "finished"),
        (
            lang.pick("goodput median", "有效吞吐中位数").to_string(),
            "MB/s",
            "goodput_median_MBps",
        ),
        (
            lang.pick("least – most", "最小 – 最大").to_string(),
            "MB/s",
            "goodput_min_MBps",
        ),
        (
            lang.pick("completion median", "完成时间中位数").to_string(),
            "ms",
            "completion_median_ms",
        ),
        (
            lang.pick("p99 latency median", "p99 时延中位数")
                .to_string(),
            "ms",
            "p99_median_ms",
        ),
        (
            lang.pick("retransmitted median", "重传中位数").to_string(),
            "%",
            "retrans_median_pct",
        ),
        (lang.pick("theory", "理论值").to_string(), "", "theory"),
        (
            lang.pick("measured / theory", "实测 / 理论").to_string(),
            "×",
            "measured_over_theory",
        ),
        (
            match lang {
                Lang::En => format!("flow {}'s share median", props.share_flow + 1),
                Lang::Zh => format!("流 {} 份额中位数", props.share_flow + 1),
            },
            "",
            "share_median",
        ),
        (
            lang.pick("Jain's index median", "Jain 指数中位数")
                .to_string(),
            "",
            "jain_median",
        ),
    ];
    html! {
        <div class="table-wrap">
            <table class="sweep-table" id="sweep-table">
                <thead>
                    <tr>
                        { for head.iter().map(|(h, unit, col)| html! {
                            <th scope="col" data-col={*col}>{ h.clone() }
                                if !unit.is_empty() { <span class="th-unit">{ format!(" ({unit})") }</span> }
                            </th>
                        }) }
                    </tr>
                </thead>
                <tbody>
                    { for props.points.iter().map(|p| {
                        let row = p.row.as_ref();
                        let (theory, unit) = match row.map(|r| r.prediction) {
                            Some(Prediction::GoodputMbps(v)) => (Some(v.0), "MB/s"),
                            Some(Prediction::CompletionMs(v)) => (Some(v), "ms"),
                            None => (None, ""),
                        };
                        let runs = row.map_or(0, |r| r.runs);
                        let completion = row.and_then(|r| completion_text(r, p.dur_ms, lang));
                        let none_finished = row.is_some_and(|r| r.finished == Some(0) && r.runs > 0);
                        html! {
                            <tr data-value={p.value.clone()} data-complete={p.complete.to_string()}
                                class={classes!((!p.complete).then_some("partial"))}>
                                <th scope="row" data-raw={p.value.clone()}>
                                    { p.x.map_or(p.value.clone(), |x| key_tick(props.key_, x)) }
                                </th>
                                <td class="num" data-col="runs" data-raw={runs.to_string()}>
                                    { if p.complete { runs.to_string() } else { format!("{runs} / {}", props.seeds) } }
                                </td>
                                <td class="num" data-col="finished"
                                    data-raw={row.and_then(|r| r.finished).map(|n| n.to_string()).unwrap_or_default()}>
                                    { row.and_then(|r| finished_text(r, lang)).unwrap_or_else(|| "—".to_string()) }
                                </td>
                                { cell(row.and_then(|r| r.goodput_mbps).map(|s| s.median), "goodput_median_MBps") }
                                <td class="num range">
                                    <span data-col="goodput_min_MBps" data-raw={row.and_then(|r| r.goodput_mbps).map(|s| format!("{}", s.min)).unwrap_or_default()}>
                                        { row.and_then(|r| r.goodput_mbps).map_or("—".to_string(), |s| number(s.min, 3)) }
                                    </span>
                                    { " – " }
                                    <span data-col="goodput_max_MBps" data-raw={row.and_then(|r| r.goodput_mbps).map(|s| format!("{}", s.max)).unwrap_or_default()}>
                                        { row.and_then(|r| r.goodput_mbps).map_or("—".to_string(), |s| number(s.max, 3)) }
                                    </span>
                                </td>
                                // The median's time, or the bound it passes (in the CSV's next
                                // column), or why no run has a time.
                                <td class={classes!("num", completion.is_none().then_some("none"),
                                        none_finished.then_some("why-none"))}
                                    data-col="completion_median_ms"
                                    data-raw={raw(row.and_then(|r| r.completion_ms).map(|s| s.median))}>
                                    <span data-col="completion_median_exceeds_ms"
                                        data-raw={raw(row.and_then(|r| r.completion_median_exceeds_ms))}>
                                        { completion.unwrap_or_else(|| "—".to_string()) }
                                    </span>
                                </td>
                                { cell(row.and_then(|r| r.p99_ms).map(|s| s.median), "p99_median_ms") }
                                { cell(row.and_then(|r| r.retrans_pct).map(|s| s.median), "retrans_median_pct") }
                                <td class="num" data-col="theory" data-raw={theory.map(|t| format!("{t}")).unwrap_or_default()}>
                                    { theory.map_or("—".to_string(), |t| format!("{} {unit}", number(t, 3))) }
                                </td>
                                <td class={classes!("num", row.and_then(ratio_text).is_none().then_some("none"))}
                                    data-col="measured_over_theory"
                                    data-raw={raw(row.and_then(|r| r.measured_over_theory))}>
                                    <span data-col="measured_over_theory_exceeds"
                                        data-raw={raw(row.and_then(|r| r.measured_over_theory_exceeds))}>
                                        { row.and_then(ratio_text).unwrap_or_else(|| "—".to_string()) }
                                    </span>
                                </td>
                                { cell(row.and_then(|r| r.share).map(|s| s.median), "share_median") }
                                { cell(row.and_then(|r| r.jain).map(|s| s.median), "jain_median") }
                                if let Some(e) = &p.error {
                                    <td class="row-error" role="alert">{ e.clone() }</td>
                                }
                            </tr>
                        }
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
}
