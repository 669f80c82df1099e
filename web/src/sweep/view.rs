//! The sweep view: the settings, the progress, the chart and seed 000's table, and its export.

use std::rc::Rc;

use tcplab::Scenario;
use yew::prelude::*;

use super::chart::SweepChart;
use super::data::{self, Point};
use super::settings::{AxisField, SeedsMetric};
use super::table::SweepTable;
use crate::batch::progress::Progress;
use crate::batch::Batch;
use crate::charts::canvas::{Canvas, Drawing};
use crate::export::{self, quoted, Item, Menu};
use crate::i18n::Lang;
use crate::model::format::capitalised;
use crate::model::views::{Metric, SweepSpec};
use crate::worker::pool::Done;
use crate::worker::PAGE_MAX_EVENTS;

#[derive(Properties, PartialEq, Clone)]
pub struct SweepViewProps {
    pub lang: Lang,
    pub base: Scenario,
    pub spec: SweepSpec,
    pub batch: Option<Batch>,
    pub live: usize,
    pub on_spec: Callback<SweepSpec>,
    pub on_cancel: Callback<()>,
    pub on_rerun: Callback<()>,
}

/// The command that prints the table natively.
pub fn command(base: &Scenario, spec: &SweepSpec) -> String {
    let mut base = base.clone();
    base.at_ms = None;
    let flow = spec
        .axis
        .flow
        .map(|f| format!(" --flow {}", f + 1))
        .unwrap_or_default();
    format!(
        "tcplab sweep {} --key {}{flow} --values {} --seeds {} --table\n",
        quoted(&base.to_query()),
        spec.axis.key.name(),
        spec.axis.text(),
        spec.seeds
    )
}

/// The sweep as JSON: its settings, each value's row and every run's summary.
fn json(base: &Scenario, spec: &SweepSpec, points: &[Point], batch: Option<&Batch>) -> String {
    let runs: Vec<serde_json::Value> = batch
        .map(|b| {
            b.results
                .iter()
                .map(|r| match r {
                    Some(Done::Summary(s)) => serde_json::to_value(&**s).unwrap_or_default(),
                    Some(Done::Error(e)) => serde_json::json!({ "error": e }),
                    _ => serde_json::Value::Null,
                })
                .collect()
        })
        .unwrap_or_default();
    let rows: Vec<_> = points.iter().filter_map(|p| p.row.clone()).collect();
    let value = serde_json::json!({
        "scenario": base.to_query(),
        "key": spec.axis.key.name(),
        "flow": spec.axis.flow.map(|f| f + 1),
        "values": spec.axis.values,
        "seeds": spec.seeds,
        "metric": spec.metric.name(),
        "rows": rows,
        "runs": runs,
    });
    serde_json::to_string_pretty(&value).unwrap_or_default() + "\n"
}

/// `Loss (%)` -> `loss (%)`, but `RTT (ms)` stays. As [`capitalised`], ASCII's case only.
pub fn decapitalised(s: &str) -> String {
    let mut c = s.chars();
    match (c.next(), c.next()) {
        (Some(f), Some(n)) if n.is_ascii_lowercase() => {
            f.to_ascii_lowercase().to_string() + &s[f.len_utf8()..]
        }
        _ => s.to_string(),
    }
}

#[function_component]
pub fn SweepView(props: &SweepViewProps) -> Html {
    let lang = props.lang;
    let spec = &props.spec;
    let points = data::points(&props.base, spec, props.batch.as_ref());
    let done = props.batch.as_ref().map_or(0, Batch::done);
    let exhausted: usize = points.iter().map(|p| p.exhausted).sum();

    let on_axis = {
        let (spec, on_spec, base) = (spec.clone(), props.on_spec.clone(), props.base.clone());
        Callback::from(move |axis: Option<crate::model::views::Axis>| {
            let Some(axis) = axis else { return };
            let mut s = spec.clone();
            // A body's theory is its completion time.
            if axis.key != s.axis.key
                && axis.key == tcplab::scenario::Key::Body
                && base.app == tcplab::App::Body
            {
                s.metric = Metric::Completion;
            }
            s.seeds = s
                .seeds
                .min((crate::model::views::MAX_RUNS / axis.values.len().max(1)).max(1) as u32);
            s.axis = axis;
            on_spec.emit(s);
        })
    };
    let on_seeds = {
        let (spec, on_spec) = (spec.clone(), props.on_spec.clone());
        Callback::from(move |n| {
            on_spec.emit(SweepSpec {
                seeds: n,
                ..spec.clone()
            })
        })
    };
    let on_metric = {
        let (spec, on_spec) = (spec.clone(), props.on_spec.clone());
        Callback::from(move |m| {
            on_spec.emit(SweepSpec {
                metric: m,
                ..spec.clone()
            })
        })
    };

    let stamp = format!(
        "{}:{done}:{}:{}:{}:{}:{}",
        props.batch.as_ref().map_or(0, |b| b.id),
        lang.code(),
        spec.metric.name(),
        spec.axis.key.name(),
        spec.axis.text(),
        props.base.to_query()
    ) + &spec
        .axis
        .flow
        .map(|f| format!(":flow{f}"))
        .unwrap_or_default();
    let drawing: Rc<dyn Drawing> = Rc::new(SweepChart {
        base: props.base.clone(),
        key: spec.axis.key,
        flow: spec.axis.flow,
        metric: spec.metric,
        points: points.clone(),
        lang,
    });
    let title = match lang {
        Lang::En => format!(
            "{} against {}",
            capitalised(spec.metric.label(lang).into()),
            decapitalised(&super::chart::axis_desc(
                spec.axis.key,
                spec.axis.flow,
                lang
            ))
        ),
        Lang::Zh => format!(
            "{}随{}的变化",
            spec.metric.label(lang),
            super::chart::axis_desc(spec.axis.key, spec.axis.flow, lang)
        ),
    };

    let items = {
        let key = spec.axis.key;
        let csv = data::csv(key, &points);
        let json = json(&props.base, spec, &points, props.batch.as_ref());
        let name = format!("{}-sweep-{}", export::stem(&props.base), key.name());
        let (csv_name, json_name, png_name) = (
            format!("{name}.csv"),
            format!("{name}.json"),
            format!("{name}.png"),
        );
        let (png_title, caption) = (title.clone(), export::caption(&props.base, lang));
        vec![
            Item::new(
                "export-table-csv",
                lang.pick(
                    "Table (CSV, as tcplab sweep --table)",
                    "表格（CSV，同 tcplab sweep --table）",
                ),
                Callback::from(move |()| export::warn(export::text(&csv_name, "text/csv", &csv))),
            ),
            Item::new(
                "export-sweep-json",
                lang.pick("Every run (JSON)", "每次运行（JSON）"),
                Callback::from(move |()| {
                    export::warn(export::text(&json_name, "application/json", &json))
                }),
            ),
            Item::new(
                "export-sweep-png",
                lang.pick("Chart (PNG)", "图表（PNG）"),
                Callback::from(move |()| match export::canvas_by_id("sweep-chart") {
                    Some(c) => export::warn(export::png(&png_name, &c, &png_title, &caption, lang)),
                    None => export::warn(Err("no chart".to_string())),
                }),
            ),
        ]
    };

    html! {
        <section class="sweep-view" id="sweep-view" data-csv={data::csv(spec.axis.key, &points)}>
            <div class="view-settings">
                <AxisField {lang} id="sweep" label={lang.pick("Sweep", "扫描参数")} base={props.base.clone()}
                    axis={Some(spec.axis.clone())} on_axis={on_axis} per_flow=true />
                <SeedsMetric {lang} id="sweep" seeds={spec.seeds} metric={spec.metric}
                    points={spec.axis.values.len()} {on_seeds} {on_metric} />
                <Menu {lang} {items} command={command(&props.base, spec)} />
            </div>
            <Progress {lang} batch={props.batch.clone()} live={props.live}
                on_cancel={props.on_cancel.clone()} on_rerun={props.on_rerun.clone()} />
            if exhausted > 0 {
                <p class="notice" role="alert">
                    { match lang {
                        Lang::En => format!("{exhausted} runs stopped at the page's budget of {} events; their numbers are not the runner's. The command below runs them in full.", crate::model::format::count(PAGE_MAX_EVENTS)),
                        Lang::Zh => format!("{exhausted} 次运行达到页面的 {} 个事件预算而提前停止，其数值与命令行不同。下方命令可完整运行。", crate::model::format::count(PAGE_MAX_EVENTS)),
                    } }
                </p>
            }
            <figure class="sweep-figure">
                <figcaption><strong>{ title.clone() }</strong></figcaption>
                <Canvas id="sweep-chart" label={title} height={400.0} {stamp} drawing={drawing} />
            </figure>
            <SweepTable {lang} key_={spec.axis.key} points={points} seeds={spec.seeds}
                share_flow={spec.axis.share_flow()} />
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_changes_case_at_its_start_only_where_ascii_has_one() {
        assert_eq!(capitalised("goodput (MB/s)".into()), "Goodput (MB/s)");
        assert_eq!(capitalised("吞吐量".into()), "吞吐量");
        assert_eq!(capitalised(String::new()), "");
        assert_eq!(decapitalised("Loss (%)"), "loss (%)");
        assert_eq!(decapitalised("RTT (ms)"), "RTT (ms)");
        assert_eq!(decapitalised("丢包率"), "丢包率");
        assert_eq!(decapitalised("L"), "L");
    }
}
