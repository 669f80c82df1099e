//! The message stream (seed 001): a `msg`-byte message every `every` ms, `count` in all, sent
//! round-robin over `conns` TCP connections with Nagle off, or as UDP datagrams; the receiving
//! application reads each message the moment all of its bytes are in order. Each message's
//! write and read times give its latency, and head-of-line events record the spans in which
//! in-order delivery waited for a missing segment while later data sat in the buffer.

use std::collections::VecDeque;

use crate::time::{Duration, Instant};

/// What became of one message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MsgRecord {
    pub write: Instant,
    pub read: Option<Instant>,
    /// The head-of-line event that held it, if one did.
    pub held_by: Option<u32>,
    pub lost: bool,
}

/// A span in which one connection's in-order delivery waited for a missing segment while later
/// data sat in its receive buffer; it ends when the missing segment arrives and the held
/// messages are released at one instant.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct HolEvent {
    pub id: u32,
    pub conn: u32,
    pub start: Instant,
    pub end: Instant,
    /// Messages released when it ended.
    pub held: u32,
    /// The longest latency among them.
    pub worst_delay: Duration,
}

/// The message application at both ends.
#[derive(Debug, Clone)]
pub struct MessageLog {
    pub msg: u32,
    pub every: Duration,
    pub count: u32,
    /// TCP connections; zero for UDP.
    pub conns: u32,
    pub records: Vec<MsgRecord>,
    /// Per connection: (message id, end offset in that connection's stream) not yet read.
    unread: Vec<VecDeque<(u32, u64)>>,
    /// Per connection: bytes written so far.
    written: Vec<u64>,
    /// Per connection: the open head-of-line event, if any.
    open: Vec<Option<(u32, Instant)>>,
    pub events: Vec<HolEvent>,
    next_event: u32,
    next: u32,
    /// Messages neither read nor known lost.
    pending: u32,
}

impl MessageLog {
    pub fn new(msg: u32, every: Duration, count: u32, conns: u32) -> Self {
        let n = conns.max(1) as usize;
        MessageLog {
            msg,
            every,
            count,
            conns,
            records: Vec::with_capacity(count.min(1 << 20) as usize),
            unread: vec![VecDeque::new(); n],
            written: vec![0; n],
            open: vec![None; n],
            events: Vec::new(),
            next_event: 0,
            next: 0,
            pending: count,
        }
    }

    /// Whether every message has been written.
    pub fn all_written(&self) -> bool {
        self.next >= self.count
    }

    /// Whether every message has been read or is known lost.
    pub fn settled(&self) -> bool {
        self.pending == 0
    }

    /// Writes the next message at `now`: returns its id and the connection it goes on.
    pub fn write_next(&mut self, now: Instant) -> Option<(u32, u32)> {
        if self.all_written() {
            return None;
        }
        let id = self.next;
        self.next += 1;
        let conn = id % self.conns.max(1);
        self.records.push(MsgRecord {
            write: now,
            read: None,
            held_by: None,
            lost: false,
        });
        if self.conns > 0 {
            let c = conn as usize;
            self.written[c] += u64::from(self.msg);
            self.unread[c].push_back((id, self.written[c]));
        }
        Some((id, conn))
    }

    /// A UDP datagram arrived: its message is read at once.
    pub fn datagram_read(&mut self, id: u32, now: Instant) {
        if let Some(r) = self.records.get_mut(id as usize) {
            if r.read.is_none() && !r.lost {
                r.read = Some(now);
                self.pending -= 1;
            }
        }
    }

    /// A UDP datagram was lost on the way.
    pub fn datagram_lost(&mut self, id: u32) {
        if let Some(r) = self.records.get_mut(id as usize) {
            if r.read.is_none() && !r.lost {
                r.lost = true;
                self.pending -= 1;
            }
        }
    }

    /// Connection `conn`'s receiving application now has bytes up to `rcv_nxt` in order, and
    /// `buffered` bytes wait behind a hole. Reads every message now complete, and opens or
    /// closes the head-of-line event.
    pub fn on_delivery(&mut self, conn: u32, rcv_nxt: u64, buffered: bool, now: Instant) {
        let c = conn as usize;
        let Some(queue) = self.unread.get_mut(c) else {
            return;
        };
        let holding = self.open[c];
        let mut released = 0u32;
        let mut worst = Duration::ZERO;
        while let Some(&(id, end)) = queue.front() {
            if end > rcv_nxt {
                break;
            }
            queue.pop_front();
            if let Some(r) = self.records.get_mut(id as usize) {
                if r.read.is_none() {
                    r.read = Some(now);
                    self.pending -= 1;
                    released += 1;
                    worst = worst.max(now - r.write);
                    if let Some((eid, _)) = holding {
                        r.held_by = Some(eid);
                    }
                }
            }
        }
        if let Some((id, start)) = holding {
            if released > 0 {
                self.events.push(HolEvent {
                    id,
                    conn,
                    start,
                    end: now,
                    held: released,
                    worst_delay: worst,
                });
                self.open[c] = None;
            }
        }
        if buffered && self.open[c].is_none() {
            self.open[c] = Some((self.next_event, now));
            self.next_event += 1;
        }
    }
}

impl MessageLog {
    /// `tcplab trace --what msgs`: one row per message; `held_by` names the head-of-line event
    /// that held it.
    pub fn csv(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::from("id,conn,write_ms,read_ms,latency_ms,held_by\n");
        for (i, r) in self.records.iter().enumerate() {
            let conn = if self.conns == 0 {
                String::from("udp")
            } else {
                (i as u32 % self.conns).to_string()
            };
            let read = r
                .read
                .map(|t| t.as_millis_f64().to_string())
                .unwrap_or_default();
            let latency = r
                .read
                .map(|t| (t - r.write).as_millis_f64().to_string())
                .unwrap_or_default();
            let held = r.held_by.map(|h| h.to_string()).unwrap_or_default();
            let write = r.write.as_millis_f64();
            let _ = writeln!(out, "{i},{conn},{write},{read},{latency},{held}");
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    #[test]
    fn messages_go_round_robin_and_are_read_when_complete() {
        let mut log = MessageLog::new(100, Duration(10 * MS), 4, 2);
        for i in 0..4 {
            assert_eq!(
                log.write_next(Instant(i * 10 * MS)),
                Some((i as u32, (i % 2) as u32))
            );
        }
        assert_eq!(log.write_next(Instant(50 * MS)), None);
        // Connection 0 carries messages 0 and 2 at offsets 0..100 and 100..200.
        log.on_delivery(0, 150, false, Instant(60 * MS));
        assert_eq!(log.records[0].read, Some(Instant(60 * MS)));
        assert_eq!(log.records[2].read, None);
        log.on_delivery(0, 200, false, Instant(70 * MS));
        assert_eq!(log.records[2].read, Some(Instant(70 * MS)));
        assert!(!log.settled());
    }

    #[test]
    fn a_hole_holds_later_messages_and_releases_them_at_one_instant() {
        let mut log = MessageLog::new(100, Duration(10 * MS), 5, 1);
        for i in 0..5 {
            log.write_next(Instant(i * 10 * MS));
        }
        // Message 0 arrives; message 1 is lost; 2..4 wait in the buffer.
        log.on_delivery(0, 100, false, Instant(50 * MS));
        log.on_delivery(0, 100, true, Instant(70 * MS));
        log.on_delivery(0, 500, false, Instant(400 * MS));
        assert_eq!(log.events.len(), 1);
        let e = log.events[0];
        assert_eq!(
            (e.held, e.start, e.end),
            (4, Instant(70 * MS), Instant(400 * MS))
        );
        assert_eq!(e.worst_delay, Duration(390 * MS));
        assert!((1..5).all(|i| log.records[i].read == Some(Instant(400 * MS))));
        assert!((1..5).all(|i| log.records[i].held_by == Some(0)));
        assert!(log.settled());
    }
}
