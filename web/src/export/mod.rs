//! Taking the data away: CSV and JSON of a run's traces and summary and of a sweep, PNG of any
//! chart, and the `tcplab` command line that reproduces a figure natively.
//!
//! A download is a link the page clicks for the reader: `#export-link`, kept in the document
//! with the last file's name (`download`) and content (`href`, a `blob:` or `data:` URL), so
//! that what was exported can be read back. Traces come from a worker, which runs the scenario
//! again (it is deterministic) and prints them exactly as `tcplab trace` does.

mod lab;

pub use lab::LabExport;

use std::cell::RefCell;

use wasm_bindgen::JsCast;
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, HtmlCanvasElement, Url};
use yew::prelude::*;

use crate::i18n::Lang;
use crate::location::describe;

thread_local! {
    /// The object URL of the last text download, revoked when the next one replaces it.
    static LAST_URL: RefCell<Option<String>> = const { RefCell::new(None) };
}

fn link() -> Result<HtmlAnchorElement, String> {
    let doc = crate::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    if let Some(a) = doc.get_element_by_id("export-link") {
        return a
            .dyn_into()
            .map_err(|_| "#export-link is not a link".to_string());
    }
    let a: HtmlAnchorElement = doc
        .create_element("a")
        .map_err(describe)?
        .dyn_into()
        .map_err(|_| "not a link".to_string())?;
    a.set_id("export-link");
    a.set_hidden(true);
    doc.body()
        .ok_or("no body")?
        .append_child(&a)
        .map_err(describe)?;
    Ok(a)
}

fn save(name: &str, href: &str) -> Result<(), String> {
    let a = link()?;
    a.set_href(href);
    a.set_download(name);
    let _ = a.set_attribute("data-name", name);
    a.click();
    Ok(())
}

/// Downloads `text` as the file `name` of type `mime`.
pub fn text(name: &str, mime: &str, text: &str) -> Result<(), String> {
    let parts = js_sys::Array::of1(&text.into());
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    blob(
        name,
        &Blob::new_with_str_sequence_and_options(&parts, &options).map_err(describe)?,
    )
}

/// Downloads `bytes` as the file `name` of type `mime` (a capture).
pub fn bytes(name: &str, mime: &str, bytes: &[u8]) -> Result<(), String> {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    blob(
        name,
        &Blob::new_with_u8_array_sequence_and_options(&parts, &options).map_err(describe)?,
    )
}

/// Downloads `blob` as the file `name`, through an object URL kept until the next download.
fn blob(name: &str, blob: &Blob) -> Result<(), String> {
    let url = Url::create_object_url_with_blob(blob).map_err(describe)?;
    if let Some(old) = LAST_URL.with(|l| l.borrow_mut().replace(url.clone())) {
        let _ = Url::revoke_object_url(&old);
    }
    save(name, &url)
}

/// A file name's stem for what `scenario` runs: the preset's name or the query's keys and
/// values, so that a folder of exports says which is which (`tcplab-loss-sweep-dur30`,
/// `tcplab-rtt50-loss1`, `tcplab-defaults`).
pub fn stem(scenario: &tcplab::Scenario) -> String {
    let query = crate::model::address::run_query(scenario);
    if query.is_empty() {
        return "tcplab-defaults".to_string();
    }
    let mut parts = Vec::new();
    for pair in query.split('&') {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        let value = tcplab::scenario::decode_component(value);
        let part = if key == "preset" {
            value
        } else {
            format!("{key}{value}")
        };
        let clean: String = part
            .chars()
            .map(|c| if c == ',' { '+' } else { c })
            .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '+'))
            .collect();
        if !clean.is_empty() {
            parts.push(clean);
        }
    }
    let mut name = format!("tcplab-{}", parts.join("-"));
    // A file name of a few words, not a whole 1000-drop list.
    if name.len() > MAX_STEM {
        name.truncate(MAX_STEM);
    }
    name
}

/// The longest stem [`stem`] writes, in bytes (all ASCII).
const MAX_STEM: usize = 80;

/// Downloads the canvas `canvas` as a PNG: the chart's own pixels under its `title`, with a
/// caption of `lines` (the scenario, the lab's address) under it, so that a picture pasted into
/// a slide or a bug report still says what it shows.
/// The caption ends with the link that reopens what is shown, read when the PNG is made: the
/// address as it is then, cursor and language included.
pub fn png(
    name: &str,
    canvas: &HtmlCanvasElement,
    title: &str,
    lines: &[String],
    lang: Lang,
) -> Result<(), String> {
    let mut lines = lines.to_vec();
    lines.push(link_line(lang));
    let framed = captioned(canvas, title, &lines)?;
    let url = framed
        .to_data_url_with_type("image/png")
        .map_err(describe)?;
    save(name, &url)
}

/// The caption's line for a scenario: its query ([`png`] adds the link that reopens it).
pub fn caption(scenario: &tcplab::Scenario, lang: Lang) -> Vec<String> {
    let query = crate::model::address::run_query(scenario);
    let query = if query.is_empty() {
        lang.pick("the defaults", "默认场景").to_string()
    } else {
        query
    };
    vec![format!("{} {query}", lang.pick("Scenario:", "场景："))]
}

/// The lab's address, as it is now.
fn link_line(lang: Lang) -> String {
    let href = crate::location::current_href().unwrap_or_default();
    format!(
        "{} {href}",
        lang.pick(
            "tcplab, the TCP throughput lab:",
            "tcplab TCP 吞吐量实验室："
        )
    )
}

/// A new canvas holding `canvas` with `title` above and `lines` below, at its pixel ratio.
fn captioned(
    canvas: &HtmlCanvasElement,
    title: &str,
    lines: &[String],
) -> Result<HtmlCanvasElement, String> {
    let doc = crate::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let out: HtmlCanvasElement = doc
        .create_element("canvas")
        .map_err(describe)?
        .dyn_into()
        .map_err(|_| "not a canvas".to_string())?;
    let (w, h) = (f64::from(canvas.width()), f64::from(canvas.height()));
    // Text in proportion to the chart: the chart's pixels per CSS pixel.
    let css_w = f64::from(canvas.client_width());
    let scale = if css_w > 0.0 { w / css_w } else { 1.0 };
    let size = 13.0 * scale;
    let pad = 10.0 * scale;
    let title_h = if title.is_empty() {
        0.0
    } else {
        size * 1.6 + pad
    };
    let lines_h = lines.len() as f64 * size * 1.4 + pad;
    out.set_width(canvas.width());
    out.set_height((h + title_h + lines_h).ceil() as u32);
    let ctx: web_sys::CanvasRenderingContext2d = out
        .get_context("2d")
        .map_err(describe)?
        .ok_or("no 2D context")?
        .dyn_into()
        .map_err(|_| "not a 2D context".to_string())?;
    ctx.set_fill_style_str("#ffffff");
    ctx.fill_rect(0.0, 0.0, w, h + title_h + lines_h);
    ctx.set_text_baseline("top");
    ctx.set_fill_style_str("#1d2430");
    if !title.is_empty() {
        ctx.set_font(&format!("600 {}px sans-serif", size * 1.15));
        let _ = ctx.fill_text(title, pad, pad);
    }
    ctx.draw_image_with_html_canvas_element(canvas, 0.0, title_h)
        .map_err(describe)?;
    ctx.set_fill_style_str("#5b6472");
    ctx.set_font(&format!("{size}px sans-serif"));
    for (i, line) in lines.iter().enumerate() {
        let y = h + title_h + pad * 0.5 + i as f64 * size * 1.4;
        let _ = ctx.fill_text_with_max_width(line, pad, y, w - 2.0 * pad);
    }
    Ok(out)
}

/// The canvas with this id.
pub fn canvas_by_id(id: &str) -> Option<HtmlCanvasElement> {
    crate::window()?
        .document()?
        .get_element_by_id(id)?
        .dyn_into()
        .ok()
}

/// Reports a failed export where the reader looks, the console (nothing else is at stake).
pub fn warn(result: Result<(), String>) {
    if let Err(e) = result {
        web_sys::console::warn_1(&format!("export: {e}").into());
    }
}

/// One entry of an export menu.
#[derive(Clone, PartialEq)]
pub struct Item {
    pub id: String,
    pub label: String,
    pub action: Callback<()>,
}

impl Item {
    pub fn new(id: impl Into<String>, label: impl Into<String>, action: Callback<()>) -> Item {
        Item {
            id: id.into(),
            label: label.into(),
            action,
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct MenuProps {
    pub lang: Lang,
    pub items: Vec<Item>,
    /// The command lines that reproduce what is on show, one a line.
    pub command: String,
    /// Told when the menu opens (to list what exists only then, the charts on the page).
    #[prop_or_default]
    pub on_open: Callback<()>,
}

/// The Export menu: a disclosure with a button per file, and the command line.
#[function_component]
pub fn Menu(props: &MenuProps) -> Html {
    let lang = props.lang;
    let (menu, on_key) = crate::menu::use_menu();
    let on_open = props.on_open.clone();
    let ontoggle = Callback::from(move |e: Event| {
        let open = e
            .target_dyn_into::<web_sys::HtmlDetailsElement>()
            .is_some_and(|d| d.open());
        if open {
            on_open.emit(());
        }
    });
    let copied = use_state_eq(|| false);
    let copy = {
        let command = props.command.clone();
        let copied = copied.clone();
        Callback::from(move |_: MouseEvent| {
            let Some(window) = crate::window() else {
                return;
            };
            let promise = window.navigator().clipboard().write_text(&command);
            let copied = copied.clone();
            wasm_bindgen_futures::spawn_local(async move {
                copied.set(wasm_bindgen_futures::JsFuture::from(promise).await.is_ok());
            });
        })
    };
    html! {
        <details class="export" id="export" ref={menu} onkeydown={on_key} {ontoggle}>
            <summary>{ lang.pick("Export", "导出") }</summary>
            <div class="export-panel">
                <ul class="export-list">
                    { for props.items.iter().map(|item| {
                        let action = item.action.clone();
                        html! {
                            <li>
                                <button type="button" class="mini" id={item.id.clone()}
                                    onclick={Callback::from(move |_: MouseEvent| action.emit(()))}>
                                    { item.label.clone() }
                                </button>
                            </li>
                        }
                    }) }
                </ul>
                <p class="export-command-head">
                    { lang.pick("The same on the command line", "命令行中的等价命令") }
                    <span class="export-command-how">
                        { lang.pick(" (tcplab is the lab's simulator; the README's \"The runner\" section says how to get it):",
                            "（tcplab 是本实验室的模拟器，获取方法见 README 的“The runner”一节）：") }
                    </span>
                    <button type="button" class="mini" onclick={copy}>
                        { if *copied { lang.pick("Copied", "已复制") } else { lang.pick("Copy", "复制") } }
                    </button>
                </p>
                <pre class="export-command" id="export-command">{ props.command.clone() }</pre>
            </div>
        </details>
    }
}

/// A query quoted for a POSIX shell: `'…'`, a quote inside written `'\''`.
pub fn quoted(query: &str) -> String {
    format!("'{}'", query.replace('\'', "'\\''"))
}
