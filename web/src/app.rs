//! The page: one control (IW), its readout, and the slow-start chart.

use crate::chart::{self, SlowStart};
use crate::format;
use crate::location::{self, Entry};
use gloo_events::EventListener;
use tcplab::Scenario;
use web_sys::{HtmlCanvasElement, HtmlInputElement};
use yew::prelude::*;

/// The scenario on show, and why the last attempt to change it was refused, if it was.
#[derive(Debug, Clone, PartialEq)]
struct PageState {
    scenario: Scenario,
    error: Option<String>,
}

impl PageState {
    fn from_url() -> Self {
        match location::read() {
            Ok(scenario) => PageState {
                scenario,
                error: None,
            },
            Err(e) => PageState {
                scenario: Scenario::default(),
                error: Some(format!(
                    "This link's scenario is not valid ({e}); showing the defaults."
                )),
            },
        }
    }
}

/// Reads an IW typed or slid by the user through the core's parser, so the page refuses
/// exactly what a link or the command line would, with the same message.
fn parse_iw(raw: &str) -> Result<u32, String> {
    Scenario::parse(&format!("iw={}", raw.trim()))
        .map(|s| s.iw)
        .map_err(|e| e.to_string())
}

#[function_component(App)]
pub fn app() -> Html {
    let state = use_state(PageState::from_url);
    let chart_error = use_state_eq(|| None::<String>);
    let canvas = use_node_ref();
    // A drag is one step in the history: its first move pushes, the rest refine that entry.
    let dragging = use_mut_ref(|| false);
    let shown = SlowStart::of(&state.scenario);
    let latest = use_mut_ref(|| shown);
    *latest.borrow_mut() = shown;

    {
        // Back and forward restore the scenario of the address they land on.
        let setter = state.setter();
        use_effect_with((), move |_| {
            let listener = web_sys::window().map(|w| {
                EventListener::new(&w, "popstate", move |_| setter.set(PageState::from_url()))
            });
            move || drop(listener)
        });
    }
    {
        // The canvas is drawn at device pixels, so a new layout width needs a new drawing.
        let canvas = canvas.clone();
        let latest = latest.clone();
        let chart_error = chart_error.setter();
        use_effect_with((), move |_| {
            let listener = web_sys::window().map(|w| {
                EventListener::new(&w, "resize", move |_| {
                    if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                        chart_error.set(chart::draw(&c, &latest.borrow()).err());
                    }
                })
            });
            move || drop(listener)
        });
    }
    {
        let canvas = canvas.clone();
        let chart_error = chart_error.setter();
        use_effect_with(shown, move |shown| {
            if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                chart_error.set(chart::draw(&c, shown).err());
            }
        });
    }

    let set_iw = {
        let state = state.clone();
        move |raw: String, entry: Entry| match parse_iw(&raw) {
            Ok(iw) => {
                let mut scenario = state.scenario.clone();
                scenario.iw = iw;
                let error = location::write(&scenario, entry)
                    .err()
                    .map(|e| format!("The address bar could not be updated: {e}"));
                state.set(PageState { scenario, error });
            }
            Err(e) => state.set(PageState {
                scenario: state.scenario.clone(),
                error: Some(e),
            }),
        }
    };
    let on_slide = {
        let set_iw = set_iw.clone();
        let dragging = dragging.clone();
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let entry = if dragging.replace(true) {
                Entry::Replace
            } else {
                Entry::Push
            };
            set_iw(input.value(), entry);
        })
    };
    let on_slide_end = {
        let dragging = dragging.clone();
        Callback::from(move |_: Event| {
            dragging.replace(false);
        })
    };
    let on_type = Callback::from(move |e: Event| {
        let input: HtmlInputElement = e.target_unchecked_into();
        set_iw(input.value(), Entry::Push);
    });

    let iw = state.scenario.iw;
    let body_segments = shown.body_segments();
    let rounds = shown.rounds_for_body();
    let rtt = state.scenario.rtt_ms;
    let readout = format!(
        "IW {iw}: the {} body ({} segments of {} B) is sent after {rounds} round trips, {} at RTT {}.",
        format::bytes(shown.body),
        format::count(body_segments),
        shown.mss,
        format::millis(f64::from(rounds) * rtt),
        format::millis(rtt),
    );

    html! {
        <div class="page">
            <header class="masthead">
                <h1>{ "tcplab" }</h1>
                <p class="tagline">{ "TCP throughput lab" }</p>
            </header>
            if let Some(message) = &state.error {
                <p class="banner" role="alert" id="banner">{ message }</p>
            }
            <main>
                <section class="panel" aria-labelledby="slow-start-title">
                    <header class="panel-head">
                        <h2 id="slow-start-title">{ "Slow start" }</h2>
                        <p class="formula">
                            { "segments sent after k round trips = IW × (2" }<sup>{ "k" }</sup>{ " − 1)" }
                            <span class="cite">{ "RFC 5681 · RFC 6928" }</span>
                        </p>
                    </header>
                    <div class="control">
                        <label for="iw">{ "Initial window " }<abbr title="initial congestion window">{ "IW" }</abbr></label>
                        <input type="range" id="iw" name="iw" min="1" max="1000" step="1"
                            value={iw.to_string()}
                            oninput={on_slide} onchange={on_slide_end}
                            aria-describedby="iw-readout" />
                        <input type="number" id="iw-number" class="numbox" min="1" max="1000" step="1"
                            value={iw.to_string()} onchange={on_type}
                            aria-label="Initial window in segments" />
                        <span class="unit">{ "segments" }</span>
                    </div>
                    <output id="iw-readout" for="iw" class="readout">{ readout }</output>
                    <figure class="chart">
                        <canvas ref={canvas} id="slow-start-chart" role="img"
                            aria-label={format!("Segments sent after each round trip of ideal slow start from IW {iw}")} />
                        if let Some(message) = &*chart_error {
                            <p class="chart-error" role="alert">{ message }</p>
                        }
                        <figcaption>
                            { "Ideal slow start: no loss, no receive-window or link limit, the window doubling every round trip. The grey curve is IW 10 for comparison; the dashed line across is the scenario's body, and the one down marks the round trip that sends its last segment." }
                        </figcaption>
                    </figure>
                </section>
            </main>
        </div>
    }
}
