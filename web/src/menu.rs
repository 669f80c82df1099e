//! A `<details>` that behaves as a menu (the presets, the lessons, the embed's iframe, the
//! exports): a click anywhere else closes it, and so does Escape or the focus leaving it, as a
//! menu does (WAI-ARIA's menu button pattern); Escape and a chosen item give the focus back to
//! the menu's button, so a keyboard user is never left on nothing.

use gloo_events::EventListener;
use wasm_bindgen::JsCast;
use web_sys::{HtmlDetailsElement, HtmlElement, KeyboardEvent, Node};
use yew::prelude::*;

/// The menu's node (its `ref`) and its `onkeydown`.
#[hook]
pub fn use_menu() -> (NodeRef, Callback<KeyboardEvent>) {
    let menu = use_node_ref();
    {
        let menu = menu.clone();
        use_effect_with((), move |_| {
            let listeners = crate::window().and_then(|w| w.document()).map(|doc| {
                // A click or the focus elsewhere closes it; the focus stays where it went.
                let outside = |menu: NodeRef| {
                    move |e: &web_sys::Event| {
                        let Some(details) = menu.cast::<HtmlDetailsElement>() else {
                            return;
                        };
                        let target = e.target().and_then(|t| t.dyn_into::<Node>().ok());
                        if details.open() && !details.contains(target.as_ref()) {
                            details.set_open(false);
                        }
                    }
                };
                (
                    EventListener::new(&doc, "click", outside(menu.clone())),
                    EventListener::new(&doc, "focusin", outside(menu)),
                )
            });
            move || drop(listeners)
        });
    }
    let on_key = {
        let menu = menu.clone();
        Callback::from(move |e: KeyboardEvent| {
            let open = menu.cast::<HtmlDetailsElement>().is_some_and(|d| d.open());
            if e.key() == "Escape" && open {
                e.prevent_default();
                close(&menu);
            }
        })
    };
    (menu, on_key)
}

/// Closes the menu (an item was chosen, or Escape pressed), the focus back on its button if it
/// was inside: the item it was on is hidden with the menu.
pub fn close(menu: &NodeRef) {
    let Some(details) = menu.cast::<HtmlDetailsElement>() else {
        return;
    };
    let inside = crate::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element())
        .is_some_and(|a| details.contains(Some(&a)));
    details.set_open(false);
    if inside {
        let summary = details
            .query_selector("summary")
            .ok()
            .flatten()
            .and_then(|s| s.dyn_into::<HtmlElement>().ok());
        if let Some(summary) = summary {
            let _ = summary.focus();
        }
    }
}
