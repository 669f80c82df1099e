//! A file the reader chooses or drops: the three handlers a file input and its drop zone need,
//! each giving the file on to one callback (a capture to analyse, a link's trace).

use yew::prelude::*;

/// What a file input, its drop zone and the zone's drag-over need: the input's `change`, the
/// zone's `drop` (the first file of either), and a drag-over that lets the drop happen.
pub struct FileHandlers {
    pub on_input: Callback<Event>,
    pub on_drop: Callback<DragEvent>,
    pub on_drag_over: Callback<DragEvent>,
}

pub fn handlers(on_file: Callback<web_sys::File>) -> FileHandlers {
    let on_input = {
        let on_file = on_file.clone();
        Callback::from(move |e: Event| {
            let input: Option<web_sys::HtmlInputElement> = e.target_dyn_into();
            if let Some(f) = input.and_then(|i| i.files()).and_then(|l| l.get(0)) {
                on_file.emit(f);
            }
        })
    };
    let on_drop = Callback::from(move |e: DragEvent| {
        e.prevent_default();
        if let Some(f) = e
            .data_transfer()
            .and_then(|d| d.files())
            .and_then(|l| l.get(0))
        {
            on_file.emit(f);
        }
    });
    FileHandlers {
        on_input,
        on_drop,
        on_drag_over: Callback::from(|e: DragEvent| e.prevent_default()),
    }
}
