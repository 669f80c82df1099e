//! The simulator runs in a Web Worker, never on the page's thread.
//!
//! [`protocol`] is what crosses between them (postcard bytes: the page posts a request, its id
//! and query, and the worker answers with the id and the view or steps as bytes beside it, or
//! an error) and the worker's side of it; [`client`] is the page's side: it starts the
//! worker, sends the newest scenario, lets a quick run finish or stops a long one that a newer
//! value has made stale, and drops answers older than the view on show. [`pool`] runs many
//! independent runs at once (a sweep, a comparison, an export) on a few workers; both hold their
//! workers as [`live`] ones. [`shipped`] is the default scenario's view, made when the page was
//! built: the client answers it without a worker. [`early`] is the worker index.html starts
//! for a shared link, which the client adopts.

pub mod client;
pub mod early;
pub mod live;
pub mod pool;
pub mod protocol;
pub mod sealed;
pub mod shipped;

pub use client::{Client, Outcome};
pub use protocol::PAGE_MAX_EVENTS;

/// Leaves a `performance.mark` for the page benchmark (tests/tests/bench.rs): the client's
/// `tcplab-request` (a request posted), `tcplab-reply` (its reply arrived), `tcplab-view` (read)
/// and `tcplab-steps` (its steps unpacked); the pool's `tcplab-pool-cancel`; the page's
/// `tcplab-page`, its module's start.
pub(crate) fn mark(name: &str) {
    if let Some(p) = crate::window().and_then(|w| w.performance()) {
        let _ = p.mark(name);
    }
}
