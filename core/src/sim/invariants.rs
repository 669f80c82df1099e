//! The rules every run must keep, checked as the world dispatches its events: time runs forward,
//! a sender keeps inside its congestion window and the receiver's window, and the application
//! reads every byte once and in order. Each breach is counted in [`Invariants`]; a correct
//! simulator leaves every count at zero, and the tests hold it to that
//! (`core/tests/invariants.rs`).
//!
//! The checks use the world's own record of what it carried (what was sent, what the ACKs said),
//! not only what the sender believes, so a sender whose bookkeeping is wrong is caught too.

use crate::tcp::sender::CaState;
use crate::time::Instant;

use super::world::World;

/// Breaches of the invariants every run must keep; all zero unless the simulator is wrong.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Invariants {
    /// An event ran earlier than the one before it.
    pub time_reversals: u64,
    /// New data left while more than cwnd was in flight.
    pub cwnd_breaches: u64,
    /// Data left beyond the right edge of the window the receiver advertised.
    pub rwnd_breaches: u64,
    /// The application was handed bytes out of order, twice, or never sent.
    pub delivery_breaches: u64,
}

/// What the world has seen of one flow, to check its sender against: the observer's own record,
/// which does not trust the sender's.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Watch {
    /// The receiver's right edge as last told to the sender.
    edge: u64,
    /// The highest cumulative ACK the sender has been given.
    ack: u64,
    /// Tail loss probes the sender had sent at the last check.
    probes: u64,
}

impl World {
    /// Events run in time order: the one at `now` may not come before the one run last. The
    /// scheduler and the wires hand out events by (time, sequence), so a reversal means the
    /// dispatch is wrong.
    pub(super) fn check_time_order(&mut self, now: Instant) {
        if now < self.last_event {
            self.invariants.time_reversals += 1;
        }
    }

    /// The sender of flow `fi` was told the receiver's window by its SYN-ACK: the right edge is
    /// `wnd` bytes into the stream.
    pub(super) fn watch_syn_ack(&mut self, fi: usize, wnd: u64) {
        self.flows[fi].watch.edge = wnd;
    }

    /// The sender of flow `fi` was given an ACK of `ack` with a window of `wnd`. The right edge
    /// kept is the furthest any ACK has shown: an ACK that shows a nearer one (an older ACK, or
    /// a receiver that shrank its window, which RFC 9293 §3.8.6 tells receivers not to do) does
    /// not take back what an earlier one allowed.
    pub(super) fn watch_ack(&mut self, fi: usize, ack: u64, wnd: u64) {
        let watch = &mut self.flows[fi].watch;
        watch.edge = watch.edge.max(ack + wnd);
        watch.ack = watch.ack.max(ack);
    }

    /// New data of flow `fi` ending at byte `end` left: it must end inside the window the
    /// receiver advertised (RFC 9293 §3.8.6, Linux's `tcp_snd_wnd_test`).
    pub(super) fn check_receive_window(&mut self, fi: usize, end: u64) {
        if end > self.flows[fi].watch.edge {
            self.invariants.rwnd_breaches += 1;
        }
    }

    /// The sender of flow `fi` has emitted what it had to send; `sent_new`: some of it was new
    /// data. New data leaves only while fewer than cwnd packets are in flight (RFC 5681 §3.1,
    /// Linux's `tcp_cwnd_test`), so afterwards at most cwnd are. A tail loss probe is the one
    /// exception: it may go past cwnd (RFC 8985 §7.3; Linux's `tcp_send_loss_probe` forces it
    /// out), and nothing else may.
    pub(super) fn check_window_after_send(&mut self, fi: usize, sent_new: bool) {
        let flow = &mut self.flows[fi];
        let probes = flow.sender.stats().loss_probes;
        let probed = probes > flow.watch.probes;
        flow.watch.probes = probes;
        if !sent_new || probed {
            return;
        }
        // Counted in packets, as the window is, and in bytes: no packet is larger than the MSS.
        let w = flow.sender.window();
        let cwnd = w.cwnd_bytes();
        if flow.sender.packets_in_flight() > w.cwnd || flow.sender.in_flight() > cwnd {
            self.invariants.cwnd_breaches += 1;
        }
        // The same rule by the observer's own count, which does not trust the sender's
        // estimate of what has left the network: while the receiver holds nothing out of order
        // and the sender knows of no loss, everything sent and not cumulatively acknowledged is
        // in flight, or acknowledged by an ACK still on its way.
        let plain = flow.sender.ca_state() == CaState::Open
            && flow.sender.dupacks() == 0
            && flow.sender.knows_no_loss()
            && flow.receiver.ooo_bytes() == 0;
        if plain && flow.seen_sent - flow.watch.ack > cwnd {
            self.invariants.cwnd_breaches += 1;
        }
    }

    /// The receiving application of flow `fi` is handed bytes `from..to`. TCP delivers a
    /// reliable, in-order byte stream (RFC 9293 §2.2): the bytes must follow on from those read
    /// before, must have been sent, and may not go past the end of a body.
    pub(super) fn check_delivery(&mut self, fi: usize, from: u64, to: u64) {
        let flow = &self.flows[fi];
        if from != flow.delivered || to > flow.seen_sent {
            self.invariants.delivery_breaches += 1;
        }
        if flow.workload.target().is_some_and(|target| to > target) {
            self.invariants.delivery_breaches += 1;
        }
    }
}
