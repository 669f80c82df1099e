//! The page's code in a real browser (headless Chromium through wasm-bindgen-test-runner):
//! formatting, the URL round trip, the chart's drawing, and the mounted app reacting to input.
#![cfg(target_arch = "wasm32")]

use std::time::Duration;

use tcplab::Scenario;
use tcplab_web::chart::{self, SlowStart};
use tcplab_web::{format, location, App};
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("a document")
}

fn pixels(canvas: &HtmlCanvasElement) -> Vec<u8> {
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

fn new_canvas() -> HtmlCanvasElement {
    document()
        .create_element("canvas")
        .expect("create a canvas")
        .dyn_into()
        .expect("an HtmlCanvasElement")
}

#[wasm_bindgen_test]
fn numbers_read_as_people_write_them() {
    assert_eq!(format::count(0), "0");
    assert_eq!(format::count(1713), "1,713");
    assert_eq!(format::count(2_500_000), "2,500,000");
    assert_eq!(format::si(1.0), "1");
    assert_eq!(format::si(1000.0), "1k");
    assert_eq!(format::si(10_000_000.0), "10M");
    assert_eq!(format::bytes(2_500_000), "2.5 MB");
    assert_eq!(format::bytes(1460), "1.46 kB");
    assert_eq!(format::bytes(999), "999 B");
    assert_eq!(format::millis(224.0), "224 ms");
    assert_eq!(format::millis(0.5), "0.5 ms");
    assert_eq!(format::millis(1250.0), "1.25 s");
}

#[wasm_bindgen_test]
fn the_curve_is_ideal_slow_start() {
    let curve = SlowStart::curve(10);
    assert_eq!(curve.len(), chart::ROUNDS as usize);
    assert_eq!(curve[0], (1, 10));
    assert_eq!(curve[7], (8, 2550));
    let default = SlowStart::of(&Scenario::default());
    assert_eq!(default.body_segments(), 1713);
    assert_eq!(default.rounds_for_body(), 8);
    // The frame holds the steepest curve the slider can ask for.
    let steepest = SlowStart::curve(1000);
    assert!(steepest.iter().all(|&(_, s)| (s as f64) < default.y_max()));
}

#[wasm_bindgen_test]
fn the_query_string_round_trips() {
    assert_eq!(location::parse_search(""), Ok(Scenario::default()));
    assert_eq!(location::search_for(&Scenario::default()), "");
    let linked = location::parse_search("?iw=37").expect("a valid link");
    assert_eq!(linked.iw, 37);
    assert_eq!(location::search_for(&linked), "?iw=37");
    let refused = location::parse_search("?iw=0").expect_err("IW 0 is out of range");
    assert!(refused.contains("iw"), "the error names the key: {refused}");
}

#[wasm_bindgen_test]
fn the_chart_draws_and_moves_with_iw() {
    let canvas = new_canvas();
    let at = |iw| SlowStart {
        iw,
        ..SlowStart::of(&Scenario::default())
    };
    chart::draw(&canvas, &at(10)).expect("draw IW 10");
    let ten = pixels(&canvas);
    assert!(canvas.width() > 0 && canvas.height() > 0);
    let inked = ten.chunks(4).filter(|p| p[..3] != [255, 255, 255]).count();
    assert!(inked > 1000, "the chart has hardly any ink: {inked} pixels");

    chart::draw(&canvas, &at(100)).expect("draw IW 100");
    assert_ne!(
        pixels(&canvas),
        ten,
        "IW 100 draws the same picture as IW 10"
    );
    chart::draw(&canvas, &at(10)).expect("draw IW 10 again");
    assert_eq!(pixels(&canvas), ten, "drawing is not repeatable");
}

#[wasm_bindgen_test]
async fn the_app_follows_its_slider() {
    let doc = document();
    let root = doc.create_element("div").expect("a root element");
    doc.body()
        .expect("a body")
        .append_child(&root)
        .expect("mount");
    let address = web_sys::window()
        .expect("a window")
        .location()
        .href()
        .expect("href");
    let app = yew::Renderer::<App>::with_root(root.clone()).render();
    yew::platform::time::sleep(Duration::from_millis(50)).await;

    let find = |id: &str| {
        root.query_selector(&format!("#{id}"))
            .expect("a selector")
            .unwrap_or_else(|| panic!("#{id} is on the page"))
    };
    let readout = || find("iw-readout").text_content().unwrap_or_default();
    assert!(readout().starts_with("IW 10:"), "readout: {}", readout());
    let canvas: HtmlCanvasElement = find("slow-start-chart").dyn_into().expect("a canvas");
    let before = pixels(&canvas);

    let slider: HtmlInputElement = find("iw").dyn_into().expect("an input");
    slider.set_value("20");
    let input = web_sys::InputEvent::new("input").expect("an input event");
    slider.dispatch_event(&input).expect("dispatch input");
    yew::platform::time::sleep(Duration::from_millis(50)).await;

    assert!(readout().starts_with("IW 20:"), "readout: {}", readout());
    let search = web_sys::window()
        .expect("a window")
        .location()
        .search()
        .expect("search");
    assert_eq!(search, "?iw=20");
    assert_ne!(pixels(&canvas), before, "the chart was not redrawn");
    let number: HtmlInputElement = find("iw-number").dyn_into().expect("an input");
    assert_eq!(number.value(), "20");

    // Leave the runner's page as it was.
    app.destroy();
    root.remove();
    let _ = web_sys::window()
        .expect("a window")
        .history()
        .expect("history")
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&address));
}
