//! The banner for an address the page cannot show as written: it names the key and its range
//! (the scenario's own message) and says what is shown instead. It stays until dismissed or
//! until the user changes the scenario, when "instead" no longer holds (`Page::apply`).

use yew::prelude::*;

use crate::i18n::Lang;
use crate::location::BadLink;

#[derive(Properties, PartialEq)]
pub struct BannerProps {
    pub bad: BadLink,
    /// A scenario was on show before (Back or Forward to a bad address), and stays.
    pub kept_previous: bool,
    pub lang: Lang,
    pub on_dismiss: Callback<()>,
}

#[function_component]
pub fn Banner(props: &BannerProps) -> Html {
    let lang = props.lang;
    let instead = match (props.kept_previous, lang) {
        (true, Lang::En) => "showing the last valid scenario instead.",
        (false, Lang::En) => "showing the defaults instead.",
        (true, Lang::Zh) => "改为显示上一个有效的场景。",
        (false, Lang::Zh) => "改为显示默认场景。",
    };
    let on_dismiss = props.on_dismiss.clone();
    html! {
        <div class="banner" id="banner" role="alert" data-key={props.bad.key.clone()}>
            <p>
                <strong>
                    // `=1` or `&=&`: there is no key to quote, and `""` would read as a typo.
                    if props.bad.key.is_empty() {
                        { lang.pick("This link has an empty key: ", "链接中有一个空的键：") }
                    } else {
                        { lang.pick("This link's ", "链接中的 ") }
                        <code><bdi>{ props.bad.shown_key.clone() }</bdi></code>
                        { lang.pick(" is not valid: ", " 无效：") }
                    }
                </strong>
                <span class="banner-message">{ isolated(&props.bad.problem) }</span>
                { lang.pick("; ", "；") }{ instead }
            </p>
            <button type="button" class="mini" aria-label={lang.pick("Dismiss", "关闭")}
                onclick={Callback::from(move |_: MouseEvent| on_dismiss.emit(()))}>{ "×" }</button>
        </div>
    }
}

/// The message with each quoted value (`"…"`, its own quotes escaped as `\"`) in a `<bdi>`: a
/// value in another script, or a right-to-left one, then cannot reorder the sentence around it.
/// The text is unchanged; only the isolation is added.
fn isolated(message: &str) -> Html {
    let parts = quoted_parts(message);
    parts
        .into_iter()
        .map(|(text, quoted)| {
            if quoted {
                html! { <bdi>{ text }</bdi> }
            } else {
                html! { { text } }
            }
        })
        .collect::<Html>()
}

/// `message` cut into runs, each marked whether it is a quoted value (quotes included).
pub fn quoted_parts(message: &str) -> Vec<(String, bool)> {
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut inside = false;
    let mut escaped = false;
    for c in message.chars() {
        if inside {
            current.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                parts.push((std::mem::take(&mut current), true));
                inside = false;
            }
        } else if c == '"' {
            if !current.is_empty() {
                parts.push((std::mem::take(&mut current), false));
            }
            current.push(c);
            inside = true;
        } else {
            current.push(c);
        }
    }
    if !current.is_empty() {
        parts.push((current, inside));
    }
    parts
}
