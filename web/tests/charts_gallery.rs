//! The charts of one scenario left on the page, to be looked at: a chart nobody can read is a
//! failure even when every test passes. Ignored, as it checks nothing; `--include-ignored` runs
//! it (this runner's `--ignored` still skips it), and it then does nothing unless built with
//! `TCPLAB_GALLERY` set:
//!
//! ```sh
//! TCPLAB_GALLERY='preset=hol-blocking' NO_HEADLESS=1 WASM_BINDGEN_TEST_ADDRESS=127.0.0.1:8765 \
//!     cargo test --target wasm32-unknown-unknown -p tcplab-web --test charts_gallery -- --include-ignored
//! chromium --headless --screenshot=/tmp/charts.png --window-size=1280,2400 \
//!     --virtual-time-budget=20000 http://127.0.0.1:8765/
//! ```
//!
//! `TCPLAB_GALLERY_LANG=zh` draws the Chinese; `TCPLAB_GALLERY_CURSOR=<ms>` places the cursor;
//! `TCPLAB_GALLERY_WIDTH=<px>` narrows the container.
#![cfg(target_arch = "wasm32")]

use std::rc::Rc;

use tcplab::view::RunView;
use tcplab::{run, RunOptions, Scenario};
use tcplab_web::charts::{Charts, ChartsProps};
use tcplab_web::i18n::Lang;
use wasm_bindgen_test::*;
use yew::Callback;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
#[ignore = "charts for people to look at, not a check; needs TCPLAB_GALLERY at build time"]
fn gallery() {
    let Some(query) = option_env!("TCPLAB_GALLERY") else {
        return;
    };
    let scenario = Scenario::parse(query).expect("a valid scenario");
    let view = RunView::new(&scenario, &run(&scenario, &RunOptions::default()));
    let lang = match option_env!("TCPLAB_GALLERY_LANG") {
        Some("zh") => Lang::Zh,
        _ => Lang::En,
    };
    let cursor_ms = option_env!("TCPLAB_GALLERY_CURSOR").and_then(|c| c.parse().ok());
    let width = option_env!("TCPLAB_GALLERY_WIDTH").unwrap_or("1180");
    let doc = web_sys::window()
        .and_then(|w| w.document())
        .expect("a document");
    let root = doc.create_element("div").expect("a root");
    root.set_attribute(
        "style",
        &format!("width:{width}px;margin:16px;padding:16px;background:#fff;font:15px sans-serif"),
    )
    .expect("style");
    doc.body()
        .expect("a body")
        .append_child(&root)
        .expect("mount");
    let props = ChartsProps {
        view: tcplab_web::charts::ViewRef(Rc::new(view)),
        lang,
        cursor_ms,
        until_ms: None,
        on_cursor: Callback::noop(),
        on_seek: None,
        follow_ms: None,
        veiled: false,
        horizon_ms: None,
        only: None,
        cursor_step: None,
    };
    let app = yew::Renderer::<Charts>::with_root_and_props(root, props).render();
    // Left mounted for the screenshot.
    std::mem::forget(app);
}
