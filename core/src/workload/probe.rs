//! The latency probe (`probe=MS`): a small ping every so often through the same bottleneck as
//! the workload, echoed at once by the far host, as flent's RRUL test and every bufferbloat
//! test measure latency under load. Its packets are a flow of their own, so FQ-CoDel sees a
//! sparse flow and serves it first.
//!
//! Memory stays bounded however long the run: round trips go into a histogram, jitter into
//! running sums, and only the pings still out are kept.

use std::collections::VecDeque;

use crate::metrics::stats::DelayHistogram;
use crate::time::{Duration, Instant};

/// A probe's IP length: ping's default, 56 bytes of data, 8 of ICMP header, 20 of IP.
pub const PROBE_BYTES: u32 = 84;

/// Jitter two ways over a sequence of one-way delays, in order of sending.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Jitter {
    last: Option<Duration>,
    /// Sum of |D(i) - D(i-1)| and how many there were: seed 004's jitter is their mean.
    sum_ns: u128,
    pairs: u64,
    /// RFC 3550 §6.4.1's interarrival jitter, J += (|D| - J) / 16, in nanoseconds.
    rfc3550_ns: f64,
}

impl Jitter {
    /// The next packet's one-way delay (transit time).
    pub fn add(&mut self, delay: Duration) {
        if let Some(last) = self.last {
            let d = delay.as_nanos().abs_diff(last.as_nanos());
            self.sum_ns += u128::from(d);
            self.pairs += 1;
            self.rfc3550_ns += (d as f64 - self.rfc3550_ns) / 16.0;
        }
        self.last = Some(delay);
    }

    /// The mean absolute difference of consecutive one-way delays, ms (seed 004's jitter).
    pub fn mean_ms(&self) -> Option<f64> {
        (self.pairs > 0).then(|| self.sum_ns as f64 / self.pairs as f64 / 1e6)
    }

    /// RFC 3550's smoothed interarrival jitter after the last packet, ms.
    pub fn rfc3550_ms(&self) -> Option<f64> {
        (self.pairs > 0).then(|| self.rfc3550_ns / 1e6)
    }
}

/// One ping still out.
#[derive(Debug, Clone, Copy)]
struct Out {
    id: u32,
    sent: Instant,
}

/// The probe's schedule and what it measured.
#[derive(Debug, Clone)]
pub struct ProbeLog {
    pub every: Duration,
    /// The flow its packets carry: one past the workload's.
    pub flow: u16,
    next_id: u32,
    out: VecDeque<Out>,
    pub sent: u64,
    pub received: u64,
    pub lost: u64,
    /// Round trips of the pings answered.
    pub rtt: DelayHistogram,
    /// Over the one-way delays of the pings that reached the far host, in order.
    pub jitter: Jitter,
}

impl ProbeLog {
    pub fn new(every: Duration, flow: u16) -> ProbeLog {
        ProbeLog {
            every,
            flow,
            next_id: 0,
            out: VecDeque::new(),
            sent: 0,
            received: 0,
            lost: 0,
            rtt: DelayHistogram::default(),
            jitter: Jitter::default(),
        }
    }

    /// A ping goes out at `now`: its id.
    pub fn send(&mut self, now: Instant) -> u32 {
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1);
        self.out.push_back(Out { id, sent: now });
        self.sent += 1;
        id
    }

    fn sent_at(&self, id: u32) -> Option<Instant> {
        // Pings leave in order and are few at a time: the search is short.
        self.out.iter().find(|o| o.id == id).map(|o| o.sent)
    }

    /// Ping `id` reached the far host at `now`.
    pub fn arrived(&mut self, id: u32, now: Instant) {
        if let Some(sent) = self.sent_at(id) {
            self.jitter.add(now - sent);
        }
    }

    /// The echo of ping `id` came back at `now`: its round trip, unless it was settled.
    pub fn answered(&mut self, id: u32, now: Instant) -> Option<Duration> {
        let i = self.out.iter().position(|o| o.id == id)?;
        let o = self.out.remove(i)?;
        let rtt = now - o.sent;
        self.rtt.add(rtt);
        self.received += 1;
        Some(rtt)
    }

    /// Ping `id`, or its echo, was lost on the path.
    pub fn lost(&mut self, id: u32) {
        if let Some(i) = self.out.iter().position(|o| o.id == id) {
            self.out.remove(i);
            self.lost += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(v: u64) -> Duration {
        Duration::from_millis(v)
    }

    #[test]
    fn jitter_is_the_mean_absolute_difference_of_consecutive_delays() {
        let mut j = Jitter::default();
        assert_eq!(j.mean_ms(), None);
        for d in [10, 14, 12, 12, 20] {
            j.add(ms(d));
        }
        // |14-10| + |12-14| + |12-12| + |20-12| = 14 over 4 pairs.
        assert_eq!(j.mean_ms(), Some(3.5));
        // RFC 3550: J = 4/16; then += (2 - J)/16; (0 - J)/16; (8 - J)/16.
        let mut r = 0.0f64;
        for d in [4.0, 2.0, 0.0, 8.0] {
            r += (d - r) / 16.0;
        }
        let got = j.rfc3550_ms().unwrap_or(f64::NAN);
        assert!((got - r).abs() < 1e-12, "{got} vs {r}");
    }

    #[test]
    fn a_ping_is_answered_lost_or_still_out() {
        let mut p = ProbeLog::new(ms(10), 1);
        let a = p.send(Instant::from_millis(0));
        let b = p.send(Instant::from_millis(10));
        let c = p.send(Instant::from_millis(20));
        p.arrived(a, Instant::from_millis(15));
        p.answered(a, Instant::from_millis(30));
        p.lost(b);
        p.arrived(c, Instant::from_millis(40));
        assert_eq!((p.sent, p.received, p.lost), (3, 1, 1));
        // 30 ms, to the histogram's 1/64.
        let rtt = p.rtt.quantile(0.5).map_or(0, |d| d.as_nanos());
        assert!(rtt.abs_diff(30_000_000) <= 30_000_000 / 64, "{rtt} ns");
        // One-way delays 15 and 20 ms: one pair, 5 ms apart.
        assert_eq!(p.jitter.mean_ms(), Some(5.0));
        // An echo of a ping already settled changes nothing.
        p.answered(a, Instant::from_millis(50));
        assert_eq!(p.received, 1);
    }
}
