//! The lessons' index in the masthead: every lesson with what it is about and where its
//! experiment comes from. Choosing one opens it at its first part (`?lesson=NAME`).

use tcplab::lesson::LESSONS;
use yew::prelude::*;

use super::Action;
use crate::i18n::Lang;

#[derive(Properties, PartialEq)]
pub struct LessonsProps {
    pub lang: Lang,
    /// The lesson under way.
    pub current: Option<&'static str>,
    pub on_action: Callback<Action>,
}

/// A lesson's line under its summary: its parts, its link's key and where its experiment comes
/// from, all in the page's language.
fn source_line(l: &tcplab::lesson::Lesson, lang: Lang) -> String {
    let parts = l.parts.len();
    let source = l.source.words(lang.language());
    match lang {
        Lang::En => format!("{parts} parts · lesson={} · {source}", l.name),
        Lang::Zh => format!("{parts} 个部分 · lesson={} · {source}", l.name),
    }
}

#[function_component]
pub fn Lessons(props: &LessonsProps) -> Html {
    let (menu, on_key) = crate::menu::use_menu();
    let lang = props.lang;
    let item = |l: &'static tcplab::lesson::Lesson| {
        let current = props.current == Some(l.name);
        let (on_action, menu) = (props.on_action.clone(), menu.clone());
        let onclick = Callback::from(move |_: MouseEvent| {
            crate::menu::close(&menu);
            on_action.emit(Action::Open(l.name));
        });
        html! {
            <li>
                <button type="button" class={classes!("preset", current.then_some("current"))}
                    id={format!("lesson-open-{}", l.name)} data-lesson-name={l.name} {onclick}
                    aria-current={current.then_some("true")}>
                    <span class="preset-name">{ lang.pick(l.title.en, l.title.zh) }</span>
                    <span class="preset-what">{ lang.pick(l.summary.en, l.summary.zh) }</span>
                    <span class="preset-source">{ source_line(l, lang) }</span>
                </button>
            </li>
        }
    };
    html! {
        <details class="presets lessons" id="lessons" ref={menu.clone()} onkeydown={on_key}>
            <summary>{ lang.pick("Lessons", "课程") }</summary>
            <ul class="preset-list" role="list" id="lesson-index">
                { for LESSONS.iter().map(item) }
            </ul>
        </details>
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;

    #[test]
    fn the_index_names_each_lessons_source_in_the_pages_language() {
        let fast = tcplab::lesson::Lesson::find("fast-retransmit").expect("a lesson");
        assert_eq!(
            source_line(fast, Lang::En),
            "5 parts · lesson=fast-retransmit · a staged loss"
        );
        let slow = tcplab::lesson::Lesson::find("slow-start").expect("a lesson");
        assert_eq!(
            source_line(slow, Lang::En),
            "5 parts · lesson=slow-start · the post “Ping is 28 ms: why does a single TCP \
             POST reach only 1.8 MB/s?”"
        );
        for l in LESSONS {
            let zh = source_line(l, Lang::Zh);
            // The link's key is the one run of Latin letters a Chinese line keeps, with a
            // name or two (RFC, Gettys).
            assert!(!zh.contains("staged") && !zh.contains("seed"), "{zh}");
        }
    }
}
