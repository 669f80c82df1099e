//! The default scenario's view, made by the simulator when the page was built (build.rs,
//! `tcplab_wire::page_view`) and put beside the page as a file of its own
//! (scripts/default_view.py): a first visit to the default page fetches it, 60 KB gzipped, and
//! draws its charts from it, without fetching, compiling and running the simulator's worker,
//! which comes when the reader first changes something; a shared link's page, which needs the
//! worker at once, does not carry it (docs/performance.md, "What the page downloads"). It is the
//! worker's answer to the same request, byte for byte (the tests below).

use tcplab::view::RunView;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

use crate::location::describe;

/// A run's view that comes with the page, as a file beside it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shipped {
    /// The canonical query of the scenario it shows.
    pub query: &'static str,
    /// The file's name, beside the page (`default-view-HASH.bin`): the view as the worker
    /// would send it (`tcplab_wire::encode_view`).
    pub file: &'static str,
}

/// The default scenario's view.
pub const DEFAULT: Shipped = Shipped {
    query: "",
    file: env!("TCPLAB_DEFAULT_VIEW"),
};

impl Shipped {
    /// Fetches the file and reads the view in it.
    pub async fn fetch(&self) -> Result<RunView, String> {
        let bytes = fetch_bytes(self.file).await?;
        tcplab_wire::decode_view(&bytes)
    }
}

/// The bytes of the file at `url`, beside the page.
async fn fetch_bytes(url: &str) -> Result<Vec<u8>, String> {
    let window = crate::window().ok_or("no window")?;
    let response = JsFuture::from(window.fetch_with_str(url))
        .await
        .map_err(describe)?;
    let response: web_sys::Response = response
        .dyn_into()
        .map_err(|_| format!("{url}: not a response"))?;
    if !response.ok() {
        return Err(format!("{url}: HTTP {}", response.status()));
    }
    let buffer = JsFuture::from(response.array_buffer().map_err(describe)?)
        .await
        .map_err(describe)?;
    Ok(js_sys::Uint8Array::new(&buffer).to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worker::protocol::{answer_packed, encode_request, Packed, Request, Want};

    /// The file as the build wrote it.
    const BYTES: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/", env!("TCPLAB_DEFAULT_VIEW")));

    /// The page's build made the bytes the worker sends for the default scenario: the same
    /// simulator, the same options, the same encoding. A change to any of them that reached
    /// one and not the other fails here. (The worker's answer is timed with a clock that
    /// stands still, as the build's run is not timed.)
    #[test]
    fn the_shipped_view_is_the_workers_answer_byte_for_byte() {
        let request = encode_request(&Request {
            id: 1,
            query: DEFAULT.query.to_string(),
            want: Want::View,
            trace: None,
        })
        .expect("a request");
        let (head, beside) = answer_packed(&request, || 0.0);
        let reply = crate::worker::protocol::decode_reply(&head).expect("a reply");
        assert_eq!(reply.packed, Some(Packed::View));
        assert!(
            beside.as_deref() == Some(BYTES),
            "the shipped view ({} bytes) is not the worker's ({:?} bytes)",
            BYTES.len(),
            beside.map(|b| b.len())
        );
    }

    #[test]
    fn the_shipped_view_is_the_default_pages_run() {
        let view = tcplab_wire::decode_view(BYTES).expect("readable");
        assert_eq!(view.query, DEFAULT.query);
        assert_eq!(
            crate::model::page::test_page("").run_query(),
            DEFAULT.query,
            "the default page asks for the run that comes with it"
        );
        assert_eq!(
            view.summary.sim_wall_ms, 0.0,
            "the build's run is not timed"
        );
        assert!(view.summary.events > 0 && !view.flows.is_empty());
    }

    /// scripts/default_view.py finds the file by this shape of name in the page's module.
    #[test]
    fn the_files_name_is_the_shape_the_hook_looks_for() {
        let name = DEFAULT.file;
        let hash = name
            .strip_prefix("default-view-")
            .and_then(|n| n.strip_suffix(".bin"))
            .unwrap_or_else(|| panic!("{name}"));
        assert_eq!(hash.len(), 16, "{name}");
        assert!(hash.bytes().all(|b| b.is_ascii_hexdigit()), "{name}");
    }
}
