//! The embed's page: the headline card, the named controls and charts, the caption and the
//! link to the whole lab, over the same reducer as the lab ([`Page`]) but with only what it
//! shows: one worker for its runs, a second for the player's steps only once the player opens
//! (a link with `at=` or `lesson=`), no pool, and no address written (an iframe's history is
//! its host page's: a slider moved in the frame must not add to the host's Back).

use std::rc::Rc;

use yew::prelude::*;

use super::Spec;
use crate::banner::Banner;
use crate::charts::Charts;
use crate::charts::ViewRef;
use crate::controls::{Change, Controls};
use crate::location;
use crate::model::address;
use crate::model::page::{Action, Page};
use crate::prefs;
use crate::worker::client::PageClients;
use crate::worker::protocol::Want;

/// The page's path, where the whole lab is served.
fn lab_path() -> String {
    crate::window()
        .and_then(|w| w.location().pathname().ok())
        .unwrap_or_else(|| "/".to_string())
}

/// Opens the whole lab at `search` in a new tab: the reader leaves the host page's article
/// where it was.
fn open_lab(search: &str) {
    if let Some(w) = crate::window() {
        let _ = w.open_with_url_and_target(&format!("{}{search}", lab_path()), "_blank");
    }
}

#[function_component]
pub fn Embed() -> Html {
    // Drawn: index.html's stand-in goes.
    use_effect_with((), |_| {
        crate::retire(crate::StandIn::Hidden);
        crate::retire(crate::StandIn::FirstScreen);
    });
    let search = location::current_search().unwrap_or_default();
    let spec = {
        let search = search.clone();
        (*use_memo((), move |_| Spec::read(&address::split_page(&search).1).0)).clone()
    };
    let page =
        use_reducer(|| Page::new(address::parse_search(&search), prefs::default_lang(), false));
    // The charts' runs and the player's steps, each from a worker of its own.
    let clients = {
        let dispatcher = page.dispatcher();
        let first = page.run_query();
        use_memo((), move |_| PageClients::new(dispatcher, Some(&first)))
    };
    let (client, recorder) = (clients.runs.clone(), clients.steps.clone());
    {
        let client = client.clone();
        use_effect_with(page.run_query(), move |query| {
            client.request(query, Want::View);
        });
    }
    {
        let recorder = recorder.clone();
        let request = page
            .wants_steps()
            .map(|w| (page.run_query(), Want::Steps(w)));
        use_effect_with(request, move |request| {
            if let Some((query, want)) = request {
                recorder.request(query, want.clone());
            }
        });
    }
    {
        let lang = page.lang;
        use_effect_with(lang, move |lang| {
            if let Some(root) = crate::window()
                .and_then(|w| w.document())
                .and_then(|d| d.document_element())
            {
                let _ = root.set_attribute("lang", lang.html_lang());
                let _ = root.class_list().add_1("embedded");
            }
        });
    }
    let on_change = use_callback(page.dispatcher(), |c: Change, dispatcher| {
        dispatcher.dispatch(Action::Set {
            key: c.key,
            value: c.value,
            entry: c.entry,
        })
    });
    let on_cursor = use_callback(page.dispatcher(), |t: Option<f64>, dispatcher| {
        dispatcher.dispatch(Action::Hover(t))
    });
    let on_player = use_callback(page.dispatcher(), |a, dispatcher| {
        dispatcher.dispatch(Action::Player(a))
    });
    let on_seek = use_callback(page.dispatcher(), |t: f64, dispatcher| {
        dispatcher.dispatch(Action::Player(crate::player::Action::Seek(t)))
    });
    let on_lesson = use_callback(page.dispatcher(), |a, dispatcher| {
        dispatcher.dispatch(Action::Lesson(a))
    });
    {
        let lesson = page.lesson;
        let keys = crate::lesson::keys::Keys {
            present: false,
            choices: 0,
        };
        crate::lesson::keys::use_lesson_keys(lesson.is_some(), keys, on_lesson.clone());
    }
    let dismissed = use_state_eq(|| false);
    let on_dismiss = {
        let dismissed = dismissed.clone();
        Callback::from(move |()| dismissed.set(true))
    };
    let on_compare = {
        let page = page.clone();
        Callback::from(move |()| open_lab(&(*page).clone().apply(Action::CompareQueues).search()))
    };
    let lang = page.lang;
    let running = page.running();
    let veiled = page.lesson_pending();
    let bad = page.banner.clone();
    let open_href = format!("{}{}", lab_path(), page.search());
    html! {
        <div class="embed" data-embed="1" data-charts={spec.charts.join(",")}
            aria-busy={running.to_string()}>
            if !bad.is_empty() && !*dismissed {
                <Banner {bad} {lang} {on_dismiss} />
            }
            { crate::stage::lesson_and_player(&page, lang, &on_lesson, &on_player) }
            { crate::stage::headline(&page, lang, on_compare) }
            // The author's caption before the controls it usually speaks of ("drag the RTT"):
            // in a phone's frame, two charts below they were out of sight.
            if let Some(note) = &spec.note {
                <p class="embed-note" id="embed-note">{ note.clone() }</p>
            }
            if !spec.controls.is_empty() {
                <Controls scenario={page.scenario.clone()} {lang} error={page.field_error.clone()}
                    {on_change} only={spec.controls.clone()} />
            }
            if let Some(view) = &page.view {
                <Charts view={ViewRef(Rc::clone(view))} {lang} cursor_ms={page.cursor_ms()}
                    until_ms={page.player_ms()} cursor_step={page.cursor_step()} {on_cursor}
                    on_seek={page.player.open.then(|| on_seek.clone())}
                    follow_ms={page.follow_ms()} {veiled} horizon_ms={page.horizon_ms()}
                    only={spec.charts.clone()} />
            } else {
                <div class="charts" aria-hidden="true"></div>
            }
            <p class="embed-foot">
                <a id="embed-open" href={open_href} target="_blank" rel="noopener">
                    { lang.pick("Open in the lab ↗", "在实验室中打开 ↗") }
                </a>
                <span class="embed-brand">{ lang.pick("tcplab · TCP throughput lab", "tcplab · TCP 吞吐量实验室") }</span>
            </p>
        </div>
    }
}

/// Whether the page at `search` is an embed.
pub fn is_embed(search: &str) -> bool {
    super::requested(&address::split_page(search).1)
}
