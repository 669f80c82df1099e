//! A lesson's keys, on the whole page: PageDown and PageUp (what a presenter's clicker sends)
//! move through the parts, revealing a pending answer first; R resets the part; in the
//! presenter's mode the arrows move through the parts too (with Shift they are the player's round
//! trip still), the digits choose a choice (without revealing it: the room can be asked first),
//! Enter reveals, and Escape leaves the mode. They
//! are heard before the player's (capture phase), which then leaves a key they took.

use gloo_events::{EventListener, EventListenerOptions, EventListenerPhase};
use tcplab::lesson::Given;
use wasm_bindgen::JsCast;
use web_sys::{Element, KeyboardEvent};
use yew::prelude::*;

use super::Action;
use crate::player::{focus_of, Focus};

/// The id of the lesson's answer box, where the digits of a number go.
pub const NUMBER_BOX: &str = "lesson-number";

/// What the keys may do now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Keys {
    pub present: bool,
    /// The choices of a question waiting for its answer (0: none waits).
    pub choices: usize,
}

/// What a key is pressed on, as far as the lesson's keys go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The lesson's answer box: typing is its own, but a clicker's keys still move on (the
    /// presenter's mode puts the focus there for a number), and so do the presenter's arrows
    /// while it is `empty` (there is no caret to move).
    NumberBox { empty: bool },
    /// One of the question's choices: Enter on the one chosen reveals rather than choosing it
    /// again; on another, Enter presses it, choosing it (a keyboard's way to answer).
    Choice { chosen: bool },
    /// Anything else, by what it takes (the player's reading of the focus).
    Other(Focus),
}

/// The lesson's action for `key` pressed on `target`, unless the key belongs to it.
pub fn action_for(key: &str, target: Target, keys: Keys) -> Option<Action> {
    let focus = match target {
        Target::NumberBox { empty } => {
            return match key {
                "PageDown" => Some(Action::Next),
                "PageUp" => Some(Action::Back),
                "ArrowRight" if keys.present && empty => Some(Action::Next),
                "ArrowLeft" if keys.present && empty => Some(Action::Back),
                "Escape" if keys.present => Some(Action::Present(false)),
                _ => None,
            }
        }
        Target::Choice { chosen: false } if key == "Enter" => return None,
        Target::Choice { .. } => Focus::Control,
        Target::Other(Focus::Field) => return None,
        Target::Other(focus) => focus,
    };
    // A slider's arrows move it, and a radio group's move along it.
    let arrows = keys.present && !matches!(focus, Focus::Slider | Focus::Choice);
    // Enter checks a chosen answer where it would not press a button of its own: on a choice
    // (which it would choose again), or on nothing in the presenter's mode.
    let enter = keys.choices > 0
        && (matches!(target, Target::Choice { .. }) || (keys.present && focus == Focus::Other));
    Some(match key {
        "PageDown" => Action::Next,
        "PageUp" => Action::Back,
        "ArrowRight" if arrows => Action::Next,
        "ArrowLeft" if arrows => Action::Back,
        "Enter" if enter => Action::Next,
        "r" | "R" => Action::Reset,
        "Escape" if keys.present => Action::Present(false),
        d if keys.present && d.len() == 1 => {
            let n = d.chars().next()?.to_digit(10)? as usize;
            (1..=keys.choices)
                .contains(&n)
                .then_some(Action::Choose(Some(Given::Choice(n - 1))))?
        }
        _ => return None,
    })
}

/// The lesson's action for a key, unless the key belongs to what has focus.
pub fn key_action(e: &KeyboardEvent, keys: Keys) -> Option<Action> {
    if e.default_prevented() || e.ctrl_key() || e.alt_key() || e.meta_key() {
        return None;
    }
    // Shift with an arrow steps the player a round trip (its keys' legend), in the presenter's
    // mode too, where the plain arrows move through the parts: it had revealed the answer.
    if e.shift_key() && matches!(e.key().as_str(), "ArrowLeft" | "ArrowRight") {
        return None;
    }
    let element = e.target().and_then(|t| t.dyn_into::<Element>().ok());
    let target = match element {
        Some(el) if el.id() == NUMBER_BOX => Target::NumberBox {
            empty: el
                .dyn_ref::<web_sys::HtmlInputElement>()
                .is_none_or(|i| i.value().is_empty()),
        },
        Some(el) => match el.closest("#lesson-choices .choice").ok().flatten() {
            Some(choice) => Target::Choice {
                chosen: choice.get_attribute("aria-pressed").as_deref() == Some("true"),
            },
            None => Target::Other(focus_of(e)),
        },
        _ => Target::Other(focus_of(e)),
    };
    action_for(&e.key(), target, keys)
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

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    const PRESENTING: Keys = Keys {
        present: true,
        choices: 3,
    };

    #[test]
    fn a_digit_chooses_and_enter_reveals() {
        let nothing = Target::Other(Focus::Other);
        // A digit points at a choice; it does not reveal.
        assert_eq!(
            action_for("2", nothing, PRESENTING),
            Some(Action::Choose(Some(Given::Choice(1))))
        );
        assert_eq!(action_for("4", nothing, PRESENTING), None);
        // Enter reveals (checking what was chosen), on nothing or on a choice.
        assert_eq!(action_for("Enter", nothing, PRESENTING), Some(Action::Next));
        let chosen = Target::Choice { chosen: true };
        assert_eq!(action_for("Enter", chosen, PRESENTING), Some(Action::Next));
        // On a choice not yet chosen, Enter presses it: the keyboard's way to choose.
        let other = Target::Choice { chosen: false };
        assert_eq!(action_for("Enter", other, PRESENTING), None);
        let reading = Keys {
            present: false,
            ..PRESENTING
        };
        assert_eq!(action_for("Enter", chosen, reading), Some(Action::Next));
        // Enter on another button presses it; with nothing pending, Enter is no lesson key.
        assert_eq!(
            action_for("Enter", Target::Other(Focus::Control), PRESENTING),
            None
        );
        let answered = Keys {
            choices: 0,
            ..PRESENTING
        };
        assert_eq!(action_for("Enter", nothing, answered), None);
        assert_eq!(action_for("2", nothing, reading), None);
    }

    #[test]
    fn the_answer_box_takes_its_typing_but_not_the_clickers_keys() {
        let keys = Keys {
            present: true,
            choices: 0,
        };
        let typing = Target::NumberBox { empty: false };
        for typed in [
            "1",
            "6",
            ".",
            "r",
            "R",
            "ArrowRight",
            "ArrowLeft",
            "Enter",
            " ",
        ] {
            assert_eq!(action_for(typed, typing, keys), None, "{typed}");
        }
        let empty = Target::NumberBox { empty: true };
        for typed in ["1", "-", "r", "Enter"] {
            assert_eq!(action_for(typed, empty, keys), None, "{typed}");
        }
        for target in [typing, empty] {
            assert_eq!(action_for("PageDown", target, keys), Some(Action::Next));
            assert_eq!(action_for("PageUp", target, keys), Some(Action::Back));
            assert_eq!(
                action_for("Escape", target, keys),
                Some(Action::Present(false))
            );
        }
        // With no caret to move, the presenter's arrows move through the parts.
        assert_eq!(action_for("ArrowLeft", empty, keys), Some(Action::Back));
        assert_eq!(action_for("ArrowRight", empty, keys), Some(Action::Next));
        // Another field (a control's box) keeps every key.
        assert_eq!(
            action_for("PageDown", Target::Other(Focus::Field), keys),
            None
        );
    }
}
