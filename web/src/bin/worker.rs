//! The simulator's thread: a Web Worker that answers each `{id, query}` the page posts with
//! `{id, view}` or `{id, error}` (`tcplab_web::worker::protocol`), after saying `{ready}` once.
//! A reply with the run's view, its steps or a capture file of the run comes as
//! `[json, Uint8Array]`, the bytes transferred rather than copied. Reading a capture file is the
//! capture worker's (bin/capture.rs), so that this module, which every visit fetches, does not
//! carry it.

use tcplab_web::worker::protocol::{answer_packed, Reply};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

fn main() {
    console_error_panic_hook::set_once();
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let clock = scope.performance();
    let now = move || clock.as_ref().map_or(0.0, |p| p.now());
    let reply_to = scope.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
        // A capture to analyse goes to the capture worker (bin/capture.rs), which only the
        // diagnosis starts.
        if e.data().is_array() {
            let reply = Reply::error(None, "the simulator's worker takes no files".into());
            let _ = reply_to.post_message(&JsValue::from_str(
                &serde_json::to_string(&reply).unwrap_or_default(),
            ));
            return;
        }
        let request = e.data().as_string().unwrap_or_default();
        let (reply, steps) = answer_packed(&request, &now);
        let reply = JsValue::from_str(&reply);
        // The page is gone if posting fails; there is no one left to tell.
        let _ = match steps {
            None => reply_to.post_message(&reply),
            Some(steps) => {
                let steps = js_sys::Uint8Array::from(&steps[..]);
                reply_to.post_message_with_transfer(
                    &js_sys::Array::of2(&reply, &steps),
                    &js_sys::Array::of1(&steps.buffer()),
                )
            }
        };
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    on_message.forget();
    let ready = serde_json::to_string(&Reply::ready()).unwrap_or_default();
    let _ = scope.post_message(&JsValue::from_str(&ready));
}
