//! The run on show as the lab and an embed both present it: a lesson's part, the player, and
//! the headline, or in its place the veil while a lesson's question waits for its answer.

use yew::prelude::*;

use crate::cards::Headline;
use crate::charts::ViewRef;
use crate::i18n::Lang;
use crate::lazy::{LazyLessonPanel, LazyPlayer};
use crate::model::page::Page;
use crate::player::StepsRef;

/// The lesson's part (if a lesson is under way) and the player (if it is open).
pub fn lesson_and_player(
    page: &Page,
    lang: Lang,
    on_lesson: &Callback<crate::lesson::Action>,
    on_player: &Callback<crate::player::Action>,
) -> Html {
    let query = page.run_query();
    let steps = page.steps().cloned().map(StepsRef);
    html! {
        <>
            if let Some(state) = page.lesson {
                <LazyLessonPanel {state} scenario={page.scenario.clone()} steps={steps.clone()}
                    view={page.view.clone().filter(|v| v.query == query).map(ViewRef)}
                    {lang} on_action={on_lesson.clone()} />
            }
            if page.player.open {
                <LazyPlayer state={page.player.clone()} {steps}
                    index={page.step_index()} time_ms={page.player_ms()}
                    end_ms={page.shown_end_ms()} horizon_ms={page.horizon_ms()}
                    rtt_ms={page.scenario.rtt_ms}
                    queue_limit={page.scenario.queue} flows={page.flows()}
                    trouble={page.steps_trouble()}
                    failed={page.current_failure().is_some()} {lang} on_action={on_player.clone()} />
            }
        </>
    }
}

/// The run's headline, or, while a lesson's question waits, a note that it is hidden: the
/// cards would give the answer away.
pub fn headline(page: &Page, lang: Lang, on_compare: Callback<()>) -> Html {
    if page.lesson_pending() {
        return html! {
            <p class="veiled-cards" id="cards-veiled">
                { lang.pick("The run's results are hidden until the lesson's questions on this run are answered.",
                    "本课关于这次运行的问题回答之前，运行结果暂不显示。") }
            </p>
        };
    }
    html! {
        <Headline view={page.view.clone().map(ViewRef)} {lang} running={page.running()}
            failure={page.current_failure().map(str::to_string)}
            app={page.scenario.app} {on_compare} />
    }
}
