//! The Share tools' Embed menu: the `<iframe>` that shows what is on screen inside another
//! page, ready to copy, with the charts on show and the scenario's own keys as its controls.

use tcplab::scenario::Key;
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

use super::{snippet, Spec};
use crate::i18n::Lang;

#[derive(Properties, PartialEq)]
pub struct EmbedMenuProps {
    pub lang: Lang,
    /// The page's canonical address (`?…`).
    pub search: String,
    /// The charts on show.
    pub charts: Vec<&'static str>,
    pub controls: Vec<Key>,
}

/// Where the page is served: its origin and path.
fn base() -> String {
    crate::window()
        .map(|w| {
            let l = w.location();
            format!(
                "{}{}",
                l.origin().unwrap_or_default(),
                l.pathname().unwrap_or_default()
            )
        })
        .unwrap_or_default()
}

#[function_component]
pub fn EmbedMenu(props: &EmbedMenuProps) -> Html {
    let lang = props.lang;
    let area = use_node_ref();
    let (menu, on_key) = crate::menu::use_menu();
    let copied = use_state_eq(|| false);
    {
        let copied = copied.clone();
        use_effect_with(props.search.clone(), move |_| copied.set(false));
    }
    let spec = Spec {
        charts: if props.charts.is_empty() {
            super::DEFAULT_CHARTS.to_vec()
        } else {
            props.charts.clone()
        },
        controls: props.controls.clone(),
        note: None,
    };
    let html = snippet(&base(), &props.search, &spec, lang);
    let copy = {
        let (area, copied, html) = (area.clone(), copied.clone(), html.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(a) = area.cast::<HtmlTextAreaElement>() {
                a.select();
            }
            let Some(window) = crate::window() else {
                return;
            };
            let promise = window.navigator().clipboard().write_text(&html);
            let copied = copied.clone();
            wasm_bindgen_futures::spawn_local(async move {
                // Refused, the text stays selected in the box to copy by hand.
                let ok = wasm_bindgen_futures::JsFuture::from(promise).await.is_ok();
                copied.set(ok);
            });
        })
    };
    html! {
        <details class="presets embed-menu" id="embed-menu" ref={menu} onkeydown={on_key}>
            <summary>{ lang.pick("Embed", "嵌入") }</summary>
            <div class="embed-panel">
                <label for="embed-snippet">{ lang.pick(
                    "Paste this into a page to show this run there, with its charts and sliders (add note=… for a caption; charts= and controls= choose what shows):",
                    "把这段代码粘贴到网页中，即可在那里展示本次运行及其图表和滑块（加 note=… 作说明；charts= 与 controls= 选择显示的内容）：") }</label>
                <textarea id="embed-snippet" ref={area} readonly=true rows="5" value={html} />
                <button type="button" class="mini" id="embed-copy" onclick={copy}>
                    { if *copied { lang.pick("Copied", "已复制") } else { lang.pick("Copy the iframe", "复制 iframe 代码") } }
                </button>
            </div>
        </details>
    }
}
