//! One chart on the page: a canvas drawn when the run, the language or the layout changes, and
//! the cursor layer over it, repainted when the cursor moves.

use std::any::Any;
use std::cell::RefCell;
use std::rc::Rc;

use plotters::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{HtmlCanvasElement, PointerEvent, WheelEvent};
use yew::prelude::*;

use tcplab::player::Step;

use super::cursor::{self, Readout};
use super::frame::Frame;
use super::style::{Style, PAPER};
use super::{Ctx, Layout, Root};
use crate::now_ms;

/// How far a press must move, in CSS pixels, to be a drag that zooms rather than a click.
const DRAG_CSS_PX: f64 = 6.0;

/// Whether any of the canvas is inside the window's viewport.
fn in_view(canvas: &HtmlCanvasElement) -> bool {
    let Some(w) = crate::window() else {
        return true;
    };
    let px = |v: Result<wasm_bindgen::JsValue, _>| v.ok().and_then(|v| v.as_f64());
    let (Some(vw), Some(vh)) = (px(w.inner_width()), px(w.inner_height())) else {
        return true;
    };
    let r = canvas.get_bounding_client_rect();
    r.bottom() > 0.0 && r.top() < vh && r.right() > 0.0 && r.left() < vw
}

/// The CSS width used when the canvas has no layout yet (detached, or hidden).
const FALLBACK_WIDTH: f64 = 960.0;

/// A figure's equality, through `dyn Figure`: two figures are equal when they are of one type
/// and equal as that type.
pub trait SameFigure {
    fn as_any(&self) -> &dyn Any;
    fn same(&self, other: &dyn Any) -> bool;
}

impl<T: PartialEq + 'static> SameFigure for T {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn same(&self, other: &dyn Any) -> bool {
        other.downcast_ref::<T>().is_some_and(|o| self == o)
    }
}

/// A chart: what it draws and what its cursor reads. [`Plot`] takes it as `Rc<dyn Figure>`, so
/// that the component, its hooks and its handlers are compiled once for every chart rather than
/// once per chart (docs/performance.md, "What the page downloads").
pub trait Figure: SameFigure + 'static {
    /// Names the chart in the DOM (`data-chart`).
    fn kind(&self) -> &'static str;
    /// Whether the horizontal axis is the shared time axis, which hovering moves the cursor on.
    fn timed(&self) -> bool {
        true
    }

    fn ctx(&self) -> &Ctx;
    fn title(&self) -> String;
    /// A line under the title: which flow is drawn, what a mark means.
    fn note(&self) -> Option<String> {
        None
    }
    /// What the chart's marks mean beyond its legend, for the title's tooltip.
    fn tip(&self) -> Option<String> {
        None
    }
    /// The canvas's height in CSS pixels at the default text size.
    fn height(&self) -> f64;
    /// Draws the chart on a cleared canvas and says where its plotting area landed.
    fn draw(&self, root: &Root, st: &Style) -> Result<Frame, String>;
    /// What the cursor shows `at` its instant on the chart as drawn in `frame`.
    fn readout(&self, at: At, frame: &Frame, st: &Style) -> Option<Readout>;
}

/// Where the cursor reads a chart.
#[derive(Debug, Clone, Copy)]
pub struct At<'a> {
    pub t_ms: f64,
    /// The value under the pointer on this chart's vertical axis, when the pointer is over it
    /// (the other charts show the same time without one).
    pub y: Option<f64>,
    /// The player's step, when it stands at `t_ms` ([`super::AtStep`]): a chart of what a step
    /// carries (the window, the queue) reads it from the step, not the instant's end.
    pub step: Option<&'a Step>,
}

impl<'a> At<'a> {
    /// The cursor at `t_ms`, with the player's `step` if it stands at that instant.
    pub fn new(t_ms: f64, y: Option<f64>, step: Option<&'a Step>) -> At<'a> {
        At {
            t_ms,
            y,
            step: step.filter(|s| s.t_ms == t_ms),
        }
    }
}

/// What the cursor shows at `t_ms` on `figure`.
fn read_at(
    figure: &dyn Figure,
    t_ms: f64,
    y: Option<f64>,
    step: Option<&Step>,
    frame: &Frame,
    st: &Style,
) -> Option<Readout> {
    figure.readout(At::new(t_ms, y, step), frame, st)
}

/// A figure as [`Plot`] takes it: shared, and compared by what it draws.
#[derive(Clone)]
pub struct FigureRef(Rc<dyn Figure>);

impl PartialEq for FigureRef {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0) || self.0.same(other.0.as_ref().as_any())
    }
}

impl std::ops::Deref for FigureRef {
    type Target = dyn Figure;

    fn deref(&self) -> &dyn Figure {
        self.0.as_ref()
    }
}

/// Shares `figure` as [`Plot`] takes it.
pub fn figure(figure: impl Figure) -> FigureRef {
    FigureRef(Rc::new(figure))
}

#[derive(Properties, PartialEq)]
pub struct PlotProps {
    pub figure: FigureRef,
    pub layout: Layout,
    pub cursor_ms: Option<f64>,
    /// On a time chart, the time after which the chart is hidden (the player's time).
    #[prop_or_default]
    pub until_ms: Option<f64>,
    pub on_cursor: Callback<Option<f64>>,
    /// A click (or a tap) on a time chart: the time under it, for the player.
    #[prop_or_default]
    pub on_seek: Option<Callback<f64>>,
    /// A time chart zoomed (a dragged range, Ctrl+wheel or a pinch, Shift+wheel to pan) or
    /// reset (a double-click): the new range of every time chart.
    #[prop_or_default]
    pub on_zoom: Option<Callback<Option<(f64, f64)>>>,
    /// Told after each drawing of the chart itself (not of the cursor).
    pub on_drawn: Callback<()>,
    /// A control of the chart's own, in its caption (which BBR flow it draws).
    #[prop_or_default]
    pub controls: Option<Html>,
}

/// The canvas's height in CSS pixels: the figure's, with room for the rows its legend wraps to
/// on a narrow screen (a phone's chart would otherwise give its plot to the legend).
fn css_height(figure_height: f64, css_w: f64, st: &Style) -> f64 {
    let narrow = ((720.0 - css_w / st.zoom()) / 5.0).clamp(0.0, 90.0);
    ((figure_height + narrow) * st.zoom()).round()
}

/// Sizes both canvases to the layout at the device's pixel ratio and draws the figure.
fn paint(
    figure: &dyn Figure,
    base: &HtmlCanvasElement,
    over: &HtmlCanvasElement,
    st: &Style,
) -> Result<Frame, String> {
    let css_w = match base.client_width() {
        w if w > 0 => f64::from(w),
        _ => FALLBACK_WIDTH,
    };
    let css_h = css_height(figure.height(), css_w, st);
    let (w, h) = (
        (css_w * st.dpr).round().max(1.0) as u32,
        (css_h * st.dpr).round().max(1.0) as u32,
    );
    // Setting a canvas's size, even to the size it has, clears it and makes the browser lay
    // the page out again before the next measurement: only a new size is set. The base is
    // painted over whole below; the cursor layer takes the base's size when it paints
    // (`cursor::paint`), and gives up its bitmap here when the chart fails.
    if (base.width(), base.height()) != (w, h) {
        base.set_width(w);
        base.set_height(h);
    }
    let root = super::canvas_root(base)?;
    let frame = draw_figure(&root, figure, st);
    if frame.is_err() && (over.width(), over.height()) != (0, 0) {
        over.set_width(0);
        over.set_height(0);
    }
    root.present().map_err(|e| e.to_string())?;
    frame
}

/// Draws `figure` on `root`, over paper, with the scenario's changes marked on a time chart;
/// a figure that fails leaves its message where it would have been, since half a chart would
/// be worse than none.
fn draw_figure(root: &Root, figure: &dyn Figure, st: &Style) -> Result<Frame, String> {
    root.fill(&PAPER).map_err(|e| e.to_string())?;
    let mut frame = figure.draw(root, st);
    if let (true, Ok(f)) = (figure.timed(), &frame) {
        let ctx = figure.ctx();
        if let Err(e) = super::changes::mark(root, f, st, &ctx.view.changes, ctx.lang) {
            frame = Err(e);
        }
    }
    if let Err(message) = &frame {
        let _ = root.fill(&PAPER);
        let _ = root.draw(&Text::new(
            message.clone(),
            (st.px(12.0), st.px(20.0)),
            st.text(1.0, super::style::MATHIS),
        ));
    }
    frame
}

/// The widths in CSS pixels the first screen rendered as the page is built draws each chart at
/// (a phone's, a tablet's, four laptops' and a projector's chart box), each with the screens
/// the CSS shows it on (`.chart-svg-*`), stretched to its box: none by more than about a tenth,
/// so that its text keeps its shape and the canvas that replaces it does not move the chart.
#[cfg(not(target_arch = "wasm32"))]
const PRERENDERED: [(f64, &str); 6] = [
    (358.0, "narrow"),
    (690.0, "mid"),
    (880.0, "wide"),
    (950.0, "laptop"),
    (1090.0, "wider"),
    (1260.0, "widest"),
];

/// The chart as the first screen rendered as the page is built shows it, in place of its
/// canvas until the page's module replaces it: an image per width, fetched only where the CSS
/// shows it (`loading="lazy"` leaves a hidden image alone).
#[cfg(not(target_arch = "wasm32"))]
fn prerendered(figure: &dyn Figure) -> Option<Html> {
    let alt = format!(
        "{} ({})",
        figure.title(),
        figure.ctx().lang.pick("chart", "图表")
    );
    let images = PRERENDERED.iter().map(|&(css_w, screens)| {
        let drawing = svg(figure, css_w);
        let (w, h) = drawing.size();
        let name = super::svg::keep(
            &format!("chart-{}-{screens}", figure.kind()),
            drawing.document(&alt),
        );
        html! {
            // As tall as the canvas that takes its place, so the page does not move then.
            <img src={name} class={classes!("chart-svg", format!("chart-svg-{screens}"))}
                width={w.to_string()} height={h.to_string()} alt={alt.clone()}
                style={format!("height:{h}px")} loading="lazy" decoding="async" />
        }
    });
    Some(images.collect::<Html>())
}

#[cfg(target_arch = "wasm32")]
fn prerendered(_: &dyn Figure) -> Option<Html> {
    None
}

/// The figure drawn as SVG `css_w` CSS pixels wide (at one device pixel to a CSS pixel, the
/// browser's default text size).
#[cfg(not(target_arch = "wasm32"))]
pub fn svg(figure: &dyn Figure, css_w: f64) -> super::svg::Drawing {
    let st = Style::new(1.0, 16.0);
    let css_h = css_height(figure.height(), css_w, &st);
    let (svg, drawing) = super::svg::Svg::new((css_w.round() as u32, css_h.round() as u32));
    let root = svg.into_drawing_area();
    let _ = draw_figure(&root, figure, &st);
    drop(root);
    drawing
}

/// The range two fingers show as they pinch: the instant that was under their midpoint when
/// the second touched stays under their midpoint now, and the span scales by how far apart
/// they were over how far apart they are. `plot` is the plotting area's left and right edge
/// and `start`, `now` the fingers' positions, all in the same pixels; `range` the time range
/// shown when the pinch began. `None` while the fingers are too close to measure.
pub fn pinched(
    range: (f64, f64),
    plot: (f64, f64),
    start: (f64, f64),
    now: (f64, f64),
) -> Option<(f64, f64)> {
    let (lo, hi) = range;
    let w = plot.1 - plot.0;
    let (d0, d) = ((start.1 - start.0).abs(), (now.1 - now.0).abs());
    if w <= 0.0 || d0 < 8.0 || d < 8.0 || hi <= lo {
        return None;
    }
    let at = |px: f64| (px - plot.0) / w;
    let t = lo + at((start.0 + start.1) / 2.0) * (hi - lo);
    let width = (hi - lo) * d0 / d;
    let a = t - at((now.0 + now.1) / 2.0) * width;
    (a.is_finite() && width.is_finite()).then_some((a, a + width))
}

/// A finger left the chart: a pinch ends with it.
fn lift(touches: &RefCell<Vec<(i32, f64)>>, pinch: &RefCell<Option<Pinch>>, id: i32) {
    let mut t = touches.borrow_mut();
    t.retain(|f| f.0 != id);
    if t.len() < 2 {
        *pinch.borrow_mut() = None;
    }
}

/// Device pixels per CSS pixel of a chart's canvas (the same across and down: both follow the
/// device's pixel ratio): the chart's own canvas, whose box the cursor layer shares, for the
/// layer holds a bitmap only while it shows something.
fn device_per_css(canvas: &HtmlCanvasElement, st: &Style) -> f64 {
    let cw = f64::from(canvas.client_width());
    if cw > 0.0 && canvas.width() > 0 {
        f64::from(canvas.width()) / cw
    } else {
        st.dpr
    }
}

/// Two fingers on a time chart: where they touched, and the range shown then.
#[derive(Debug, Clone, Copy)]
struct Pinch {
    start: (f64, f64),
    range: (f64, f64),
}

/// The value at a pointer's height (CSS px from the canvas's top) on the vertical axis, if it
/// is within the plotting area.
fn value_at_y(frame: &Frame, st: &Style, canvas: &HtmlCanvasElement, offset_y: f64) -> Option<f64> {
    let px = offset_y * device_per_css(canvas, st);
    if !frame.y.contains_px(px, 2.0 * st.dpr) {
        return None;
    }
    frame.y.value_at_y(px)
}

/// The time under the pointer, rounded to what one CSS pixel resolves, or `None` off the plot.
fn time_at(frame: &Frame, st: &Style, canvas: &HtmlCanvasElement, offset_x: f64) -> Option<f64> {
    let px = offset_x * device_per_css(canvas, st);
    if !frame.x.contains_px(px, 2.0 * st.dpr) {
        return None;
    }
    let t = frame.x.value_at_x(px)?.clamp(frame.x.lo, frame.x.hi);
    let per_px = (frame.x.hi - frame.x.lo) * st.dpr / (frame.right() - frame.left()).max(1.0);
    let step = 10f64.powf(per_px.log10().floor());
    let t = if step.is_finite() && step > 0.0 {
        ((t / step).round() * step).clamp(frame.x.lo, frame.x.hi)
    } else {
        t
    };
    // Rounding to the step leaves binary noise (0.1 * 3); a link should carry `0.3`.
    let digits = (-step.log10()).ceil().max(0.0) as i32;
    let k = 10f64.powi(digits);
    Some((t * k).round() / k)
}

/// What a key pressed on a time chart's cursor layer does (WAI-ARIA's slider pattern).
#[derive(Debug, Clone, Copy, PartialEq)]
enum KeyCursor {
    /// The cursor to this time.
    To(f64),
    /// The cursor away.
    Clear,
    /// The player to the cursor's time.
    Seek(f64),
}

/// `key` (with Shift if `coarse`) on a time chart whose cursor is at `now` and whose view spans
/// `lo` to `hi`: the arrows move the cursor a hundredth of the view (a tenth with Shift, or Page
/// Up and Down), from the view's near end if there is no cursor yet; Home and End go to the
/// ends; Escape clears the cursor and Enter moves the player to it.
fn key_cursor(
    key: &str,
    coarse: bool,
    now: Option<f64>,
    (lo, hi): (f64, f64),
) -> Option<KeyCursor> {
    let span = hi - lo;
    if !span.is_finite() || span <= 0.0 {
        return None;
    }
    let step = span / if coarse { 10.0 } else { 100.0 };
    let to = |t: f64| Some(KeyCursor::To(t.clamp(lo, hi)));
    let now_in = now.map(|t| t.clamp(lo, hi));
    match key {
        "ArrowRight" | "ArrowUp" => to(now_in.map_or(lo, |t| t + step)),
        "ArrowLeft" | "ArrowDown" => to(now_in.map_or(hi, |t| t - step)),
        "PageUp" => to(now_in.map_or(lo, |t| t + span / 10.0)),
        "PageDown" => to(now_in.map_or(hi, |t| t - span / 10.0)),
        "Home" => to(lo),
        "End" => to(hi),
        "Escape" => now.map(|_| KeyCursor::Clear),
        "Enter" => now_in.map(KeyCursor::Seek),
        _ => None,
    }
}

/// The cursor layer's value as a screen reader says it: the readout's heading and rows, or how
/// to place the cursor.
fn spoken(readout: Option<&Readout>, lang: crate::i18n::Lang) -> String {
    match readout {
        Some(r) => std::iter::once(r.head.as_str())
            .chain(r.rows.iter().map(|row| row.text.as_str()))
            .collect::<Vec<_>>()
            .join("; "),
        None => lang
            .pick(
                "no cursor: an arrow key places it",
                "没有光标：按方向键放置",
            )
            .to_string(),
    }
}

/// Paints the cursor layer `over` of the chart `base`, drawn as `frame`: the cover after the
/// player's time, the cursor and its readout (`now`: the cursor, the player's time, the veil and
/// the step; `y` the pointer's height on this chart). A time chart's layer is a slider to
/// assistive technology: its range is the run up to the player's time, its value the cursor
/// (the range's start while there is none) and its text the readout, set again only when one
/// changed (`told`), since a repaint follows every move of the pointer.
#[allow(clippy::too_many_arguments)]
fn paint_layer(
    figure: &dyn Figure,
    base: &HtmlCanvasElement,
    over: &HtmlCanvasElement,
    frame: &Frame,
    st: &Style,
    now: (Option<f64>, Option<f64>, bool, Option<Step>),
    (y, pointed): (Option<f64>, bool),
    told: &RefCell<Option<Told>>,
) {
    let (cursor, until, veil, step) = now;
    let readout = cursor.and_then(|t| read_at(figure, t, y, step.as_ref(), frame, st));
    let look = cursor::Look {
        until,
        veil,
        pointed,
    };
    cursor::paint(
        over,
        (base.width(), base.height()),
        frame,
        st,
        readout.as_ref(),
        look,
    );
    if !figure.timed() {
        return;
    }
    let (lo, hi) = slider_range(frame, until);
    let value = cursor.map_or(lo, |t| t.clamp(lo, hi));
    let said = Told {
        range: (lo.round() as i64, hi.round() as i64),
        value: value.round() as i64,
        text: spoken(readout.as_ref(), figure.ctx().lang),
    };
    let mut told = told.borrow_mut();
    let before = told.as_ref();
    if before != Some(&said) {
        if before.is_none_or(|b| b.range != said.range) {
            let _ = over.set_attribute("aria-valuemin", &said.range.0.to_string());
            let _ = over.set_attribute("aria-valuemax", &said.range.1.to_string());
        }
        if before.is_none_or(|b| b.value != said.value) {
            let _ = over.set_attribute("aria-valuenow", &said.value.to_string());
        }
        if before.is_none_or(|b| b.text != said.text) {
            let _ = over.set_attribute("aria-valuetext", &said.text);
        }
        *told = Some(said);
    }
}

/// What a time chart's slider last told assistive technology, in whole milliseconds.
#[derive(Debug, Clone, PartialEq)]
struct Told {
    range: (i64, i64),
    value: i64,
    text: String,
}

/// The times a time chart's cursor can take: the view, up to the player's time when it is open.
fn slider_range(frame: &Frame, until: Option<f64>) -> (f64, f64) {
    let (lo, hi) = (frame.x.lo, frame.x.hi);
    (lo, until.map_or(hi, |u| u.clamp(lo, hi)))
}

#[function_component]
pub fn Plot(props: &PlotProps) -> Html {
    let base = use_node_ref();
    let over = use_node_ref();
    let drawn: Rc<RefCell<Option<(Frame, Style)>>> = use_mut_ref(|| None);
    let timed = props.figure.timed();
    let until = props.until_ms.filter(|_| timed);
    // What the cursor layer shows: the cursor, never past the player's time.
    let cursor_ms = match (props.cursor_ms, until) {
        (Some(c), Some(u)) => Some(c.min(u)),
        (c, _) => c,
    };
    let veil = use_context::<super::Veil>().unwrap_or_default().0;
    let step = use_context::<super::AtStep>().unwrap_or_default().0;
    let cursor_now = use_mut_ref(|| (None::<f64>, None::<f64>, false, None::<Step>));
    *cursor_now.borrow_mut() = (cursor_ms, until, veil, step);
    let last_emitted = use_mut_ref(|| None::<f64>);
    let draws = use_mut_ref(|| 0u32);
    // What the chart was last drawn for: a layout change that leaves this chart's width, pixel
    // ratio and text size as they were (the first measurement of the container) draws nothing.
    let last: Rc<RefCell<Option<(FigureRef, Style, i32)>>> = use_mut_ref(|| None);
    // The value under the pointer on this chart's vertical axis, while it is over the chart.
    let pointer_y: Rc<RefCell<Option<f64>>> = use_mut_ref(|| None);
    // Whether the pointer (or the last tap) is on this chart: a phone's narrow chart shows the
    // readout's box only there (`cursor::paint`).
    let pointed: Rc<RefCell<bool>> = use_mut_ref(|| false);
    // What a time chart's slider last told assistive technology (`paint_layer`).
    let told: Rc<RefCell<Option<Told>>> = use_mut_ref(|| None);

    // A chart out of view waits until a dragged slider pauses before it is drawn
    // (`worker::client::PAUSE_MS`): drawing only the charts on screen keeps each new run within
    // a frame and leaves the cores to the workers, and charts drawn after each run would be
    // drawn between every two runs slower than a pause (a BBR preset's, 0.2 s and more). The
    // others catch up once the drag pauses, or at once, the next time they are in view and a
    // run arrives; a newer run replaces the one a chart was waiting to draw.
    let waiting: Rc<RefCell<Option<crate::Timer>>> = use_mut_ref(|| None);
    {
        let (base, over, drawn, cursor_now, draws, pointer_y, pointed) = (
            base.clone(),
            over.clone(),
            drawn.clone(),
            cursor_now.clone(),
            draws.clone(),
            pointer_y.clone(),
            pointed.clone(),
        );
        let on_drawn = props.on_drawn.clone();
        let (waiting, told) = (waiting.clone(), told.clone());
        use_effect_with(
            (props.figure.clone(), props.layout),
            move |(figure, layout)| {
                waiting.borrow_mut().take();
                let st = Style::new(layout.dpr, layout.text_px);
                let (Some(b), Some(o)) = (
                    base.cast::<HtmlCanvasElement>(),
                    over.cast::<HtmlCanvasElement>(),
                ) else {
                    return;
                };
                let key = (figure.clone(), st, b.client_width());
                if last.borrow().as_ref() == Some(&key) {
                    on_drawn.emit(());
                    return;
                }
                let in_view = in_view(&b);
                // Read by the container's `mark_drawn`, which must not measure the page again
                // once the chart is painted (that would lay it out a second time).
                let _ = b.set_attribute("data-in-view", if in_view { "1" } else { "0" });
                let figure = figure.clone();
                let draw = move || {
                    let started = now_ms();
                    let result = paint(&*figure, &b, &o, &st);
                    let took = now_ms() - started;
                    let frame = result.ok();
                    if let Some(f) = &frame {
                        let now = *cursor_now.borrow();
                        let at = (*pointer_y.borrow(), *pointed.borrow());
                        paint_layer(&*figure, &b, &o, f, &st, now, at, &told);
                    }
                    *drawn.borrow_mut() = frame.map(|f| (f, st));
                    let query = figure.ctx().view.query.clone();
                    *last.borrow_mut() = Some(key.clone());
                    let n = {
                        let mut d = draws.borrow_mut();
                        *d += 1;
                        *d
                    };
                    let _ = b.set_attribute("data-draws", &n.to_string());
                    let _ = b.set_attribute("data-draw-ms", &format!("{took:.2}"));
                    // The text size drawn at, in CSS pixels (the presenter's mode reads it).
                    let _ = b.set_attribute("data-font-px", &format!("{:.1}", st.font_css));
                    let _ = b.set_attribute("data-drawn", &query);
                    on_drawn.emit(());
                };
                let draw = Rc::new(draw);
                let later = if in_view {
                    None
                } else {
                    let draw = draw.clone();
                    use crate::worker::client::{charts_paused, PAUSE_MS};
                    crate::once_settled(PAUSE_MS as i32, charts_paused, move || draw())
                };
                match later {
                    Some(timer) => *waiting.borrow_mut() = Some(timer),
                    // In view, or no window to time on: drawn now.
                    None => draw(),
                }
            },
        );
    }
    // Repaints the cursor layer: the cursor's line, the part after the player's time and the
    // readout, for the pointer's height on this chart if it is over it.
    let repaint = {
        let (base, over, drawn, pointer_y, cursor_now, pointed) = (
            base.clone(),
            over.clone(),
            drawn.clone(),
            pointer_y.clone(),
            cursor_now.clone(),
            pointed.clone(),
        );
        let figure = props.figure.clone();
        let told = told.clone();
        Rc::new(move || {
            if let (Some(b), Some(o), Some((frame, st))) = (
                base.cast::<HtmlCanvasElement>(),
                over.cast::<HtmlCanvasElement>(),
                drawn.borrow().as_ref(),
            ) {
                let started = now_ms();
                let now = *cursor_now.borrow();
                let at = (*pointer_y.borrow(), *pointed.borrow());
                paint_layer(&*figure, &b, &o, frame, st, now, at, &told);
                let _ = o.set_attribute("data-paint-ms", &format!("{:.2}", now_ms() - started));
            }
        })
    };
    {
        let repaint = repaint.clone();
        use_effect_with((cursor_ms, until, veil, step), move |_| repaint());
    }

    // A drag across a time chart selects the range to zoom to: where it began (CSS px, and
    // whether it has moved far enough to be a drag rather than a click).
    let band = use_state_eq(|| None::<(f64, f64)>);
    let dragged = use_mut_ref(|| false);
    // The fingers on the chart (pointer id, CSS x) and the pinch they make, once there are two.
    let touches = use_mut_ref(Vec::<(i32, f64)>::new);
    let pinch = use_mut_ref(|| None::<Pinch>);
    let pointer = timed.then(|| {
        let (base, drawn, last) = (base.clone(), drawn.clone(), last_emitted.clone());
        let (pointer_y, repaint) = (pointer_y.clone(), repaint.clone());
        let pointed = pointed.clone();
        let on_cursor = props.on_cursor.clone();
        let (band, dragged) = (band.clone(), dragged.clone());
        let (touches, pinch, on_zoom) = (touches.clone(), pinch.clone(), props.on_zoom.clone());
        Callback::from(move |e: PointerEvent| {
            let (Some(canvas), Some((frame, st))) =
                (base.cast::<HtmlCanvasElement>(), drawn.borrow().clone())
            else {
                return;
            };
            let x = f64::from(e.offset_x());
            if e.pointer_type() == "touch" {
                let mut t = touches.borrow_mut();
                if let Some(finger) = t.iter_mut().find(|f| f.0 == e.pointer_id()) {
                    finger.1 = x;
                }
                if let (Some(p), Some(on_zoom), [a, b]) = (*pinch.borrow(), &on_zoom, &t[..]) {
                    // A pinch zooms around the fingers, as Ctrl+wheel around the pointer.
                    let scale = device_per_css(&canvas, &st);
                    let plot = (frame.left() / scale, frame.right() / scale);
                    if let Some(r) = pinched(p.range, plot, p.start, (a.1, b.1)) {
                        on_zoom.emit(Some(r));
                    }
                    return;
                }
            }
            if let Some((from, _)) = *band {
                if e.buttons() & 1 == 1 {
                    if (x - from).abs() >= DRAG_CSS_PX {
                        *dragged.borrow_mut() = true;
                    }
                    band.set(Some((from, x)));
                } else {
                    band.set(None);
                }
            }
            let t = time_at(&frame, &st, &canvas, x);
            let y = value_at_y(&frame, &st, &canvas, f64::from(e.offset_y()));
            let moved_up_or_down = *pointer_y.borrow() != y;
            *pointer_y.borrow_mut() = y;
            *pointed.borrow_mut() = true;
            if *last.borrow() != t {
                *last.borrow_mut() = t;
                on_cursor.emit(t);
            } else if moved_up_or_down {
                // The same instant, another height: a point of a burst sent at one instant.
                repaint();
            }
        })
    });
    let press = timed.then(|| {
        let pointer = pointer.clone();
        let (band, dragged) = (band.clone(), dragged.clone());
        let zooms = props.on_zoom.is_some();
        let (touches, pinch, drawn) = (touches.clone(), pinch.clone(), drawn.clone());
        Callback::from(move |e: PointerEvent| {
            if zooms && e.pointer_type() == "touch" {
                let mut t = touches.borrow_mut();
                t.retain(|f| f.0 != e.pointer_id());
                t.push((e.pointer_id(), f64::from(e.offset_x())));
                if let ([a, b], Some((frame, _))) = (&t[..], drawn.borrow().as_ref()) {
                    if let Some(el) = e.target_dyn_into::<web_sys::Element>() {
                        let _ = el.set_pointer_capture(e.pointer_id());
                    }
                    *pinch.borrow_mut() = Some(Pinch {
                        start: (a.1, b.1),
                        range: (frame.x.lo, frame.x.hi),
                    });
                    return;
                }
            }
            // A finger's drag scrolls the page; a mouse's or a pen's selects.
            if zooms && e.button() == 0 && e.pointer_type() != "touch" {
                // The drag goes on past the chart's edge and still ends here.
                if let Some(t) = e.target_dyn_into::<web_sys::Element>() {
                    let _ = t.set_pointer_capture(e.pointer_id());
                }
                *dragged.borrow_mut() = false;
                band.set(Some((f64::from(e.offset_x()), f64::from(e.offset_x()))));
            }
            if let Some(p) = &pointer {
                p.emit(e);
            }
        })
    });
    let release = timed
        .then(|| props.on_zoom.clone())
        .flatten()
        .map(|on_zoom| {
            let (base, drawn, band, dragged) =
                (base.clone(), drawn.clone(), band.clone(), dragged.clone());
            let (touches, pinch) = (touches.clone(), pinch.clone());
            Callback::from(move |e: PointerEvent| {
                if e.pointer_type() == "touch" {
                    lift(&touches, &pinch, e.pointer_id());
                    return;
                }
                let Some((from, _)) = *band else { return };
                band.set(None);
                if !*dragged.borrow() {
                    return;
                }
                let (Some(canvas), Some((frame, st))) =
                    (base.cast::<HtmlCanvasElement>(), drawn.borrow().clone())
                else {
                    return;
                };
                let to = f64::from(e.offset_x());
                let a = time_at(&frame, &st, &canvas, from.min(to));
                let b = time_at(&frame, &st, &canvas, from.max(to));
                let (a, b) = match (a, b) {
                    (Some(a), Some(b)) => (a, b),
                    (None, Some(b)) => (frame.x.lo, b),
                    (Some(a), None) => (a, frame.x.hi),
                    (None, None) => return,
                };
                if b > a {
                    on_zoom.emit(Some((a, b)));
                }
            })
        });
    let cancel = timed.then(|| {
        let (touches, pinch) = (touches.clone(), pinch.clone());
        Callback::from(move |e: PointerEvent| lift(&touches, &pinch, e.pointer_id()))
    });
    let reset = timed
        .then(|| props.on_zoom.clone())
        .flatten()
        .map(|on_zoom| Callback::from(move |_: MouseEvent| on_zoom.emit(None)));
    let wheel = timed
        .then(|| props.on_zoom.clone())
        .flatten()
        .map(|on_zoom| {
            let (base, drawn) = (base.clone(), drawn.clone());
            Callback::from(move |e: WheelEvent| {
                // Ctrl+wheel (and a trackpad's pinch, which the browser sends as one) zooms
                // around the pointer, Shift+wheel pans; a plain wheel scrolls the page.
                if !(e.ctrl_key() || e.shift_key()) {
                    return;
                }
                let (Some(canvas), Some((frame, st))) =
                    (base.cast::<HtmlCanvasElement>(), drawn.borrow().clone())
                else {
                    return;
                };
                e.prevent_default();
                let (lo, hi) = (frame.x.lo, frame.x.hi);
                let width = hi - lo;
                if e.ctrl_key() {
                    let at = time_at(&frame, &st, &canvas, f64::from(e.offset_x()))
                        .unwrap_or((lo + hi) / 2.0);
                    let factor = (e.delta_y() * 0.01).clamp(-1.0, 1.0).exp();
                    let (a, b) = (at - (at - lo) * factor, at + (hi - at) * factor);
                    on_zoom.emit(Some((a, b)));
                } else {
                    let delta = if e.delta_x().abs() > e.delta_y().abs() {
                        e.delta_x()
                    } else {
                        e.delta_y()
                    };
                    let shift = width * (delta / 500.0).clamp(-0.5, 0.5);
                    on_zoom.emit(Some((lo + shift, hi + shift)));
                }
            })
        });
    // The keyboard's cursor: the layer takes the focus, and a key moves the cursor as the
    // pointer does (`key_cursor`); its readout is the layer's aria-valuetext (`paint_layer`).
    let keyed: Rc<RefCell<bool>> = use_mut_ref(|| false);
    let key = timed.then(|| {
        let (drawn, last, keyed) = (drawn.clone(), last_emitted.clone(), keyed.clone());
        let (pointed, pointer_y) = (pointed.clone(), pointer_y.clone());
        let (on_cursor, on_seek) = (props.on_cursor.clone(), props.on_seek.clone());
        let cursor_now = cursor_now.clone();
        Callback::from(move |e: KeyboardEvent| {
            // A lesson's keys (Page Up and Down) are taken before they reach the chart.
            if e.default_prevented() {
                return;
            }
            let Some((frame, _)) = drawn.borrow().clone() else {
                return;
            };
            // From the cursor on show, wherever the pointer or another chart's keys left it.
            let (now, until, _, _) = *cursor_now.borrow();
            let range = slider_range(&frame, until);
            match key_cursor(&e.key(), e.shift_key(), now, range) {
                Some(KeyCursor::To(t)) => {
                    e.prevent_default();
                    *keyed.borrow_mut() = true;
                    *pointed.borrow_mut() = true;
                    *pointer_y.borrow_mut() = None;
                    *last.borrow_mut() = Some(t);
                    on_cursor.emit(Some(t));
                }
                Some(KeyCursor::Clear) => {
                    e.prevent_default();
                    *last.borrow_mut() = None;
                    on_cursor.emit(None);
                }
                Some(KeyCursor::Seek(t)) => {
                    if let Some(on_seek) = &on_seek {
                        e.prevent_default();
                        on_seek.emit(t);
                    }
                }
                None => {}
            }
        })
    });
    let blur = timed.then(|| {
        let (last, keyed, pointed) = (last_emitted.clone(), keyed.clone(), pointed.clone());
        let (on_cursor, cursor_now) = (props.on_cursor.clone(), cursor_now.clone());
        Callback::from(move |_: FocusEvent| {
            // The cursor the keys placed goes with the focus, as the pointer's goes when it
            // leaves the chart; one the pointer has since placed elsewhere stays.
            if std::mem::take(&mut *keyed.borrow_mut()) {
                *pointed.borrow_mut() = false;
                let placed = last.borrow_mut().take();
                if placed.is_some() && cursor_now.borrow().0 == placed {
                    on_cursor.emit(None);
                }
            }
        })
    });
    let leave = timed.then(|| {
        let last = last_emitted.clone();
        let on_cursor = props.on_cursor.clone();
        let (pointer_y, pointed) = (pointer_y.clone(), pointed.clone());
        Callback::from(move |e: PointerEvent| {
            // A finger lifts off the screen as it taps: the readout it asked for stays until the
            // next tap, as a hover's stays while the mouse rests.
            if e.pointer_type() == "touch" {
                return;
            }
            *pointer_y.borrow_mut() = None;
            *pointed.borrow_mut() = false;
            if last.borrow_mut().take().is_some() {
                on_cursor.emit(None);
            }
        })
    });
    let click = timed
        .then(|| props.on_seek.clone())
        .flatten()
        .map(|on_seek| {
            let (base, drawn, dragged) = (base.clone(), drawn.clone(), dragged.clone());
            Callback::from(move |e: MouseEvent| {
                // The click that ends a drag zoomed; it does not move the player too.
                if std::mem::take(&mut *dragged.borrow_mut()) {
                    return;
                }
                let (Some(canvas), Some((frame, st))) =
                    (base.cast::<HtmlCanvasElement>(), drawn.borrow().clone())
                else {
                    return;
                };
                if let Some(t) = time_at(&frame, &st, &canvas, f64::from(e.offset_x())) {
                    on_seek.emit(t);
                }
            })
        });

    {
        // The wheel is listened to directly, not passively, so that a zoom does not also
        // scroll the page (a passive listener cannot prevent it).
        let latest = use_mut_ref(|| None::<Callback<WheelEvent>>);
        *latest.borrow_mut() = wheel;
        let over = over.clone();
        use_effect_with((), move |_| {
            let listener = over.cast::<HtmlCanvasElement>().map(|canvas| {
                gloo_events::EventListener::new_with_options(
                    &canvas,
                    "wheel",
                    gloo_events::EventListenerOptions::enable_prevent_default(),
                    move |e| {
                        if let (Some(e), Some(cb)) =
                            (e.dyn_ref::<WheelEvent>(), latest.borrow().as_ref())
                        {
                            cb.emit(e.clone());
                        }
                    },
                )
            });
            move || drop(listener)
        });
    }
    let figure = &props.figure;
    let st = Style::new(props.layout.dpr, props.layout.text_px);
    let css_w = match props.layout.width {
        w if w > 0 => f64::from(w),
        _ => FALLBACK_WIDTH,
    };
    let height = css_height(figure.height(), css_w, &st);
    let lang = figure.ctx().lang;
    html! {
        <figure class={classes!("tl-chart", format!("tl-chart-{}", figure.kind()))} data-chart={figure.kind()}
            style="margin:0 0 18px">
            <figcaption class="tl-chart-title" style="margin:0 0 4px" title={figure.tip()}>
                <strong>{ figure.title() }</strong>
                if let Some(note) = figure.note() {
                    <span class="tl-chart-note" style="margin-left:10px;font-size:0.87em;opacity:0.75">
                        { note }
                    </span>
                }
                if let Some(controls) = props.controls.clone() {
                    // Its own empty title: the caption's tooltip explains the chart, not the control.
                    <span class="tl-chart-controls" title="">{ controls }</span>
                }
            </figcaption>
            <div style="position:relative">
                if let Some(svg) = prerendered(&**figure) {
                    { svg }
                } else {
                    <canvas ref={base} class="chart-base" role="img"
                        aria-label={format!("{} ({})", figure.title(), lang.pick("chart", "图表"))}
                        style={format!("display:block;width:100%;height:{height}px")} />
                }
                <canvas ref={over} class="chart-cursor"
                    aria-hidden={(!timed).then_some("true")}
                    tabindex={timed.then_some("0")}
                    role={timed.then_some("slider")}
                    aria-label={timed.then(|| format!("{}: {}", figure.title(), lang.pick(
                        "time cursor; the arrow keys move it, Shift or Page Up and Down by longer steps, Home and End to the ends, Enter moves the player there, Escape clears it",
                        "时间光标：方向键移动，Shift 或 Page Up/Down 步长更大，Home 与 End 到两端，Enter 让播放器跳到这里，Esc 清除",
                    )))}
                    onkeydown={key} onblur={blur}
                    style={format!(
                        "position:absolute;left:0;top:0;width:100%;height:100%;touch-action:pan-y;{}",
                        if timed { "cursor:crosshair" } else { "" }
                    )}
                    onpointermove={pointer} onpointerdown={press} onpointerup={release}
                    onpointerleave={leave} onpointercancel={cancel} onclick={click} ondblclick={reset} />
                if let Some((a, b)) = *band {
                    <div class="zoom-band" aria-hidden="true"
                        style={format!("left:{}px;width:{}px", a.min(b), (a - b).abs())} />
                }
            </div>
        </figure>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    #[test]
    fn the_keys_move_the_cursor_across_the_view_as_a_slider_s_do() {
        let view = (1000.0, 3000.0);
        let to = |key: &str, coarse: bool, now: Option<f64>| key_cursor(key, coarse, now, view);
        // No cursor yet: the arrows start from the near end.
        assert_eq!(to("ArrowRight", false, None), Some(KeyCursor::To(1000.0)));
        assert_eq!(to("ArrowLeft", false, None), Some(KeyCursor::To(3000.0)));
        // A hundredth of the view a press, a tenth with Shift or Page Up and Down.
        assert_eq!(
            to("ArrowRight", false, Some(1500.0)),
            Some(KeyCursor::To(1520.0))
        );
        assert_eq!(
            to("ArrowDown", false, Some(1500.0)),
            Some(KeyCursor::To(1480.0))
        );
        assert_eq!(
            to("ArrowRight", true, Some(1500.0)),
            Some(KeyCursor::To(1700.0))
        );
        assert_eq!(
            to("PageDown", false, Some(1500.0)),
            Some(KeyCursor::To(1300.0))
        );
        // Never past the view's ends, and a cursor outside a zoomed view comes back into it.
        assert_eq!(
            to("ArrowRight", true, Some(2950.0)),
            Some(KeyCursor::To(3000.0))
        );
        assert_eq!(
            to("ArrowLeft", false, Some(200.0)),
            Some(KeyCursor::To(1000.0))
        );
        assert_eq!(to("Home", false, Some(2000.0)), Some(KeyCursor::To(1000.0)));
        assert_eq!(to("End", false, None), Some(KeyCursor::To(3000.0)));
        // Escape and Enter need a cursor; other keys are left to the page.
        assert_eq!(to("Escape", false, Some(2000.0)), Some(KeyCursor::Clear));
        assert_eq!(to("Escape", false, None), None);
        assert_eq!(
            to("Enter", false, Some(2000.0)),
            Some(KeyCursor::Seek(2000.0))
        );
        assert_eq!(to("Enter", false, None), None);
        assert_eq!(to(" ", false, Some(2000.0)), None, "Space is the player's");
        assert_eq!(to("Tab", false, Some(2000.0)), None);
        assert_eq!(key_cursor("ArrowRight", false, None, (5.0, 5.0)), None);
    }

    #[test]
    fn the_cursor_s_readout_is_said_in_one_line() {
        let readout = Readout {
            x: Some(1200.0),
            head: "1.2 s".into(),
            rows: vec![
                cursor::Row::new(RGBColor(0, 0, 0), "cwnd 64 KB", Some(64.0)),
                cursor::Row::new(RGBColor(0, 0, 0), "ssthresh 32 KB", None),
            ],
        };
        assert_eq!(
            spoken(Some(&readout), Lang::En),
            "1.2 s; cwnd 64 KB; ssthresh 32 KB"
        );
        assert_eq!(spoken(None, Lang::En), "no cursor: an arrow key places it");
        assert!(spoken(None, Lang::Zh).contains("方向键"));
    }
}
