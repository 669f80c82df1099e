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
pub mod tip;
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

/// Calls `f` once `settled()` holds, asking every `every_ms`, unless the timer is dropped first
/// (`None`: no window to time on). (An interval's handle is cleared as a timeout's is: the two
/// share one list of timers, HTML's "timer initialisation steps".)
pub(crate) fn once_settled(
    every_ms: i32,
    settled: impl Fn() -> bool + 'static,
    f: impl FnOnce() + 'static,
) -> Option<Timer> {
    use std::cell::{Cell, RefCell};
    use std::rc::Rc;
    use wasm_bindgen::JsCast;
    let id = Rc::new(Cell::new(None::<i32>));
    let f = RefCell::new(Some(f));
    let tick = {
        let id = Rc::clone(&id);
        wasm_bindgen::closure::Closure::<dyn FnMut()>::new(move || {
            if !settled() {
                return;
            }
            if let (Some(w), Some(id)) = (crate::window(), id.get()) {
                w.clear_interval_with_handle(id);
            }
            if let Some(f) = f.borrow_mut().take() {
                f();
            }
        })
    };
    let handle = crate::window()?
        .set_interval_with_callback_and_timeout_and_arguments_0(
            tick.as_ref().unchecked_ref(),
            every_ms,
        )
        .ok()?;
    id.set(Some(handle));
    Some(Timer {
        id: handle,
        _callback: tick,
    })
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

/// Mounts the page on index.html's `<div id="lab-root">`, after its stand-ins, which the page
/// removes when it has drawn itself ([`retire`]); Yew empties the element it mounts on, so the
/// page is not mounted on `<body>`, which holds them.
pub fn start() {
    // With panic = "abort" a panic would otherwise reach the console only as "unreachable".
    console_error_panic_hook::set_once();
    worker::mark("tcplab-page");
    let root = crate::window().and_then(|w| w.document()).and_then(|d| {
        d.get_element_by_id("lab-root")
            .or_else(|| d.body().map(Into::into))
    });
    let Some(root) = root else {
        web_sys::console::error_1(&"tcplab: the page has no <body> to mount on".into());
        return;
    };
    // An iframe's page (`embed=1`) is the embed alone: it loads only what it shows.
    let search = location::current_search().unwrap_or_default();
    if embed::view::is_embed(&search) {
        yew::Renderer::<embed::view::Embed>::with_root(root).render();
    } else {
        yew::Renderer::<App>::with_root(root).render();
    }
}

/// Which of index.html's stand-ins to remove.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum StandIn {
    /// The skeleton, and the first screen where it is not shown (another address, language or
    /// type size): the page shows its own state from its first drawing.
    Hidden,
    /// The first screen rendered when the page was built: once the page shows its run (or why
    /// it has none), so that the page takes its place at its height and a reader scrolled down
    /// it stays where they were.
    FirstScreen,
}

/// Removes index.html's stand-ins `which`, from the page's effects: Yew draws after `start`
/// returns, and the default run comes a moment after the first drawing.
pub(crate) fn retire(which: StandIn) {
    let Some(window) = crate::window() else {
        return;
    };
    let Some(doc) = window.document() else {
        return;
    };
    let linked = doc
        .document_element()
        .is_some_and(|html| html.class_list().contains("linked"));
    let ids: &[&str] = match which {
        StandIn::Hidden if linked => &["skeleton", "first-screen"],
        StandIn::Hidden => &["skeleton"],
        StandIn::FirstScreen => &["first-screen"],
    };
    let y = window.scroll_y().unwrap_or(0.0);
    let mut removed = false;
    let mut focused = None;
    let mut opened = Vec::new();
    for id in ids {
        if let Some(stand_in) = doc.get_element_by_id(id) {
            focused = focused.or_else(|| Focus::inside(&doc, &stand_in));
            opened.extend(open_menus(&stand_in));
            stand_in.remove();
            removed = true;
        }
    }
    if removed && y > 0.0 {
        window.scroll_to_with_x_and_y(0.0, y);
    }
    // A menu the reader opened on the first screen (the lessons, the presets) stays open: it
    // had opened at their press, and closing it as the page came would drop that press.
    for id in opened {
        if let Some(menu) = doc
            .get_element_by_id(&id)
            .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlDetailsElement>(e).ok())
        {
            menu.set_open(true);
        }
    }
    if let Some(f) = focused {
        f.restore(&doc);
    }
}

/// The ids of the menus (`<details>`) open in a stand-in.
fn open_menus(stand_in: &web_sys::Element) -> Vec<String> {
    let Ok(open) = stand_in.query_selector_all("details[id][open]") else {
        return Vec::new();
    };
    (0..open.length())
        .filter_map(|i| open.item(i))
        .filter_map(|n| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(n).ok())
        .map(|e| e.id())
        .collect()
}

/// The control a reader was in on a stand-in, by the id the page's own control shares with it,
/// and the text selected in it: removed with the stand-in, the focus would fall to the body,
/// and the reader's next Tab would start from the top of the page.
struct Focus {
    id: String,
    selection: Option<(u32, u32)>,
    /// The focus was on the button (`<summary>`) of the menu `id`, which has no id of its own.
    menu_button: bool,
}

impl Focus {
    fn inside(doc: &web_sys::Document, stand_in: &web_sys::Element) -> Option<Focus> {
        use wasm_bindgen::JsCast;
        let active = doc.active_element()?;
        if !stand_in.contains(Some(&active)) {
            return None;
        }
        if active.id().is_empty() {
            let menu = active
                .parent_element()
                .filter(|_| active.tag_name() == "SUMMARY")?;
            return (!menu.id().is_empty()).then(|| Focus {
                id: menu.id(),
                selection: None,
                menu_button: true,
            });
        }
        let selection = active
            .dyn_ref::<web_sys::HtmlInputElement>()
            .and_then(|i| Some((i.selection_start().ok()??, i.selection_end().ok()??)));
        Some(Focus {
            id: active.id(),
            selection,
            menu_button: false,
        })
    }

    fn restore(self, doc: &web_sys::Document) {
        use wasm_bindgen::JsCast;
        let Some(control) = doc
            .get_element_by_id(&self.id)
            .and_then(|e| match self.menu_button {
                true => e.query_selector("summary").ok().flatten(),
                false => Some(e),
            })
            .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
        else {
            return;
        };
        let options = web_sys::FocusOptions::new();
        options.set_prevent_scroll(true);
        let _ = control.focus_with_options(&options);
        if let (Some((a, b)), Some(input)) = (
            self.selection,
            control.dyn_ref::<web_sys::HtmlInputElement>(),
        ) {
            let _ = input.set_selection_range(a, b);
        }
    }
}
