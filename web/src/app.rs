//! The page: the state in one reducer ([`Page`]), the controls and presets that change it, the
//! headline and charts that show its run, and three effects that follow it: the address, the
//! worker's run, and the document's language and type size.

use std::rc::Rc;

use gloo_events::EventListener;
use yew::prelude::*;

use crate::banner::Banner;
use crate::cards::Headline;
use crate::charts::Charts;
use crate::controls::{Change, Controls};
use crate::i18n::Lang;
use crate::location;
use crate::presets::Presets;
use crate::state::{Action, Page};
use crate::toolbar::{LangSwitch, LargeType, Share};
use crate::worker::client::WORKER_SCRIPT;
use crate::worker::Client;
use crate::{format, prefs};

fn arrived() -> location::Address {
    location::parse_search(&location::current_search().unwrap_or_default())
}

#[function_component(App)]
pub fn app() -> Html {
    let page = use_reducer(|| Page::new(arrived(), prefs::default_lang(), prefs::stored_large()));

    let client = {
        let dispatcher = page.dispatcher();
        use_memo((), move |_| {
            Client::new(
                WORKER_SCRIPT,
                Callback::from(move |(query, outcome)| {
                    dispatcher.dispatch(Action::Ran { query, outcome })
                }),
            )
        })
    };
    {
        // Back and Forward show the address they land on.
        let dispatcher = page.dispatcher();
        use_effect_with((), move |_| {
            let listener = web_sys::window().map(|w| {
                EventListener::new(&w, "popstate", move |_| {
                    dispatcher.dispatch(Action::Arrive(arrived()))
                })
            });
            move || drop(listener)
        });
    }
    {
        // The address follows every change.
        let page = page.clone();
        let writer = use_memo((), |_| location::Writer::default());
        use_effect_with(page.revision, move |_| match page.entry {
            Some(entry) => {
                if let Err(e) = writer.write(&page.search(), entry) {
                    web_sys::console::warn_1(&format!("the address was not updated: {e}").into());
                }
            }
            None => writer.cancel(),
        });
    }
    {
        // The run follows the scenario (the cursor is not part of it).
        let client = client.clone();
        use_effect_with(page.run_query(), move |query| client.request(query));
    }
    {
        let lang = page.lang;
        use_effect_with(lang, move |lang| set_document_lang(*lang));
    }
    {
        use_effect_with(page.large, move |large| set_large_type(*large));
    }

    let on_change = {
        let dispatcher = page.dispatcher();
        Callback::from(move |c: Change| {
            dispatcher.dispatch(Action::Set {
                key: c.key,
                value: c.value,
                entry: c.entry,
            })
        })
    };
    let on_load = {
        let dispatcher = page.dispatcher();
        Callback::from(move |s| dispatcher.dispatch(Action::Load(s)))
    };
    let on_lang = {
        let dispatcher = page.dispatcher();
        Callback::from(move |lang: Lang| {
            prefs::store_lang(lang);
            dispatcher.dispatch(Action::Lang(lang));
        })
    };
    let on_large = {
        let dispatcher = page.dispatcher();
        Callback::from(move |large: bool| {
            prefs::store_large(large);
            dispatcher.dispatch(Action::Large(large));
        })
    };
    let on_cursor = {
        let dispatcher = page.dispatcher();
        Callback::from(move |t: Option<f64>| dispatcher.dispatch(Action::Hover(t)))
    };
    let on_dismiss = {
        let dispatcher = page.dispatcher();
        Callback::from(move |()| dispatcher.dispatch(Action::DismissBanner))
    };

    let lang = page.lang;
    let running = page.running();
    let failure = page.current_failure().map(str::to_string);
    html! {
        <div class="page">
            <header class="masthead">
                <h1>{ "tcplab" }</h1>
                <p class="tagline">{ lang.pick("TCP throughput lab", "TCP 吞吐量实验室") }</p>
                <nav class="tools" aria-label={lang.pick("Tools", "工具")}>
                    <Presets {lang} current={page.scenario.preset} {on_load} />
                    <Share {lang} search={page.search()} />
                    <LangSwitch {lang} {on_lang} />
                    <LargeType {lang} large={page.large} {on_large} />
                </nav>
            </header>
            if let Some(bad) = &page.banner {
                <Banner bad={bad.clone()} kept_previous={page.banner_kept_previous} {lang} {on_dismiss} />
            }
            <div class="layout">
                <aside class="sidebar">
                    <Controls scenario={page.scenario.clone()} {lang}
                        error={page.field_error.clone()} {on_change} />
                </aside>
                <main class="results" aria-busy={running.to_string()}>
                    <Headline view={page.view.clone()} {lang} {running} {failure}
                        app={page.scenario.app} />
                    <Status view={page.view.clone()} {lang} {running} workers={client.workers_started()} />
                    if let Some(view) = &page.view {
                        <Charts view={Rc::clone(view)} {lang} cursor_ms={page.cursor_ms()} {on_cursor} />
                    } else {
                        <div class="charts" aria-hidden="true"></div>
                    }
                </main>
            </div>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct StatusProps {
    view: Option<Rc<tcplab::view::RunView>>,
    lang: Lang,
    running: bool,
    workers: u32,
}

/// One line under the cards: the simulation's size and time, or that a run is going.
#[function_component]
fn Status(props: &StatusProps) -> Html {
    let lang = props.lang;
    let done = props.view.as_ref().map(|v| {
        let s = &v.summary;
        match lang {
            Lang::En => format!(
                "{} events simulated in {} ({} of simulated time)",
                format::count(s.events),
                format::duration(s.sim_wall_ms),
                format::duration(v.end_ms)
            ),
            Lang::Zh => format!(
                "模拟了 {} 个事件，用时 {}（模拟时间 {}）",
                format::count(s.events),
                format::duration(s.sim_wall_ms),
                format::duration(v.end_ms)
            ),
        }
    });
    html! {
        <p class="status" id="status" aria-live="polite" data-workers={props.workers.to_string()}>
            if props.running {
                <span class="busy">{ lang.pick("Simulating…", "模拟中…") }</span>
            }
            { done.unwrap_or_default() }
        </p>
    }
}

fn set_document_lang(lang: Lang) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    if let Some(root) = doc.document_element() {
        let _ = root.set_attribute("lang", lang.html_lang());
    }
    doc.set_title(lang.pick("tcplab · TCP throughput lab", "tcplab · TCP 吞吐量实验室"));
}

fn set_large_type(large: bool) {
    let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    else {
        return;
    };
    let classes = root.class_list();
    let _ = if large {
        classes.add_1("large")
    } else {
        classes.remove_1("large")
    };
}
