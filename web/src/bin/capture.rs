//! The capture analysis's thread: a Web Worker that the diagnosis starts when it is given a
//! capture file, so that the reading of pcap files is fetched by the readers who bring one and
//! not by every visit (docs/performance.md, "What the page downloads"). After saying `{ready}`
//! it answers each `[json, Uint8Array]` (a request that wants an analysis, and the file, its
//! bytes transferred) with progress messages as the file is read and then the analysis
//! (`tcplab_web::worker::protocol::answer_file`).

use tcplab_web::worker::protocol::{answer_file, FileReply};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

fn main() {
    console_error_panic_hook::set_once();
    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let reply_to = scope.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
        let mut post = |text: &str| {
            // The page is gone if posting fails; there is no one left to tell.
            let _ = reply_to.post_message(&JsValue::from_str(text));
        };
        let reply = match e.data().dyn_into::<js_sys::Array>() {
            Ok(parts) => {
                let request = parts.get(0).as_string().unwrap_or_default();
                let file = parts
                    .get(1)
                    .dyn_into::<js_sys::Uint8Array>()
                    .map(|b| b.to_vec())
                    .unwrap_or_default();
                answer_file(&request, &file, &mut post)
            }
            Err(_) => FileReply::error(
                None,
                "the capture worker reads capture files; a run goes to the simulator's worker"
                    .into(),
            )
            .to_json(),
        };
        post(&reply);
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    on_message.forget();
    let ready = FileReply::ready().to_json();
    let _ = scope.post_message(&JsValue::from_str(&ready));
}
