//! The view switch: one run, a sweep, a matrix, a comparison.

use yew::prelude::*;

use crate::i18n::Lang;
use crate::model::views::View;

#[derive(Properties, PartialEq)]
pub struct TabsProps {
    pub lang: Lang,
    pub view: View,
    pub on_view: Callback<View>,
}

#[function_component]
pub fn ViewTabs(props: &TabsProps) -> Html {
    let lang = props.lang;
    html! {
        <nav class="view-tabs" role="tablist" aria-label={lang.pick("Views", "视图")}>
            { for View::ALL.iter().map(|&v| {
                let on_view = props.on_view.clone();
                html! {
                    <button type="button" role="tab" id={format!("view-{}", v.name())}
                        aria-selected={(v == props.view).to_string()}
                        onclick={Callback::from(move |_: MouseEvent| on_view.emit(v))}>
                        { v.label(lang) }
                    </button>
                }
            }) }
        </nav>
    }
}
