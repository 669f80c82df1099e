//! The masthead's tools: Share (copies the page's address), the language switch, and large
//! type for projectors.

use yew::prelude::*;

use crate::i18n::Lang;
use crate::location;

#[derive(Properties, PartialEq)]
pub struct ShareProps {
    pub lang: Lang,
    /// The page's canonical address (`?…`), to know when it changed.
    pub search: String,
}

#[derive(Debug, Clone, PartialEq)]
enum Copied {
    Not,
    Yes,
    /// The clipboard refused: the link is shown to copy by hand.
    Refused(String),
}

/// How long "Link copied" stays.
const COPIED_FOR_MS: i32 = 2500;

/// Copies the page's address to the clipboard, and says so.
#[function_component]
pub fn Share(props: &ShareProps) -> Html {
    let copied = use_state_eq(|| Copied::Not);
    {
        // A copied link is stale once the address changes.
        let copied = copied.clone();
        use_effect_with(props.search.clone(), move |_| copied.set(Copied::Not));
    }
    {
        // "Link copied" is news for a moment, not a state: it goes after a few seconds.
        let copied = copied.clone();
        let shown = *copied == Copied::Yes;
        use_effect_with(shown, move |shown| {
            let timer = shown
                .then(|| crate::after(COPIED_FOR_MS, move || copied.set(Copied::Not)))
                .flatten();
            move || drop(timer)
        });
    }
    let onclick = {
        let copied = copied.clone();
        let search = props.search.clone();
        Callback::from(move |_: MouseEvent| {
            let copied = copied.clone();
            let href = location::href_for(&search).unwrap_or_default();
            let Some(window) = crate::window() else {
                copied.set(Copied::Refused(href));
                return;
            };
            let promise = window.navigator().clipboard().write_text(&href);
            wasm_bindgen_futures::spawn_local(async move {
                match wasm_bindgen_futures::JsFuture::from(promise).await {
                    Ok(_) => copied.set(Copied::Yes),
                    Err(_) => copied.set(Copied::Refused(href)),
                }
            });
        })
    };
    let lang = props.lang;
    html! {
        <span class="share">
            <button type="button" id="share" {onclick}
                title={lang.pick("Copy a link that reopens exactly this run", "复制能完全重现本次运行的链接")}>
                { lang.pick("Share link", "分享链接") }
            </button>
            <span class="share-status" id="share-status" aria-live="polite">
                { match &*copied {
                    Copied::Not => Html::default(),
                    Copied::Yes => html! { lang.pick("Link copied", "链接已复制") },
                    Copied::Refused(href) => html! {
                        <input type="text" readonly=true class="share-link" value={href.clone()}
                            aria-label={lang.pick("Link to this run", "本次运行的链接")}
                            onfocus={Callback::from(|e: FocusEvent| {
                                let input: web_sys::HtmlInputElement = e.target_unchecked_into();
                                input.select();
                            })} />
                    },
                } }
            </span>
        </span>
    }
}

#[derive(Properties, PartialEq)]
pub struct LangSwitchProps {
    pub lang: Lang,
    pub on_lang: Callback<Lang>,
}

/// English | 中文, each named in its own language.
#[function_component]
pub fn LangSwitch(props: &LangSwitchProps) -> Html {
    html! {
        <span class="lang-switch" role="group" aria-label="Language / 语言">
            { for Lang::ALL.iter().map(|&l| {
                let on_lang = props.on_lang.clone();
                html! {
                    <button type="button" id={format!("lang-{}", l.code())} lang={l.html_lang()}
                        aria-pressed={(props.lang == l).to_string()}
                        onclick={Callback::from(move |_: MouseEvent| on_lang.emit(l))}>
                        { l.own_name() }
                    </button>
                }
            }) }
        </span>
    }
}

#[derive(Properties, PartialEq)]
pub struct LargeProps {
    pub lang: Lang,
    pub large: bool,
    pub on_large: Callback<bool>,
}

/// Large type, for a projector: every size on the page follows the root font size.
#[function_component]
pub fn LargeType(props: &LargeProps) -> Html {
    let on_large = props.on_large.clone();
    let large = props.large;
    html! {
        <button type="button" id="large-type" class="large-toggle" aria-pressed={large.to_string()}
            title={props.lang.pick("Large type, for a projector", "大字模式，适合投影")}
            aria-label={props.lang.pick("Large type", "大字模式")}
            onclick={Callback::from(move |_: MouseEvent| on_large.emit(!large))}>
            { "A" }<span class="big-a">{ "A" }</span>
        </button>
    }
}
