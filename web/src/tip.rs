//! The small "?" beside a knob: what it means, shown on hover and on keyboard focus, and read by
//! screen readers as the control's description. Escape hides a tip on show without moving the
//! pointer or the focus (WCAG 2.2, 1.4.13 "Content on Hover or Focus": dismissible); the next
//! tip hovered or focused shows again.

use gloo_events::EventListener;
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct TipProps {
    pub id: String,
    pub text: &'static str,
}

#[function_component]
pub fn Tip(props: &TipProps) -> Html {
    html! {
        <span class="tip" tabindex="0" id={props.id.clone()} role="note"
            aria-label={props.text} data-tip={props.text}>{ "?" }</span>
    }
}

/// The class on the document's root that hides every tip's text until the pointer or the focus
/// moves on.
const HUSHED: &str = "tips-hushed";

/// Listens, for the page's life, for Escape (which hides the tips on show) and for the focus
/// moving, or the pointer coming over a tip (which let them show again): a pointer crossing
/// the rest of the page leaves a hidden tip hidden.
#[hook]
pub fn use_escape_hides_tips() {
    use_effect_with((), |_| {
        let root = crate::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element());
        let listeners = root.map(|root| {
            let hush = {
                let root = root.clone();
                EventListener::new(&root.clone(), "keydown", move |e| {
                    let escape = e
                        .dyn_ref::<web_sys::KeyboardEvent>()
                        .is_some_and(|k| k.key() == "Escape");
                    if escape {
                        let _ = root.class_list().add_1(HUSHED);
                    }
                })
            };
            let wake = |kind: &'static str, over_a_tip: bool| {
                let root = root.clone();
                EventListener::new(&root.clone(), kind, move |e| {
                    let on_tip = e
                        .target()
                        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                        .is_some_and(|t| t.class_list().contains("tip"));
                    if on_tip || !over_a_tip {
                        let _ = root.class_list().remove_1(HUSHED);
                    }
                })
            };
            (hush, wake("pointerover", true), wake("focusin", false))
        });
        move || drop(listeners)
    });
}
