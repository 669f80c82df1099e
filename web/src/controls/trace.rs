//! The link's Mahimahi trace, picked or dropped (`link=trace`): read in this page, held for
//! this tab (`model::link_trace`), and chosen as the link at once. A bad file's message names
//! the line; the page keeps the link it had.

use yew::prelude::*;

use super::{Change, Entry};
use crate::i18n::Lang;
use crate::model::format;
use crate::model::link_trace::{self, MAX_TRACE_BYTES};
use tcplab::capture::said::Said;
use tcplab::scenario::Key;

#[derive(Properties, PartialEq)]
pub struct TraceFileProps {
    pub lang: Lang,
    /// Whether the scenario's link is the trace now.
    pub active: bool,
    pub on_change: Callback<Change>,
}

#[function_component]
pub fn TraceFile(props: &TraceFileProps) -> Html {
    let lang = props.lang;
    // Why the file was refused, in English and in Chinese.
    let problem = use_state(|| None::<Said>);
    let on_file = {
        let (problem, on_change) = (problem.clone(), props.on_change.clone());
        Callback::from(move |file: web_sys::File| {
            let name = file.name();
            if file.size() > MAX_TRACE_BYTES {
                problem.set(Some(crate::file_pick::too_large(
                    &name,
                    file.size(),
                    MAX_TRACE_BYTES,
                    "tcplab run QUERY --link-trace FILE",
                )));
                return;
            }
            let (problem, on_change) = (problem.clone(), on_change.clone());
            wasm_bindgen_futures::spawn_local(async move {
                let text = wasm_bindgen_futures::JsFuture::from(file.text()).await;
                let read = match text.ok().and_then(|t| t.as_string()) {
                    Some(text) => link_trace::hold(&name, &text),
                    None => Err(Said::new(
                        format!("{name}: could not be read as text"),
                        format!("{name}：无法作为文本读取"),
                    )),
                };
                match read {
                    Ok(_) => {
                        problem.set(None);
                        on_change.emit(Change {
                            key: Key::Link,
                            value: "trace".to_string(),
                            entry: Entry::Push,
                        });
                    }
                    Err(e) => problem.set(Some(e)),
                }
            });
        })
    };
    let crate::file_pick::FileHandlers {
        on_input,
        on_drop,
        on_drag_over,
    } = crate::file_pick::handlers(on_file);
    let held = link_trace::held().filter(|_| props.active);
    let problem = problem.as_ref().map(|p| p.get(lang.language()).to_string());
    html! {
        <div class="knob trace-file" id="trace-drop" ondrop={on_drop} ondragover={on_drag_over}>
            <label class="label" for="trace-file">
                { lang.pick("Link trace (Mahimahi)", "链路轨迹（Mahimahi）") }
            </label>
            <crate::file_pick::FilePicker id="trace-file" accept=".txt,.trace,.up,.down,text/plain"
                {lang} described_by="trace-status" on_change={on_input} />
            <p class="hint" id="trace-status" aria-live="polite">{
                match (&held, &problem) {
                    // The file refused, the link keeps the trace it had, and says which.
                    (Some(h), Some(p)) => html! { <>
                        <span class="field-error" role="alert">{ p.clone() }</span>
                        { match lang {
                            Lang::En => format!(" The link keeps {}.", h.name),
                            Lang::Zh => format!("链路仍使用 {}。", h.name),
                        } }
                    </> },
                    (None, Some(p)) => html! { <span class="field-error" role="alert">{ p.clone() }</span> },
                    (Some(h), None) => html! { { match lang {
                        Lang::En => format!("{}: {} opportunities over {}, {} on average; it repeats",
                            h.name, format::count(h.trace.opportunities() as u64),
                            format::duration(h.trace.period().as_millis_f64()),
                            format::bits_per_s(tcplab::rate::MbitPerS(h.trace.mean_bits_per_s() / 1e6).bytes())),
                        Lang::Zh => format!("{}：{} 个传输机会，历时 {}，平均 {}；循环使用",
                            h.name, format::count(h.trace.opportunities() as u64),
                            format::duration(h.trace.period().as_millis_f64()),
                            format::bits_per_s(tcplab::rate::MbitPerS(h.trace.mean_bits_per_s() / 1e6).bytes())),
                    } } },
                    (None, None) => html! { { lang.pick(
                        "Drop or choose a trace: a millisecond a line, one 1504-byte delivery each (mm-link's format). Read in this page; nothing is uploaded.",
                        "拖入或选择一个轨迹文件：每行一个毫秒数，每行一次 1504 字节的传输机会（mm-link 的格式）。在本页面中读取，不会上传。") } },
                }
            }</p>
        </div>
    }
}
