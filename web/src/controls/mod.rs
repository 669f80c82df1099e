//! The controls: every key of the scenario, grouped as the path, TCP and the workload. Each
//! control reports a [`Change`] (a key and its new value as a query writes it); the app applies
//! it through the scenario's own rules and the control shows the refusal if there is one.

mod number;
mod trace;

use tcplab::scenario::Key;
use tcplab::scenario::LinkKind;
use tcplab::{App, Aqm, CcAlgo, Scenario};
use web_sys::HtmlInputElement;
use yew::prelude::*;

use crate::i18n::Lang;
use crate::model::address::Entry;
use crate::model::format;
use crate::model::knobs::{self, knob_of, Knob};
use crate::model::page::FieldError;
use crate::tip::Tip;
pub use number::Number;

/// A control's request: set `key` to `value`.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    pub key: Key,
    pub value: String,
    pub entry: Entry,
}

/// A text box over a value the page owns: what the reader types stays in the box until the
/// value it asked for is applied (the page's text for it changes), and stays for correcting
/// when it is refused. Returns the text to show, and the handlers for `input` and `change`.
#[hook]
pub fn use_draft(
    text: &str,
    refused: bool,
    on_commit: Callback<String>,
) -> (String, Callback<InputEvent>, Callback<Event>) {
    let draft = use_state_eq(|| None::<String>);
    {
        let draft = draft.clone();
        use_effect_with((text.to_string(), refused), move |(_, refused)| {
            if !*refused {
                draft.set(None);
            }
        });
    }
    let on_input = {
        let draft = draft.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            draft.set(Some(input.value()));
        })
    };
    let on_change = {
        let draft = draft.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let value = input.value();
            draft.set(Some(value.clone()));
            on_commit.emit(value);
        })
    };
    let shown = (*draft).clone().unwrap_or_else(|| text.to_string());
    (shown, on_input, on_change)
}

#[derive(Properties, PartialEq)]
pub struct ControlsProps {
    pub scenario: Scenario,
    pub lang: Lang,
    pub error: Option<FieldError>,
    pub on_change: Callback<Change>,
    /// Only these keys' controls, in this order and ungrouped (an embed's `controls=`);
    /// `None`: every control, in its group.
    #[prop_or_default]
    pub only: Option<Vec<Key>>,
}

/// Every control, in three groups.
#[function_component]
pub fn Controls(props: &ControlsProps) -> Html {
    let s = &props.scenario;
    let lang = props.lang;
    let control = |key: Key| -> Html {
        let Some(knob) = knob_of(key) else {
            return Html::default();
        };
        let error = props
            .error
            .as_ref()
            .filter(|e| e.control == key)
            .map(|e| e.message.clone());
        let on_change = props.on_change.clone();
        // A value for each flow (`cc=bbr,cubic`) is edited as the list it is.
        if key.per_flow() && matches!(s.value(key), tcplab::scenario::Value::Each(_)) {
            return html! {
                <TextField {knob} {lang} {on_change} {error} text={knobs::text(key, s)} />
            };
        }
        match key {
            Key::Cc => html! {
                <Choice {knob} {lang} {on_change}
                    options={CcAlgo::ALL.iter().map(|c| (c.name(), cc_label(*c))).collect::<Vec<_>>()}
                    current={s.cc.name()} />
            },
            Key::App => html! {
                <Choice {knob} {lang} {on_change}
                    options={App::ALL.iter().map(|a| (a.name(), app_label(*a, lang))).collect::<Vec<_>>()}
                    current={s.app.name()} />
            },
            Key::Aqm => html! {
                <Choice {knob} {lang} {on_change}
                    options={Aqm::ALL.iter().map(|a| (a.name(), aqm_label(*a))).collect::<Vec<_>>()}
                    current={s.aqm.name()} />
            },
            Key::Link => {
                // The trace is a choice once a file is held; choosing it again takes that file.
                let held = crate::model::link_trace::held().is_some();
                let options: Vec<(&'static str, &'static str)> = LinkKind::ALL
                    .iter()
                    .filter(|l| **l != LinkKind::Trace || held)
                    .map(|l| (l.name(), link_label(*l, lang)))
                    .collect();
                html! {
                    <>
                        <Choice {knob} {lang} on_change={on_change.clone()} {options}
                            current={s.link.name()} />
                        <trace::TraceFile {lang} active={s.link == LinkKind::Trace} {on_change} />
                    </>
                }
            }
            Key::Sack | Key::Hystart | Key::Ts | Key::Autotune | Key::Ecn => html! {
                <Flag {knob} {lang} {on_change} on={knobs::text(key, s) == "1"} />
            },
            Key::Drop | Key::Seed => html! {
                <TextField {knob} {lang} {on_change} {error}
                    text={knobs::text(key, s)} next_seed={(key == Key::Seed).then(|| s.seed.wrapping_add(1))} />
            },
            _ => {
                let (Some(slider), Some(value)) = (knobs::slider(key, s), knobs::value(key, s))
                else {
                    return Html::default();
                };
                let hint = match key {
                    Key::Rwnd => Some(format::buffer(value as u64)),
                    Key::Body | Key::Msg if value >= 1000.0 => Some(format::bytes(value as u64)),
                    Key::Bw => Some(format::bits_per_s(tcplab::rate::MbitPerS(value).bytes())),
                    Key::Loss | Key::Ackloss if value > 0.0 => {
                        Some(format!("1/{}", format::number(100.0 / value, 3)))
                    }
                    _ => None,
                };
                html! {
                    <Number {knob} {slider} {value} text={knobs::text(key, s)} {hint} {lang}
                        {error} {on_change} />
                }
            }
        }
    };
    if let Some(only) = &props.only {
        return html! {
            <form class="controls controls-only" id="controls"
                onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}
                aria-label={lang.pick("Scenario", "场景")}>
                { for only.iter().map(|&k| control(k)) }
            </form>
        };
    }
    let (path, tcp, work) = (
        [
            Key::Rtt,
            Key::Bw,
            Key::Link,
            Key::Loss,
            Key::Ackloss,
            Key::Burst,
            Key::Drop,
            Key::Police,
        ],
        [
            Key::Cc,
            Key::Iw,
            Key::Mss,
            Key::Rwnd,
            Key::Autotune,
            Key::Sack,
            Key::Ts,
            Key::Hystart,
            Key::Delack,
            Key::Minrto,
        ],
        workload_keys(s.app),
    );
    let group = |id: &str, title: &str, keys: &[Key]| {
        html! {
            <fieldset class="group" id={id.to_string()}>
                <legend>{ title.to_string() }</legend>
                { for keys.iter().map(|&k| control(k)) }
            </fieldset>
        }
    };
    // The queue: its limit and discipline, the discipline's own settings folded under it, ECN
    // and the latency probe.
    let settings = discipline_keys(s.aqm);
    let queue = html! {
        <fieldset class="group" id="group-queue">
            <legend>{ lang.pick("Queue", "队列") }</legend>
            { control(Key::Queue) }
            { control(Key::Aqm) }
            if !settings.is_empty() {
                <details class="aqm-settings" id="aqm-settings">
                    <summary>{ match lang {
                        Lang::En => format!("{} settings", aqm_label(s.aqm)),
                        Lang::Zh => format!("{} 参数", aqm_label(s.aqm)),
                    } }</summary>
                    { for settings.iter().map(|&k| control(k)) }
                </details>
            }
            { control(Key::Ecn) }
            { control(Key::Probe) }
        </fieldset>
    };
    html! {
        <form class="controls" id="controls" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}
            aria-label={lang.pick("Scenario", "场景")}>
            { group("group-path", lang.pick("Path", "路径"), &path) }
            { queue }
            { group("group-tcp", "TCP", &tcp) }
            { group("group-workload", lang.pick("Workload", "负载"), &work) }
        </form>
    }
}

/// A link's name on its button.
pub fn link_label(link: LinkKind, lang: Lang) -> &'static str {
    match link {
        LinkKind::Fixed => lang.pick("Fixed", "固定"),
        LinkKind::Lte => "LTE",
        LinkKind::Wifi => "Wi-Fi",
        LinkKind::Trace => lang.pick("Trace", "轨迹"),
    }
}

/// The workload's keys, those of the chosen `app` only.
pub fn workload_keys(app: App) -> Vec<Key> {
    let mut keys = vec![Key::App];
    match app {
        App::Body => keys.extend([Key::Body, Key::Flows, Key::Start, Key::Dur]),
        App::Bulk => keys.extend([Key::Flows, Key::Start, Key::Dur]),
        App::Msgs => keys.extend([Key::Msg, Key::Every, Key::Count, Key::Conns, Key::Dur]),
    }
    keys.push(Key::Seed);
    keys
}

/// The settings of the chosen discipline: none for the FIFO.
pub fn discipline_keys(aqm: Aqm) -> &'static [Key] {
    match aqm {
        Aqm::Fifo => &[],
        Aqm::Red => &[Key::RedMin, Key::RedMax, Key::RedMaxp, Key::RedWq],
        Aqm::Codel => &[Key::CodelTarget, Key::CodelInterval],
        Aqm::FqCodel => &[Key::CodelTarget, Key::CodelInterval, Key::FqQuantum],
        Aqm::Pie => &[Key::PieTarget, Key::PieTupdate, Key::PieAlpha, Key::PieBeta],
    }
}

/// A queue discipline's name as the page writes it.
pub(crate) fn aqm_label(aqm: Aqm) -> &'static str {
    match aqm {
        Aqm::Fifo => "FIFO",
        Aqm::Red => "RED",
        Aqm::Codel => "CoDel",
        Aqm::FqCodel => "FQ-CoDel",
        Aqm::Pie => "PIE",
    }
}

/// An algorithm's name as the page writes it.
pub(crate) fn cc_label(cc: CcAlgo) -> &'static str {
    match cc {
        CcAlgo::Reno => "Reno",
        CcAlgo::Cubic => "CUBIC",
        CcAlgo::Bbr => "BBR",
    }
}

/// A workload's name as the Workload control writes it.
pub(crate) fn app_label(app: App, lang: Lang) -> &'static str {
    match app {
        App::Body => lang.pick("Body", "单次传输"),
        App::Bulk => lang.pick("Bulk", "持续发送"),
        App::Msgs => lang.pick("Messages", "消息"),
    }
}

#[derive(Properties, PartialEq)]
pub struct ChoiceProps {
    pub knob: &'static Knob,
    pub lang: Lang,
    /// (value, label) of each choice.
    pub options: Vec<(&'static str, &'static str)>,
    pub current: &'static str,
    pub on_change: Callback<Change>,
}

/// One of a few names (cc, app): radio buttons, which arrow keys move between.
#[function_component]
pub fn Choice(props: &ChoiceProps) -> Html {
    let key = props.knob.key;
    let name = key.name();
    let label_id = format!("{name}-label");
    let tip_id = format!("{name}-tip");
    html! {
        <div class="knob choice" data-key={name}>
            <div class="knob-head">
                <span class="label" id={label_id.clone()}>{ props.knob.label(props.lang) }</span>
                <Tip id={tip_id.clone()} text={props.knob.tip(props.lang)} />
            </div>
            <div class="segmented" role="radiogroup" aria-labelledby={label_id}
                aria-describedby={tip_id} id={name}>
                { for props.options.iter().map(|&(value, label)| {
                    let on_change = props.on_change.clone();
                    let onchange = Callback::from(move |_: Event| {
                        on_change.emit(Change { key, value: value.to_string(), entry: Entry::Push });
                    });
                    let id = format!("{name}-{value}");
                    html! {
                        <>
                            <input type="radio" name={name} id={id.clone()} value={value}
                                checked={props.current == value} {onchange} />
                            <label for={id}>{ label }</label>
                        </>
                    }
                }) }
            </div>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct FlagProps {
    pub knob: &'static Knob,
    pub lang: Lang,
    pub on: bool,
    pub on_change: Callback<Change>,
}

/// An on/off key (sack, hystart): a checkbox.
#[function_component]
pub fn Flag(props: &FlagProps) -> Html {
    let key = props.knob.key;
    let name = key.name();
    let tip_id = format!("{name}-tip");
    let on_change = props.on_change.clone();
    let onchange = Callback::from(move |e: Event| {
        let input: HtmlInputElement = e.target_unchecked_into();
        let value = if input.checked() { "1" } else { "0" };
        on_change.emit(Change {
            key,
            value: value.to_string(),
            entry: Entry::Push,
        });
    });
    html! {
        <div class="knob flag" data-key={name}>
            <div class="knob-head">
                <input type="checkbox" id={name} checked={props.on} {onchange}
                    aria-describedby={tip_id.clone()} />
                <label for={name}>{ props.knob.label(props.lang) }</label>
                <Tip id={tip_id} text={props.knob.tip(props.lang)} />
            </div>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct TextFieldProps {
    pub knob: &'static Knob,
    pub lang: Lang,
    pub text: String,
    #[prop_or_default]
    pub error: Option<String>,
    /// For the seed: the value of its "next" button.
    #[prop_or_default]
    pub next_seed: Option<u64>,
    pub on_change: Callback<Change>,
}

/// A key typed as text (drop, seed), applied on Enter or when the box is left.
#[function_component]
pub fn TextField(props: &TextFieldProps) -> Html {
    let key = props.knob.key;
    let name = key.name();
    let tip_id = format!("{name}-tip");
    let error_id = format!("{name}-error");
    let on_change = props.on_change.clone();
    let (shown, oninput, onchange) = {
        let on_change = on_change.clone();
        use_draft(
            &props.text,
            props.error.is_some(),
            Callback::from(move |value| {
                on_change.emit(Change {
                    key,
                    value,
                    entry: Entry::Push,
                })
            }),
        )
    };
    let described = if props.error.is_some() {
        format!("{tip_id} {error_id}")
    } else {
        tip_id.clone()
    };
    let placeholder = match key {
        Key::Drop => props.lang.pick("none, e.g. 5,9", "无，例如 5,9"),
        _ => "",
    };
    html! {
        <div class={classes!("knob", "text", props.error.is_some().then_some("has-error"))} data-key={name}>
            <div class="knob-head">
                <label for={name}>{ props.knob.label(props.lang) }</label>
                <Tip id={tip_id} text={props.knob.tip(props.lang)} />
                <input type="text" class="textbox" id={name} value={shown}
                    {oninput} {onchange} {placeholder} spellcheck="false" autocomplete="off"
                    inputmode={if key == Key::Seed { "numeric" } else { "text" }}
                    aria-invalid={props.error.is_some().then_some("true")}
                    aria-describedby={described} />
                if let Some(next) = props.next_seed {
                    <button type="button" class="mini" id="seed-next"
                        title={props.lang.pick("Next seed", "下一个种子")}
                        aria-label={props.lang.pick("Next seed, +1", "下一个种子，+1")}
                        onclick={Callback::from(move |_: MouseEvent| on_change.emit(Change {
                            key, value: next.to_string(), entry: Entry::Push,
                        }))}>{ "+1" }</button>
                }
            </div>
            if let Some(message) = &props.error {
                <p class="knob-error" id={error_id} role="alert">{ message }</p>
            }
        </div>
    }
}
