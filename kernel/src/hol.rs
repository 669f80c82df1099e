//! Head-of-line blocking on the kernel's connections, as the simulator defines it: a span in
//! which a connection's in-order delivery waits for a missing segment while later data sits in
//! the receive buffer, ending when the missing segment arrives and the held messages are
//! released at once.
//!
//! The receiving kernel's buffer cannot be read from outside, but every segment it gets passes
//! the router first, at a known time: the router logs each data segment it hands to the receiver
//! ([`Delivery`]), and after the run the deliveries are replayed, with the applications' own
//! write times, through the simulator's reassembly (`tcplab::tcp::Receiver`) and its message log
//! (`MessageLog::on_delivery`), so both engines count events by one definition.

use tcplab::packet::{Ecn, TsOpt};
use tcplab::scenario::Scenario;
use tcplab::tcp::{Receiver, ReceiverConfig};
use tcplab::time::{Duration, Instant};
use tcplab::workload::MessageLog;

use crate::ip::Header;

/// One TCP segment the router released to the receiver: a SYN (which fixes the connection's
/// initial sequence number) or data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Delivery {
    pub at: Instant,
    /// The sender's port: which connection.
    pub port: u16,
    pub seq: u32,
    pub len: u32,
    pub syn: bool,
}

impl Delivery {
    pub fn of(at: Instant, h: &Header) -> Option<Delivery> {
        (h.protocol == crate::ip::PROTO_TCP && (h.syn || h.payload > 0)).then_some(Delivery {
            at,
            port: h.src_port,
            seq: h.seq,
            len: h.payload,
            syn: h.syn,
        })
    }
}

/// Replays the run: `ports[c]` is connection `c`'s sender port, `writes[k]` message `k`'s write
/// time (messages go round-robin, as the applications wrote them). The returned log's events are
/// the head-of-line events; its read times are the receiving kernel's, not the application's.
pub fn replay(
    s: &Scenario,
    ports: &[u16],
    writes: &[Instant],
    deliveries: &[Delivery],
) -> MessageLog {
    let conns = ports.len();
    let mut log = MessageLog::new(
        s.msg,
        Duration::from_millis_f64(s.every_ms),
        writes.len() as u32,
        conns as u32,
    );
    let mut receivers: Vec<Receiver> = (0..conns)
        .map(|_| {
            // The window is the kernel's business here: the replay only reassembles.
            Receiver::reassembler(ReceiverConfig {
                rwnd: u64::MAX / 4,
                delack: Duration::ZERO,
                ..ReceiverConfig::of(s, Duration::ZERO)
            })
        })
        .collect();
    let mut isn: Vec<Option<u32>> = vec![None; conns];
    let mut next_write = 0;
    for d in deliveries {
        while next_write < writes.len() && writes[next_write] <= d.at {
            let _ = log.write_next(writes[next_write]);
            next_write += 1;
        }
        let Some(c) = ports.iter().position(|&p| p == d.port) else {
            continue;
        };
        if d.syn {
            isn[c] = Some(d.seq);
            continue;
        }
        let Some(base) = isn[c] else {
            continue;
        };
        // Offsets from the first data byte (the SYN takes one sequence number).
        let off = u64::from(d.seq.wrapping_sub(base.wrapping_add(1)));
        let rx = &mut receivers[c];
        rx.on_data(d.at, off, d.len, TsOpt::default(), Ecn::NotEct, false);
        log.on_delivery(c as u32, rx.rcv_nxt(), rx.ooo_bytes() > 0, d.at);
    }
    while next_write < writes.len() {
        let _ = log.write_next(writes[next_write]);
        next_write += 1;
    }
    log
}

#[cfg(test)]
mod tests {
    use super::*;

    fn data(at_ms: u64, seq: u32, len: u32) -> Delivery {
        Delivery {
            at: Instant::from_millis(at_ms),
            port: 9,
            seq,
            len,
            syn: false,
        }
    }

    #[test]
    fn a_lost_segment_holds_the_messages_behind_it_until_it_comes() {
        let s = Scenario::parse("app=msgs&msg=100&every=10&count=4&conns=1")
            .unwrap_or_else(|e| panic!("{e}"));
        let writes: Vec<Instant> = (0..4).map(|k| Instant::from_millis(10 * k)).collect();
        // ISN 1000: the first data byte is 1001. Message 1 (bytes 100..200) is lost and comes
        // again at 200 ms, after messages 2 and 3 sit behind it.
        let syn = Delivery {
            at: Instant::ZERO,
            port: 9,
            seq: 1000,
            len: 0,
            syn: true,
        };
        let deliveries = [
            syn,
            data(50, 1001, 100),
            data(70, 1201, 100),
            data(80, 1301, 100),
            data(200, 1101, 100),
        ];
        let log = replay(&s, &[9], &writes, &deliveries);
        assert_eq!(log.events.len(), 1);
        let e = log.events[0];
        assert_eq!(
            (e.start, e.end),
            (Instant::from_millis(70), Instant::from_millis(200))
        );
        assert_eq!(e.held, 3, "messages 1, 2 and 3 come out together");
        assert_eq!(e.worst_delay, Duration::from_millis(190));
        let stats = tcplab::sim::hol_stats(&log);
        assert_eq!(stats.events, 1);
        assert_eq!(stats.held_max, Some(3));
    }

    #[test]
    fn in_order_data_makes_no_event() {
        let s =
            Scenario::parse("app=msgs&msg=100&count=2&conns=1").unwrap_or_else(|e| panic!("{e}"));
        let writes = [Instant::ZERO, Instant::from_millis(10)];
        let syn = Delivery {
            at: Instant::ZERO,
            port: 9,
            seq: u32::MAX,
            len: 0,
            syn: true,
        };
        // The sequence space wraps right after the SYN.
        let log = replay(
            &s,
            &[9],
            &writes,
            &[syn, data(50, 0, 100), data(60, 100, 100)],
        );
        assert!(log.events.is_empty());
        assert!(log.records.iter().all(|r| r.read.is_some()));
    }
}
