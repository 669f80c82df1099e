//! The page: the state in one reducer ([`Page`]), the controls and presets that change it, the
//! headline and charts that show its run (or the sweep, matrix or comparison on show), and the
//! effects that follow it: the address, the worker's run, the pool's batch, and the document's
//! language and type size.

use std::rc::Rc;

use gloo_events::EventListener;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::banner::Banner;
use crate::cards::Peek;
use crate::charts::{Charts, ViewRef};
use crate::controls::{Change, Controls};
use crate::diagnose::{Captured, Dropped};
use crate::embed::menu::EmbedMenu;
use crate::export::LabExport;
use crate::i18n::Lang;
use crate::lazy::{LazyCompare, LazyDiagnose, LazyMatrix, LazySweep};
use crate::lesson::index::Lessons;
use crate::location;
use crate::model::address::{self, Address};
use crate::model::format;
use crate::model::page::{Action, Page};
use crate::model::plan::PlanKey;
use crate::model::views::View;
use crate::player::PlayerButton;
use crate::presets::Presets;
use crate::stage;
use crate::sweep::tabs::ViewTabs;
use crate::toolbar::{LangSwitch, LargeType, Share};
use crate::worker::client::{PageClients, WORKER_SCRIPT};
use crate::worker::pool::{pool_size, Pool};
use crate::worker::protocol::Want;
use crate::{after, now_ms, prefs};

/// Starts the batch for `key` on the pool, replacing the one running.
fn start_batch(pool: &Pool, key: &PlanKey, dispatcher: &UseReducerDispatcher<Page>) {
    let plan = Rc::new(key.plan());
    let id = pool.run(plan.jobs.clone());
    // Refused runs are never sent: they keep no worker busy.
    let workers = pool.size().min(plan.jobs.len());
    dispatcher.dispatch(Action::Started {
        id,
        key: key.clone(),
        plan,
        now_ms: now_ms(),
        workers,
    });
}

/// How long a batch's settings must stay as they are before it starts.
const BATCH_AFTER_MS: i32 = 150;

fn arrived() -> Address {
    address::parse_search(&location::current_search().unwrap_or_default())
}

/// What the page starts from outside a browser, where its first screen is rendered as the page
/// is built (`src/bin/prerender.rs`): the address, the language and the run, given rather than
/// read from the location, the stored choices and the worker.
#[derive(Clone)]
pub struct Start {
    pub address: Address,
    pub lang: Lang,
    /// The run of the address's scenario, as the worker would send it.
    pub view: Rc<tcplab::view::RunView>,
}

impl PartialEq for Start {
    fn eq(&self, other: &Self) -> bool {
        self.address == other.address
            && self.lang == other.lang
            && Rc::ptr_eq(&self.view, &other.view)
    }
}

#[derive(Properties, PartialEq, Default)]
pub struct AppProps {
    /// `None` in a browser: the page reads where it is and asks the worker for its run.
    #[prop_or_default]
    pub start: Option<Start>,
}

/// The page as it starts: in a browser, from the location and the stored choices; given a
/// [`Start`], from it, with its run on show as the view that came with the page.
fn starting_page(start: Option<&Start>) -> Page {
    let Some(start) = start else {
        return Page::new(arrived(), prefs::default_lang(), prefs::stored_large());
    };
    let page = Page::new(start.address.clone(), start.lang, false);
    let query = page.charts_query().unwrap_or_default();
    let shown = Rc::new(page).reduce(Action::Ran {
        query,
        outcome: crate::worker::Outcome::Shipped(Rc::clone(&start.view)),
    });
    Rc::unwrap_or_clone(shown)
}

#[function_component(App)]
pub fn app(props: &AppProps) -> Html {
    let page = {
        let start = props.start.clone();
        use_reducer(move || starting_page(start.as_ref()))
    };

    // The charts' runs and the player's steps, each from a worker of its own. Given its start,
    // the page asks for nothing: it has its run.
    let clients = {
        let dispatcher = page.dispatcher();
        let first = props.start.is_none().then(|| page.charts_query()).flatten();
        use_memo((), move |_| PageClients::new(dispatcher, first.as_deref()))
    };
    let (client, recorder) = (clients.runs.clone(), clients.steps.clone());
    let pool = {
        let dispatcher = page.dispatcher();
        use_memo((), move |_| {
            Pool::new(
                WORKER_SCRIPT,
                pool_size(),
                Callback::from(move |f| dispatcher.dispatch(Action::Finished(f, now_ms()))),
            )
        })
    };
    {
        // A sweep, a matrix or a comparison runs on the pool once it has been on show, unchanged,
        // for BATCH_AFTER_MS: a slider dragged in the sweep view restarts the batch once, not
        // every frame. One run is the lab's own worker's.
        let pool = pool.clone();
        let dispatcher = page.dispatcher();
        // A view whose runs finished before (Back into a sweep) shows them: nothing starts.
        // A batch still running for other runs is then stopped: its results would not be shown.
        let cached = page.has_finished_batch();
        let key = page.plan_key();
        let other_running = page
            .batch
            .as_ref()
            .is_some_and(|b| b.running() && Some(&b.key) != key.as_ref());
        use_effect_with((key, cached), move |(key, cached)| {
            let timer = match (key.clone(), cached) {
                (Some(_), true) => {
                    if other_running {
                        pool.cancel();
                        dispatcher.dispatch(Action::Cancelled);
                    }
                    None
                }
                (Some(key), false) => after(BATCH_AFTER_MS, move || {
                    start_batch(&pool, &key, &dispatcher)
                }),
                (None, _) => {
                    pool.cancel();
                    None
                }
            };
            move || drop(timer)
        });
    }
    // Drawn: index.html's stand-ins go, the first screen once the page shows its run.
    use_effect_with((), |_| crate::retire(crate::StandIn::Hidden));
    use_effect_with(page.view.is_some() || page.failure.is_some(), |shown| {
        if *shown {
            crate::retire(crate::StandIn::FirstScreen);
        }
    });
    {
        // Back and Forward show the address they land on.
        let dispatcher = page.dispatcher();
        use_effect_with((), move |_| {
            let listener = crate::window().map(|w| {
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
        // The run follows the scenario (the cursor is not part of it); the diagnosis draws a
        // capture over it.
        let client = client.clone();
        use_effect_with(page.charts_query(), move |request| {
            if let Some(query) = request {
                client.request(query, Want::View);
            }
        });
    }
    {
        // The player's steps follow its cursor: a part of the run is asked for once; when it
        // arrives the player stops wanting it.
        let recorder = recorder.clone();
        let lab = page.keys.view == View::Lab;
        let requested = use_mut_ref(|| None::<(String, Want)>);
        let request = lab
            .then(|| {
                page.wants_steps()
                    .map(|w| (page.run_query(), Want::Steps(w)))
            })
            .flatten();
        use_effect_with(request, move |request| match request {
            Some((query, want)) => {
                let mut last = requested.borrow_mut();
                if last.as_ref() != Some(&(query.clone(), want.clone())) {
                    recorder.request(query, want.clone());
                    *last = Some((query.clone(), want.clone()));
                }
            }
            // Nothing wanted (the steps are in, or the player closed): the same part asked
            // for again later, after a failure say, is asked of the worker again.
            None => *requested.borrow_mut() = None,
        });
    }
    {
        let lang = page.lang;
        use_effect_with(lang, move |lang| set_document_lang(*lang));
    }
    {
        // The presenter's mode is large type too.
        let large =
            page.large || (page.lesson.is_some_and(|l| l.present) && page.keys.view == View::Lab);
        use_effect_with(large, move |large| set_large_type(*large));
    }

    // The callbacks are made once (or again when what they run changes), so the components
    // they are given see the same props between renders and are not drawn again for nothing.
    // The page as this render drew it, for the controls' callback, which is made once.
    let drawn = use_mut_ref(|| None::<UseReducerHandle<Page>>);
    *drawn.borrow_mut() = Some(page.clone());
    let on_change = {
        let client = client.clone();
        use_callback(page.dispatcher(), move |c: Change, dispatcher| {
            // The new run is asked for before the page is drawn again, not in the effect after
            // it: the worker's time and the drawing overlap. The effect then asks for the same
            // run, which the client takes as already asked.
            let early = drawn
                .borrow()
                .as_ref()
                .and_then(|p| p.run_query_after_set(c.key, &c.value));
            if let Some(query) = early {
                client.request(&query, Want::View);
            }
            dispatcher.dispatch(Action::Set {
                key: c.key,
                value: c.value,
                entry: c.entry,
            })
        })
    };
    // A reader about to change the scenario: the simulator's worker, which the default page
    // does not start, is on its way before the first change asks for it.
    let on_pointer_intent = {
        let client = client.clone();
        use_callback((), move |_: web_sys::PointerEvent, _| client.warm())
    };
    let on_focus_intent = {
        let client = client.clone();
        use_callback((), move |_: web_sys::FocusEvent, _| client.warm())
    };
    let on_load = use_callback(page.dispatcher(), |s, dispatcher| {
        dispatcher.dispatch(Action::Load(s))
    });
    let on_lang = use_callback(page.dispatcher(), |lang: Lang, dispatcher| {
        prefs::store_lang(lang);
        dispatcher.dispatch(Action::Lang(lang));
    });
    let on_large = use_callback(page.dispatcher(), |large: bool, dispatcher| {
        prefs::store_large(large);
        dispatcher.dispatch(Action::Large(large));
    });
    let on_cursor = use_callback(page.dispatcher(), |t: Option<f64>, dispatcher| {
        dispatcher.dispatch(Action::Hover(t))
    });
    let on_view = use_callback(page.dispatcher(), |v, dispatcher| {
        dispatcher.dispatch(Action::Show(v))
    });
    let on_cancel = {
        // The pool is made once: the callback needs making only once too.
        let pool = pool.clone();
        use_callback(page.dispatcher(), move |(), dispatcher| {
            pool.cancel();
            dispatcher.dispatch(Action::Cancelled);
        })
    };
    let on_rerun = {
        let (dispatcher, pool) = (page.dispatcher(), pool.clone());
        use_callback(page.plan_key(), move |(), key| {
            if let Some(key) = key {
                start_batch(&pool, key, &dispatcher);
            }
        })
    };
    let on_player = use_callback(page.dispatcher(), |a, dispatcher| {
        dispatcher.dispatch(Action::Player(a))
    });
    let on_lesson = use_callback(page.dispatcher(), |a, dispatcher| {
        dispatcher.dispatch(Action::Lesson(a))
    });
    {
        let lesson = page.lesson.filter(|_| page.keys.view == View::Lab);
        let choices = lesson
            .filter(|l| l.pending())
            .and_then(|l| l.part().question)
            .map_or(0, |q| match q.form {
                tcplab::lesson::Form::Choice(c) => c.len(),
                tcplab::lesson::Form::Number { .. } => 0,
            });
        let keys = crate::lesson::keys::Keys {
            present: lesson.is_some_and(|l| l.present),
            choices,
        };
        crate::lesson::keys::use_lesson_keys(lesson.is_some(), keys, on_lesson.clone());
    }
    let on_explain = use_callback(page.dispatcher(), |m, dispatcher| {
        dispatcher.dispatch(Action::Explain(m))
    });
    let on_seek = use_callback(page.dispatcher(), |t: f64, dispatcher| {
        dispatcher.dispatch(Action::Player(crate::player::Action::Seek(t)))
    });
    let on_dismiss = use_callback(page.dispatcher(), |(), dispatcher| {
        dispatcher.dispatch(Action::DismissBanner)
    });
    let on_sweep = use_callback(page.dispatcher(), |s, dispatcher| {
        dispatcher.dispatch(Action::Sweep(s))
    });
    let on_matrix = use_callback(page.dispatcher(), |m, dispatcher| {
        dispatcher.dispatch(Action::Matrix(m))
    });
    let on_others = use_callback(page.dispatcher(), |(others, slot), dispatcher| {
        dispatcher.dispatch(Action::Others(others, slot))
    });
    let on_slot = use_callback(page.dispatcher(), |slot, dispatcher| {
        dispatcher.dispatch(Action::Slot(slot))
    });
    let on_compare = use_callback(page.dispatcher(), |(), dispatcher| {
        dispatcher.dispatch(Action::CompareQueues)
    });
    // The capture on show in the diagnosis, kept while other views are looked at.
    let capture = use_state(|| None::<Rc<Captured>>);
    // A file dropped outside the page's drop zones is a capture for the diagnosis: without this
    // the browser would open it in place of the page, and the reader's lab would be gone.
    let dropped = use_state(|| None::<Dropped>);
    {
        let (dropped, dispatcher) = (dropped.clone(), page.dispatcher());
        use_effect_with((), move |_| {
            let listeners = crate::window().map(|w| {
                let options = gloo_events::EventListenerOptions::enable_prevent_default();
                let over = EventListener::new_with_options(&w, "dragover", options, |e| {
                    if carries_files(e) {
                        e.prevent_default();
                    }
                });
                // Each drop is told from the one before, even of the same file: the listener
                // outlives the render it was made in, so it counts its own drops.
                let drops = std::cell::Cell::new(0u32);
                let drop = EventListener::new_with_options(&w, "drop", options, move |e| {
                    // A drop zone of the page's took it already.
                    if e.default_prevented() || !carries_files(e) {
                        return;
                    }
                    e.prevent_default();
                    let file = e
                        .dyn_ref::<web_sys::DragEvent>()
                        .and_then(|d| d.data_transfer())
                        .and_then(|d| d.files())
                        .and_then(|l| l.get(0));
                    if let Some(file) = file {
                        let serial = drops.get().wrapping_add(1);
                        drops.set(serial);
                        dropped.set(Some(Dropped { serial, file }));
                        dispatcher.dispatch(Action::Show(View::Diagnose));
                    }
                });
                (over, drop)
            });
            move || drop(listeners)
        });
    }
    let on_taken = {
        let dropped = dropped.clone();
        Callback::from(move |()| dropped.set(None))
    };
    let on_capture = {
        let capture = capture.clone();
        Callback::from(move |c: Option<Rc<Captured>>| capture.set(c))
    };

    // The folded controls' panel on a narrow screen; a refused value opens it, to be seen.
    let settings_open = use_state_eq(|| false);
    {
        let settings_open = settings_open.clone();
        use_effect_with(page.field_error.is_some(), move |refused| {
            if *refused {
                settings_open.set(true);
            }
        });
    }
    let toggle_settings = {
        let settings_open = settings_open.clone();
        Callback::from(move |_: MouseEvent| settings_open.set(!*settings_open))
    };
    let lang = page.lang;
    let presenting = page.lesson.is_some_and(|l| l.present) && page.keys.view == View::Lab;
    // A question waiting for its answer: what would give it away (the run's cards, the charts
    // past the cursor) stays hidden until it is revealed.
    let veiled = page.lesson_pending();
    let running = page.running();
    crate::tip::use_escape_hides_tips();
    // The skip link moves the focus itself: a `#results` in the address would be one more
    // change of the page's history for the reader's Back to undo.
    let skip_to_results = Callback::from(|e: MouseEvent| {
        e.prevent_default();
        let main = crate::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id("results"))
            .and_then(|m| m.dyn_into::<web_sys::HtmlElement>().ok());
        if let Some(main) = main {
            let _ = main.focus();
        }
    });
    html! {
        <div class={classes!("page", presenting.then_some("presenting"))}>
            <a class="skip-link" id="skip-link" href="#results" onclick={skip_to_results}>
                { lang.pick("Skip to the results", "跳到结果") }
            </a>
            <header class="masthead">
                <h1>{ "tcplab" }</h1>
                <p class="tagline">{ lang.pick("TCP throughput lab", "TCP 吞吐量实验室") }</p>
                <nav class="tools" aria-label={lang.pick("Tools", "工具")}>
                    <Lessons {lang} current={page.lesson.map(|l| l.lesson.name)} on_action={on_lesson.clone()} />
                    <Presets {lang} current={page.scenario.preset} on_load={on_load.clone()} />
                    <Share {lang} search={page.search()} />
                    <EmbedMenu {lang} search={page.search()}
                        charts={page.view.clone().filter(|v| v.query == page.run_query())
                            .map(|v| crate::charts::kinds(v, lang)).unwrap_or_default()}
                        controls={crate::embed::default_controls(&page.scenario)} />
                    <LangSwitch {lang} {on_lang} />
                    <LargeType {lang} large={page.large} {on_large} />
                </nav>
            </header>
            if !page.banner.is_empty() {
                <Banner bad={page.banner.clone()} {lang} {on_dismiss} />
            }
            <div class="layout">
                <aside class={classes!("sidebar", (*settings_open).then_some("open"))} id="settings"
                    onpointerover={on_pointer_intent} onfocusin={on_focus_intent}>
                    // On a narrow screen the results come first and the controls fold into
                    // this panel; on a wide one the button is hidden and they always show.
                    <button type="button" class="settings-toggle" id="settings-toggle"
                        aria-expanded={settings_open.to_string()} aria-controls="controls"
                        onclick={toggle_settings}>
                        { if *settings_open {
                            lang.pick("Scenario settings ▴", "场景设置 ▴")
                        } else {
                            lang.pick("Scenario settings ▾", "场景设置 ▾")
                        } }
                    </button>
                    <Controls scenario={page.edited().clone()} {lang}
                        error={page.field_error.clone()} {on_change} />
                    if page.keys.view == View::Lab && !page.lesson_pending() {
                        <Peek view={page.view.clone().map(ViewRef)} {lang} {running} />
                    }
                </aside>
                <main class="results" id="results" tabindex="-1" aria-busy={running.to_string()} data-view={page.keys.view.name()}>
                    <div class="view-bar">
                        <ViewTabs {lang} view={page.keys.view} {on_view} />
                        if page.keys.view == View::Lab {
                            if !page.player.open {
                                <PlayerButton {lang} on_action={on_player.clone()} />
                            }
                            if let Some(view) = &page.view {
                                <LabExport {lang} view={ViewRef(Rc::clone(view))} />
                            }
                        }
                    </div>
                    { match page.keys.view {
                        View::Lab => html! {
                            <>
                                // The lesson, the player and the run's headline: one column
                                // beside the charts in the presenter's mode on a wide screen,
                                // so that a room sees the question and the run at once.
                                <div class="stage">
                                    { stage::lesson_and_player(&page, lang, &on_lesson, &on_player) }
                                    { stage::headline(&page, lang, on_compare) }
                                    <Status view={page.view.clone().map(ViewRef)} shipped={page.view_shipped} {lang} {running} workers={client.workers_started()} {veiled} />
                                </div>
                                if let Some(view) = &page.view {
                                    <Charts view={ViewRef(Rc::clone(view))} {lang} cursor_ms={page.cursor_ms()}
                                        until_ms={page.player_ms()} cursor_step={page.cursor_step()} {on_cursor}
                                        on_seek={page.player.open.then(|| on_seek.clone())}
                                        follow_ms={page.follow_ms()} {veiled} horizon_ms={page.horizon_ms()} />
                                } else {
                                    <div class="charts" aria-hidden="true"></div>
                                }
                            </>
                        },
                        View::Sweep => html! {
                            <LazySweep {lang} base={page.scenario.clone()} spec={page.keys.sweep.clone()}
                                batch={page.current_batch().cloned()} live={pool.live()}
                                on_spec={on_sweep} {on_cancel} {on_rerun} />
                        },
                        View::Matrix => html! {
                            <LazyMatrix {lang} base={page.scenario.clone()} spec={page.keys.matrix.clone()}
                                batch={page.current_batch().cloned()} live={pool.live()}
                                on_spec={on_matrix} {on_cancel} {on_rerun} />
                        },
                        View::Diagnose => html! {
                            <LazyDiagnose {lang} scenario={page.scenario.clone()}
                                view={page.view.clone()} capture={(*capture).clone()}
                                on_capture={on_capture.clone()} on_load={on_load.clone()}
                                dropped={(*dropped).clone()} {on_taken}
                                asked={page.keys.explain} on_ask={on_explain.clone()} />
                        },
                        View::Compare => html! {
                            <LazyCompare {lang} scenarios={page.compared()} slot={page.slot}
                                batch={page.current_batch().cloned()} live={pool.live()}
                                {on_others} {on_slot} {on_cancel} {on_rerun} />
                        },
                    } }
                </main>
            </div>
        </div>
    }
}

/// Whether a drag carries files (text or a link dragged over the page is left to the browser).
fn carries_files(e: &web_sys::Event) -> bool {
    e.dyn_ref::<web_sys::DragEvent>()
        .and_then(|d| d.data_transfer())
        .is_some_and(|d| d.types().includes(&"Files".into(), 0))
}

#[derive(Properties, PartialEq)]
struct StatusProps {
    view: Option<ViewRef>,
    /// The view came with the page: run when it was built, so there is no time of its own.
    shipped: bool,
    lang: Lang,
    running: bool,
    workers: u32,
    /// A lesson's question waits for its answer: the run's length in simulated time is not
    /// said, since it gives away how many round trips the transfer takes.
    veiled: bool,
}

/// One line under the cards: the simulation's size and time, or that a run is going.
#[function_component]
fn Status(props: &StatusProps) -> Html {
    let lang = props.lang;
    let done = props.view.as_ref().map(|v| {
        let s = &v.summary;
        match (lang, props.shipped) {
            _ if props.veiled => match lang {
                Lang::En => format!("{} events simulated", format::count(s.events)),
                Lang::Zh => format!("模拟了 {} 个事件", format::count(s.events)),
            },
            (Lang::En, true) => format!(
                "{} events, simulated when this page was built ({} of simulated time)",
                format::count(s.events),
                format::duration(v.end_ms)
            ),
            (Lang::Zh, true) => format!(
                "模拟了 {} 个事件，在构建本页面时运行（模拟时间 {}）",
                format::count(s.events),
                format::duration(v.end_ms)
            ),
            (Lang::En, false) => format!(
                "{} events simulated in {} ({} of simulated time)",
                format::count(s.events),
                format::duration(s.sim_wall_ms),
                format::duration(v.end_ms)
            ),
            (Lang::Zh, false) => format!(
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
    let Some(doc) = crate::window().and_then(|w| w.document()) else {
        return;
    };
    if let Some(root) = doc.document_element() {
        let _ = root.set_attribute("lang", lang.html_lang());
    }
    doc.set_title(lang.pick("tcplab · TCP throughput lab", "tcplab · TCP 吞吐量实验室"));
}

fn set_large_type(large: bool) {
    let Some(root) = crate::window()
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
