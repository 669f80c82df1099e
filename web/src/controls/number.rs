//! One numeric key: a slider, a number box that takes the query's units (`28ms`, `2.5MB`), the
//! unit, and a tooltip. The slider is keyboard-operable: arrows step to the next value it can
//! write, Page Up and Page Down jump a tenth of its range, Home and End go to its ends.

use web_sys::{HtmlInputElement, KeyboardEvent};
use yew::prelude::*;

use super::{use_draft, Change};
use crate::i18n::Lang;
use crate::model::address::Entry;
use crate::model::knobs::{decimal, Knob};
use crate::model::scale::Slider;
use crate::tip::Tip;

/// Key presses on a slider closer together than this are one gesture: one step in the history.
const KEY_GESTURE_MS: f64 = 1500.0;

#[derive(Properties, PartialEq, Clone)]
pub struct NumberProps {
    pub knob: &'static Knob,
    pub slider: Slider,
    /// The value in the key's unit, and its text in the number box.
    pub value: f64,
    pub text: String,
    /// A reading aid beside the label (`2.5 MB` for 2500000 bytes).
    #[prop_or_default]
    pub hint: Option<String>,
    pub lang: Lang,
    #[prop_or_default]
    pub error: Option<String>,
    pub on_change: Callback<Change>,
}

#[function_component]
pub fn Number(props: &NumberProps) -> Html {
    let key = props.knob.key;
    let name = key.name();
    // A drag is one step in the history: its first move pushes, the rest refine that entry.
    let dragging = use_mut_ref(|| false);
    // So is a run of key presses (ten presses of an arrow, or one held down): the time of the
    // last, until the slider loses focus or the keys pause.
    let last_key_ms = use_mut_ref(|| None::<f64>);

    let emit = {
        let on_change = props.on_change.clone();
        move |value: String, entry: Entry| {
            on_change.emit(Change { key, value, entry });
        }
    };
    let on_input = {
        let emit = emit.clone();
        let slider = props.slider;
        let dragging = dragging.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let Ok(position) = input.value().parse::<u32>() else {
                return;
            };
            let entry = if dragging.replace(true) {
                Entry::Refine
            } else {
                Entry::Push
            };
            emit(decimal(slider.value_at(position)), entry);
        })
    };
    let on_release = {
        let dragging = dragging.clone();
        Callback::from(move |_: Event| {
            dragging.replace(false);
        })
    };
    let on_key = {
        let emit = emit.clone();
        let slider = props.slider;
        let value = props.value;
        let last_key_ms = last_key_ms.clone();
        Callback::from(move |e: KeyboardEvent| {
            let next = match e.key().as_str() {
                "ArrowRight" | "ArrowUp" => slider.step(value, true, false),
                "ArrowLeft" | "ArrowDown" => slider.step(value, false, false),
                "PageUp" => slider.step(value, true, true),
                "PageDown" => slider.step(value, false, true),
                "Home" => slider.min(),
                "End" => slider.max(),
                _ => return,
            };
            e.prevent_default();
            if next != value {
                let now = crate::now_ms();
                let previous = last_key_ms.replace(Some(now));
                let entry = match previous {
                    Some(t) if now - t <= KEY_GESTURE_MS => Entry::Refine,
                    _ => Entry::Push,
                };
                emit(decimal(next), entry);
            }
        })
    };
    let on_blur = Callback::from(move |_: FocusEvent| {
        last_key_ms.replace(None);
    });
    let (shown, on_typing, on_type) = use_draft(
        &props.text,
        props.error.is_some(),
        Callback::from(move |value| emit(value, Entry::Push)),
    );

    let lang = props.lang;
    let label = props.knob.label(lang);
    let unit = props.knob.unit(lang);
    let tip_id = format!("{name}-tip");
    let error_id = format!("{name}-error");
    let described = if props.error.is_some() {
        format!("{tip_id} {error_id}")
    } else {
        tip_id.clone()
    };
    let value_text = if unit.is_empty() {
        props.text.clone()
    } else {
        format!("{} {unit}", props.text)
    };
    let number_label = if unit.is_empty() {
        label.to_string()
    } else {
        format!("{label} ({unit})")
    };
    let invalid = props.error.is_some().then_some("true");
    let position = props.slider.position_of(props.value);
    let (lo, hi) = (props.slider.min(), props.slider.max());

    html! {
        <div class={classes!("knob", props.error.is_some().then_some("has-error"))} data-key={name}>
            <div class="knob-head">
                <label for={name}>{ label }</label>
                <Tip id={tip_id} text={props.knob.tip(lang)} />
                if let Some(hint) = &props.hint {
                    <span class="hint">{ hint }</span>
                }
                <input type="text" inputmode="decimal" class="numbox" id={format!("{name}-number")}
                    value={shown} oninput={on_typing} onchange={on_type} spellcheck="false"
                    autocomplete="off" aria-label={number_label} aria-invalid={invalid}
                    aria-describedby={described.clone()} />
                <span class="unit">{ unit }</span>
            </div>
            <input type="range" id={name} min="0" max={props.slider.steps().to_string()} step="1"
                value={position.to_string()}
                oninput={on_input} onchange={on_release} onkeydown={on_key} onblur={on_blur}
                aria-valuetext={value_text} aria-describedby={described}
                title={format!("{} … {} {unit}", decimal(lo), decimal(hi))} />
            if let Some(message) = &props.error {
                <p class="knob-error" id={error_id} role="alert">{ message }</p>
            }
        </div>
    }
}
