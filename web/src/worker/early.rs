//! The simulator's worker that index.html starts for a link naming a scenario, before the
//! page's module has come: a shared link's first screen waits for the simulator's first run,
//! and the worker's script and module, fetched and compiled only once the page's module ran,
//! were most of that wait (docs/performance.md, "Cold load to the first charts drawn"). The
//! HTML's script keeps what the worker says meanwhile (its `ready`) and whether it failed; the
//! charts' client adopts it for its first worker ([`super::client`]), and the page ends it if
//! the link's first screen asked for no run.

use js_sys::{Array, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::Worker;

/// The window's property index.html leaves the worker under: `{ worker, messages, failed }`.
const PROPERTY: &str = "tcplabEarlyWorker";

/// A worker index.html started, with the messages it sent before the page took it.
pub struct Early {
    pub worker: Worker,
    pub messages: Vec<JsValue>,
}

/// Takes the worker index.html started, if there is one; one that failed to start is ended
/// and not given, so that the client starts its own and reports that one's failure.
pub fn take() -> Option<Early> {
    let window = crate::window()?;
    let key = JsValue::from_str(PROPERTY);
    let early = Reflect::get(&window, &key)
        .ok()
        .filter(JsValue::is_object)?;
    let _ = Reflect::delete_property(&window, &key);
    let field = |name: &str| Reflect::get(&early, &JsValue::from_str(name)).ok();
    let worker: Worker = field("worker")?.dyn_into().ok()?;
    if field("failed").is_some_and(|f| !f.is_null() && !f.is_undefined()) {
        worker.terminate();
        return None;
    }
    // The script's handlers go now: from here on the worker's messages are the caller's.
    worker.set_onmessage(None);
    worker.set_onerror(None);
    let messages = field("messages")
        .and_then(|m| m.dyn_into::<Array>().ok())
        .map(|a| a.iter().collect())
        .unwrap_or_default();
    Some(Early { worker, messages })
}

/// Ends the worker index.html started, if no client took it: the link's first screen needed
/// no run (a view of its own, or the default scenario, whose view comes with the page).
pub fn discard() {
    if let Some(early) = take() {
        early.worker.terminate();
    }
}
