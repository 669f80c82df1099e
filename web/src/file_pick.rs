//! A file the reader chooses or drops: the three handlers a file input and its drop zone need,
//! each giving the file on to one callback (a capture to analyse, a link's trace).

use tcplab::capture::said::Said;
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

#[derive(Properties, PartialEq)]
pub struct PickerProps {
    /// The input's id: the page's labels and the tests reach it by it.
    pub id: AttrValue,
    /// The kinds of file offered first (the input's `accept`).
    pub accept: AttrValue,
    pub lang: crate::i18n::Lang,
    /// The input's `change` (see [`handlers`]).
    pub on_change: Callback<Event>,
    /// The input's name for a screen reader, where no label of the page names it.
    #[prop_or_default]
    pub name: Option<AttrValue>,
    /// The element that says what became of the file (`aria-describedby`).
    #[prop_or_default]
    pub described_by: Option<AttrValue>,
}

/// A file input in the page's language. The browser's own button and its "no file chosen"
/// speak the browser's language, which a Chinese page on an English browser showed in English;
/// here the input stays (keyboard, screen readers and the tests reach it), visually hidden,
/// and a label of the page's is its button. What became of the file is said beside the picker
/// by its owner, a dropped file's as a chosen one's.
#[function_component(FilePicker)]
pub fn file_picker(props: &PickerProps) -> Html {
    html! {
        <span class="file-picker">
            <input type="file" class="file-input" id={props.id.clone()}
                accept={props.accept.clone()} aria-label={props.name.clone()}
                aria-describedby={props.described_by.clone()}
                onchange={props.on_change.clone()} />
            <label for={props.id.clone()} class="file-button">
                { props.lang.pick("Choose a file…", "选择文件…") }
            </label>
        </span>
    }
}

/// A file larger than the page reads: its name, its size, the page's limit and the command that
/// reads it, in both languages.
pub fn too_large(name: &str, size: f64, most: f64, command: &str) -> Said {
    let (size, most) = (
        crate::model::format::bytes(size as u64),
        crate::model::format::bytes(most as u64),
    );
    Said::new(
        format!("{name}: {size} is larger than the page reads ({most}); `{command}` reads it"),
        format!("{name}：{size} 超过了页面能读取的大小（{most}）；`{command}` 可以读取它"),
    )
}
