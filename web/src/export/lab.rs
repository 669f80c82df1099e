//! The export menu of one run: its summary and its whole view as JSON, each trace as
//! `tcplab trace` prints it, a PNG of each chart, and the commands.

use crate::charts::ViewRef;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use tcplab::metrics::trace::TraceKind;
use tcplab::view::RunView;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlCanvasElement};
use yew::prelude::*;

use super::{quoted, warn, Item, Menu};
use crate::i18n::Lang;
use crate::worker::client::WORKER_SCRIPT;
use crate::worker::pool::{Done, Finished, Job, Pool};
use crate::worker::protocol::Want;
use tcplab::capture::CapturePoint;

#[derive(Properties, PartialEq)]
pub struct LabExportProps {
    pub lang: Lang,
    pub view: ViewRef,
}

/// The export's JSON writers, or why they could not be had.
async fn writers() -> Result<crate::lazy::JsonWriters, String> {
    crate::lazy::json_writers().await.map_err(|crate::lazy::LoadFailed| {
        "the JSON export's code could not be fetched (offline, or the lab was updated since the \
         page opened): try again, or reload the page"
            .to_string()
    })
}

/// Every chart on the page: its kind (`data-chart`), its title and its canvas.
fn charts() -> Vec<(String, String, HtmlCanvasElement)> {
    let Some(doc) = crate::window().and_then(|w| w.document()) else {
        return Vec::new();
    };
    let Ok(list) = doc.query_selector_all(".charts figure[data-chart]") else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| {
            let fig: Element = list.item(i)?.dyn_into().ok()?;
            let kind = fig.get_attribute("data-chart")?;
            let title = fig
                .query_selector(".tl-chart-title strong")
                .ok()
                .flatten()
                .and_then(|t| t.text_content())
                .unwrap_or_else(|| kind.clone());
            let canvas = fig
                .query_selector("canvas.chart-base")
                .ok()
                .flatten()?
                .dyn_into()
                .ok()?;
            Some((kind, title, canvas))
        })
        .collect()
}

/// The traces that apply to a run (messages only for a messages workload).
fn traces(view: &RunView) -> Vec<TraceKind> {
    TraceKind::ALL
        .into_iter()
        .filter(|k| *k != TraceKind::Msgs || view.summary.msgs.is_some())
        .collect()
}

#[function_component]
pub fn LabExport(props: &LabExportProps) -> Html {
    let lang = props.lang;
    let view = props.view.clone();
    // The file name each trace request is for, by batch.
    let pending: Rc<RefCell<HashMap<u64, String>>> = use_mut_ref(HashMap::new);
    let pool = {
        let pending = pending.clone();
        use_memo((), move |_| {
            Pool::new(
                WORKER_SCRIPT,
                1,
                Callback::from(move |f: Finished| {
                    let Some(name) = pending.borrow_mut().remove(&f.batch) else {
                        return;
                    };
                    match f.done {
                        Done::Csv(csv) => warn(super::text(&name, "text/csv", &csv)),
                        Done::Pcap(bytes, info) => {
                            if let Some(ms) = info.full_at_ms {
                                warn(Err(format!(
                                    "the capture holds the run's first {} packets, to {ms:.0} ms",
                                    info.packets
                                )));
                            }
                            warn(super::bytes(&name, "application/vnd.tcpdump.pcap", &bytes))
                        }
                        Done::Error(e) => warn(Err(e)),
                        _ => {}
                    }
                }),
            )
        })
    };
    let listed = use_state(Vec::<(String, String)>::new);
    let on_open = {
        let listed = listed.clone();
        Callback::from(move |()| {
            listed.set(charts().into_iter().map(|(k, t, _)| (k, t)).collect());
        })
    };

    let query = view.query.clone();
    let scenario = tcplab::Scenario::parse(&query).unwrap_or_default();
    let name = super::stem(&scenario);
    let caption = super::caption(&scenario, lang);
    let mut items = Vec::new();
    {
        let summary = view.summary.clone();
        let file = format!("{name}-summary.json");
        items.push(Item::new(
            "export-summary-json",
            lang.pick("Summary (JSON)", "摘要（JSON）"),
            Callback::from(move |()| {
                let (summary, file) = (summary.clone(), file.clone());
                wasm_bindgen_futures::spawn_local(async move {
                    let json = writers().await.and_then(|w| (w.summary)(&summary));
                    warn(json.and_then(|j| super::text(&file, "application/json", &(j + "\n"))));
                });
            }),
        ));
    }
    {
        let view = view.clone();
        let file = format!("{name}-view.json");
        items.push(Item::new(
            "export-view-json",
            lang.pick("Every trace as drawn (JSON)", "图中所有轨迹（JSON）"),
            Callback::from(move |()| {
                let (view, file) = (view.clone(), file.clone());
                wasm_bindgen_futures::spawn_local(async move {
                    let json = writers().await.and_then(|w| (w.view)(&view));
                    warn(json.and_then(|j| super::text(&file, "application/json", &j)));
                });
            }),
        ));
    }
    for kind in traces(&view) {
        let (pool, pending, query) = (pool.clone(), pending.clone(), query.clone());
        let file = format!("{name}-{}.csv", kind.name());
        items.push(Item::new(
            format!("export-trace-{}", kind.name()),
            match lang {
                Lang::En => format!("Trace {} (CSV)", kind.name()),
                Lang::Zh => format!("轨迹：{}（{}，CSV）", trace_name_zh(kind), kind.name()),
            },
            Callback::from(move |()| {
                let batch = pool.run(vec![Job {
                    query: query.clone(),
                    want: Want::Trace(kind.name().to_string()),
                }]);
                pending.borrow_mut().insert(batch, file.clone());
            }),
        ));
    }
    for at in [CapturePoint::Sender, CapturePoint::Receiver] {
        let (pool, pending, query) = (pool.clone(), pending.clone(), query.clone());
        let file = format!("{name}-{}.pcap", at.name());
        let label = match at {
            CapturePoint::Sender => lang.pick(
                "Packets at the sender (pcap, for Wireshark)",
                "发送端抓包（pcap，可用 Wireshark 打开）",
            ),
            CapturePoint::Receiver => lang.pick(
                "Packets at the receiver (pcap, for Wireshark)",
                "接收端抓包（pcap，可用 Wireshark 打开）",
            ),
        };
        items.push(Item::new(
            format!("export-pcap-{}", at.name()),
            label,
            Callback::from(move |()| {
                let batch = pool.run(vec![Job {
                    query: query.clone(),
                    want: Want::Pcap(at),
                }]);
                pending.borrow_mut().insert(batch, file.clone());
            }),
        ));
    }
    for (kind, title) in listed.iter() {
        let kind = kind.clone();
        let (file, png_title, caption) =
            (format!("{name}-{kind}.png"), title.clone(), caption.clone());
        items.push(Item::new(
            format!("export-png-{kind}"),
            format!("{title} (PNG)"),
            Callback::from(move |()| {
                let found = charts().into_iter().find(|(k, _, _)| *k == kind);
                match found {
                    Some((_, _, canvas)) => {
                        warn(super::png(&file, &canvas, &png_title, &caption, lang))
                    }
                    None => warn(Err(format!("no chart {kind}"))),
                }
            }),
        ));
    }
    let q = quoted(&query);
    let mut command = format!("tcplab run {q}\n");
    for kind in traces(&view) {
        command.push_str(&format!("tcplab trace {q} --what {}\n", kind.name()));
    }
    for at in [CapturePoint::Sender, CapturePoint::Receiver] {
        let at = at.name();
        command.push_str(&format!(
            "tcplab pcap {q} --out {name}-{at}.pcap --at {at}\n"
        ));
    }
    html! { <Menu {lang} {items} {command} {on_open} /> }
}

/// What a trace holds, in Chinese: beside its file name, which stays the runner's.
fn trace_name_zh(kind: TraceKind) -> &'static str {
    match kind {
        TraceKind::Cwnd => "拥塞窗口",
        TraceKind::Throughput => "吞吐量",
        TraceKind::Seq => "序号",
        TraceKind::Rtt => "往返时间",
        TraceKind::Msgs => "消息",
        TraceKind::Queue => "队列",
        TraceKind::Steps => "步骤",
    }
}
