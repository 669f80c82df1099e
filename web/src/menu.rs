//! A `<details>` that behaves as a menu (the presets, the lessons, the embed's iframe): a click
//! anywhere else closes it, and so does Escape, as a menu does.

use gloo_events::EventListener;
use wasm_bindgen::JsCast;
use web_sys::{HtmlDetailsElement, KeyboardEvent, Node};
use yew::prelude::*;

/// The menu's node (its `ref`) and its `onkeydown`.
#[hook]
pub fn use_menu() -> (NodeRef, Callback<KeyboardEvent>) {
    let menu = use_node_ref();
    {
        let menu = menu.clone();
        use_effect_with((), move |_| {
            let listener = crate::window().and_then(|w| w.document()).map(|doc| {
                EventListener::new(&doc, "click", move |e| {
                    let Some(details) = menu.cast::<HtmlDetailsElement>() else {
                        return;
                    };
                    let target = e.target().and_then(|t| t.dyn_into::<Node>().ok());
                    if details.open() && !details.contains(target.as_ref()) {
                        details.set_open(false);
                    }
                })
            });
            move || drop(listener)
        });
    }
    let on_key = {
        let menu = menu.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                close(&menu);
            }
        })
    };
    (menu, on_key)
}

/// Closes the menu (an item was chosen).
pub fn close(menu: &NodeRef) {
    if let Some(details) = menu.cast::<HtmlDetailsElement>() {
        details.set_open(false);
    }
}
