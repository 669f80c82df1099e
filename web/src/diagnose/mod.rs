//! The diagnosis: a capture dropped on the page, read and explained in a worker (nothing is
//! uploaded), with the scenario that fits it simulated beside it, its curves under the
//! capture's; and "my number, explained" for the engineer without a capture.
//!
//! A capture's analysis is `tcplab analyze`'s (`core/src/capture/analyze.rs`); the number's is
//! `tcplab explain`'s (`core/src/diagnose.rs`). Once a capture is read, its fitted scenario
//! becomes the page's, so that every control is a "what if" on the same path, drawn under the
//! capture.

pub mod chart;
mod explain;

use std::cell::RefCell;
use std::rc::Rc;

use tcplab::capture::said::Said;
use tcplab::view::RunView;
use tcplab::Scenario;
use yew::prelude::*;

use crate::charts::canvas::{Canvas, Drawing};
use crate::i18n::Lang;
use crate::model::format;
use crate::worker::client::CAPTURE_SCRIPT;
use crate::worker::live::Live;
use crate::worker::protocol::{CaptureReply, FileReply, Request, Want};
use chart::{Overlay, What};
pub use explain::Explain;

/// A capture read: the file (kept to analyse another of its connections) and its analysis.
#[derive(Debug, Clone)]
pub struct Captured {
    pub name: String,
    /// The file's bytes, in JavaScript's memory: each analysis is sent a copy.
    pub file: Rc<js_sys::Uint8Array>,
    pub reply: CaptureReply,
}

/// Two captures are the same when they are the same file read the same way.
impl PartialEq for Captured {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.file, &other.file) && self.name == other.name && self.reply == other.reply
    }
}

/// The largest capture the page reads: 512 MB, beyond which a tab's memory is at risk.
pub const MAX_FILE_BYTES: f64 = 512.0 * 1024.0 * 1024.0;

#[derive(Properties, PartialEq, Clone)]
pub struct DiagnoseProps {
    pub lang: Lang,
    /// The page's scenario: the path "my number" asks about, and after a capture is read, the
    /// fitted scenario the controls edit.
    pub scenario: Scenario,
    /// Its run, drawn under the capture.
    pub view: Option<Rc<RunView>>,
    pub capture: Option<Rc<Captured>>,
    pub on_capture: Callback<Option<Rc<Captured>>>,
    pub on_load: Callback<Scenario>,
    /// A file dropped elsewhere on the page, which opened this view to read it.
    #[prop_or_default]
    pub dropped: Option<Dropped>,
    /// The dropped file is being read: the page forgets it, so that coming back to this view
    /// does not read it again.
    #[prop_or_default]
    pub on_taken: Callback<()>,
    /// The number "My number, explained" asks about, from the address.
    #[prop_or_default]
    pub asked: Option<tcplab::diagnose::Measured>,
    #[prop_or_default]
    pub on_ask: Callback<tcplab::diagnose::Measured>,
}

/// A file dropped on the page outside its drop zones: the README's "drop a capture on the page"
/// holds wherever it lands. `serial` tells one drop from the next of the same file.
#[derive(Debug, Clone, PartialEq)]
pub struct Dropped {
    pub serial: u32,
    pub file: web_sys::File,
}

/// Where the reading of a capture stands.
#[derive(Debug, Clone, PartialEq)]
enum Reading {
    Idle,
    /// A share of the file read, 0 to 1.
    Going {
        name: String,
        share: f64,
    },
    Failed(Said),
}

#[function_component]
pub fn DiagnoseView(props: &DiagnoseProps) -> Html {
    let lang = props.lang;
    let reading = use_state_eq(|| Reading::Idle);
    // The analysis worker: one at a time, started for each file (a new file ends the old).
    let worker: Rc<RefCell<Option<Live>>> = use_mut_ref(|| None);
    let analyse = {
        let (reading, worker) = (reading.clone(), worker.clone());
        let (on_capture, on_load) = (props.on_capture.clone(), props.on_load.clone());
        Callback::from(
            move |(name, file, conn): (String, Rc<js_sys::Uint8Array>, Option<usize>)| {
                reading.set(Reading::Going {
                    name: name.clone(),
                    share: 0.0,
                });
                let request = serde_json::to_string(&Request {
                    id: 1,
                    query: String::new(),
                    want: Want::Analyze { conn },
                    trace: None,
                })
                .unwrap_or_default();
                let on_message = {
                    let (reading, on_capture, on_load) =
                        (reading.clone(), on_capture.clone(), on_load.clone());
                    let (name, file, worker) = (name.clone(), file.clone(), worker.clone());
                    let request = request.clone();
                    move |data: wasm_bindgen::JsValue| {
                        let text = data.as_string().unwrap_or_default();
                        let Ok(reply) = serde_json::from_str::<FileReply>(&text) else {
                            reading.set(Reading::Failed(Said::new(
                                "the analysis is unreadable",
                                "分析结果无法读取",
                            )));
                            return;
                        };
                        // The worker takes requests once it says it is ready; a copy of the file
                        // crosses, so that the page keeps it for another connection.
                        if reply.ready {
                            let bytes = file.slice(0, file.length());
                            let posted = worker
                                .borrow()
                                .as_ref()
                                .map(|live| live.post_with_file(&request, &bytes));
                            if let Some(Err(e)) = posted {
                                let e = crate::location::describe(e);
                                reading.set(Reading::Failed(Said::new(e.clone(), e)));
                            }
                            return;
                        }
                        if let Some(share) = reply.progress {
                            reading.set(Reading::Going {
                                name: name.clone(),
                                share,
                            });
                            return;
                        }
                        match (reply.capture, reply.error) {
                            (Some(c), _) => {
                                if let Ok(s) = Scenario::parse(&c.analysis.scenario) {
                                    on_load.emit(s);
                                }
                                on_capture.emit(Some(Rc::new(Captured {
                                    name: name.clone(),
                                    file: file.clone(),
                                    reply: *c,
                                })));
                                reading.set(Reading::Idle);
                            }
                            // Named: it stands above the analysis of the file read before.
                            (None, Some(e)) => {
                                let zh = reply.error_zh.unwrap_or_else(|| e.clone());
                                reading.set(Reading::Failed(Said::new(
                                    format!("{name}: {e}"),
                                    format!("{name}：{zh}"),
                                )))
                            }
                            (None, None) => reading.set(Reading::Failed(Said::new(
                                "no analysis came",
                                "没有收到分析结果",
                            ))),
                        }
                    }
                };
                let on_error = {
                    let reading = reading.clone();
                    move |m: String| {
                        reading.set(Reading::Failed(Said::new(
                            format!("the analysis failed: {m}"),
                            format!("分析失败：{m}"),
                        )))
                    }
                };
                match Live::start(CAPTURE_SCRIPT, on_message, on_error) {
                    Ok(live) => *worker.borrow_mut() = Some(live),
                    Err(e) => {
                        let e = crate::location::describe(e);
                        reading.set(Reading::Failed(Said::new(e.clone(), e)))
                    }
                }
            },
        )
    };
    let on_file = {
        let (analyse, reading) = (analyse.clone(), reading.clone());
        Callback::from(move |file: web_sys::File| {
            let name = file.name();
            if file.size() > MAX_FILE_BYTES {
                reading.set(Reading::Failed(crate::file_pick::too_large(
                    &name,
                    file.size(),
                    MAX_FILE_BYTES,
                    "tcplab analyze",
                )));
                return;
            }
            let (analyse, reading) = (analyse.clone(), reading.clone());
            reading.set(Reading::Going {
                name: name.clone(),
                share: 0.0,
            });
            wasm_bindgen_futures::spawn_local(async move {
                match wasm_bindgen_futures::JsFuture::from(file.array_buffer()).await {
                    Ok(buf) => {
                        analyse.emit((name, Rc::new(js_sys::Uint8Array::new(&buf)), None));
                    }
                    Err(e) => {
                        let e = crate::location::describe(e);
                        reading.set(Reading::Failed(Said::new(
                            format!("{name}: could not be read: {e}"),
                            format!("{name}：无法读取：{e}"),
                        )))
                    }
                }
            });
        })
    };
    {
        let (on_file, on_taken) = (on_file.clone(), props.on_taken.clone());
        use_effect_with(props.dropped.clone(), move |dropped| {
            if let Some(d) = dropped {
                on_file.emit(d.file.clone());
                on_taken.emit(());
            }
        });
    }
    let crate::file_pick::FileHandlers {
        on_input,
        on_drop,
        on_drag_over,
    } = crate::file_pick::handlers(on_file);
    let on_conn = {
        let (analyse, capture) = (analyse.clone(), props.capture.clone());
        Callback::from(move |e: Event| {
            let select: Option<web_sys::HtmlSelectElement> = e.target_dyn_into();
            let (Some(select), Some(c)) = (select, capture.as_ref()) else {
                return;
            };
            if let Ok(n) = select.value().parse::<usize>() {
                analyse.emit((c.name.clone(), c.file.clone(), Some(n)));
            }
        })
    };
    let status = match &*reading {
        Reading::Idle => html! {},
        Reading::Going { name, share } => html! {
            <p class="capture-progress" id="capture-progress" aria-live="polite">
                <progress max="1" value={share.to_string()}></progress>
                { format!(" {} {name}: {:.0} %", lang.pick("Reading", "正在读取"), share * 100.0) }
            </p>
        },
        Reading::Failed(why) => html! {
            <>
                <p class="capture-error" id="capture-error" role="alert">{ why.get(lang.language()).to_string() }</p>
                // The analysis of the file read before stays, and says whose it is, lest it be
                // read as the refused file's.
                if let Some(c) = &props.capture {
                    <p class="capture-still" id="capture-still">{ match lang {
                        Lang::En => format!("Below, still: the analysis of {}, read before.", c.name),
                        Lang::Zh => format!("下方仍是之前读取的 {} 的分析。", c.name),
                    } }</p>
                }
            </>
        },
    };
    html! {
        <section class="diagnose" id="diagnose">
            <section class="capture-import" aria-labelledby="capture-title">
                <h2 id="capture-title">{ lang.pick("Your capture, explained", "你的抓包，解读") }</h2>
                <div class="capture-drop" id="capture-drop" ondrop={on_drop} ondragover={on_drag_over}>
                    // The command kept on one line: broken at its hyphen, it reads "-" and "s 128".
                    <p>
                        { lang.pick("Drop a pcap or pcapng file here (", "把 pcap 或 pcapng 文件拖到这里（") }
                        <code class="command">{ "tcpdump -s 128 -w file.pcap" }</code>
                        { lang.pick(
                            "), or choose one. It is read in this page, in WebAssembly: nothing is uploaded.",
                            "），或选择一个文件。文件在本页面中用 WebAssembly 读取，不会上传。") }
                    </p>
                    <crate::file_pick::FilePicker id="capture-file" accept=".pcap,.pcapng,.cap,.dmp"
                        {lang} name={lang.pick("Capture file", "抓包文件")} on_change={on_input} />
                </div>
                { status }
                if let Some(c) = &props.capture {
                    <Analysed capture={c.clone()} view={props.view.clone()} {lang}
                        scenario={props.scenario.clone()} {on_conn} />
                }
            </section>
            <Explain {lang} scenario={props.scenario.clone()} asked={props.asked}
                on_ask={props.on_ask.clone()}
                captured={props.capture.as_ref().and_then(|c| c.reply.analysis.goodput_MBps)} />
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct AnalysedProps {
    lang: Lang,
    capture: Rc<Captured>,
    view: Option<Rc<RunView>>,
    scenario: Scenario,
    on_conn: Callback<Event>,
}

/// A capture's connections, its figures, what limited it, the fitted scenario and the charts.
#[function_component]
fn Analysed(props: &AnalysedProps) -> Html {
    let lang = props.lang;
    let c = &props.capture;
    let a = &c.reply.analysis;
    // The analysis's sentences in the page's language.
    let zh = &c.reply.zh;
    let (verdict_text, point_why, estimates, notes) = match lang {
        Lang::En => (
            &a.verdict_text,
            &a.capture_point_why,
            &a.estimates,
            &a.notes,
        ),
        Lang::Zh => (
            &zh.verdict_text,
            &zh.capture_point_why,
            &zh.estimates,
            &zh.notes,
        ),
    };
    let rate = |v: Option<f64>| {
        v.map_or("—".to_string(), |g| {
            format!("{} MB/s", format::number(g, 3))
        })
    };
    let ms = |v: Option<f64>| {
        v.map_or("—".to_string(), |v| {
            format!("{} ms", format::number(v, 3))
        })
    };
    let figures: Vec<(&str, String, String)> = vec![
        (
            "capture-rtt",
            lang.pick("Least round trip", "最小往返时间").into(),
            ms(a.rtt_ms),
        ),
        (
            "capture-srtt",
            lang.pick("Smoothed RTT", "平滑 RTT").into(),
            ms(a.srtt_ms),
        ),
        (
            "capture-goodput",
            lang.pick("Goodput", "有效吞吐").into(),
            rate(a.goodput_MBps),
        ),
        (
            "capture-retrans",
            lang.pick("Retransmitted", "重传").into(),
            format!(
                "{} / {} ({})",
                format::count(a.retransmitted_segments),
                format::count(a.data_segments_sent),
                format::percent(a.loss_pct)
            ),
        ),
        (
            "capture-rwnd",
            lang.pick("Largest receive window", "最大接收窗口").into(),
            a.rwnd_max_bytes.map_or("—".into(), format::bytes),
        ),
        (
            "capture-bottleneck",
            lang.pick("Delivery-rate peak", "交付速率峰值").into(),
            rate(a.bottleneck_MBps),
        ),
        (
            "capture-point",
            lang.pick("Captured near", "抓包位置").into(),
            match a.capture_point {
                tcplab::capture::CapturePoint::Sender => lang.pick("the sender", "发送端").into(),
                tcplab::capture::CapturePoint::Receiver => {
                    lang.pick("the receiver", "接收端").into()
                }
            },
        ),
    ];
    let twin = props.view.clone();
    let fitted = props.scenario.to_query() == a.scenario
        || Scenario::parse(&a.scenario).is_ok_and(|s| s.to_query() == props.scenario.to_query());
    html! {
        <div class="capture-analysis" id="capture-analysis" data-verdict={serde_json::to_value(a.verdict).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default()}>
            if c.reply.connections.len() > 1 {
                <label class="capture-conns">
                    { lang.pick("Connection ", "连接 ") }
                    <select id="capture-conn" onchange={props.on_conn.clone()}>
                        { for c.reply.connections.iter().map(|k| html! {
                            <option value={k.conn.to_string()} selected={k.conn == a.conn}>
                                { format!("{}: {} → {}, {}, {} {}", k.conn, k.sender, k.receiver,
                                    format::bytes(k.data_bytes), format::count(k.packets),
                                    match (lang, k.packets) {
                                        (Lang::En, 1) => "packet",
                                        (Lang::En, _) => "packets",
                                        (Lang::Zh, _) => "个数据包",
                                    }) }
                            </option>
                        }) }
                    </select>
                </label>
            } else {
                <p class="capture-conns">{ format!("{}: {} → {}", c.name, a.sender, a.receiver) }</p>
            }
            <p class="capture-verdict" id="capture-verdict">{ verdict_text.clone() }</p>
            <dl class="capture-figures">
                { for figures.into_iter().map(|(id, k, v)| html! {
                    <div id={id}><dt>{ k }</dt><dd>{ v }</dd></div>
                }) }
            </dl>
            <details class="capture-fit" id="capture-fit" open=true>
                <summary>{ lang.pick("The scenario that fits, and how each value was found", "拟合的场景，以及每个值的由来") }</summary>
                <p><code id="capture-scenario">{ a.scenario.clone() }</code>
                    if !fitted {
                        { lang.pick(" (the controls have changed it: what you see below is the what-if)", "（控件已修改：下图是假设情形）") }
                    }
                </p>
                <ul>
                    { for estimates.iter().map(|e| html! {
                        <li><strong>{ format!("{} = {}", e.key, e.value) }</strong>{ format!("{}{}", lang.pick(": ", "："), e.how) }</li>
                    }) }
                </ul>
                <p class="capture-point-why" id="capture-point-why">{ point_why.clone() }</p>
                if !notes.is_empty() {
                    <ul class="capture-notes">
                        { for notes.iter().map(|n| html! { <li>{ n.clone() }</li> }) }
                    </ul>
                }
            </details>
            <p class="capture-hint">{ lang.pick(
                "The fitted scenario is now the page's: change any control (the algorithm, the window, the loss) to see the same path as a what-if, drawn under the capture.",
                "拟合的场景已成为页面的场景：修改任何控件（算法、窗口、丢包），即可在同一路径上看到假设情形，画在抓包曲线之下。") }</p>
            <div class="charts capture-charts">
                { for What::ALL.iter().map(|&what| {
                    let stamp = format!("{}-{}-{}", a.conn, twin.as_ref().map_or(String::new(), |v| v.query.clone()), lang.pick("en", "zh"));
                    html! {
                        <figure data-chart={what.id()}>
                            <figcaption class="tl-chart-title"><strong>{ what.title(lang) }</strong></figcaption>
                            <Canvas id={what.id()} label={what.title(lang)} height={260.0} {stamp}
                                drawing={Rc::new(Overlay { what, curves: c.reply.curves.clone(), twin: twin.clone(), lang }) as Rc<dyn Drawing>} />
                        </figure>
                    }
                }) }
            </div>
        </div>
    }
}
