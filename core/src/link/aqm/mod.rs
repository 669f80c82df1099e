//! Active queue management at the bottleneck: the disciplines that decide, as packets wait and
//! leave, which to drop or mark before the queue's hard limit would (RFC 7567 recommends one
//! on every router). Each is written after its RFC and the Linux qdisc that runs it, and asked
//! for the next packet whenever the link is free: CoDel (`codel.rs`) and FQ-CoDel
//! (`fq_codel.rs`), which drop on the way out; RED (`red.rs`) and PIE (`pie.rs`, which needs
//! its departures and its update timer reported), which drop on arrival. The managed
//! bottleneck (`super::managed`) runs them in the drop-tail FIFO's place when `aqm` names one.

pub mod codel;
pub mod fq_codel;
pub mod pie;
pub mod red;

use std::collections::VecDeque;

use crate::time::Instant;

/// A packet waiting at the bottleneck, with what a discipline reads of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Waiting<P> {
    pub packet: P,
    /// Bytes on the wire, headers included.
    pub bytes: u32,
    /// When it joined the queue: its sojourn is measured from here.
    pub enqueued: Instant,
    /// The flow it belongs to (FQ-CoDel's classifier reads it).
    pub flow: u16,
    /// ECN-capable transport (ECT(0), RFC 3168 §5): it may be marked instead of dropped.
    pub ect: bool,
    /// Congestion experienced: marked by a discipline on its way.
    pub ce: bool,
}

/// What a discipline did to a packet other than send it on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Dropped,
    /// Marked CE and sent on (RFC 3168 §5).
    Marked,
}

/// A queue a discipline takes packets from at its head.
pub trait Head<P> {
    fn pop(&mut self) -> Option<Waiting<P>>;
    /// Bytes still waiting (after a pop: without the packet taken).
    fn backlog_bytes(&self) -> u64;
}

/// A FIFO of waiting packets that counts its bytes.
#[derive(Debug, Clone, Default)]
pub struct Fifo<P> {
    queue: VecDeque<Waiting<P>>,
    bytes: u64,
}

impl<P> Fifo<P> {
    pub fn new() -> Self {
        Fifo {
            queue: VecDeque::new(),
            bytes: 0,
        }
    }

    pub fn push(&mut self, w: Waiting<P>) {
        self.bytes += u64::from(w.bytes);
        self.queue.push_back(w);
    }

    pub fn len(&self) -> usize {
        self.queue.len()
    }

    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }
}

impl<P> Head<P> for Fifo<P> {
    fn pop(&mut self) -> Option<Waiting<P>> {
        let w = self.queue.pop_front()?;
        self.bytes -= u64::from(w.bytes);
        Some(w)
    }

    fn backlog_bytes(&self) -> u64 {
        self.bytes
    }
}
