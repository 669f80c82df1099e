//! The run's charts in a real browser: mounted on a real run, drawn, hidden when they do not
//! apply, repainting only the cursor layer when the cursor moves, never panicking on an empty or
//! odd view; and the helpers they draw with.
#![cfg(target_arch = "wasm32")]

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use tcplab::rate::MBytePerS;
use tcplab::view::{FlowView, MsgView, RunView, Theory, WindowPoint};
use tcplab::{run, RunOptions, Scenario};
use tcplab_web::charts::{axis, fmt, goodput, messages, series, Charts, ChartsProps};
use tcplab_web::i18n::Lang;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{
    CanvasRenderingContext2d, Element, HtmlCanvasElement, PointerEvent, PointerEventInit,
};
use yew::{AppHandle, Callback};

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("a document")
}

fn view(query: &str) -> Rc<RunView> {
    let s = Scenario::parse(query).expect("a valid scenario");
    Rc::new(RunView::new(&s, &run(&s, &RunOptions::default())))
}

struct Mounted {
    root: Element,
    app: AppHandle<Charts>,
    emitted: Rc<RefCell<Vec<Option<f64>>>>,
}

impl Mounted {
    fn new(view: Rc<RunView>, lang: Lang, cursor_ms: Option<f64>) -> Mounted {
        let root = document().create_element("div").expect("a root");
        root.set_attribute("style", "width:1000px").expect("style");
        document()
            .body()
            .expect("a body")
            .append_child(&root)
            .expect("mount");
        let emitted = Rc::new(RefCell::new(Vec::new()));
        let props = Self::props(view, lang, cursor_ms, &emitted);
        let app = yew::Renderer::<Charts>::with_root_and_props(root.clone(), props).render();
        Mounted { root, app, emitted }
    }

    fn props(
        view: Rc<RunView>,
        lang: Lang,
        cursor_ms: Option<f64>,
        emitted: &Rc<RefCell<Vec<Option<f64>>>>,
    ) -> ChartsProps {
        let emitted = emitted.clone();
        ChartsProps {
            view: tcplab_web::charts::ViewRef(view),
            lang,
            cursor_ms,
            until_ms: None,
            on_cursor: Callback::from(move |t| emitted.borrow_mut().push(t)),
            on_seek: None,
            follow_ms: None,
            veiled: false,
            horizon_ms: None,
            only: None,
            cursor_step: None,
        }
    }

    fn update(&mut self, view: Rc<RunView>, lang: Lang, cursor_ms: Option<f64>) {
        let props = Self::props(view, lang, cursor_ms, &self.emitted);
        self.app.update(props);
    }

    fn container(&self) -> Element {
        self.try_container().expect("the charts' container")
    }

    fn try_container(&self) -> Option<Element> {
        self.root.query_selector(".charts").ok().flatten()
    }

    /// Waits until the container says it is drawn for `query`.
    async fn drawn(&self, query: &str) {
        for _ in 0..200 {
            let drawn = self
                .try_container()
                .and_then(|c| c.get_attribute("data-drawn"));
            if drawn.as_deref() == Some(query) {
                return;
            }
            yew::platform::time::sleep(Duration::from_millis(25)).await;
        }
        panic!(
            "the charts were not drawn for {query:?} (data-drawn = {:?})",
            self.try_container().map(|c| c.get_attribute("data-drawn"))
        );
    }

    fn kinds(&self) -> Vec<String> {
        self.charts().into_iter().map(|(k, _)| k).collect()
    }

    fn charts(&self) -> Vec<(String, Element)> {
        let list = self
            .root
            .query_selector_all("[data-chart]")
            .expect("a query");
        (0..list.length())
            .filter_map(|i| list.item(i)?.dyn_into::<Element>().ok())
            .map(|e| (e.get_attribute("data-chart").unwrap_or_default(), e))
            .collect()
    }

    fn canvas(&self, kind: &str, class: &str) -> HtmlCanvasElement {
        self.root
            .query_selector(&format!("[data-chart='{kind}'] canvas.{class}"))
            .ok()
            .flatten()
            .and_then(|e| e.dyn_into().ok())
            .unwrap_or_else(|| panic!("no {class} canvas for {kind}"))
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        self.root.remove();
    }
}

/// The canvas's RGBA bytes: none for a canvas without a bitmap (a cursor layer with nothing to
/// show).
fn pixels(canvas: &HtmlCanvasElement) -> Vec<u8> {
    if canvas.width() == 0 || canvas.height() == 0 {
        return Vec::new();
    }
    let ctx: CanvasRenderingContext2d = canvas
        .get_context("2d")
        .expect("get_context")
        .expect("a 2d context")
        .dyn_into()
        .expect("a CanvasRenderingContext2d");
    ctx.get_image_data(0.0, 0.0, canvas.width().into(), canvas.height().into())
        .expect("image data")
        .data()
        .to_vec()
}

/// Pixels that are neither white nor transparent.
fn ink(canvas: &HtmlCanvasElement) -> usize {
    pixels(canvas)
        .chunks(4)
        .filter(|p| p[3] > 0 && p[..3] != [255, 255, 255])
        .count()
}

async fn tick() {
    yew::platform::time::sleep(Duration::from_millis(60)).await;
}

#[wasm_bindgen_test]
async fn a_body_run_draws_its_charts_and_no_message_charts() {
    let v = view("");
    let m = Mounted::new(v.clone(), Lang::En, None);
    m.drawn(&v.query).await;
    assert_eq!(m.kinds(), ["cwnd", "goodput", "sequence", "rtt", "queue"]);
    for kind in m.kinds() {
        let base = m.canvas(&kind, "chart-base");
        assert!(base.width() >= 1000, "{kind} is {} px wide", base.width());
        let inked = ink(&base);
        assert!(inked > 3000, "{kind} has hardly any ink: {inked} pixels");
        assert_eq!(ink(&m.canvas(&kind, "chart-cursor")), 0, "{kind}: a cursor");
    }
    let at = m
        .container()
        .get_attribute("data-drawn-at")
        .and_then(|a| a.parse::<f64>().ok());
    assert!(at.is_some_and(|a| a > 0.0), "data-drawn-at = {at:?}");
}

#[wasm_bindgen_test]
async fn a_message_run_adds_the_latency_charts() {
    let v = view("app=msgs&rtt=100&loss=3&ackloss=3&count=300&every=10&dur=6");
    let m = Mounted::new(v.clone(), Lang::En, None);
    m.drawn(&v.query).await;
    assert_eq!(
        m.kinds(),
        [
            "cwnd",
            "goodput",
            "sequence",
            "latency",
            "latency-cdf",
            "rtt",
            "queue"
        ]
    );
    for kind in ["latency", "latency-cdf"] {
        let inked = ink(&m.canvas(kind, "chart-base"));
        assert!(inked > 3000, "{kind} has hardly any ink: {inked} pixels");
    }
}

#[wasm_bindgen_test]
async fn messages_over_udp_have_no_window_charts_but_a_whole_time_axis() {
    let v = view("app=msgs&conns=0&rtt=60&loss=5&count=200&every=5&dur=3");
    // UDP keeps no window: the run's own end is 0, the axis must still reach the last message.
    let last = v
        .messages
        .iter()
        .filter_map(|m| m.read_ms)
        .fold(0.0, f64::max);
    assert!(tcplab_web::charts::axis_end(&v) >= last && last > 900.0);
    let m = Mounted::new(v.clone(), Lang::En, None);
    m.drawn(&v.query).await;
    assert_eq!(m.kinds(), ["goodput", "latency", "latency-cdf", "queue"]);
}

#[wasm_bindgen_test]
async fn a_new_run_redraws_and_the_container_says_which() {
    let first = view("");
    let mut m = Mounted::new(first.clone(), Lang::En, None);
    m.drawn(&first.query).await;
    let before = pixels(&m.canvas("cwnd", "chart-base"));
    let second = view("iw=40&body=500000");
    m.update(second.clone(), Lang::En, None);
    m.drawn(&second.query).await;
    assert_ne!(pixels(&m.canvas("cwnd", "chart-base")), before);
    // And a message run after a body run grows the message charts.
    let msgs = view("app=msgs&count=50&dur=2");
    m.update(msgs.clone(), Lang::En, None);
    m.drawn(&msgs.query).await;
    assert!(m.kinds().contains(&"latency".to_string()));
}

#[wasm_bindgen_test]
async fn the_cursor_repaints_only_its_layer() {
    let v = view("");
    let mut m = Mounted::new(v.clone(), Lang::En, None);
    m.drawn(&v.query).await;
    let kinds = m.kinds();
    let bases: Vec<_> = kinds
        .iter()
        .map(|k| {
            let c = m.canvas(k, "chart-base");
            (c.get_attribute("data-draws"), pixels(&c))
        })
        .collect();

    m.update(v.clone(), Lang::En, Some(150.0));
    tick().await;
    for (k, before) in kinds.iter().zip(&bases) {
        let base = m.canvas(k, "chart-base");
        assert_eq!(
            base.get_attribute("data-draws"),
            before.0,
            "{k} was redrawn"
        );
        assert!(pixels(&base) == before.1, "{k}'s chart changed");
        let over = m.canvas(k, "chart-cursor");
        let inked = ink(&over);
        assert!(inked > 100, "{k}: no cursor ({inked} pixels)");
        // The cursor layer takes its chart's size to show the cursor.
        assert_eq!(
            (over.width(), over.height()),
            (base.width(), base.height()),
            "{k}: the cursor layer's bitmap"
        );
    }
    let cursor_at_150 = pixels(&m.canvas("cwnd", "chart-cursor"));

    m.update(v.clone(), Lang::En, Some(60.0));
    tick().await;
    assert_ne!(pixels(&m.canvas("cwnd", "chart-cursor")), cursor_at_150);

    m.update(v.clone(), Lang::En, None);
    tick().await;
    for k in &kinds {
        let over = m.canvas(k, "chart-cursor");
        assert_eq!(ink(&over), 0, "{k} kept its cursor");
        // With nothing to show, the layer holds no bitmap for the browser to copy at each frame.
        assert_eq!((over.width(), over.height()), (0, 0), "{k}: a bitmap kept");
    }
}

fn pointer(kind: &str, canvas: &HtmlCanvasElement, fraction: f64) -> PointerEvent {
    let rect = canvas.get_bounding_client_rect();
    let init = PointerEventInit::new();
    init.set_bubbles(true);
    init.set_client_x((rect.left() + rect.width() * fraction).round() as i32);
    init.set_client_y((rect.top() + rect.height() / 2.0).round() as i32);
    PointerEvent::new_with_event_init_dict(kind, &init).expect("a pointer event")
}

#[wasm_bindgen_test]
async fn hovering_a_chart_moves_the_shared_cursor() {
    let v = view("");
    let m = Mounted::new(v.clone(), Lang::En, None);
    m.drawn(&v.query).await;
    let over = m.canvas("goodput", "chart-cursor");
    over.dispatch_event(&pointer("pointermove", &over, 0.5))
        .expect("dispatch");
    let t = m.emitted.borrow().last().copied().flatten();
    let t = t.expect("a time under the pointer");
    assert!(t > 0.0 && t < v.end_ms, "{t} outside 0..{}", v.end_ms);
    // Left of the plot, over the axis labels, is no time at all.
    over.dispatch_event(&pointer("pointermove", &over, 0.01))
        .expect("dispatch");
    assert_eq!(m.emitted.borrow().last().copied(), Some(None));
    over.dispatch_event(&pointer("pointermove", &over, 0.6))
        .expect("dispatch");
    over.dispatch_event(&pointer("pointerleave", &over, 0.6))
        .expect("dispatch");
    assert_eq!(m.emitted.borrow().last().copied(), Some(None));
}

#[wasm_bindgen_test]
async fn a_narrower_container_redraws_narrower() {
    let v = view("");
    let m = Mounted::new(v.clone(), Lang::En, None);
    m.drawn(&v.query).await;
    let wide = m.canvas("cwnd", "chart-base").width();
    m.root.set_attribute("style", "width:700px").expect("style");
    for _ in 0..40 {
        tick().await;
        if m.canvas("cwnd", "chart-base").width() < wide {
            break;
        }
    }
    let narrow = m.canvas("cwnd", "chart-base");
    assert!(narrow.width() < wide, "{} then {}", wide, narrow.width());
    assert!(ink(&narrow) > 3000);
}

#[wasm_bindgen_test]
async fn a_larger_root_font_draws_larger_charts() {
    let v = view("");
    let m = Mounted::new(v.clone(), Lang::En, None);
    m.drawn(&v.query).await;
    let normal = m.canvas("cwnd", "chart-base").height();
    let html = document().document_element().expect("<html>");
    // What a projector setting does: a larger root size, through a class or a style.
    html.set_attribute("style", "font-size:24px")
        .expect("style");
    let mut large = normal;
    for _ in 0..40 {
        tick().await;
        large = m.canvas("cwnd", "chart-base").height();
        if large > normal {
            break;
        }
    }
    html.remove_attribute("style").expect("style");
    assert!(large * 2 >= normal * 3, "{normal} px, then {large} px");
}

#[wasm_bindgen_test]
async fn the_chinese_page_labels_its_charts_in_chinese() {
    let v = view("");
    let m = Mounted::new(v.clone(), Lang::Zh, None);
    m.drawn(&v.query).await;
    let text = m.root.text_content().unwrap_or_default();
    assert!(text.contains("拥塞窗口"), "{text}");
    assert!(text.contains("有效吞吐量"), "{text}");
}

fn empty_theory() -> Theory {
    Theory {
        rtt_ms: 0.0,
        mss: 0,
        bdp_bytes: 0.0,
        rwnd_bytes: 0.0,
        link_mbps: MBytePerS(0.0),
        link_varies: false,
        window_limit_mbps: MBytePerS(0.0),
        mathis_mbps: None,
        slow_start: Vec::new(),
        aqm: tcplab::Aqm::Fifo,
        queue_target_ms: None,
        packet_ms: 0.0,
        full_queue_ms: 0.0,
    }
}

fn flow(window: Vec<WindowPoint>, goodput: Vec<(f64, f64)>) -> FlowView {
    FlowView {
        window,
        sends: Vec::new(),
        retransmits: Vec::new(),
        acks: Vec::new(),
        sacks: Vec::new(),
        sack_blocks: Vec::new(),
        rtt: Vec::new(),
        goodput,
        bin_ms: 0.0,
        cubic: Vec::new(),
        bbr: Vec::new(),
    }
}

#[wasm_bindgen_test]
async fn odd_views_draw_without_panicking() {
    let base = view("app=msgs&count=20&dur=1");
    let point = |t: f64, v: f64| WindowPoint {
        t,
        cwnd: v,
        ssthresh: Some(v),
        in_flight: v,
        rwnd: v,
        srtt_ms: Some(v),
        rto_ms: v,
    };
    let nothing = RunView {
        query: "odd=nothing".into(),
        theory: empty_theory(),
        flows: Vec::new(),
        queue: Vec::new(),
        drops: Vec::new(),
        sojourn: Vec::new(),
        marks: Vec::new(),
        probe: Vec::new(),
        messages: Vec::new(),
        hol: Vec::new(),
        end_ms: 0.0,
        ..(*base).clone()
    };
    let one_point = RunView {
        query: "odd=one-point".into(),
        flows: vec![flow(vec![point(0.0, 1.0)], vec![(0.0, 1.0)])],
        queue: vec![(0.0, 0.0)],
        messages: vec![MsgView {
            id: 0,
            conn: 0,
            write_ms: 0.0,
            read_ms: Some(0.0),
            held_by: None,
        }],
        ..nothing.clone()
    };
    let not_numbers = RunView {
        query: "odd=nan".into(),
        theory: Theory {
            rtt_ms: f64::NAN,
            bdp_bytes: f64::INFINITY,
            link_mbps: MBytePerS(f64::NAN),
            mathis_mbps: Some(MBytePerS(f64::NAN)),
            slow_start: vec![(f64::NAN, MBytePerS(1.0)), (1.0, MBytePerS(f64::INFINITY))],
            queue_target_ms: Some(f64::NAN),
            packet_ms: f64::INFINITY,
            full_queue_ms: f64::NAN,
            ..empty_theory()
        },
        sojourn: vec![(f64::NAN, 1.0), (1.0, f64::INFINITY), (2.0, -3.0)],
        probe: vec![(1.0, f64::NAN), (f64::INFINITY, 2.0)],
        flows: vec![flow(
            vec![
                point(f64::NAN, 1.0),
                point(1.0, f64::INFINITY),
                point(2.0, -5.0),
            ],
            vec![(0.0, f64::NAN), (f64::NAN, 3.0)],
        )],
        queue: vec![(f64::NAN, 1.0), (1.0, f64::NAN)],
        messages: vec![MsgView {
            id: 0,
            conn: 0,
            write_ms: f64::NAN,
            read_ms: None,
            held_by: Some(7),
        }],
        end_ms: f64::NAN,
        ..nothing.clone()
    };
    let mut m = Mounted::new(Rc::new(nothing.clone()), Lang::En, Some(10.0));
    m.drawn(&nothing.query).await;
    assert!(
        m.kinds().contains(&"latency".to_string()),
        "{:?}",
        m.kinds()
    );
    for v in [one_point, not_numbers] {
        let q = v.query.clone();
        m.update(Rc::new(v.clone()), Lang::En, Some(0.5));
        m.drawn(&q).await;
        m.update(Rc::new(v), Lang::Zh, Some(f64::NAN));
        tick().await;
    }
}

#[wasm_bindgen_test]
async fn drawing_is_quick_enough_to_follow_a_slider() {
    for query in [
        "preset=random-loss-bbr",
        "preset=hol-blocking",
        "preset=multi-flow",
    ] {
        let v = view(query);
        let mut m = Mounted::new(v.clone(), Lang::En, None);
        m.drawn(&v.query).await;
        let mut total = 0.0;
        let mut each = Vec::new();
        for kind in m.kinds() {
            let ms: f64 = m
                .canvas(&kind, "chart-base")
                .get_attribute("data-draw-ms")
                .and_then(|a| a.parse().ok())
                .expect("a drawing time");
            each.push(format!("{kind} {ms:.1}"));
            total += ms;
        }
        m.update(v.clone(), Lang::En, Some(v.end_ms / 2.0));
        tick().await;
        let cursor: f64 = m
            .canvas("cwnd", "chart-cursor")
            .get_attribute("data-paint-ms")
            .and_then(|a| a.parse().ok())
            .expect("a cursor time");
        console_log!(
            "{query}: all charts {total:.1} ms ({}); the cursor on cwnd {cursor:.2} ms",
            each.join(", ")
        );
        // Generous for unoptimised test builds on a slow machine.
        assert!(total < 4000.0, "{query}: drawing took {total} ms");
        assert!(cursor < 50.0, "{query}: the cursor took {cursor} ms");
    }
}

#[wasm_bindgen_test]
fn step_lines_hold_each_value() {
    let s = series::steps(&[(0.0, 1.0), (2.0, 3.0)], 5.0);
    assert_eq!(s, [(0.0, 1.0), (2.0, 1.0), (2.0, 3.0), (5.0, 3.0)]);
    assert!(series::steps(&[], 5.0).is_empty());
    assert_eq!(series::value_at(&[(1.0, 7.0), (3.0, 9.0)], 2.5), Some(7.0));
    assert_eq!(series::value_at(&[(1.0, 7.0)], 0.5), None);
}

#[wasm_bindgen_test]
fn thinning_keeps_every_peak() {
    let pts: Vec<_> = (0..10_000)
        .map(|i| (f64::from(i), if i == 5_001 { 99.0 } else { 1.0 }))
        .collect();
    let d = series::decimate(&pts, 0.0, 10_000.0, 100);
    assert!(d.len() <= 400, "{}", d.len());
    assert!(d.contains(&(5_001.0, 99.0)));
    let cols = series::envelope(&series::steps(&pts, 10_000.0), 0.0, 10_000.0, 100);
    assert_eq!(cols.len(), 100);
    let peak = &cols[50];
    assert_eq!((peak.lo, peak.hi), (1.0, 99.0));
    assert!((peak.mean - 1.98).abs() < 1e-9, "{}", peak.mean);
}

#[wasm_bindgen_test]
fn the_envelope_covers_every_column_and_keeps_the_area() {
    // 243.5 / 860 is not representable: column edges must not divide back to the column before.
    let line = series::steps(
        &[(0.0, 0.0), (28.0, 5.0), (200.0, 321.0), (224.2, 6.0)],
        243.5,
    );
    let exact: f64 = line
        .windows(2)
        .map(|w| (w[1].0 - w[0].0) * (w[0].1 + w[1].1) / 2.0)
        .sum();
    for n in [7, 860, 1000, 1026] {
        let cols = series::envelope(&line, 0.0, 243.5, n);
        assert_eq!(cols.len(), n);
        let area: f64 = cols.iter().map(|c| c.mean).sum::<f64>() * 243.5 / n as f64;
        assert!(
            (area - exact).abs() < 1e-6 * exact,
            "{n}: {area} vs {exact}"
        );
    }
}

#[wasm_bindgen_test]
fn clipping_cuts_where_a_line_leaves_the_frame() {
    let p = series::clip_y(&[(0.0, 0.0), (1.0, 2.0), (2.0, 0.0)], 0.0, 1.0);
    assert_eq!(
        p,
        [vec![(0.0, 0.0), (0.5, 1.0)], vec![(1.5, 1.0), (2.0, 0.0)]]
    );
    assert!(series::clip_y(&[(0.0, 5.0), (1.0, 6.0)], 0.0, 1.0).is_empty());
    assert_eq!(
        series::clip_y(&[(0.0, 2.0), (2.0, -2.0)], -1.0, 1.0),
        [vec![(0.5, 1.0), (1.5, -1.0)]]
    );
}

#[wasm_bindgen_test]
fn smoothing_keeps_the_bytes_and_flattens_the_bursts() {
    // A burst every 4 bins: the smoothed rate is flat at a quarter of the burst.
    let bins: Vec<_> = (0..40)
        .map(|i| (f64::from(i) * 10.0, if i % 4 == 0 { 4.0 } else { 0.0 }))
        .collect();
    let s = goodput::smooth(&bins, 10.0, 4);
    assert_eq!(s.len(), bins.len());
    for &(_, r) in &s[4..32] {
        assert!((r - 1.0).abs() < 1e-9, "{r}");
    }
    assert!(goodput::smooth(&[], 10.0, 4).is_empty());
    // Nothing arrives for 50 ms (the handshake), then 2 MB/s: the line stays at zero until the
    // first bin that delivered, rather than rising a half window before it.
    let bins: Vec<_> = (0..40)
        .map(|i| (f64::from(i) * 10.0, if i < 5 { 0.0 } else { 2.0 }))
        .collect();
    let s = goodput::smooth(&bins, 10.0, 4);
    assert!(s[..5].iter().all(|&(_, r)| r == 0.0), "{:?}", &s[..6]);
    assert!(
        s[5].1 > 0.0 && (s[20].1 - 2.0).abs() < 1e-9,
        "{:?}",
        &s[4..21]
    );
}

#[wasm_bindgen_test]
fn axes_pick_round_ticks() {
    assert_eq!(axis::nice_ticks(10.0, 5), [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
    assert_eq!(axis::nice_ticks(0.0, 5), [0.0]);
    assert_eq!(axis::nice_ticks(f64::NAN, 5), [0.0]);
    // Too short a span for 1-2-5 ticks: every digit.
    assert_eq!(
        messages::log_tick_values(40.0, 400.0),
        [40.0, 50.0, 60.0, 70.0, 80.0, 90.0, 100.0, 200.0, 300.0, 400.0]
    );
    assert_eq!(
        messages::log_tick_values(1.0, 1000.0),
        [1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0]
    );
    assert!(messages::log_tick_values(0.0, 10.0).is_empty());
}

#[wasm_bindgen_test]
fn numbers_read_with_their_units() {
    assert_eq!(fmt::sig(0.103_237), "0.103");
    assert_eq!(fmt::sig(12.07), "12.1");
    assert_eq!(fmt::sig(1246.03), "1,246");
    assert_eq!(fmt::sig(f64::NAN), "–");
    assert_eq!(fmt::trim(2.50, 2), "2.5");
    assert_eq!(fmt::trim(-0.0001, 2), "0");
    // Digits grouped, as every number on the page.
    assert_eq!(fmt::trim(10_000_000.0, 0), "10,000,000");
    assert_eq!(fmt::trim(-1234.50, 2), "-1,234.5");
    assert_eq!(fmt::bytes(1_868_800.0), "1.87 MB");
    assert_eq!(fmt::time(243.5), "243.5 ms");
    assert_eq!(fmt::time(12_345.0), "12.345 s");
    let unit = fmt::ByteUnit::for_top(3_500_000.0);
    assert_eq!(
        (unit.tick(1_500_000.0), unit.name()),
        ("1.5".to_string(), "MB")
    );
    assert_eq!(fmt::segments(14_600.0, 1460, Lang::En), "10 seg");
}

#[wasm_bindgen_test]
fn the_plot_width_known_before_the_layout_is_the_one_laid_out() {
    use plotters::prelude::IntoDrawingArea;
    use tcplab_web::charts::draw;
    use tcplab_web::charts::style::Style;

    for (width, dpr) in [(1180, 1.0), (1001, 1.5), (777, 1.25), (320, 3.0)] {
        let canvas: HtmlCanvasElement = document()
            .create_element("canvas")
            .expect("a canvas")
            .dyn_into()
            .expect("a canvas element");
        canvas.set_width(width);
        canvas.set_height(400);
        let root = tcplab_web::charts::canvas2d::Canvas2d::new(&canvas)
            .expect("a backend")
            .into_drawing_area();
        let st = Style::new(dpr, 16.0);
        let before = axis::plot_columns(&root, &st);
        let tick = |v: f64| v.to_string();
        let y = axis::YAxis {
            bottom: 0.0,
            top: 10.0,
            desc: "y".to_string(),
            tick: &tick,
            right: None,
        };
        let (_, frame) =
            axis::time_chart(&root, &st, Lang::En, (0.0, 1000.0), &y, &[], 0).expect("laid out");
        assert_eq!(draw::plot_width(&frame, &st), before, "{width} px at {dpr}");
        assert_eq!(draw::columns(&frame, &st), before as usize);
    }
}

#[wasm_bindgen_test]
fn a_zoomed_range_cuts_lines_at_its_edges_and_stays_in_the_run() {
    use tcplab_web::charts::series::{clip_x, within};
    use tcplab_web::charts::{fit_range, MIN_SPAN_MS};
    let line = [(0.0, 0.0), (10.0, 10.0), (20.0, 0.0)];
    assert_eq!(
        clip_x(&line, 5.0, 15.0),
        vec![(5.0, 5.0), (10.0, 10.0), (15.0, 5.0)]
    );
    assert_eq!(clip_x(&line, -5.0, 25.0), line.to_vec());
    assert!(clip_x(&line, 30.0, 40.0).is_empty());
    assert_eq!(within(&line, 5.0, 15.0), &[(10.0, 10.0)]);
    // Ordered, inside the run, never narrower than the least span; the whole run is no zoom.
    assert_eq!(fit_range((15.0, 5.0), 20.0), Some((5.0, 15.0)));
    assert_eq!(fit_range((-5.0, 30.0), 20.0), None);
    assert_eq!(fit_range((0.0, 20.0), 20.0), None);
    let tiny = fit_range((10.0, 10.0), 20.0).expect("a range");
    assert!((tiny.1 - tiny.0 - MIN_SPAN_MS).abs() < 1e-12, "{tiny:?}");
    assert_eq!(fit_range((f64::NAN, 3.0), 20.0), None);
    // Panned or pinched past an edge, a range keeps its width and stops at the edge.
    assert_eq!(fit_range((-5.0, 5.0), 20.0), Some((0.0, 10.0)));
    assert_eq!(fit_range((15.0, 25.0), 20.0), Some((10.0, 20.0)));
    assert_eq!(fit_range((30.0, 35.0), 20.0), Some((15.0, 20.0)));
}

#[wasm_bindgen_test]
fn the_charts_follow_the_player_a_quarter_window_at_a_time() {
    use tcplab_web::charts::follow_window;
    assert_eq!(follow_window(100.0, 40.0), Some((80.0, 120.0)));
    // The window holds still while the player moves within it, then moves on by a quarter.
    assert_eq!(follow_window(107.0, 40.0), Some((80.0, 120.0)));
    assert_eq!(follow_window(109.0, 40.0), Some((90.0, 130.0)));
    // Never before the run's start; nothing for a window of nothing.
    assert_eq!(follow_window(5.0, 40.0), Some((0.0, 40.0)));
    assert_eq!(follow_window(5.0, 0.0), None);
    for t in [0.0, 33.3, 1234.5, 99_999.0] {
        let (lo, hi) = follow_window(t, 40.0).expect("a window");
        assert!(
            lo <= t && t <= hi && (hi - lo - 40.0).abs() < 1e-9,
            "{t}: {lo}..{hi}"
        );
    }
}

#[wasm_bindgen_test]
fn the_window_chart_draws_on_a_log_scale_from_half_a_segment_and_zoomed() {
    use plotters::prelude::IntoDrawingArea;
    use tcplab_web::charts::cwnd::Cwnd;
    use tcplab_web::charts::plot::Figure;
    use tcplab_web::charts::style::Style;
    use tcplab_web::charts::Ctx;

    let v = view("preset=post-slow-start");
    let draw = |ctx: Ctx| {
        let canvas: HtmlCanvasElement = document()
            .create_element("canvas")
            .expect("a canvas")
            .dyn_into()
            .expect("a canvas element");
        canvas.set_width(1000);
        canvas.set_height(300);
        let root = tcplab_web::charts::canvas2d::Canvas2d::new(&canvas)
            .expect("a backend")
            .into_drawing_area();
        Cwnd(ctx)
            .draw(&root, &Style::new(1.0, 16.0))
            .expect("drawn")
    };
    let mut log = Ctx::new(v.clone(), Lang::En);
    log.window_log = true;
    let frame = draw(log);
    // From half a 1460-byte segment up, in decades: the 4 MiB BDP is about 10^6.6.
    assert!((frame.y.lo - 730f64.log10()).abs() < 1e-9, "{:?}", frame.y);
    assert!(frame.y.hi > 6.0 && frame.y.hi < 7.5, "{:?}", frame.y);
    // Zoomed to the first flights: the axis fits them, far under the BDP.
    let zoomed = draw(Ctx::new(v, Lang::En).zoomed(Some((30.0, 130.0))));
    assert_eq!((zoomed.x.lo, zoomed.x.hi), (30.0, 130.0));
    assert!(
        zoomed.y.hi < 0.5e6,
        "fitted to the window in view: {:?}",
        zoomed.y
    );
}

#[wasm_bindgen_test]
fn a_point_of_the_time_sequence_graph_reads_as_its_segment() {
    use tcplab_web::charts::plot::{At, Figure};
    use tcplab_web::charts::sequence::Sequence;
    use tcplab_web::charts::style::Style;
    use tcplab_web::charts::Ctx;

    // The lesson: segment 20 of a 300 kB body is lost, then retransmitted.
    let v = view("cc=cubic&body=300000&drop=20");
    let sent_at = v.flows[0]
        .sends
        .iter()
        .find(|s| s.1 == 29_200.0)
        .map(|s| s.0)
        .expect("segment 20 was sent");
    let ctx = Ctx::new(v, Lang::En);
    let frame = tcplab_web::charts::frame::Frame {
        x: tcplab_web::charts::frame::Scale {
            lo: 0.0,
            hi: 1.0,
            log: false,
            px: 0..1,
        },
        y: tcplab_web::charts::frame::Scale {
            lo: 0.0,
            hi: 1.0,
            log: false,
            px: 0..1,
        },
        size: (1, 1),
    };
    let r = Sequence(ctx)
        .readout(At::new(sent_at, None, None), &frame, &Style::new(1.0, 16.0))
        .expect("a readout");
    let text: Vec<&str> = r.rows.iter().map(|row| row.text.as_str()).collect();
    assert!(
        text.iter()
            .any(|t| t.starts_with("segment 20 (bytes 27,741–29,200) sent at")),
        "{text:?}"
    );
    assert!(
        text.iter().any(|t| t.starts_with("retransmitted at")),
        "{text:?}"
    );
    assert!(text.iter().any(|t| t.starts_with("ACKed at")), "{text:?}");
    // The lost segment was never SACKed: the blocks above it left a hole where it was.
    assert!(!text.iter().any(|t| t.starts_with("SACKed")), "{text:?}");

    // Segments after it arrived first, and SACK said so: the block that first covered one,
    // and the ACKs that repeated it until the retransmission filled the hole. Segment 22 left
    // with 21, the last of its instant: the point read there.
    let v = view("cc=cubic&body=300000&drop=20");
    let next_at = v.flows[0]
        .sends
        .iter()
        .find(|s| s.1 == 32_120.0)
        .map(|s| s.0)
        .expect("segment 22 was sent");
    let seq = Sequence(Ctx::new(v, Lang::En));
    let r = seq
        .readout(At::new(next_at, None, None), &frame, &Style::new(1.0, 16.0))
        .expect("a readout");
    let text: Vec<&str> = r.rows.iter().map(|row| row.text.as_str()).collect();
    let sacked = text
        .iter()
        .find(|t| t.starts_with("SACKed at"))
        .unwrap_or_else(|| panic!("segment 22 was SACKed: {text:?}"));
    assert!(
        text.iter()
            .any(|t| t.starts_with("segment 22 (bytes 30,661–32,120)")),
        "{text:?}"
    );
    // 21 and 22 arrived one after the other: the ACK for 22 carried one block over both.
    assert!(
        sacked.contains("by the block of bytes 29,201–32,120, then by ")
            && sacked.ends_with("more ACKs' blocks"),
        "{text:?}"
    );
    // The pointer at the lower point of the two reads segment 21, and the block that first
    // covered it alone.
    let r = seq
        .readout(
            At::new(next_at, Some(30_500.0), None),
            &frame,
            &Style::new(1.0, 16.0),
        )
        .expect("a readout");
    let text: Vec<&str> = r.rows.iter().map(|row| row.text.as_str()).collect();
    assert!(
        text.iter()
            .any(|t| t.starts_with("segment 21 (bytes 29,201–30,660)")),
        "{text:?}"
    );
    assert!(
        text.iter()
            .any(|t| t.contains("by the block of bytes 29,201–30,660, then by ")),
        "{text:?}"
    );
}

#[wasm_bindgen_test]
fn a_pinch_zooms_around_the_fingers() {
    use tcplab_web::charts::plot::pinched;
    // A plot from 0 to 400 px showing 0 to 1000 ms; fingers at 150 and 250 (the instant 500
    // ms between them) spread to 100 and 300: twice as far apart, half the span, 500 ms still
    // between them.
    let r = pinched((0.0, 1000.0), (0.0, 400.0), (150.0, 250.0), (100.0, 300.0)).expect("a range");
    assert!(
        (r.0 - 250.0).abs() < 1e-9 && (r.1 - 750.0).abs() < 1e-9,
        "{r:?}"
    );
    // Moved together to the right by 100 px at the same spread: the instant follows them.
    let r = pinched((0.0, 1000.0), (0.0, 400.0), (150.0, 250.0), (250.0, 350.0)).expect("a range");
    assert!(
        (r.0 + 250.0).abs() < 1e-9 && (r.1 - 750.0).abs() < 1e-9,
        "{r:?}"
    );
    // Pinched in: twice the span.
    let r = pinched((0.0, 1000.0), (0.0, 400.0), (100.0, 300.0), (150.0, 250.0)).expect("a range");
    assert!(
        (r.0 + 500.0).abs() < 1e-9 && (r.1 - 1500.0).abs() < 1e-9,
        "{r:?}"
    );
    // Fingers on one spot measure nothing.
    assert_eq!(
        pinched((0.0, 1000.0), (0.0, 400.0), (200.0, 202.0), (100.0, 300.0)),
        None
    );
}

/// The charts share one component: its props tell two figures apart by type and by what they
/// draw, so a new run or another chart in the same place is drawn, and the same one is not.
#[wasm_bindgen_test]
fn figures_compare_by_kind_and_by_what_they_draw() {
    use tcplab_web::charts::plot::figure;
    use tcplab_web::charts::{cwnd::Cwnd, goodput::Goodput, Ctx};

    let v = view("preset=post-slow-start");
    let ctx = Ctx::new(v.clone(), Lang::En);
    assert!(figure(Cwnd(ctx.clone())) == figure(Cwnd(ctx.clone())));
    assert!(figure(Cwnd(ctx.clone())) != figure(Goodput(ctx.clone())));
    assert!(figure(Cwnd(ctx.clone())) != figure(Cwnd(Ctx::new(v, Lang::Zh))));
    assert_eq!(figure(Goodput(ctx)).kind(), "goodput");
}

/// The charts measure their text on a canvas, as wide as plotters' own measurement in the
/// document (which lays the page out for every call), to a pixel.
#[wasm_bindgen_test]
fn text_is_measured_as_the_document_lays_it_out() {
    use plotters::prelude::IntoDrawingArea;
    use tcplab_web::charts::measure::text_width;
    use tcplab_web::charts::style::{Style, INK};

    let canvas: HtmlCanvasElement = document()
        .create_element("canvas")
        .expect("a canvas")
        .dyn_into()
        .expect("a canvas element");
    let root = tcplab_web::charts::canvas2d::Canvas2d::new(&canvas)
        .expect("a backend")
        .into_drawing_area();
    for (dpr, font) in [(1.0, 16.0), (2.0, 16.0), (1.0, 24.0)] {
        let style = Style::new(dpr, font).text(1.0, INK);
        for text in [
            "cwnd",
            "the bandwidth-delay product",
            "拥塞窗口 (MSS)",
            "10⁶",
        ] {
            let ours = text_width(text, &style).expect("measured");
            let (theirs, _) = root.estimate_text_size(text, &style).expect("estimated");
            assert!(
                (ours - f64::from(theirs)).abs() <= 1.5,
                "{text} at {dpr}x {font}px: {ours} against {theirs}"
            );
        }
    }
    let style = Style::new(1.0, 16.0).text(1.0, INK);
    assert!(text_width("wider text", &style) > text_width("wide", &style));
}

/// A theory line is dashed by the canvas itself, in one stroke: its pixels along the line come
/// in dashes and gaps of the pen's lengths, and the line drawn after it is solid again.
#[wasm_bindgen_test]
fn a_dashed_line_is_dashed_by_the_canvas_and_leaves_the_next_line_solid() {
    use plotters::prelude::*;
    use tcplab_web::charts::dash::{DashedPath, Stroke};

    let canvas: HtmlCanvasElement = document()
        .create_element("canvas")
        .expect("a canvas")
        .dyn_into()
        .expect("a canvas element");
    canvas.set_width(200);
    canvas.set_height(40);
    let root = tcplab_web::charts::canvas2d::Canvas2d::new(&canvas)
        .expect("a backend")
        .into_drawing_area();
    root.fill(&WHITE).expect("filled");
    let pen = BLACK.stroke_width(2);
    root.draw(&DashedPath::new(
        [(0, 10), (200, 10)],
        Stroke::new(pen, 7, 5),
    ))
    .expect("the dashed line");
    root.draw(&PathElement::new([(0, 30), (200, 30)], pen))
        .expect("the solid line");
    root.present().expect("presented");
    let ctx: CanvasRenderingContext2d = canvas
        .get_context("2d")
        .ok()
        .flatten()
        .expect("a context")
        .dyn_into()
        .expect("a 2D context");
    let inked = |y: f64| -> Vec<bool> {
        let data = ctx
            .get_image_data(0.0, y, 200.0, 1.0)
            .expect("pixels")
            .data();
        data.chunks(4).map(|px| px[0] < 128).collect()
    };
    // The rows the 2-pixel lines cover: 9 and 10 for the dashes, 29 and 30 for the solid one.
    let dashed = inked(9.0);
    let runs: Vec<(bool, usize)> = dashed
        .chunk_by(|a, b| a == b)
        .map(|r| (r[0], r.len()))
        .collect();
    assert!(runs.len() >= 30, "dashes and gaps along 200 px: {runs:?}");
    // Inner runs (the ends may be cut) are 7 px of ink and 5 px of paper, to a pixel of
    // anti-aliasing.
    for &(ink, len) in &runs[1..runs.len() - 1] {
        let want = if ink { 7 } else { 5 };
        assert!(
            len.abs_diff(want) <= 1,
            "a run of {len} px, {ink}: {runs:?}"
        );
    }
    assert!(
        inked(29.0).iter().all(|&i| i),
        "the solid line is not dashed"
    );
}
