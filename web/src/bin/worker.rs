//! The simulator's thread: a Web Worker that answers each request the page posts
//! (`tcplab_web::worker::protocol`, postcard bytes) with its reply, after saying it is ready
//! once. A reply with the run's view, its steps or a capture file of the run comes as
//! `[reply, bytes]`, both transferred rather than copied. Reading a capture file is the capture
//! worker's (bin/capture.rs), so that this module, which every visit fetches, does not carry it.

use tcplab_web::worker::protocol::{answer_packed, encode_reply, Reply};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

fn main() {
    console_error_panic_hook::set_once();
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let clock = scope.performance();
    let now = move || clock.as_ref().map_or(0.0, |p| p.now());
    let reply_to = scope.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
        // A capture to analyse goes to the capture worker (bin/capture.rs), which only the
        // diagnosis starts; its request comes with the file, as an array.
        let (reply, beside) = match e.data().dyn_into::<js_sys::Uint8Array>() {
            Ok(request) => answer_packed(&request.to_vec(), &now),
            Err(_) => (
                encode_reply(&Reply::error(
                    None,
                    "the simulator's worker takes its requests as bytes, and no files".into(),
                )),
                None,
            ),
        };
        let reply = js_sys::Uint8Array::from(&reply[..]);
        // The page is gone if posting fails; there is no one left to tell.
        let _ = match beside {
            None => {
                reply_to.post_message_with_transfer(&reply, &js_sys::Array::of1(&reply.buffer()))
            }
            Some(bytes) => {
                let bytes = js_sys::Uint8Array::from(&bytes[..]);
                reply_to.post_message_with_transfer(
                    &js_sys::Array::of2(&reply, &bytes),
                    &js_sys::Array::of2(&reply.buffer(), &bytes.buffer()),
                )
            }
        };
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    on_message.forget();
    let ready = js_sys::Uint8Array::from(&encode_reply(&Reply::ready())[..]);
    let _ = scope.post_message(&ready);
}
