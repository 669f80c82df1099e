//! The lab's page: a Yew front end over the `tcplab` simulator.
//!
//! Nothing about TCP is decided here: numbers come from `tcplab`, the simulation runs in a Web
//! Worker ([`worker`]), and the URL is read and written only through the scenario's one parser
//! and printer, so a link and the command-line runner always agree.
//!
//! One module per idea: [`model`] is the page's logic without the DOM (its state and its
//! changes, the address, the views' keys and plans, the knobs, the scales, the formats and the
//! verdict's words),
//! tested on the host too; [`location`] puts the address in the address bar; [`controls`],
//! [`presets`], [`toolbar`] change the state; [`cards`] (with [`model::verdict`]'s words) and
//! [`charts`] show the run; [`sweep`] (sweeps and the matrix) and [`compare`] show many runs,
//! gathered by [`batch`], which [`export`] takes away; [`i18n`] and [`prefs`] serve them all.

pub mod app;
pub mod banner;
pub mod batch;
pub mod cards;
pub mod charts;
pub mod compare;
pub mod controls;
pub mod diagnose;
pub mod embed;
pub mod export;
pub mod file_pick;
pub mod i18n;
pub mod lazy;
pub mod lesson;
pub mod location;
pub mod menu;
pub mod model;
pub mod player;
pub mod prefs;
pub mod presets;
pub mod stage;
pub mod sweep;
pub mod toolbar;
pub mod worker;

pub use app::App;

// The unit tests run on the host, and in wasm32 in headless Chromium as the page's own do.
#[cfg(all(test, target_arch = "wasm32"))]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

/// The page's clock: `performance.now()`, in milliseconds (0 without a window).
pub(crate) fn now_ms() -> f64 {
    crate::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// A timer set by [`after`]; dropping it clears it.
pub(crate) struct Timer {
    id: i32,
    _callback: wasm_bindgen::closure::Closure<dyn FnMut()>,
}

impl Drop for Timer {
    fn drop(&mut self) {
        if let Some(w) = crate::window() {
            w.clear_timeout_with_handle(self.id);
        }
    }
}

/// The browser's window; none outside one, where the page's first screen is rendered as it is
/// built (`tcplab-prerender`): what needs a window then does without, as it does wherever a
/// browser refuses it.
pub fn window() -> Option<web_sys::Window> {
    #[cfg(target_arch = "wasm32")]
    {
        web_sys::window()
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        None
    }
}

/// Calls `f` after `ms`, unless the timer is dropped first (`None`: no window to time on).
pub(crate) fn after(ms: i32, f: impl FnOnce() + 'static) -> Option<Timer> {
    use wasm_bindgen::JsCast;
    let f = wasm_bindgen::closure::Closure::once(f);
    let id = crate::window()?
        .set_timeout_with_callback_and_timeout_and_arguments_0(f.as_ref().unchecked_ref(), ms)
        .ok()?;
    Some(Timer { id, _callback: f })
}

/// Mounts the page on `<body>`.
pub fn start() {
    // With panic = "abort" a panic would otherwise reach the console only as "unreachable".
    console_error_panic_hook::set_once();
    // An iframe's page (`embed=1`) is the embed alone: it loads only what it shows.
    let search = location::current_search().unwrap_or_default();
    if embed::view::is_embed(&search) {
        yew::Renderer::<embed::view::Embed>::new().render();
    } else {
        yew::Renderer::<App>::new().render();
    }
    // The page is drawn now: index.html's stand-ins go (the first screen rendered when the
    // page was built, and the skeleton).
    if let Some(doc) = crate::window().and_then(|w| w.document()) {
        for id in ["first-screen", "skeleton"] {
            if let Some(stand_in) = doc.get_element_by_id(id) {
                stand_in.remove();
            }
        }
    }
}
