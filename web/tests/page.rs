//! The page's code in a real browser (headless Chromium through wasm-bindgen-test-runner): the
//! worker's answers and the mounted app reacting to input. Formatting, the sliders' scales, the
//! address, the state's changes and the verdict's words are tested with the model
//! (`src/model/`), on the host too.
#![cfg(target_arch = "wasm32")]

use std::time::Duration;

use tcplab::view::RunView;
use tcplab::Scenario;
use tcplab_web::worker::protocol::{answer, encode_request, Reply, Request};
use tcplab_web::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::HtmlInputElement;

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("a document")
}

/// Whether `cond` holds within two seconds, looked at every 10 ms.
async fn eventually(cond: impl Fn() -> bool) -> bool {
    for _ in 0..200 {
        if cond() {
            return true;
        }
        yew::platform::time::sleep(Duration::from_millis(10)).await;
    }
    cond()
}

fn run_view(query: &str) -> RunView {
    let request = encode_request(&Request {
        id: 7,
        query: query.to_string(),
        want: Default::default(),
        trace: None,
    })
    .expect("a request");
    let reply: Reply = answer(&request, || 0.0);
    assert_eq!(reply.id, Some(7));
    reply.view.expect("a view")
}

#[wasm_bindgen_test]
fn the_worker_answers_as_the_runner_would() {
    let view = run_view("");
    let direct = tcplab::run(&Scenario::default(), &tcplab::RunOptions::default());
    assert_eq!(view.summary.goodput_MBps, direct.summary.goodput_MBps);
    assert_eq!(view.summary.events, direct.summary.events);
    assert_eq!(view.query, "");

    let bad = encode_request(&Request {
        id: 3,
        query: "rtt=0".into(),
        want: Default::default(),
        trace: None,
    })
    .expect("a request");
    let reply: Reply = answer(&bad, || 0.0);
    assert_eq!(reply.id, Some(3));
    assert!(reply.error.expect("an error").starts_with("rtt:"));

    // Bytes that are no request: refused with a message, never a panic.
    for junk in [&b""[..], b"not a request", &[0xff; 16]] {
        let reply: Reply = answer(junk, || 0.0);
        assert_eq!(reply.id, None);
        assert!(reply.error.expect("refused").starts_with("not a request"));
    }
}

#[wasm_bindgen_test]
async fn the_app_follows_its_controls() {
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
    let input = |id: &str| -> HtmlInputElement { find(id).dyn_into().expect("an input") };
    let search = || {
        web_sys::window()
            .expect("a window")
            .location()
            .search()
            .expect("search")
    };
    let history = || {
        web_sys::window()
            .expect("a window")
            .history()
            .expect("history")
    };
    let changed = |e: &web_sys::EventTarget| {
        e.dispatch_event(&web_sys::Event::new("change").expect("a change event"))
            .expect("dispatch change")
    };
    // Every control of the default workload is there.
    for key in [
        "rtt", "bw", "queue", "loss", "ackloss", "burst", "drop", "iw", "mss", "rwnd", "sack",
        "hystart", "delack", "minrto", "body", "flows", "dur", "seed",
    ] {
        find(key);
    }
    assert_eq!(input("rtt-number").value(), "28");

    let slider = input("rtt");
    let position = slider.value();
    slider.set_value(&(position.parse::<u32>().expect("a position") + 100).to_string());
    let event = web_sys::InputEvent::new("input").expect("an input event");
    slider.dispatch_event(&event).expect("dispatch input");
    yew::platform::time::sleep(Duration::from_millis(50)).await;
    let rtt = input("rtt-number").value();
    assert_ne!(rtt, "28");
    // The address follows at the page's next render, which a loaded machine may delay.
    let follows = |rtt: String| move || search() == format!("?rtt={rtt}");
    assert!(eventually(follows(rtt.clone())).await, "{}", search());
    // The drag goes on: the address follows a moment later, in the same history entry.
    let length = history().length().expect("length");
    slider.set_value(&(position.parse::<u32>().expect("a position") + 150).to_string());
    slider.dispatch_event(&event).expect("dispatch input");
    yew::platform::time::sleep(Duration::from_millis(20)).await;
    let dragged = input("rtt-number").value();
    assert_ne!(dragged, rtt);
    yew::platform::time::sleep(Duration::from_millis(250)).await;
    assert!(search() == format!("?rtt={dragged}"), "{}", search());
    assert_eq!(
        history().length().expect("length"),
        length,
        "one drag, one step"
    );
    changed(&slider);

    // A typed value with a unit.
    let number = input("body-number");
    number.set_value("1MB");
    changed(&number);
    yew::platform::time::sleep(Duration::from_millis(50)).await;
    assert_eq!(input("body-number").value(), "1000000");
    assert!(
        eventually(|| search().contains("body=1000000")).await,
        "{}",
        search()
    );

    // A refused one names its range.
    let number = input("iw-number");
    number.set_value("0");
    changed(&number);
    yew::platform::time::sleep(Duration::from_millis(50)).await;
    let error = find("iw-error").text_content().unwrap_or_default();
    assert!(error.contains("1 to 1000"), "{error}");

    app.destroy();
    root.remove();
    let _ = history().replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&address));
}

#[wasm_bindgen_test]
fn the_banner_isolates_each_quoted_value() {
    let parts =
        tcplab_web::banner::quoted_parts("unknown value \"\\u{202e}x\\\"y\" (allowed reno, cubic)");
    let expected: Vec<(String, bool)> = vec![
        ("unknown value ".into(), false),
        ("\"\\u{202e}x\\\"y\"".into(), true),
        (" (allowed reno, cubic)".into(), false),
    ];
    assert_eq!(parts, expected);
    assert_eq!(
        tcplab_web::banner::quoted_parts("repeated key"),
        vec![("repeated key".to_string(), false)]
    );
}
