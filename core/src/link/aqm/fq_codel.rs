//! FQ-CoDel (RFC 8290) as Linux's `sch_fq_codel.c` runs it: each flow its own FIFO with its own
//! CoDel state, served by deficit round robin with a quantum of bytes; a flow that was idle
//! joins the list of new flows, served before the old ones, so a sparse flow (a ping, a game,
//! a call) passes a bulk flow's standing queue; past the packet limit, the fattest flow loses
//! half its backlog from its head (at most `drop_batch` packets at once).
//!
//! The lab's classifier is the flow itself: Linux hashes the 5-tuple into 1024 buckets, where
//! two connections may share one; with at most 1024 flows here, none do. Linux's memory limit
//! (32 MB of socket-buffer `truesize`) is not modelled: the lab's packets have no `truesize`,
//! and at the default limit of 10 240 packets the packet limit binds first.

use std::collections::VecDeque;

use super::codel::{CodelDecision, CodelParams, CodelVars};
use super::{Fifo, Head, Verdict, Waiting};
use crate::time::Instant;

/// FQ-CoDel's settings (Linux's `fq_codel_init` defaults).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FqCodelParams {
    /// CoDel per flow; ECN on by default in `fq_codel` (RFC 8290 §5.1).
    pub codel: CodelParams,
    /// Bytes a flow may send per round (RFC 8290 §4.1: one MTU, `psched_mtu`, 1514).
    pub quantum: u32,
    /// Packets held at most across all flows (`limit`, 10 240).
    pub limit: usize,
    /// Packets dropped at most from the fattest flow when over the limit (`drop_batch`, 64).
    pub drop_batch: usize,
    /// Flow queues (`flows`, 1024).
    pub flows: usize,
}

impl Default for FqCodelParams {
    fn default() -> Self {
        FqCodelParams {
            codel: CodelParams {
                ecn: true,
                ..CodelParams::default()
            },
            quantum: 1514,
            limit: 10_240,
            drop_batch: 64,
            flows: 1024,
        }
    }
}

/// Why FQ-CoDel dropped or marked a packet.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FqReason {
    /// Its flow's CoDel, on the way out.
    Codel(CodelDecision),
    /// Over the packet limit, from the fattest flow's head on the way in (RFC 8290 §4.1.1).
    Overlimit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum List {
    New,
    Old,
}

#[derive(Debug, Clone)]
struct FlowQueue<P> {
    queue: Fifo<P>,
    /// Bytes the flow may still send this round; may go negative by one packet.
    deficit: i64,
    codel: CodelVars,
    /// The round-robin list it is on, if any.
    listed: Option<List>,
}

/// The queue FQ-CoDel's CoDel takes from: one flow's FIFO, with the backlog it compares with
/// the MTU being the whole qdisc's, as Linux passes `sch->qstats.backlog`.
struct FlowHead<'a, P> {
    queue: &'a mut Fifo<P>,
    total: &'a mut u64,
    len: &'a mut usize,
}

impl<P> Head<P> for FlowHead<'_, P> {
    fn pop(&mut self) -> Option<Waiting<P>> {
        let w = self.queue.pop()?;
        *self.total -= u64::from(w.bytes);
        *self.len -= 1;
        Some(w)
    }

    fn backlog_bytes(&self) -> u64 {
        *self.total
    }
}

pub struct FqCodel<P> {
    params: FqCodelParams,
    flows: Vec<FlowQueue<P>>,
    new_flows: VecDeque<usize>,
    old_flows: VecDeque<usize>,
    /// Packets and bytes held across all flows.
    len: usize,
    backlog: u64,
}

impl<P> FqCodel<P> {
    /// The packet limit from now on; what is held over it stays until dequeued.
    pub fn set_limit(&mut self, limit: usize) {
        self.params.limit = limit;
    }

    pub fn new(params: FqCodelParams) -> Self {
        FqCodel {
            params,
            flows: Vec::new(),
            new_flows: VecDeque::new(),
            old_flows: VecDeque::new(),
            len: 0,
            backlog: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn backlog_bytes(&self) -> u64 {
        self.backlog
    }

    fn bucket(&self, flow: u16) -> usize {
        usize::from(flow) % self.params.flows.max(1)
    }

    /// Takes a packet in (`fq_codel_enqueue`); over the limit, drops from the fattest flow's
    /// head, which may be this packet's own flow (`fq_codel_drop`).
    pub fn enqueue(
        &mut self,
        w: Waiting<P>,
        verdict: &mut impl FnMut(Verdict, &Waiting<P>, FqReason),
    ) {
        let b = self.bucket(w.flow);
        while self.flows.len() <= b {
            self.flows.push(FlowQueue {
                queue: Fifo::new(),
                deficit: 0,
                codel: CodelVars::default(),
                listed: None,
            });
        }
        self.len += 1;
        self.backlog += u64::from(w.bytes);
        let quantum = i64::from(self.params.quantum);
        let f = &mut self.flows[b];
        f.queue.push(w);
        if f.listed.is_none() {
            // RFC 8290 §4.1: a flow that had nothing queued is new, with a fresh quantum.
            f.listed = Some(List::New);
            f.deficit = quantum;
            self.new_flows.push_back(b);
        }
        if self.len > self.params.limit {
            self.drop_from_fattest(verdict);
        }
    }

    fn drop_from_fattest(&mut self, verdict: &mut impl FnMut(Verdict, &Waiting<P>, FqReason)) {
        // The first of the largest backlogs, as Linux's scan finds it.
        let mut fattest = 0;
        let mut most = 0;
        for (i, f) in self.flows.iter().enumerate() {
            if f.queue.backlog_bytes() > most {
                most = f.queue.backlog_bytes();
                fattest = i;
            }
        }
        // Half of that flow's backlog, so that the costly scan is paid once per batch.
        let threshold = most >> 1;
        let (mut bytes, mut dropped) = (0u64, 0usize);
        let f = &mut self.flows[fattest];
        while let Some(w) = f.queue.pop() {
            bytes += u64::from(w.bytes);
            dropped += 1;
            verdict(Verdict::Dropped, &w, FqReason::Overlimit);
            if dropped >= self.params.drop_batch.max(1) || bytes >= threshold {
                break;
            }
        }
        // "Tell codel to increase its signal strength also."
        f.codel.count = f.codel.count.wrapping_add(dropped as u32);
        self.len -= dropped;
        self.backlog -= bytes;
    }

    /// The next packet for the link at `now` (`fq_codel_dequeue`).
    pub fn dequeue(
        &mut self,
        now: Instant,
        verdict: &mut impl FnMut(Verdict, &Waiting<P>, FqReason),
    ) -> Option<Waiting<P>> {
        loop {
            let (list, b) = match (self.new_flows.front(), self.old_flows.front()) {
                (Some(&b), _) => (List::New, b),
                (None, Some(&b)) => (List::Old, b),
                (None, None) => return None,
            };
            let quantum = i64::from(self.params.quantum);
            if self.flows[b].deficit <= 0 {
                // Its round is spent: a new quantum, and to the back of the old flows.
                self.flows[b].deficit += quantum;
                self.pop_front(list);
                self.flows[b].listed = Some(List::Old);
                self.old_flows.push_back(b);
                continue;
            }
            let params = self.params.codel;
            let f = &mut self.flows[b];
            let mut head = FlowHead {
                queue: &mut f.queue,
                total: &mut self.backlog,
                len: &mut self.len,
            };
            let mut said = |what, w: &Waiting<P>, d| verdict(what, w, FqReason::Codel(d));
            let Some(w) = f.codel.dequeue(&params, now, &mut head, &mut said) else {
                // Emptied: a new flow passes through the old list once before it leaves, so
                // that it cannot starve them by going idle and coming back new (RFC 8290 §4.2).
                self.pop_front(list);
                if list == List::New && !self.old_flows.is_empty() {
                    self.flows[b].listed = Some(List::Old);
                    self.old_flows.push_back(b);
                } else {
                    self.flows[b].listed = None;
                }
                continue;
            };
            self.flows[b].deficit -= i64::from(w.bytes);
            return Some(w);
        }
    }

    fn pop_front(&mut self, list: List) {
        match list {
            List::New => self.new_flows.pop_front(),
            List::Old => self.old_flows.pop_front(),
        };
    }

    /// Bytes waiting in `flow`'s queue.
    pub fn flow_backlog(&self, flow: u16) -> u64 {
        self.flows
            .get(self.bucket(flow))
            .map_or(0, |f| f.queue.backlog_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packet(flow: u16, bytes: u32, at: u64) -> Waiting<u32> {
        Waiting {
            packet: 0,
            bytes,
            enqueued: Instant(at),
            flow,
            ect: false,
            ce: false,
        }
    }

    fn quiet() -> impl FnMut(Verdict, &Waiting<u32>, FqReason) {
        |_, _, _| {}
    }

    #[test]
    fn rfc8290_4_1_round_robin_gives_flows_of_different_packet_sizes_equal_bytes() {
        let mut q = FqCodel::new(FqCodelParams::default());
        for i in 0..300u64 {
            q.enqueue(packet(1, 1500, i), &mut quiet());
            for _ in 0..3 {
                q.enqueue(packet(2, 500, i), &mut quiet());
            }
        }
        let mut bytes = [0u64; 3];
        // Well before either runs out, and well under CoDel's 5 ms (the clock stands still).
        for _ in 0..300 {
            if let Some(w) = q.dequeue(Instant(1_000), &mut quiet()) {
                bytes[usize::from(w.flow)] += u64::from(w.bytes);
            }
        }
        let (a, b) = (bytes[1] as f64, bytes[2] as f64);
        assert!(a > 0.0 && b > 0.0);
        // Within a quantum and a packet of each other.
        assert!((a - b).abs() <= 1514.0 + 1500.0, "{a} and {b} bytes");
    }

    #[test]
    fn rfc8290_4_1_a_sparse_flow_is_served_before_a_backlogged_one() {
        let mut q = FqCodel::new(FqCodelParams::default());
        for i in 0..100 {
            q.enqueue(packet(1, 1500, i), &mut quiet());
        }
        for _ in 0..10 {
            assert_eq!(
                q.dequeue(Instant(1_000), &mut quiet()).map(|w| w.flow),
                Some(1)
            );
        }
        q.enqueue(packet(7, 100, 1_000), &mut quiet());
        let next = q.dequeue(Instant(1_001), &mut quiet());
        assert_eq!(next.map(|w| w.flow), Some(7), "the new flow goes first");
        assert_eq!(
            q.dequeue(Instant(1_002), &mut quiet()).map(|w| w.flow),
            Some(1)
        );
    }

    #[test]
    fn rfc8290_4_1_1_over_the_limit_the_fattest_flow_loses_half_its_backlog_from_its_head() {
        let mut q = FqCodel::new(FqCodelParams {
            limit: 10,
            ..FqCodelParams::default()
        });
        for i in 0..8 {
            let mut p = packet(1, 1500, 0);
            p.packet = i;
            q.enqueue(p, &mut quiet());
        }
        q.enqueue(packet(2, 1500, 0), &mut quiet());
        q.enqueue(packet(2, 1500, 0), &mut quiet());
        let mut dropped = Vec::new();
        q.enqueue(packet(2, 1500, 0), &mut |what, w: &Waiting<u32>, why| {
            assert_eq!((what, why), (Verdict::Dropped, FqReason::Overlimit));
            dropped.push((w.flow, w.packet));
        });
        // Flow 1 held 12 000 bytes: 4 packets from its head reach half of it.
        assert_eq!(dropped, [(1, 0), (1, 1), (1, 2), (1, 3)]);
        assert_eq!(
            (q.len(), q.flow_backlog(1), q.flow_backlog(2)),
            (7, 6_000, 4_500)
        );
        assert_eq!(q.flows[1].codel.count, 4, "its CoDel is told of the drops");
    }

    #[test]
    fn the_batch_is_bounded() {
        let mut q = FqCodel::new(FqCodelParams {
            limit: 200,
            drop_batch: 3,
            ..FqCodelParams::default()
        });
        let mut dropped = 0;
        for _ in 0..201 {
            q.enqueue(packet(1, 1500, 0), &mut |_, _: &Waiting<u32>, _| {
                dropped += 1
            });
        }
        assert_eq!((dropped, q.len()), (3, 198));
    }

    #[test]
    fn each_flow_has_its_own_codel() {
        // A bulk flow at twice the link's rate and a ping every 10 ms: the bulk flow's CoDel
        // drops, the ping waits at most for a packet on the link and its own turn.
        let mut q = FqCodel::new(FqCodelParams {
            codel: CodelParams::default(),
            ..FqCodelParams::default()
        });
        let (every, serve) = (60_000u64, 120_000u64);
        let (mut next_bulk, mut next_ping, mut link_free) = (0u64, 0u64, 0u64);
        let mut dropped = [0usize; 2];
        let mut ping_wait = 0u64;
        while link_free < 2_000_000_000 {
            let next_in = next_bulk.min(next_ping);
            if next_in <= link_free || q.is_empty() {
                if next_bulk <= next_ping {
                    q.enqueue(packet(0, 1500, next_bulk), &mut quiet());
                    next_bulk += every;
                } else {
                    q.enqueue(packet(1, 64, next_ping), &mut quiet());
                    next_ping += 10_000_000;
                }
                link_free = link_free.max(next_in);
                continue;
            }
            let now = Instant(link_free);
            let mut count = |what, w: &Waiting<u32>, _| {
                assert_eq!(what, Verdict::Dropped);
                dropped[usize::from(w.flow)] += 1;
            };
            if let Some(w) = q.dequeue(now, &mut count) {
                if w.flow == 1 {
                    ping_wait = ping_wait.max(link_free - w.enqueued.as_nanos());
                }
                link_free += serve * u64::from(w.bytes) / 1500;
            }
        }
        assert!(dropped[0] > 50, "the bulk flow is controlled: {dropped:?}");
        assert_eq!(dropped[1], 0);
        assert!(ping_wait <= 2 * serve, "the ping waited {ping_wait} ns");
    }
}
