//! The receiving end: in-order delivery to the application, an out-of-order buffer, the
//! advertised window, SACK blocks (RFC 2018) and delayed ACKs as Linux sends them (RFC 1122
//! §4.2.3.2, RFC 5681 §4.2): quick ACKs at the start, after a long gap and after a duplicate
//! (`tcp_incr_quickack`, `tcp_enter_quickack_mode`), an ACK for every second full segment, and
//! a timeout (`ato`) that adapts to the gaps between arrivals from the `delack` floor up
//! (`tcp_event_data_recv`, `tcp_send_delayed_ack`, `tcp_delack_timer_handler`).
//!
//! The application reads every in-order byte the moment it arrives, so only out-of-order data
//! occupies the buffer: the free space, and so the window, is `rwnd` less that data.

use crate::packet::{sack_room, Kind, SackBlock, MAX_SACK_BLOCKS};
use crate::tcp::ranges::RangeSet;
use crate::time::Time;

/// Linux's TCP_MAX_QUICKACKS: a new connection ACKs its first segments at once so that the
/// sender's slow start is not held back by delayed ACKs.
pub const MAX_QUICKACKS: u32 = 16;

/// Linux's TCP_DELACK_MAX: the longest a pushed (short) segment's ACK waits.
pub const DELACK_MAX: Time = Time::from_millis(200);

/// The longest any ACK waits (Linux's `HZ / 2` in `tcp_send_delayed_ack`).
pub const DELACK_CEILING: Time = Time::from_millis(500);

/// The SYN's window field is not scaled (RFC 7323 §2.2): at most 65 535 bytes.
pub const MAX_SYN_WINDOW: u64 = 65_535;

/// Linux's TCP_TIMEOUT_INIT: the receiver's RTO before the handshake has given it an RTT.
const INITIAL_RTO: Time = Time::from_secs(1);

#[derive(Debug, Clone, Copy)]
pub struct ReceiverConfig {
    pub rwnd: u64,
    pub mss: u32,
    pub sack: bool,
    /// The delayed-ACK timeout; zero ACKs every segment.
    pub delack: Time,
    /// Timestamps (RFC 7323) were negotiated: every ACK echoes one.
    pub ts: bool,
}

/// What the arrival of a data segment did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Arrival {
    /// In-order bytes handed to the application: `rcv_nxt` before and after.
    pub delivered_from: u64,
    pub delivered_to: u64,
    /// The segment repeated bytes already received.
    pub duplicate: bool,
    /// An ACK must go out now.
    pub ack_now: bool,
}

#[derive(Debug)]
pub struct Receiver {
    cfg: ReceiverConfig,
    rcv_nxt: u64,
    /// The highest right edge ever advertised: a window is never shrunk (RFC 9293 §3.8.6,
    /// Linux `tcp_select_window`).
    right_edge: u64,
    /// Out-of-order data held in the buffer: disjoint ranges above `rcv_nxt`. Each arrival
    /// costs a logarithm of the holes, not their number: a large window under random loss
    /// keeps thousands open.
    ooo: RangeSet,
    /// A byte of each recently changed out-of-order range, newest first: the SACK blocks to
    /// report, RFC 2018 §4's order.
    recent: Vec<u64>,
    /// Full-sized segments received since the last ACK.
    unacked_segments: u32,
    delack_deadline: Option<Time>,
    quickacks: u32,
    /// Linux's `icsk_ack.ato`, the delayed-ACK timeout, between `delack` and the receiver's
    /// RTO, and `lrcvtime`, when data last arrived.
    ato: Time,
    last_arrival: Option<Time>,
    /// The handshake's RTT as the receiver measured it, and the RTO it gives
    /// (`tcp_synack_rtt_meas`): they bound the timeout and say what gap is "long".
    srtt: Option<Time>,
    rto: Time,
    synack_at: Option<Time>,
    /// The segment pending an ACK was short (Linux's ICSK_ACK_PUSHED).
    pushed: bool,
    /// RFC 7323 §4.3's TS.Recent, the timestamp to echo, and Linux's `rcv_wup`, `rcv_nxt` when
    /// the last ACK went out: only a segment at or below it may update TS.Recent, so a delayed
    /// ACK echoes the earlier of the segments it covers and a hole's retransmission is echoed
    /// when it fills the hole (`tcp_replace_ts_recent`).
    ts_recent: u32,
    rcv_wup: u64,
}

impl Receiver {
    pub fn new(cfg: ReceiverConfig) -> Self {
        Receiver {
            cfg,
            rcv_nxt: 0,
            right_edge: cfg.rwnd,
            ooo: RangeSet::new(),
            recent: Vec::with_capacity(MAX_SACK_BLOCKS + 1),
            unacked_segments: 0,
            delack_deadline: None,
            quickacks: 0,
            ato: cfg.delack,
            last_arrival: None,
            srtt: None,
            rto: INITIAL_RTO,
            synack_at: None,
            pushed: false,
            ts_recent: 0,
            rcv_wup: 0,
        }
    }

    pub fn rcv_nxt(&self) -> u64 {
        self.rcv_nxt
    }

    pub fn ooo_bytes(&self) -> u64 {
        self.ooo.bytes()
    }

    pub fn delack_deadline(&self) -> Option<Time> {
        self.delack_deadline
    }

    /// The window to advertise from `rcv_nxt`.
    pub fn window(&self) -> u64 {
        self.right_edge - self.rcv_nxt
    }

    /// The window the SYN-ACK offers (Linux `tcp_select_initial_window`): the buffer in whole
    /// segments, and no more than the unscaled field holds, so the first flight is at most 45
    /// segments of 1 448 bytes (65 160 B) whatever the initial window.
    pub fn syn_window(&self) -> u64 {
        let space = self.cfg.rwnd.min(MAX_SYN_WINDOW);
        let mss = u64::from(self.cfg.mss.max(1));
        if space > mss {
            space / mss * mss
        } else {
            space
        }
    }

    /// The SYN-ACK goes out at `now`.
    pub fn on_syn(&mut self, now: Time) {
        self.synack_at = Some(now);
    }

    /// The handshake's last segment (or the first data, which acknowledges the SYN-ACK too)
    /// arrived: the receiver's RTT estimate (`tcp_synack_rtt_meas`; RFC 6298 §2.2 with Linux's
    /// 200 ms floor on the variance term).
    pub fn on_handshake_ack(&mut self, now: Time) {
        if let Some(t0) = self.synack_at.take() {
            let rtt = now.saturating_sub(t0);
            self.srtt = Some(rtt);
            self.rto = rtt + rtt.saturating_mul(2).max(Time::from_millis(200));
        }
    }

    /// The delayed-ACK timeout now (`ato`), for tests and the player.
    pub fn ato(&self) -> Time {
        self.ato
    }

    /// Linux `tcp_incr_quickack`: ACK the next segments at once, up to half a window of them.
    fn incr_quickack(&mut self) {
        let half_window = self.window() / (2 * u64::from(self.cfg.mss.max(1)));
        let quick = (half_window.max(2) as u32).min(MAX_QUICKACKS);
        self.quickacks = self.quickacks.max(quick);
    }

    /// Linux `tcp_event_data_recv`: the timeout follows the gaps between arrivals, and a gap
    /// longer than the RTO means the sender restarts from idle, so its first segments are
    /// ACKed at once.
    fn on_arrival_gap(&mut self, now: Time) {
        let ato_min = self.cfg.delack;
        match self.last_arrival {
            None => {
                self.incr_quickack();
                self.ato = ato_min;
            }
            Some(last) => {
                let m = now.saturating_sub(last);
                if m <= Time(ato_min.as_nanos() / 2) {
                    self.ato = Time(self.ato.as_nanos() / 2 + ato_min.as_nanos() / 2);
                } else if m < self.ato {
                    self.ato = (Time(self.ato.as_nanos() / 2) + m).min(self.rto);
                } else if m > self.rto {
                    self.incr_quickack();
                }
            }
        }
        self.last_arrival = Some(now);
    }

    /// Linux `tcp_send_delayed_ack`: how long this ACK may wait.
    fn delay(&self) -> Time {
        let ato_min = self.cfg.delack;
        if self.ato <= ato_min {
            return self.ato;
        }
        let mut max_ato = if self.pushed {
            DELACK_MAX
        } else {
            DELACK_CEILING
        };
        if let Some(srtt) = self.srtt {
            max_ato = max_ato.min(srtt.max(ato_min));
        }
        self.ato.min(max_ato)
    }

    /// The delayed-ACK timer fired with an ACK pending: it was missed, so the timeout doubles
    /// (Linux `tcp_delack_timer_handler`, "inflate ATO"), up to the RTO.
    pub fn on_delack_timeout(&mut self) {
        self.ato = self
            .ato
            .saturating_mul(2)
            .min(self.rto)
            .max(self.cfg.delack);
    }

    /// Takes in the payload `seq..seq + len`, stamped `tsval`, at `now`.
    pub fn on_data(&mut self, now: Time, seq: u64, len: u32, tsval: u32) -> Arrival {
        self.on_handshake_ack(now);
        // PAWS (RFC 7323 §5) as far as a path that never reorders needs it: TS.Recent only
        // moves forward.
        if self.cfg.ts && seq <= self.rcv_wup && tsval >= self.ts_recent {
            self.ts_recent = tsval;
        }
        let end = seq + u64::from(len);
        let before = self.rcv_nxt;
        let had_hole = !self.ooo.is_empty();
        let mut arrival = Arrival {
            delivered_from: before,
            delivered_to: before,
            ..Arrival::default()
        };
        // Beyond the window: no room was offered for it (RFC 9293 §3.10.7.4).
        let end = end.min(self.right_edge);
        if end <= self.rcv_nxt || self.ooo.containing(seq).is_some_and(|b| end <= b.end) {
            arrival.duplicate = true;
            // A duplicate is ACKed at once so the sender learns what arrived (RFC 5681 §4.2),
            // and the next segments too: the sender is retransmitting (Linux
            // `tcp_enter_quickack_mode`, which also resets the timeout).
            arrival.ack_now = true;
            self.incr_quickack();
            self.ato = self.cfg.delack;
            return arrival;
        }
        if seq <= self.rcv_nxt {
            self.on_arrival_gap(now);
        }
        if seq <= self.rcv_nxt {
            self.rcv_nxt = end;
            self.pull_in_order();
        } else {
            self.ooo.insert(SackBlock { start: seq, end });
            self.recent.retain(|&a| a < seq || a >= end);
            self.recent.insert(0, seq);
        }
        arrival.delivered_to = self.rcv_nxt;
        self.recent.retain(|&a| a >= self.rcv_nxt);
        // Keep one anchor per range, newest first.
        let mut kept = 0;
        for i in 0..self.recent.len() {
            let a = self.recent[i];
            let range = self.ooo.containing(a);
            if (0..kept).all(|j| self.ooo.containing(self.recent[j]) != range) {
                self.recent[kept] = a;
                kept += 1;
            }
        }
        self.recent.truncate(kept.min(sack_room(self.cfg.ts)));

        // RFC 5681 §4.2: ACK at once on out-of-order data and when a hole fills; otherwise at
        // least every second full-sized segment, or when the delayed-ACK timer fires.
        let small = len < self.cfg.mss;
        if had_hole || !self.ooo.is_empty() || self.cfg.delack == Time::ZERO || self.quickacks > 0 {
            arrival.ack_now = true;
        } else if small {
            // Linux's ICSK_ACK_PUSHED: a short (pushed) segment the application reads at once
            // is ACKed at once (`tcp_cleanup_rbuf`).
            self.pushed = true;
            arrival.ack_now = true;
        } else {
            self.unacked_segments += 1;
            if self.unacked_segments >= 2 {
                arrival.ack_now = true;
            } else if self.delack_deadline.is_none() {
                self.delack_deadline = Some(now + self.delay());
            }
        }
        arrival
    }

    /// Moves out-of-order data that is now in order to the application.
    fn pull_in_order(&mut self) {
        while self.ooo.first().is_some_and(|r| r.start <= self.rcv_nxt) {
            if let Some(r) = self.ooo.pop_first() {
                self.rcv_nxt = self.rcv_nxt.max(r.end);
            }
        }
        // A range partly below rcv_nxt cannot remain: ranges are disjoint and above it.
    }

    /// Whether the delayed-ACK timer has expired at `now`.
    pub fn delack_due(&self, now: Time) -> bool {
        self.delack_deadline.is_some_and(|d| d <= now)
    }

    /// Builds the ACK to send now, and resets the delayed-ACK state.
    pub fn make_ack(&mut self) -> Kind {
        self.unacked_segments = 0;
        self.delack_deadline = None;
        self.pushed = false;
        self.rcv_wup = self.rcv_nxt;
        // Linux `tcp_dec_quickack_mode`: leaving quick-ACK mode deflates the timeout.
        if self.quickacks > 0 {
            self.quickacks -= 1;
            if self.quickacks == 0 {
                self.ato = self.cfg.delack;
            }
        }
        let free = self.cfg.rwnd.saturating_sub(self.ooo.bytes());
        self.right_edge = self.right_edge.max(self.rcv_nxt + free);
        let mut sack = [SackBlock::default(); MAX_SACK_BLOCKS];
        let mut n = 0;
        if self.cfg.sack {
            for &a in &self.recent {
                if let Some(b) = self.ooo.containing(a) {
                    if n < sack_room(self.cfg.ts) {
                        sack[n] = b;
                        n += 1;
                    }
                }
            }
        }
        Kind::Ack {
            ack: self.rcv_nxt,
            wnd: self.window(),
            sack,
            sack_len: n as u8,
            tsecr: if self.cfg.ts { self.ts_recent } else { 0 },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u32 = 1000;

    fn rx(delack_ms: u64) -> Receiver {
        let mut r = Receiver::new(ReceiverConfig {
            rwnd: 64_000,
            mss: MSS,
            sack: true,
            delack: Time::from_millis(delack_ms),
            ts: true,
        });
        // Past the quick-ACK start, to see the steady-state rules.
        r.last_arrival = Some(Time::ZERO);
        r
    }

    fn seg(r: &mut Receiver, n: u64) -> Arrival {
        r.on_data(Time::ZERO, n * u64::from(MSS), MSS, 0)
    }

    fn blocks(k: Kind) -> Vec<(u64, u64)> {
        match k {
            Kind::Ack { sack, sack_len, .. } => sack[..usize::from(sack_len)]
                .iter()
                .map(|b| (b.start / 1000, b.end / 1000))
                .collect(),
            _ => Vec::new(),
        }
    }

    #[test]
    fn every_second_full_segment_is_acked_at_once() {
        let mut r = rx(40);
        assert!(!seg(&mut r, 0).ack_now);
        assert_eq!(r.delack_deadline(), Some(Time::from_millis(40)));
        assert!(seg(&mut r, 1).ack_now);
        r.make_ack();
        assert_eq!(r.delack_deadline(), None);
    }

    #[test]
    fn a_new_connection_acks_its_first_segments_at_once() {
        let mut r = Receiver::new(ReceiverConfig {
            rwnd: 64_000,
            mss: MSS,
            sack: true,
            delack: Time::from_millis(40),
            ts: true,
        });
        for n in 0..16 {
            assert!(seg(&mut r, n).ack_now, "segment {n}");
            r.make_ack();
        }
        assert!(!seg(&mut r, 16).ack_now);
    }

    #[test]
    fn out_of_order_data_is_acked_at_once_with_sack_blocks_newest_first() {
        let mut r = rx(40);
        seg(&mut r, 0);
        assert!(seg(&mut r, 2).ack_now);
        assert!(seg(&mut r, 5).ack_now);
        assert!(seg(&mut r, 3).ack_now);
        let ack = r.make_ack();
        assert_eq!(blocks(ack), [(2, 4), (5, 6)]);
        assert!(matches!(ack, Kind::Ack { ack: 1000, .. }));
    }

    #[test]
    fn filling_the_hole_releases_everything_held() {
        let mut r = rx(40);
        seg(&mut r, 1);
        seg(&mut r, 2);
        assert_eq!(r.ooo_bytes(), 2_000);
        let a = seg(&mut r, 0);
        assert!(a.ack_now);
        assert_eq!((a.delivered_from, a.delivered_to), (0, 3_000));
        assert_eq!(r.ooo_bytes(), 0);
        assert!(blocks(r.make_ack()).is_empty());
    }

    #[test]
    fn held_data_narrows_the_window_but_never_moves_its_right_edge_back() {
        let mut r = rx(0);
        r.make_ack();
        assert_eq!(r.window(), 64_000);
        seg(&mut r, 1);
        r.make_ack();
        // Free space is 63 000 but the edge offered at 64 000 stays.
        assert_eq!(r.window(), 64_000);
        seg(&mut r, 0);
        r.make_ack();
        assert_eq!(r.window(), 64_000);
    }

    #[test]
    fn a_duplicate_is_acked_at_once_and_delivers_nothing() {
        let mut r = rx(40);
        seg(&mut r, 0);
        let a = seg(&mut r, 0);
        assert!(a.duplicate && a.ack_now);
        assert_eq!(a.delivered_to, a.delivered_from);
    }

    #[test]
    fn at_most_three_blocks_are_reported() {
        let mut r = rx(40);
        for n in [2, 4, 6, 8] {
            seg(&mut r, n);
        }
        assert_eq!(blocks(r.make_ack()), [(8, 9), (6, 7), (4, 5)]);
    }

    #[test]
    fn the_syn_window_is_whole_segments_within_the_unscaled_field() {
        // Linux's 65 160 with timestamps (45 x 1448), 64 240 without (44 x 1460).
        let syn = |rwnd: u64, mss: u32| {
            Receiver::new(ReceiverConfig {
                rwnd,
                mss,
                sack: true,
                delack: Time::from_millis(40),
                ts: true,
            })
            .syn_window()
        };
        assert_eq!(syn(4 << 20, 1448), 65_160);
        assert_eq!(syn(4 << 20, 1460), 64_240);
        assert_eq!(syn(20_000, 1000), 20_000);
        assert_eq!(syn(500, 1000), 500);
    }

    #[test]
    fn the_ack_timeout_follows_the_gaps_between_arrivals() {
        // tcp_event_data_recv: a gap m with 20 < m < ato gives ato/2 + m; a missed timer
        // doubles it (tcp_delack_timer_handler); gaps of 20 ms or less bring it back toward 40.
        let mut r = rx(40);
        r.on_handshake_ack(Time::ZERO);
        r.synack_at = None;
        r.rto = Time::from_millis(300);
        r.on_delack_timeout();
        assert_eq!(r.ato(), Time::from_millis(80));
        r.on_data(Time::from_millis(30), 0, MSS, 0);
        assert_eq!(r.ato(), Time::from_millis(70));
        r.make_ack();
        r.on_data(Time::from_millis(40), 1000, MSS, 0);
        assert_eq!(r.ato(), Time::from_millis(55));
        // With no RTT known the wait is the timeout itself, within the 500 ms ceiling.
        assert_eq!(r.delack_deadline(), Some(Time::from_millis(40 + 55)));
    }

    #[test]
    fn a_gap_longer_than_the_rto_and_a_duplicate_bring_quick_acks_back() {
        let mut r = rx(40);
        r.rto = Time::from_millis(300);
        assert!(!seg(&mut r, 0).ack_now);
        r.make_ack();
        // Idle for a second: the sender restarts, its segments are ACKed at once.
        assert!(r.on_data(Time::from_secs(1), 1000, MSS, 0).ack_now);
        r.make_ack();
        assert!(r.on_data(Time::from_secs(1), 2000, MSS, 0).ack_now);
        for _ in 0..16 {
            r.make_ack();
        }
        assert!(!r.on_data(Time::from_secs(1), 3000, MSS, 0).ack_now);
        // A duplicate: quick ACKs again.
        r.make_ack();
        assert!(r.on_data(Time::from_secs(1), 0, MSS, 0).ack_now);
        r.make_ack();
        assert!(r.on_data(Time::from_secs(1), 4000, MSS, 0).ack_now);
    }
}
