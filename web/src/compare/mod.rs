//! Two or three scenarios side by side: Reno vs CUBIC vs BBR, one connection vs four. Each is a
//! whole scenario (the page's own is A, `b=` and `c=` carry the others in the address); the
//! controls edit the one chosen here. Their runs go to the pool; their goodput and window are
//! drawn on the same axes and their headline numbers set in one table.

pub mod chart;
pub mod labels;

use std::rc::Rc;

use tcplab::view::RunView;
use tcplab::{App, CcAlgo, Scenario};
use yew::prelude::*;

use crate::batch::progress::Progress;
use crate::batch::Batch;
use crate::charts::canvas::{Canvas, Drawing};
use crate::export::{self, quoted, Item, Menu};
use crate::i18n::Lang;
use crate::model::format::number;
use crate::model::verdict;
use crate::worker::pool::Done;
use chart::{letter, Compared, What, COLOURS};

/// At most this many scenarios side by side.
pub const MAX_SCENARIOS: usize = 3;

#[derive(Properties, PartialEq, Clone)]
pub struct CompareProps {
    pub lang: Lang,
    /// The page's own scenario first, then the others.
    pub scenarios: Vec<Scenario>,
    /// The scenario the controls edit.
    pub slot: usize,
    pub batch: Option<Batch>,
    pub live: usize,
    /// New others (all but the first), and the one to edit.
    pub on_others: Callback<(Vec<Scenario>, usize)>,
    pub on_slot: Callback<usize>,
    pub on_cancel: Callback<()>,
    pub on_rerun: Callback<()>,
}

/// The other two algorithms beside `a`'s: Reno vs CUBIC vs BBR.
pub fn algorithms(a: &Scenario) -> Vec<Scenario> {
    CcAlgo::ALL
        .into_iter()
        .filter(|c| *c != a.cc)
        .map(|cc| Scenario { cc, ..a.clone() })
        .collect()
}

/// One connection against four: messages over four connections, or a body over four flows.
pub fn connections(a: &Scenario) -> Vec<Scenario> {
    let mut b = a.clone();
    if a.app == App::Msgs {
        b.conns = if a.conns == 4 { 1 } else { 4 };
    } else {
        b.flows = if a.flows == 4 { 1 } else { 4 };
    }
    vec![b]
}

fn views(batch: Option<&Batch>, n: usize) -> Vec<Option<Rc<RunView>>> {
    (0..n)
        .map(|i| match batch.and_then(|b| b.results.get(i)) {
            Some(Some(Done::View(v))) => Some(v.clone()),
            _ => None,
        })
        .collect()
}

fn short(q: &str, lang: Lang) -> String {
    if q.is_empty() {
        lang.pick("the defaults", "默认场景").to_string()
    } else {
        q.to_string()
    }
}

#[function_component]
pub fn CompareView(props: &CompareProps) -> Html {
    let lang = props.lang;
    let n = props.scenarios.len();
    let views = views(props.batch.as_ref(), n);
    let labels = Rc::new(labels::labels(&props.scenarios, lang));
    let others: Vec<Scenario> = props.scenarios.iter().skip(1).cloned().collect();
    let a = props.scenarios.first().cloned().unwrap_or_default();

    let recipe = |id: &'static str, label: &'static str, make: fn(&Scenario) -> Vec<Scenario>| {
        let (on_others, a) = (props.on_others.clone(), a.clone());
        html! {
            <button type="button" class="mini" id={id}
                onclick={Callback::from(move |_: MouseEvent| on_others.emit((make(&a), 0)))}>
                { label }
            </button>
        }
    };
    let add = (n < MAX_SCENARIOS).then(|| {
        let (on_others, others) = (props.on_others.clone(), others.clone());
        let last = props.scenarios.last().cloned().unwrap_or_default();
        Callback::from(move |_: MouseEvent| {
            let mut o = others.clone();
            o.push(last.clone());
            let slot = o.len();
            on_others.emit((o, slot));
        })
    });
    let remove = (n > 2).then(|| {
        let (on_others, others) = (props.on_others.clone(), others.clone());
        Callback::from(move |_: MouseEvent| {
            let mut o = others.clone();
            o.pop();
            on_others.emit((o, 0));
        })
    });
    let stamp = |what: &str| {
        format!(
            "{what}:{}:{}:{}",
            props.batch.as_ref().map_or(0, |b| b.id),
            props.batch.as_ref().map_or(0, Batch::done),
            lang.code()
        )
    };
    let charts: Vec<What> = What::ALL
        .into_iter()
        .filter(|w| w.applies(&views))
        .collect();

    let command: String = props
        .scenarios
        .iter()
        .map(|s| {
            format!(
                "tcplab run {}\n",
                quoted(&crate::model::address::run_query(s))
            )
        })
        .collect();
    let items = {
        let summaries: Vec<serde_json::Value> = views
            .iter()
            .map(|v| {
                v.as_ref()
                    .map(|v| serde_json::to_value(&v.summary).unwrap_or_default())
                    .unwrap_or_default()
            })
            .collect();
        let json = serde_json::to_string_pretty(&summaries).unwrap_or_default() + "\n";
        let name = format!("{}-compare", export::stem(&a));
        let json_name = format!("{name}.json");
        let mut items = vec![Item::new(
            "export-compare-json",
            lang.pick("Summaries (JSON)", "摘要（JSON）"),
            Callback::from(move |()| {
                export::warn(export::text(&json_name, "application/json", &json))
            }),
        )];
        // The caption names every scenario by what tells it apart, and by its query.
        let caption: Vec<String> = props
            .scenarios
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let q = crate::model::address::run_query(s);
                let label = labels.get(i).cloned().unwrap_or_default();
                format!("{}: {label} ({})", letter(i), short(&q, lang))
            })
            .collect();
        for what in &charts {
            let (id, title) = (what.id(), what.title(lang));
            let (png_name, png_title, caption) = (
                format!("{name}-{}.png", id.trim_start_matches("compare-")),
                title.to_string(),
                caption.clone(),
            );
            items.push(Item::new(
                format!("export-{id}-png"),
                format!("{title} (PNG)"),
                Callback::from(move |()| match export::canvas_by_id(id) {
                    Some(c) => export::warn(export::png(&png_name, &c, &png_title, &caption, lang)),
                    None => export::warn(Err(format!("no chart {id}"))),
                }),
            ));
        }
        items
    };

    let row = |label: &'static str,
               f: &dyn Fn(&RunView) -> Option<f64>,
               digits: i32,
               unit: &'static str| {
        html! {
            <tr>
                <th scope="row">{ label }</th>
                { for views.iter().map(|v| {
                    let x = v.as_ref().and_then(|v| f(v)).filter(|x| x.is_finite());
                    html! {
                        <td class="num" data-raw={x.map(|x| format!("{x}")).unwrap_or_default()}>
                            { x.map_or("—".to_string(), |x| format!("{} {unit}", number(x, digits))) }
                        </td>
                    }
                }) }
            </tr>
        }
    };

    html! {
        <section class="compare-view" id="compare-view" data-scenarios={n.to_string()}>
            <div class="view-settings">
                <div class="slots" role="group" aria-label={lang.pick("The scenario the controls edit", "控件所编辑的场景")}>
                    { for props.scenarios.iter().enumerate().map(|(i, s)| {
                        let on_slot = props.on_slot.clone();
                        let q = crate::model::address::run_query(s);
                        html! {
                            <button type="button" class="slot" id={format!("compare-slot-{i}")}
                                aria-pressed={(i == props.slot).to_string()} data-query={q.clone()}
                                title={q.clone()}
                                style={format!("--slot-colour:{}", crate::charts::style::css(COLOURS[i % COLOURS.len()]))}
                                onclick={Callback::from(move |_: MouseEvent| on_slot.emit(i))}>
                                <strong>{ letter(i) }</strong>
                                <span class="slot-label">{ labels.get(i).cloned().unwrap_or_default() }</span>
                                <code>{ short(&q, lang) }</code>
                            </button>
                        }
                    }) }
                    if let Some(add) = add {
                        <button type="button" class="mini" id="compare-add" onclick={add}>
                            { lang.pick("+ third scenario", "+ 第三个场景") }
                        </button>
                    }
                    if let Some(remove) = remove {
                        <button type="button" class="mini" id="compare-remove" onclick={remove}>
                            { lang.pick("Remove C", "移除 C") }
                        </button>
                    }
                </div>
                <p class="compare-hint">
                    { lang.pick("The scenario settings edit the highlighted scenario. Start from:", "场景设置编辑高亮的场景。快速设置：") }
                    { recipe("recipe-cc", lang.pick("Reno vs CUBIC vs BBR", "Reno、CUBIC 与 BBR"), algorithms) }
                    { recipe("recipe-conns", lang.pick("1 vs 4 connections", "1 个与 4 个连接"), connections) }
                </p>
                <Menu {lang} {items} {command} />
            </div>
            <Progress {lang} batch={props.batch.clone()} live={props.live}
                on_cancel={props.on_cancel.clone()} on_rerun={props.on_rerun.clone()} />
            { for charts.iter().map(|&what| html! {
                <figure class="sweep-figure">
                    <figcaption title={what.tip(lang)}><strong>{ what.title(lang) }</strong></figcaption>
                    <Canvas id={what.id()} label={what.title(lang)} height={what.height()}
                        stamp={stamp(what.id())}
                        drawing={Rc::new(Compared { what, views: views.clone(), labels: labels.clone(), lang }) as Rc<dyn Drawing>} />
                </figure>
            }) }
            <div class="table-wrap">
                <table class="sweep-table" id="compare-table">
                    <thead>
                        <tr>
                            <th scope="col"></th>
                            { for (0..n).map(|i| html! {
                                <th scope="col" style={format!("color:{}", crate::charts::style::css(COLOURS[i % COLOURS.len()]))}>
                                    { letter(i).to_string() }
                                    <span class="col-label">{ labels.get(i).cloned().unwrap_or_default() }</span>
                                </th>
                            }) }
                        </tr>
                    </thead>
                    <tbody>
                        <tr>
                            <th scope="row">{ lang.pick("limited by", "限制因素") }</th>
                            { for views.iter().map(|v| html! {
                                <td class="verdict-cell">{ v.as_ref().map_or("—".to_string(), |v| verdict::title(lang, v.verdict.limit).to_string()) }</td>
                            }) }
                        </tr>
                        { row(lang.pick("goodput", "有效吞吐"), &|v| v.summary.goodput_MBps, 3, "MB/s") }
                        { row(lang.pick("completion", "完成时间"), &|v| v.summary.completion_ms, 4, "ms") }
                        { row(lang.pick("retransmitted", "重传"), &|v| v.summary.retrans_bytes_pct, 3, "%") }
                        { row(lang.pick("p99 latency", "p99 时延"), &|v| v.summary.msgs.as_ref().and_then(|m| m.p99_ms), 4, "ms") }
                        { row(lang.pick("Jain fairness", "Jain 公平指数"), &|v| v.summary.jain_fairness, 3, "") }
                    </tbody>
                </table>
            </div>
        </section>
    }
}
