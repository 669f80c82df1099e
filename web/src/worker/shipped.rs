//! The default scenario's view, made by the simulator when the page was built (build.rs,
//! `tcplab_wire::page_view`) and carried by the page: a first visit to the default page draws
//! its charts from it, without fetching, compiling and running the simulator's worker, which
//! comes when the reader first changes something (docs/performance.md, "What the page
//! downloads"). It is the worker's answer to the same request, byte for byte (the tests below).

use tcplab::view::RunView;

/// A run's view that comes with the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shipped {
    /// The canonical query of the scenario it shows.
    pub query: &'static str,
    /// The view, as the worker would send it (`tcplab_wire::encode_view`).
    bytes: &'static [u8],
}

/// The default scenario's view.
pub const DEFAULT: Shipped = Shipped {
    query: "",
    bytes: include_bytes!(concat!(env!("OUT_DIR"), "/default_view.bin")),
};

impl Shipped {
    /// The view, read: a few milliseconds, as a reply's view is.
    pub fn view(&self) -> Result<RunView, String> {
        tcplab_wire::decode_view(self.bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worker::protocol::{answer_packed, encode_request, Packed, Request, Want};

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
            beside.as_deref() == Some(DEFAULT.bytes),
            "the shipped view ({} bytes) is not the worker's ({:?} bytes)",
            DEFAULT.bytes.len(),
            beside.map(|b| b.len())
        );
    }

    #[test]
    fn the_shipped_view_is_the_default_pages_run() {
        let view = DEFAULT.view().expect("readable");
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
}
