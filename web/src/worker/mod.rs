//! The simulator runs in a Web Worker, never on the page's thread.
//!
//! [`protocol`] is what crosses between them (JSON strings: the page posts `{id, query}`, the
//! worker answers `{id, view}` or `{id, error}`) and the worker's side of it; [`client`] is the
//! page's side: it starts the worker, sends the newest scenario, supersedes a run that a newer
//! value has made stale, and drops stale answers. [`pool`] runs many independent runs at once
//! (a sweep, a comparison, an export) on a few workers.

pub mod client;
pub mod pool;
pub mod protocol;

pub use client::{Client, Outcome};
pub use protocol::PAGE_MAX_EVENTS;
