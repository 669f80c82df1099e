//! The table under the sweep's chart: seed 000's table, one row per value, with the columns of
//! `tcplab sweep --table` (each number's exact value kept in `data-raw`, as the CSV writes it).

use tcplab::scenario::Key;
use tcplab::sweep::Prediction;
use yew::prelude::*;

use super::chart::key_tick;
use super::data::Point;
use crate::i18n::Lang;
use crate::model::format::number;

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

#[function_component]
pub fn SweepTable(props: &TableProps) -> Html {
    let lang = props.lang;
    let head = [
        (props.key_.name().to_string(), ""),
        (lang.pick("runs", "运行数").to_string(), ""),
        (
            lang.pick("goodput median", "有效吞吐中位数").to_string(),
            "MB/s",
        ),
        (lang.pick("least – most", "最小 – 最大").to_string(), "MB/s"),
        (
            lang.pick("completion median", "完成时间中位数").to_string(),
            "ms",
        ),
        (
            lang.pick("p99 latency median", "p99 时延中位数")
                .to_string(),
            "ms",
        ),
        (
            lang.pick("retransmitted median", "重传中位数").to_string(),
            "%",
        ),
        (lang.pick("theory", "理论值").to_string(), ""),
        (
            lang.pick("measured / theory", "实测 / 理论").to_string(),
            "×",
        ),
        (
            match lang {
                Lang::En => format!("flow {}'s share median", props.share_flow + 1),
                Lang::Zh => format!("流 {} 份额中位数", props.share_flow + 1),
            },
            "",
        ),
        (
            lang.pick("Jain's index median", "Jain 指数中位数")
                .to_string(),
            "",
        ),
    ];
    html! {
        <div class="table-wrap">
            <table class="sweep-table" id="sweep-table">
                <thead>
                    <tr>
                        { for head.iter().map(|(h, unit)| html! {
                            <th scope="col">{ h.clone() }
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
                        html! {
                            <tr data-value={p.value.clone()} data-complete={p.complete.to_string()}
                                class={classes!((!p.complete).then_some("partial"))}>
                                <th scope="row" data-raw={p.value.clone()}>
                                    { p.x.map_or(p.value.clone(), |x| key_tick(props.key_, x)) }
                                </th>
                                <td class="num" data-col="runs" data-raw={runs.to_string()}>
                                    { if p.complete { runs.to_string() } else { format!("{runs} / {}", props.seeds) } }
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
                                { cell(row.and_then(|r| r.completion_ms).map(|s| s.median), "completion_median_ms") }
                                { cell(row.and_then(|r| r.p99_ms).map(|s| s.median), "p99_median_ms") }
                                { cell(row.and_then(|r| r.retrans_pct).map(|s| s.median), "retrans_median_pct") }
                                <td class="num" data-col="theory" data-raw={theory.map(|t| format!("{t}")).unwrap_or_default()}>
                                    { theory.map_or("—".to_string(), |t| format!("{} {unit}", number(t, 3))) }
                                </td>
                                { cell(row.and_then(|r| r.measured_over_theory), "measured_over_theory") }
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
