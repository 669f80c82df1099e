//! A started Web Worker and its two handlers, as the lab's worker ([`super::client`]) and each
//! of the pool's ([`super::pool`]) hold it. Dropping it unhooks the handlers and terminates
//! the worker: a run cannot be interrupted inside WebAssembly, so a superseded one is stopped
//! this way.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{ErrorEvent, MessageEvent, Worker};

use super::protocol::{decode_reply, unpack, Reply};

thread_local! {
    /// Workers started and not yet terminated, on this page.
    static RUNNING: Cell<u32> = const { Cell::new(0) };
}

/// Counts a worker in or out, and writes the count on the document's root element
/// (`data-live-workers`), where the page benchmark and the tests read that none is left behind.
fn count(change: i32) {
    let n = RUNNING.with(|r| {
        r.set(r.get().saturating_add_signed(change));
        r.get()
    });
    if let Some(root) = crate::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute("data-live-workers", &n.to_string());
    }
}

pub struct Live {
    worker: Worker,
    /// Cleared when the worker is ended: the messages it sent before it was taken on are then
    /// no longer given.
    held: Rc<Cell<bool>>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

impl Live {
    /// Starts `script`. Each message's data goes to `on_message`; a failure's message goes to
    /// `on_error`, in place of the browser's own report of an uncaught error.
    pub fn start(
        script: &str,
        on_message: impl FnMut(JsValue) + 'static,
        on_error: impl FnMut(String) + 'static,
    ) -> Result<Live, JsValue> {
        Ok(Live::hook(
            Worker::new(script)?,
            Vec::new(),
            on_message,
            on_error,
        ))
    }

    /// Takes on a worker started elsewhere ([`super::early`]): the messages it sent before
    /// (`earlier`) go to `on_message` first, in a microtask, before any message to come (each
    /// comes as a task of its own), and only while the worker is still held.
    fn hook(
        worker: Worker,
        earlier: Vec<JsValue>,
        on_message: impl FnMut(JsValue) + 'static,
        mut on_error: impl FnMut(String) + 'static,
    ) -> Live {
        let on_message = Rc::new(RefCell::new(on_message));
        let held = Rc::new(Cell::new(true));
        if !earlier.is_empty() {
            let (on_message, held) = (on_message.clone(), held.clone());
            wasm_bindgen_futures::spawn_local(async move {
                for data in earlier {
                    if !held.get() {
                        break;
                    }
                    (on_message.borrow_mut())(data);
                }
            });
        }
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
            (on_message.borrow_mut())(e.data())
        });
        let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(move |e: ErrorEvent| {
            e.prevent_default();
            on_error(e.message());
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        count(1);
        Live {
            worker,
            held,
            _on_message: on_message,
            _on_error: on_error,
        }
    }

    /// Starts `script` for `owner`, which the worker's handlers reach only through a weak
    /// reference: the worker never keeps its owner alive, and a message or failure that comes
    /// after the owner is gone is dropped.
    pub fn start_for<T: 'static>(
        script: &str,
        owner: &Rc<T>,
        on_message: impl Fn(&Rc<T>, JsValue) + 'static,
        on_error: impl Fn(&Rc<T>, String) + 'static,
    ) -> Result<Live, JsValue> {
        Ok(Live::hook_for(
            Worker::new(script)?,
            Vec::new(),
            owner,
            on_message,
            on_error,
        ))
    }

    /// As [`Live::start_for`], for the worker index.html started ([`super::early`]).
    pub fn adopt_for<T: 'static>(
        early: super::early::Early,
        owner: &Rc<T>,
        on_message: impl Fn(&Rc<T>, JsValue) + 'static,
        on_error: impl Fn(&Rc<T>, String) + 'static,
    ) -> Live {
        Live::hook_for(early.worker, early.messages, owner, on_message, on_error)
    }

    fn hook_for<T: 'static>(
        worker: Worker,
        earlier: Vec<JsValue>,
        owner: &Rc<T>,
        on_message: impl Fn(&Rc<T>, JsValue) + 'static,
        on_error: impl Fn(&Rc<T>, String) + 'static,
    ) -> Live {
        let weak = Rc::downgrade(owner);
        let weak_too = weak.clone();
        Live::hook(
            worker,
            earlier,
            move |data| {
                if let Some(owner) = weak.upgrade() {
                    on_message(&owner, data);
                }
            },
            move |message| {
                if let Some(owner) = weak_too.upgrade() {
                    on_error(&owner, message);
                }
            },
        )
    }

    /// Posts a request to the simulator's worker, as the bytes `protocol::encode_request`
    /// wrote, transferred rather than copied.
    pub fn post(&self, request: &[u8]) -> Result<(), JsValue> {
        let bytes = js_sys::Uint8Array::from(request);
        self.worker
            .post_message_with_transfer(&bytes, &js_sys::Array::of1(&bytes.buffer()))
    }

    /// Posts a request to the capture worker, JSON with a file beside it, `[json, bytes]`, the
    /// bytes' buffer transferred rather than copied (a capture of 50 MB crosses at once).
    pub fn post_with_file(&self, text: &str, file: &js_sys::Uint8Array) -> Result<(), JsValue> {
        self.worker.post_message_with_transfer(
            &js_sys::Array::of2(&JsValue::from_str(text), file),
            &js_sys::Array::of1(&file.buffer()),
        )
    }
}

/// A message from the simulator's worker: its reply, and the bytes that came beside it (a view,
/// steps or a capture file, as the reply's `packed` names them) left as they came, so that a
/// reply the page drops (an older run's, while a slider is dragged) costs neither their copy
/// nor their decoding: [`unpack_beside`] reads them into the reply when it is wanted.
pub fn read_reply(data: JsValue) -> Result<(Reply, Option<js_sys::Uint8Array>), String> {
    let (head, beside) = match data.dyn_into::<js_sys::Array>() {
        Ok(parts) => (
            parts.get(0),
            parts.get(1).dyn_into::<js_sys::Uint8Array>().ok(),
        ),
        Err(data) => (data, None),
    };
    let head = head
        .dyn_into::<js_sys::Uint8Array>()
        .map_err(|_| "the simulator's answer is not bytes".to_string())?;
    Ok((decode_reply(&head.to_vec())?, beside))
}

/// Reads the bytes beside a reply into it (`protocol::unpack`); returns a capture file, if one
/// came.
pub fn unpack_beside(reply: &mut Reply, beside: Option<js_sys::Uint8Array>) -> Option<Vec<u8>> {
    unpack(reply, beside.map(|b| b.to_vec()))
}

impl Drop for Live {
    fn drop(&mut self) {
        self.held.set(false);
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
        count(-1);
    }
}
