//! The banner for an address the page cannot show as written: it names every bad key with its
//! reason (the scenario's own message, which names the range), and says that those keys are
//! ignored and the rest of the link is shown. It stays until dismissed or until the user changes
//! the scenario, when it no longer describes what is on show (`Page::apply`).

use yew::prelude::*;

use crate::i18n::Lang;
use crate::model::address::BadLink;

#[derive(Properties, PartialEq)]
pub struct BannerProps {
    /// Every bad key, in the order written; at least one.
    pub bad: Vec<BadLink>,
    pub lang: Lang,
    pub on_dismiss: Callback<()>,
}

/// One bad key: its name as written (or a note that it is empty) and the problem.
fn key_and_problem(bad: &BadLink, lang: Lang) -> Html {
    html! {
        <>
            // `=1` or `&=&`: there is no key to quote, and `""` would read as a typo.
            if bad.key.is_empty() {
                { lang.pick("an empty key", "一个空的键") }
            } else {
                <code><bdi>{ bad.shown_key.clone() }</bdi></code>
            }
            { lang.pick(": ", "：") }
            <span class="banner-message">{ isolated(bad.problem_in(lang)) }</span>
        </>
    }
}

/// The most bad keys the banner lists: a link of thousands (`&x&x&x…`) is a line and a count,
/// not a megabyte of messages pushing the page down.
const MAX_LISTED: usize = 8;

/// The bad keys, each problem once with how many times it was written, in the order first met:
/// the first [`MAX_LISTED`] of them.
fn listed(bad: &[BadLink]) -> Vec<(&BadLink, usize)> {
    let mut out: Vec<(&BadLink, usize)> = Vec::new();
    for b in bad {
        let same = |o: &BadLink| o.key == b.key && o.problem_in(Lang::En) == b.problem_in(Lang::En);
        if let Some(i) = out.iter().position(|(o, _)| same(o)) {
            out[i].1 += 1;
        } else if out.len() < MAX_LISTED {
            out.push((b, 1));
        }
    }
    out
}

/// How many different problems `bad` holds.
fn distinct(bad: &[BadLink]) -> usize {
    bad.iter()
        .map(|b| (b.key.as_str(), b.problem_in(Lang::En)))
        .collect::<std::collections::HashSet<_>>()
        .len()
}

#[function_component]
pub fn Banner(props: &BannerProps) -> Html {
    let lang = props.lang;
    let on_dismiss = props.on_dismiss.clone();
    let first = props.bad.first().map(|b| b.key.clone()).unwrap_or_default();
    let body = match props.bad.as_slice() {
        [one] => html! {
            <p>
                <strong>
                    // `=1` or `&=&`: there is no key to quote, and `""` would read as a typo.
                    if one.key.is_empty() {
                        { lang.pick("This link has an empty key: ", "链接中有一个空的键：") }
                    } else {
                        { lang.pick("This link's key ", "链接中的键 ") }
                        <code><bdi>{ one.shown_key.clone() }</bdi></code>
                        { lang.pick(" is not valid: ", " 无效：") }
                    }
                </strong>
                <span class="banner-message">{ isolated(one.problem_in(lang)) }</span>
                { lang.pick(". It is ignored; the rest of the link is shown as written.",
                    "。已忽略该项，链接的其余部分照常显示。") }
            </p>
        },
        many => html! {
            <div>
                <p>
                    <strong>{ match lang {
                        Lang::En => format!("This link has {} keys that are not valid.", many.len()),
                        Lang::Zh => format!("链接中有 {} 个无效的键。", many.len()),
                    } }</strong>
                    { lang.pick(" They are ignored; the rest of the link is shown as written:",
                        "已忽略这些键，链接的其余部分照常显示：") }
                </p>
                <ul class="banner-list">
                    { for listed(many).iter().map(|(b, times)| html! {
                        <li data-key={b.key.clone()}>
                            { key_and_problem(b, lang) }
                            if *times > 1 {
                                { match lang {
                                    Lang::En => format!(" ({times} times)"),
                                    Lang::Zh => format!("（{times} 次）"),
                                } }
                            }
                        </li>
                    }) }
                    if distinct(many) > MAX_LISTED {
                        <li class="banner-more">{ match lang {
                            Lang::En => format!("and {} more.", distinct(many) - MAX_LISTED),
                            Lang::Zh => format!("另有 {} 项。", distinct(many) - MAX_LISTED),
                        } }</li>
                    }
                </ul>
            </div>
        },
    };
    html! {
        <div class="banner" id="banner" role="alert" data-key={first}
            data-count={props.bad.len().to_string()}>
            { body }
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

#[cfg(test)]
mod tests {
    use super::{distinct, listed, MAX_LISTED};
    use crate::model::address::BadLink;

    #[test]
    fn thousands_of_bad_keys_are_listed_each_problem_once_and_at_most_eight() {
        // `&x` written 3 000 times, then twelve different unknown keys.
        let mut bad: Vec<BadLink> = (0..3000)
            .map(|_| BadLink::new("x", "unknown key".to_string(), String::new()))
            .collect();
        bad.extend(
            (0..12)
                .map(|i| BadLink::new(&format!("k{i}"), "unknown key".to_string(), String::new())),
        );
        let shown = listed(&bad);
        assert_eq!(shown.len(), MAX_LISTED);
        assert_eq!((shown[0].0.key.as_str(), shown[0].1), ("x", 3000));
        assert_eq!((shown[1].0.key.as_str(), shown[1].1), ("k0", 1));
        assert_eq!(distinct(&bad), 13);
        // A few keys, each its own line.
        let few = [
            BadLink::new("rtt", "out of range".to_string(), String::new()),
            BadLink::new("bw", "out of range".to_string(), String::new()),
        ];
        assert_eq!(listed(&few).len(), 2);
        assert_eq!(distinct(&few), 2);
    }
}
