//! A lesson's keys, on the whole page: PageDown and PageUp (what a presenter's clicker sends)
//! move through the parts, revealing a pending answer first; R resets the part; in the
//! presenter's mode the arrows move through the parts too, the digits answer a choice, and
//! Escape leaves the mode. They are heard before the player's (capture phase), which then
//! leaves a key they took.

use gloo_events::{EventListener, EventListenerOptions, EventListenerPhase};
use tcplab::lesson::Given;
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;
use yew::prelude::*;

use super::Action;
use crate::player::{focus_of, Focus};

/// What the keys may do now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Keys {
    pub present: bool,
    /// The choices of a question waiting for its answer (0: none waits).
    pub choices: usize,
}

/// The lesson's action for a key, unless the key belongs to what has focus.
pub fn key_action(e: &KeyboardEvent, keys: Keys) -> Option<Action> {
    if e.default_prevented() || e.ctrl_key() || e.alt_key() || e.meta_key() {
        return None;
    }
    let focus = focus_of(e);
    if focus == Focus::Field {
        return None;
    }
    let key = e.key();
    let arrows = keys.present && focus != Focus::Slider;
    Some(match key.as_str() {
        "PageDown" => Action::Next,
        "PageUp" => Action::Back,
        "ArrowRight" if arrows => Action::Next,
        "ArrowLeft" if arrows => Action::Back,
        "r" | "R" => Action::Reset,
        "Escape" if keys.present => Action::Present(false),
        d if keys.present && d.len() == 1 => {
            let n = d.chars().next()?.to_digit(10)? as usize;
            (1..=keys.choices)
                .contains(&n)
                .then_some(Action::Answer(Given::Choice(n - 1)))?
        }
        _ => return None,
    })
}

#[hook]
pub fn use_lesson_keys(active: bool, keys: Keys, on_action: Callback<Action>) {
    let latest = use_mut_ref(|| (on_action.clone(), keys));
    *latest.borrow_mut() = (on_action, keys);
    use_effect_with(active, move |active| {
        let listener = active.then(web_sys::window).flatten().map(|w| {
            let options = EventListenerOptions {
                phase: EventListenerPhase::Capture,
                passive: false,
            };
            EventListener::new_with_options(&w, "keydown", options, move |e| {
                let Some(e) = e.dyn_ref::<KeyboardEvent>() else {
                    return;
                };
                let (on_action, keys) = latest.borrow().clone();
                if let Some(action) = key_action(e, keys) {
                    e.prevent_default();
                    on_action.emit(action);
                }
            })
        });
        move || drop(listener)
    });
}
