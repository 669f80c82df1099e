//! The run's charts on one shared time axis, with a hover cursor and its readout.
//!
//! Each chart is a [`plot::Figure`]: what it draws from the [`RunView`] and what its cursor
//! reads. [`plot::Plot`] puts one on the page as two stacked canvases, the chart drawn when the
//! run, the language or the layout changes, and a cursor layer over it repainted when the
//! cursor moves, so hovering never redraws the data.
//!
//! The charts of many runs (a sweep's, a matrix's, a comparison's) are drawn on a plain
//! [`canvas::Canvas`] instead, most of them in [`xy`]'s value-against-value frame.

pub mod axis;
pub mod bbr;
pub mod canvas;
#[cfg(target_arch = "wasm32")]
pub mod canvas2d;
pub mod changes;
pub mod cursor;
pub mod cwnd;
pub mod dash;
pub mod draw;
pub mod fmt;
pub mod frame;
pub mod goodput;
pub mod legend;
pub mod measure;
pub mod messages;
pub mod plot;
pub mod queue;
pub mod rare;
pub mod rtt;
pub mod sequence;
pub mod series;
pub mod sharing;
pub mod style;
#[cfg(not(target_arch = "wasm32"))]
pub mod svg;
pub mod xy;

use std::cell::{Cell, RefCell};
use std::ops::Deref;
use std::rc::Rc;

use gloo_events::EventListener;
use plotters::coord::Shift;
use plotters::prelude::DrawingArea;
use tcplab::view::RunView;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Element, MutationObserver, MutationObserverInit, ResizeObserver};
use yew::prelude::*;

use crate::i18n::Lang;
use crate::lazy::Loading;
use plot::Plot;
use rare::Rare;

/// What the figures draw on: a canvas in the browser; outside it, SVG (the first screen rendered
/// as the page is built).
#[cfg(target_arch = "wasm32")]
pub type Backend = canvas2d::Canvas2d;
#[cfg(not(target_arch = "wasm32"))]
pub type Backend = svg::Svg;

pub type Root = DrawingArea<Backend, Shift>;

/// A canvas to draw a figure on, as [`Root`].
#[cfg(target_arch = "wasm32")]
pub(crate) fn canvas_root(canvas: &web_sys::HtmlCanvasElement) -> Result<Root, String> {
    use plotters::prelude::IntoDrawingArea;
    canvas2d::Canvas2d::new(canvas)
        .map(IntoDrawingArea::into_drawing_area)
        .ok_or_else(|| "the browser gave no 2D context for the chart".to_string())
}

/// Outside a browser there is no canvas to draw on: the figures draw as SVG ([`svg`]).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn canvas_root(_: &web_sys::HtmlCanvasElement) -> Result<Root, String> {
    Err("no canvas outside a browser".to_string())
}

/// A drawing's failure, as a chart reports it.
pub(crate) fn err(e: impl std::fmt::Display) -> String {
    format!("chart: {e}")
}

#[derive(Properties, PartialEq)]
pub struct ChartsProps {
    pub view: ViewRef,
    pub lang: Lang,
    /// The shared cursor, in ms of simulated time.
    pub cursor_ms: Option<f64>,
    /// The step-through player's time: the time charts show what happened up to it and hide
    /// the rest, as if drawn while the run goes.
    #[prop_or_default]
    pub until_ms: Option<f64>,
    /// Hovering any time chart emits the time under the pointer; leaving it emits `None`.
    pub on_cursor: Callback<Option<f64>>,
    /// A click on a time chart while the player is open: the player goes to that instant.
    #[prop_or_default]
    pub on_seek: Option<Callback<f64>>,
    /// The charts follow the player (at `until_ms`) with a window this wide (ms).
    #[prop_or_default]
    pub follow_ms: Option<f64>,
    /// A lesson's question waits for its answer: what comes after `until_ms` is hidden, not
    /// only dimmed.
    #[prop_or_default]
    pub veiled: bool,
    /// Veiled, the time axis ends here rather than at the run's end (`Page::horizon_ms`).
    #[prop_or_default]
    pub horizon_ms: Option<f64>,
    /// The player's step, while the player is open ([`AtStep`]).
    #[prop_or_default]
    pub cursor_step: Option<tcplab::player::Step>,
    /// Only these charts ([`KINDS`]), in an embed; `None`: every chart the run has.
    #[prop_or_default]
    pub only: Option<Vec<&'static str>>,
}

/// Every chart by its kind (`Figure::KIND`, an embed's `charts=` name), in the page's order.
pub const KINDS: &[&str] = &[
    "cwnd",
    "goodput",
    "bbr",
    "sharing",
    "sequence",
    "latency",
    "latency-cdf",
    "rtt",
    "queue",
];

/// The charts a run has, by kind, in the page's order: what the lab shows of it.
pub fn kinds(view: Rc<RunView>, lang: Lang) -> Vec<&'static str> {
    let ctx = Ctx::new(view, lang);
    let has = [
        cwnd::applies(&ctx),
        goodput::applies(&ctx),
        bbr::flow_to_draw(&ctx.view, None).is_some(),
        sharing::applies(&ctx),
        sequence::applies(&ctx),
        messages::applies(&ctx),
        messages::applies(&ctx),
        rtt::applies(&ctx),
        queue::applies(&ctx),
    ];
    KINDS
        .iter()
        .zip(has)
        .filter_map(|(k, on)| on.then_some(*k))
        .collect()
}

/// Whether the charts hide what comes after the player's time (a pending question), for every
/// plot under them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Veil(pub bool);

/// The player's step, for every plot under the charts: at its instant a readout shows the state
/// after that step, as the player's own readouts do, where the series hold the state after the
/// instant's last event (ten segments sent at one instant: the player's first step shows one
/// in flight, the series ten).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct AtStep(pub Option<tcplab::player::Step>);

/// A run's view, compared by identity: a new run is a new `Rc`, and comparing the points
/// themselves on every render would cost more than drawing.
#[derive(Debug, Clone)]
pub struct ViewRef(pub Rc<RunView>);

impl PartialEq for ViewRef {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl Deref for ViewRef {
    type Target = RunView;
    fn deref(&self) -> &RunView {
        &self.0
    }
}

/// What every chart draws from: the run, the language, and the part of the run in view.
#[derive(Debug, Clone, PartialEq)]
pub struct Ctx {
    pub view: ViewRef,
    pub lang: Lang,
    /// The end of the shared time axis, in ms (see [`axis_end`]).
    pub end_ms: f64,
    /// The time range every time chart shows, when zoomed (ms); `None`: the whole run.
    pub range: Option<(f64, f64)>,
    /// Where the time axis ends when not zoomed, while a lesson's question waits: not at the
    /// run's end, which would tell how long the transfer takes. `None`: the run's end.
    pub horizon_ms: Option<f64>,
    /// The window chart's value axis is logarithmic: slow start's doubling a straight line.
    pub window_log: bool,
    /// While a lesson's question waits for its answer, the player's time (ms): every legend
    /// and readout counts and names only what happened by then, since what came later would
    /// give the answer away (the veil hides it on the chart). `None`: the whole run is known.
    pub known_until_ms: Option<f64>,
}

impl Ctx {
    pub fn new(view: Rc<RunView>, lang: Lang) -> Ctx {
        let end_ms = axis_end(&view);
        Ctx {
            view: ViewRef(view),
            lang,
            end_ms,
            range: None,
            horizon_ms: None,
            window_log: false,
            known_until_ms: None,
        }
    }

    /// The same run with only what happened by `until` (ms) known, as while a lesson's question
    /// waits for its answer; `None`: all of it.
    pub fn known_until(mut self, until: Option<f64>) -> Ctx {
        self.known_until_ms = until.filter(|t| !t.is_nan());
        self
    }

    /// A lesson's question waits for its answer: what would answer it (a theory's line, a
    /// note on what the path makes of a packet) is not drawn.
    pub fn veiled(&self) -> bool {
        self.known_until_ms.is_some()
    }

    /// The part of a time-ordered series known now (see [`series::known`]), read by `time`.
    pub fn known<'a, T>(&self, points: &'a [T], time: impl Fn(&T) -> f64) -> &'a [T] {
        series::known(points, self.known_until_ms, time)
    }

    /// Whether an event at `t` (ms) is known now.
    pub fn knows(&self, t: f64) -> bool {
        series::known_at(t, self.known_until_ms)
    }

    /// Whether the run's end is known: what has not happened by now never will.
    pub fn knows_the_end(&self) -> bool {
        self.knows(self.view.end_ms)
    }

    /// How many of the run's `total` events are known, where its trace of them (`traced`
    /// rows, `known` of them known) is to be counted: all of them, or the trace's known rows
    /// when it holds every event; `None` when a thinned trace cannot say how many happened by
    /// now.
    pub fn known_count(&self, total: u64, traced: usize, known: usize) -> Option<u64> {
        if self.knows_the_end() {
            Some(total)
        } else {
            (traced as u64 == total).then_some(known as u64)
        }
    }

    /// The same run shown over `range` (ms), kept inside the run.
    pub fn zoomed(mut self, range: Option<(f64, f64)>) -> Ctx {
        self.range = range.and_then(|r| fit_range(r, self.end_ms));
        self
    }

    /// The time axis's span: the zoomed range, else the whole run from 0 (to the horizon,
    /// veiled).
    pub fn span(&self) -> (f64, f64) {
        self.range.unwrap_or_else(|| {
            let end = self
                .horizon_ms
                .filter(|h| h.is_finite() && *h > 0.0)
                .unwrap_or_else(|| axis::time_end(self.end_ms));
            (0.0, end)
        })
    }

    /// The same run with its time axis ending at `horizon` (ms) unless zoomed; `None`: at the
    /// run's end.
    pub fn horizon(mut self, horizon: Option<f64>) -> Ctx {
        self.horizon_ms = horizon;
        self
    }

    /// The part of the span whose data is drawn and fits the value axes: all of it, or up to
    /// the player's time while a lesson's question waits. The veil hides the rest, and an axis
    /// fitted to what it hides would give away how far the window or the queue goes, and flatten
    /// what it shows: slow start's 10 to 20 segments under a 4 MB axis.
    pub fn drawn_span(&self) -> (f64, f64) {
        let (lo, hi) = self.span();
        match self.known_until_ms {
            Some(k) if k < hi => (lo, k.max(lo)),
            _ => (lo, hi),
        }
    }

    pub fn pick(&self, en: &'static str, zh: &'static str) -> &'static str {
        self.lang.pick(en, zh)
    }

    /// "4 flows" then `en` (or its Chinese, `zh`), for a chart that draws several flows; `None`
    /// for one flow.
    pub fn flows_note(&self, en: &str, zh: &str) -> Option<String> {
        let n = self.view.flows.len();
        (n > 1).then(|| match self.lang {
            Lang::En => format!("{n} flows{en}"),
            Lang::Zh => format!("{n} 条流{zh}"),
        })
    }

    /// "flow 1 of 4", for a chart that shows the first of several flows; `None` for one flow.
    pub fn flow_one_of(&self) -> Option<String> {
        let n = self.view.flows.len();
        (n > 1).then(|| match self.lang {
            Lang::En => format!("flow 1 of {n}"),
            Lang::Zh => format!("{n} 条流中的流 1"),
        })
    }

    /// Each flow's name in the page's language: "flow 2 (CUBIC, 80 ms)" where the flows'
    /// settings differ (core's `Scenario::flow_name`), else "flow 2".
    pub fn flow_names(&self) -> Vec<String> {
        let scenario = self.scenario();
        let language = self.lang.language();
        (0..self.view.flows.len())
            .map(|i| match &scenario {
                Some(s) => s.flow_name(i, language),
                None => format!("{} {}", self.lang.pick("flow", "流"), i + 1),
            })
            .collect()
    }

    /// The run's scenario, read back from its canonical query.
    pub fn scenario(&self) -> Option<tcplab::Scenario> {
        crate::model::link_trace::scenario_of(&self.view.query)
    }

    /// Flow 1's time of its first data byte: ideal slow start's clock starts there.
    pub fn first_send_ms(&self) -> f64 {
        self.view
            .flows
            .first()
            .and_then(|f| f.sends.first())
            .map_or(0.0, |s| s.0)
    }
}

/// The window that follows the player at `t`, `width` wide: most of it behind the player (what
/// led here), and moving on by a quarter at a time, so that the charts redraw four times a
/// window rather than at every step.
pub fn follow_window(t: f64, width: f64) -> Option<(f64, f64)> {
    if !(t.is_finite() && width.is_finite() && width > 0.0) {
        return None;
    }
    let quarter = width / 4.0;
    let lo = (((t - 0.7 * width) / quarter).ceil() * quarter).max(0.0);
    Some((lo, lo + width))
}

/// The smallest span a zoom shows, in ms: a few microseconds still show a burst's packets apart.
pub const MIN_SPAN_MS: f64 = 0.005;

/// `(lo, hi)` ordered, at least [`MIN_SPAN_MS`] wide, slid inside `0..=end` with its width kept;
/// `None` if it is as wide as the whole run or not a range at all.
pub fn fit_range((a, b): (f64, f64), end: f64) -> Option<(f64, f64)> {
    let end = axis::time_end(end);
    if !(a.is_finite() && b.is_finite()) {
        return None;
    }
    // A range keeps its width and slides inside the run: a pan or a pinch past an edge stops
    // there rather than narrowing the view; one as wide as the run is the whole run.
    let (lo, hi) = (a.min(b), a.max(b));
    let width = (hi - lo).max(MIN_SPAN_MS);
    if width >= end {
        return None;
    }
    let lo = ((lo + hi) / 2.0 - width / 2.0).clamp(0.0, end - width);
    Some((lo, lo + width))
}

/// The end of the shared time axis: the run's end, or its last event if that is later (a run
/// without a window trace, messages over UDP, has no end of its own), and 1 ms for a run with
/// nothing at all, so that every axis has a span.
pub fn axis_end(v: &RunView) -> f64 {
    let flows = v.flows.iter().flat_map(|f| {
        let last = |s: &[(f64, f64)]| s.last().map(|p| p.0);
        [
            f.window.last().map(|w| w.t),
            last(&f.sends),
            last(&f.retransmits),
            last(&f.acks),
            last(&f.sacks),
            f.goodput.last().map(|g| g.0 + f.bin_ms),
            f.bbr.last().map(|b| b.t),
        ]
    });
    let messages = v
        .messages
        .iter()
        .map(|m| m.read_ms.unwrap_or(m.write_ms))
        .chain(v.hol.iter().map(|h| h.end_ms));
    let all = std::iter::once(Some(v.end_ms))
        .chain(flows)
        .chain([v.queue.last().map(|q| q.0), v.drops.last().map(|d| d.t)])
        .flatten()
        .chain(messages);
    axis::time_end(series::max_of(all).unwrap_or(0.0))
}

/// What the charts are drawn for besides the run: a new width, pixel ratio or text size
/// redraws them.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Layout {
    /// The container's CSS width; 0 until measured.
    pub width: i32,
    pub dpr: f64,
    /// The charts' font size in CSS pixels, as their container inherits it: the root's (16
    /// unless large type enlarges the page), more in the presenter's mode, where the room
    /// reads the charts from afar (`.presenting .charts`).
    pub text_px: f64,
}

fn measure(container: Option<&Element>) -> Layout {
    Layout {
        width: container.map_or(0, Element::client_width),
        dpr: crate::window().map_or(1.0, |w| w.device_pixel_ratio()),
        text_px: container
            .and_then(style::font_px)
            .unwrap_or_else(style::root_font),
    }
}

/// The layout, kept current by watching the container's size, the root element's class and
/// style (where a larger text size is set) and the window (where the pixel ratio changes).
#[hook]
fn use_layout(container: &NodeRef) -> Layout {
    let layout = use_state_eq(|| measure(None));
    {
        let container = container.clone();
        let setter = layout.setter();
        use_effect_with((), move |_| {
            let update = {
                let container = container.clone();
                Rc::new(move || setter.set(measure(container.cast::<Element>().as_ref())))
            };
            update();
            let on_resize = {
                let update = update.clone();
                Closure::<dyn FnMut()>::new(move || update())
            };
            let on_mutation = {
                let update = update.clone();
                Closure::<dyn FnMut()>::new(move || update())
            };
            let resize = ResizeObserver::new(on_resize.as_ref().unchecked_ref()).ok();
            if let (Some(r), Some(el)) = (&resize, container_element(&container)) {
                r.observe(&el);
            }
            let mutation = MutationObserver::new(on_mutation.as_ref().unchecked_ref()).ok();
            if let (Some(m), Some(html)) = (
                &mutation,
                crate::window()
                    .and_then(|w| w.document())
                    .and_then(|d| d.document_element()),
            ) {
                let init = MutationObserverInit::new();
                init.set_attributes(true);
                init.set_attribute_filter(&js_sys::Array::of2(&"class".into(), &"style".into()));
                let _ = m.observe_with_options(&html, &init);
            }
            let window = crate::window().map(|w| {
                let update = update.clone();
                EventListener::new(&w, "resize", move |_| update())
            });
            move || {
                if let Some(r) = resize {
                    r.disconnect();
                }
                if let Some(m) = mutation {
                    m.disconnect();
                }
                drop((on_resize, on_mutation, window));
            }
        });
    }
    *layout
}

fn container_element(container: &NodeRef) -> Option<Element> {
    container.cast::<Element>()
}

/// Marks the container shown for `query` once every chart in view has been drawn for it
/// (`data-shown`, and a `tcplab-shown` performance mark: what the page benchmark times), and
/// drawn once every chart has (`data-drawn`, `tcplab-drawn`); charts out of view are drawn a
/// once a dragged slider pauses (`worker::client::PAUSE_MS`).
fn mark_drawn(container: &NodeRef, query: &str) {
    let Some(el) = container_element(container) else {
        return;
    };
    // A chart whose module is still coming is not drawn yet.
    if el.query_selector("[data-lazy]").ok().flatten().is_some() {
        return;
    }
    let Ok(canvases) = el.query_selector_all("canvas.chart-base") else {
        return;
    };
    let canvases: Vec<web_sys::HtmlCanvasElement> = (0..canvases.length())
        .filter_map(|i| canvases.item(i)?.dyn_into().ok())
        .collect();
    let drawn =
        |c: &web_sys::HtmlCanvasElement| c.get_attribute("data-drawn").as_deref() == Some(query);
    let performance = crate::window().and_then(|w| w.performance());
    let at = performance.as_ref().map_or(0.0, |p| p.now());
    let mark = |what: &str| {
        if el.get_attribute(&format!("data-{what}")).as_deref() == Some(query) {
            return;
        }
        if let Some(p) = &performance {
            // The first `tcplab-shown` ends the page benchmark's cold load (tests/tests/bench.rs).
            let _ = p.mark(&format!("tcplab-{what}"));
        }
        let _ = el.set_attribute(&format!("data-{what}"), query);
        let _ = el.set_attribute(&format!("data-{what}-at"), &format!("{at:.1}"));
    };
    // Whether a chart is in view is what it found before it was drawn (`data-in-view`):
    // measuring again here would make the browser lay out the page a second time.
    let seen =
        |c: &&web_sys::HtmlCanvasElement| c.get_attribute("data-in-view").as_deref() != Some("0");
    if canvases.iter().filter(seen).all(drawn) {
        mark("shown");
    }
    if canvases.iter().all(drawn) {
        mark("drawn");
    }
}

#[function_component]
pub fn Charts(props: &ChartsProps) -> Html {
    let container = use_node_ref();
    let layout = use_layout(&container);
    let query = use_mut_ref(String::new);
    query.borrow_mut().clone_from(&props.view.query);
    let on_drawn = {
        let (container, query) = (container.clone(), query.clone());
        use_callback((), move |(), _| mark_drawn(&container, &query.borrow()))
    };
    {
        // A run with no chart to draw is drawn as soon as it is shown.
        let (container, query): (NodeRef, Rc<RefCell<String>>) = (container.clone(), query.clone());
        use_effect_with(props.view.clone(), move |_| {
            mark_drawn(&container, &query.borrow())
        });
    }

    // The time range every time chart shows, for the run it was chosen on: a new run starts
    // whole again.
    let zoom = use_state_eq(|| None::<(String, (f64, f64))>);
    let manual = zoom
        .as_ref()
        .filter(|(q, _)| *q == props.view.query)
        .map(|(_, r)| *r);
    let range = manual.or_else(|| follow_window(props.until_ms?, props.follow_ms?));
    let window_log = use_state_eq(|| false);
    // The BBR flow whose model is drawn, for the run it was chosen on, as the zoom: a new run
    // starts from its first BBR flow.
    let bbr_choice = use_state_eq(|| None::<(String, usize)>);
    let bbr_chosen = bbr_choice
        .as_ref()
        .filter(|(q, _)| *q == props.view.query)
        .map(|(_, i)| *i);
    let on_bbr_pick = {
        let (choice, query) = (bbr_choice.clone(), props.view.query.clone());
        Callback::from(move |i: usize| choice.set(Some((query.clone(), i))))
    };
    // Veiled, the legends and readouts know the run only up to the player's time.
    let mut ctx = Ctx::new(props.view.0.clone(), props.lang)
        .zoomed(range)
        .known_until(props.until_ms.filter(|_| props.veiled))
        .horizon(props.horizon_ms.filter(|_| props.veiled));
    ctx.window_log = *window_log;
    let toggle_log = {
        let window_log = window_log.clone();
        Callback::from(move |_: Event| window_log.set(!*window_log))
    };
    let on_zoom = {
        let (zoom, query, end) = (zoom.clone(), props.view.query.clone(), ctx.end_ms);
        Callback::from(move |r: Option<(f64, f64)>| {
            zoom.set(
                r.and_then(|r| fit_range(r, end))
                    .map(|r| (query.clone(), r)),
            )
        })
    };
    let (cursor_ms, until_ms) = (props.cursor_ms, props.until_ms);
    let on_cursor = props.on_cursor.clone();
    let on_seek = props.on_seek.clone();
    let on_zoom = Some(on_zoom);
    let lang = props.lang;
    let reset = on_zoom
        .clone()
        .map(|z| Callback::from(move |_: MouseEvent| z.emit(None)));
    let (lo, hi) = ctx.span();
    let bbr_flow = bbr::flow_to_draw(&ctx.view, bbr_chosen);
    let names = bbr_flow.map(|_| ctx.flow_names()).unwrap_or_default();
    let only = props.only.clone();
    let wanted = move |kind: &str| only.as_ref().is_none_or(|o| o.contains(&kind));
    // Which of the charts only some runs have are shown: decided here, once, for the module's
    // fetch and for the charts themselves.
    let bbr_shown = bbr_flow.filter(|_| wanted("bbr"));
    let sharing_shown = sharing::applies(&ctx) && wanted("sharing");
    let has_messages = messages::applies(&ctx);
    let (latency_shown, cdf_shown) = (
        has_messages && wanted("latency"),
        has_messages && wanted("latency-cdf"),
    );
    let has_rare = bbr_shown.is_some() || sharing_shown || latency_shown || cdf_shown;
    let (rare_figures, retry_rare) = crate::lazy::use_rare_figures(has_rare);
    // Until their module is in, the rare charts stand behind one notice, in the first one's place.
    let rare_waiting = Cell::new(false);
    let rare_plot = |which: Rare, controls: Option<Html>| match rare_figures {
        Loading::Ready(make) => html! {
            <Plot figure={make(which, ctx.clone())} {layout} {cursor_ms} {until_ms} {controls}
                on_cursor={on_cursor.clone()} on_seek={on_seek.clone()} on_zoom={on_zoom.clone()} on_drawn={on_drawn.clone()} />
        },
        _ if rare_waiting.replace(true) => Html::default(),
        Loading::Fetching => crate::lazy::standing_in(false, retry_rare.clone(), lang),
        Loading::Failed => crate::lazy::standing_in(true, retry_rare.clone(), lang),
    };
    html! {
        <ContextProvider<Veil> context={Veil(props.veiled)}>
        <ContextProvider<AtStep> context={AtStep(props.cursor_step)}>
            <div class="charts" ref={container} lang={props.lang.code()}
                data-range={ctx.range.map(|(a, b)| format!("{a},{b}")).unwrap_or_default()}>
                <p class="zoom-bar" id="zoom-bar">
                    if cwnd::applies(&ctx) {
                        <label class="log-toggle">
                            <input type="checkbox" id="window-log" checked={ctx.window_log} onchange={toggle_log} />
                            { lang.pick("log scale for the window", "窗口用对数坐标") }
                        </label>
                    }
                    if manual.is_some() {
                        <span>{ format!("{} {} – {}", lang.pick("Showing", "显示"), fmt::time(lo), fmt::time(hi)) }</span>
                        <button type="button" class="mini" id="zoom-reset" onclick={reset}>
                            { lang.pick("Whole run", "整个运行") }
                        </button>
                    } else if ctx.range.is_some() {
                        <span>{ format!("{} {} – {} {}", lang.pick("Following the player:", "跟随播放："),
                            fmt::time(lo), fmt::time(hi),
                            lang.pick("(the player's Charts menu chooses)", "（在播放器的“图表”菜单中选择）")) }</span>
                    } else {
                        <span class="zoom-hint">{ lang.pick(
                            "Drag across a chart to zoom in (Ctrl+wheel or a pinch zooms, Shift+wheel pans, a double-click shows the whole run); on a chart the arrow keys move the cursor.",
                            "在图上拖动可放大（Ctrl+滚轮或双指缩放，Shift+滚轮平移，双击显示整个运行）；在图上用方向键移动光标。") }</span>
                    }
                </p>
                if cwnd::applies(&ctx) && wanted("cwnd") {
                    <Plot figure={plot::figure(cwnd::Cwnd(ctx.clone()))} {layout} {cursor_ms} {until_ms}
                        on_cursor={on_cursor.clone()} on_seek={on_seek.clone()} on_zoom={on_zoom.clone()} on_drawn={on_drawn.clone()} />
                }
                if goodput::applies(&ctx) && wanted("goodput") {
                    <Plot figure={plot::figure(goodput::Goodput(ctx.clone()))} {layout} {cursor_ms} {until_ms}
                        on_cursor={on_cursor.clone()} on_seek={on_seek.clone()} on_zoom={on_zoom.clone()} on_drawn={on_drawn.clone()} />
                }
                if let Some(flow) = bbr_shown {
                    { rare_plot(Rare::Bbr { flow, names: names.clone() }, bbr::picker(&ctx, &names, flow, on_bbr_pick)) }
                }
                if sharing_shown {
                    { rare_plot(Rare::Sharing, None) }
                }
                if sequence::applies(&ctx) && wanted("sequence") {
                    <Plot figure={plot::figure(sequence::Sequence(ctx.clone()))} {layout}
                        {cursor_ms} {until_ms} on_cursor={on_cursor.clone()} on_seek={on_seek.clone()} on_zoom={on_zoom.clone()} on_drawn={on_drawn.clone()} />
                }
                if latency_shown {
                    { rare_plot(Rare::Latency, None) }
                }
                if cdf_shown {
                    { rare_plot(Rare::Distribution, None) }
                }
                if rtt::applies(&ctx) && wanted("rtt") {
                    <Plot figure={plot::figure(rtt::Rtt(ctx.clone()))} {layout} {cursor_ms} {until_ms}
                        on_cursor={on_cursor.clone()} on_seek={on_seek.clone()} on_zoom={on_zoom.clone()} on_drawn={on_drawn.clone()} />
                }
                if queue::applies(&ctx) && wanted("queue") {
                    <Plot figure={plot::figure(queue::Queue(ctx.clone()))} {layout} {cursor_ms} {until_ms}
                        on_cursor={on_cursor.clone()} on_seek={on_seek.clone()} on_zoom={on_zoom.clone()} on_drawn={on_drawn.clone()} />
                }
            </div>
        </ContextProvider<AtStep>>
        </ContextProvider<Veil>>
    }
}

#[cfg(test)]
mod veil_tests;
