//! The receiving end: in-order delivery to the application, an out-of-order buffer, the
//! advertised window, SACK blocks (RFC 2018) and delayed ACKs as Linux sends them (RFC 1122
//! §4.2.3.2, RFC 5681 §4.2): quick ACKs at the start, after a long gap and after a duplicate
//! (`tcp_incr_quickack`, `tcp_enter_quickack_mode`), an ACK for every second full segment, and
//! a timeout (`ato`) that adapts to the gaps between arrivals from the `delack` floor up
//! (`tcp_event_data_recv`, `tcp_send_delayed_ack`, `tcp_delack_timer_handler`); out-of-order
//! data ACKed at once for the first three ACKs at a cumulative ACK, then held back a moment to
//! go several in one (SACK compression, `__tcp_ack_snd_check`).
//!
//! The window it offers grows as Linux's does: `rcv_ssthresh` starts at the SYN's window and
//! gains two segments for each segment that arrives (`tcp_grow_window`), up to what the buffer
//! allows; with autotuning the buffer itself starts at Linux's default and grows once per
//! round trip to twice what the application read in the last one, more while that is growing
//! (dynamic right-sizing, `tcp_rcv_space_adjust`, `tcp_rcvbuf_grow`), up to `rwnd`. The
//! application reads every in-order byte the moment it arrives, so only out-of-order data
//! occupies the buffer.

use crate::packet::{
    sack_room, ts_clock, window_field, Ecn, Kind, SackBlock, SackBlocks, TsOpt, WireSack,
    MAX_SACK_BLOCKS,
};
use crate::scenario::Scenario;
use crate::tcp::ranges::RangeSet;
use crate::time::{Duration, Instant};
use serde::{Deserialize, Serialize};

/// Linux's TCP_MAX_QUICKACKS: a new connection ACKs its first segments at once so that the
/// sender's slow start is not held back by delayed ACKs.
pub const MAX_QUICKACKS: u32 = 16;

/// Linux's TCP_DELACK_MAX: the longest a pushed (short) segment's ACK waits.
pub const DELACK_MAX: Duration = Duration::from_millis(200);

/// The longest any ACK waits (Linux's `HZ / 2` in `tcp_send_delayed_ack`).
pub const DELACK_CEILING: Duration = Duration::from_millis(500);

/// The SYN's window field is not scaled (RFC 7323 §2.2): at most 65 535 bytes.
pub const MAX_SYN_WINDOW: u64 = 65_535;

/// Linux's TCP_TIMEOUT_INIT: the receiver's RTO before the handshake has given it an RTT.
const INITIAL_RTO: Duration = Duration::from_secs(1);

/// Linux's default receive buffer, `tcp_rmem[1]`, from which autotuning starts.
pub const DEFAULT_RCVBUF: u64 = 131_072;

/// The share of a receive buffer's memory that holds payload, in 256ths (Linux's
/// `scaling_ratio`): assumed a half until data arrives (TCP_DEFAULT_SCALING_RATIO), then
/// measured on the first full segment from its length and memory cost (`tcp_measure_rcv_mss`).
/// 160 is what Linux 6.18 measures for 1 500-byte frames on the machine the lab is validated on;
/// other drivers give other ratios.
const DEFAULT_SCALING_RATIO: u64 = 128;
const MEASURED_SCALING_RATIO: u64 = 160;

/// Linux's TCP_INIT_CWND: dynamic right-sizing first expects ten segments a round trip
/// (`tcp_init_buffer_space`).
const INIT_SPACE_SEGMENTS: u64 = 10;

/// `tcp_event_data_recv` grows the window only for in-order segments of at least 128 bytes.
const GROW_MIN_LEN: u32 = 128;

/// Linux's SACK compression (`__tcp_ack_snd_check`, since 4.18): once three ACKs have reported
/// out-of-order data at one cumulative ACK (TCP_FASTRETRANS_THRESH, what a sender counting
/// duplicates needs), the next are held back and go out as one after `tcp_comp_sack_delay_ns`
/// (1 ms) or 5 % of the RTT, whichever is less, or at once after `tcp_comp_sack_nr` (44) of them.
const COMP_SACK_AFTER: u8 = 3;
const COMP_SACK_NR: u8 = 44;
const COMP_SACK_DELAY_NS: u64 = 1_000_000;

#[derive(Debug, Clone, Copy)]
pub struct ReceiverConfig {
    pub rwnd: u64,
    pub mss: u32,
    pub sack: bool,
    /// The delayed-ACK timeout; zero ACKs every segment.
    pub delack: Duration,
    /// Timestamps (RFC 7323) were negotiated: every ACK echoes one.
    pub ts: bool,
    /// Receive-buffer autotuning (`tcp_moderate_rcvbuf`); off, the buffer is `rwnd` throughout.
    pub autotune: bool,
    /// The timestamp clock's phase (`packet::ts_clock`): the same host clock as the sender's.
    pub ts_phase: Duration,
    /// ECN was negotiated (RFC 3168 §6.1.1): congestion marks are echoed.
    pub ecn: bool,
}

impl ReceiverConfig {
    /// The receiver a scenario describes, its timestamps on a clock of `ts_phase`.
    pub fn of(s: &Scenario, ts_phase: Duration) -> Self {
        ReceiverConfig {
            rwnd: s.rwnd,
            mss: s.mss,
            sack: s.sack,
            delack: Duration::from_millis_f64(s.delack_ms),
            ts: s.ts,
            autotune: s.autotune,
            ts_phase,
            // Linux's default `tcp_ecn=2` accepts ECN when the SYN asks for it, as it does
            // with `ecn=1`.
            ecn: s.ecn,
        }
    }
}

/// What the arrival of a data segment did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Arrival {
    /// In-order bytes handed to the application: `rcv_nxt` before and after.
    pub delivered_from: u64,
    pub delivered_to: u64,
    /// The segment repeated bytes already received.
    pub duplicate: bool,
    /// An ACK must go out now (after [`Receiver::take_early_ack`]'s, if there is one).
    pub ack_now: bool,
}

/// Linux's SACK compression state (`__tcp_ack_snd_check`).
#[derive(Debug, Default)]
struct SackCompression {
    /// `compressed_ack_rcv_nxt`: the cumulative ACK the ACKs sent at once were counted at.
    at: Option<u64>,
    /// `dup_ack_counter`: ACKs sent at once for out-of-order data at that cumulative ACK.
    sent: u8,
    /// `compressed_ack`: ACKs held back since the last one went out.
    held: u8,
    /// When the held ACK goes out (`compressed_ack_timer`).
    deadline: Option<Instant>,
}

/// Why an ACK went out when it did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum AckTiming {
    /// With the segment that called for it.
    Now,
    /// When the delayed-ACK timer fired.
    Delayed,
    /// When SACK compression's timer fired, or ahead of a segment that would have pushed its
    /// blocks out.
    Compressed,
}

#[derive(Debug)]
pub struct Receiver {
    cfg: ReceiverConfig,
    rcv_nxt: u64,
    /// The highest right edge ever advertised: a window is never shrunk (RFC 9293 §3.8.6,
    /// Linux `tcp_select_window`).
    right_edge: u64,
    syn_window: u64,
    /// Out-of-order data held in the buffer: disjoint ranges above `rcv_nxt`. Each arrival
    /// costs a logarithm of the holes, not their number: a large window under random loss
    /// keeps thousands open.
    ooo: RangeSet,
    /// The out-of-order ranges most recently changed, newest first, at most four (Linux's
    /// `TCP_NUM_SACKS`, whatever the option has room for): the SACK blocks to report, RFC 2018
    /// §4's order. A range is kept as it is in `ooo`: an arrival changes only the range it
    /// joins (which goes first, the ranges it swallowed out), and the cumulative ACK only takes
    /// ranges off the front, so the blocks are never looked up again.
    recent: SackBlocks,
    /// Full-sized segments received since the last ACK.
    unacked_segments: u32,
    delack_deadline: Option<Instant>,
    compression: SackCompression,
    /// An ACK that SACK compression held back and that must go out before the last arrival's:
    /// the segment opened a fifth SACK block, which pushes the oldest of the four kept out of
    /// the list (`tcp_sack_new_ofo_skb`, `tcp_sack_compress_send_ack`); built before the
    /// segment was taken in.
    early_ack: Option<Kind>,
    quickacks: u32,
    /// A congestion mark arrived and the sender has not yet said CWR: every ACK carries ECE
    /// (Linux's `TCP_ECN_DEMAND_CWR`).
    demand_cwr: bool,
    /// Linux's `icsk_ack.ato`, the delayed-ACK timeout, between `delack` and the receiver's
    /// RTO, and `lrcvtime`, when data last arrived.
    ato: Duration,
    last_arrival: Option<Instant>,
    /// The handshake's RTT as the receiver measured it, and the RTO it gives
    /// (`tcp_synack_rtt_meas`): they bound the timeout and say what gap is "long".
    srtt: Option<Duration>,
    rto: Duration,
    synack_at: Option<Instant>,
    /// The segment pending an ACK was short (Linux's ICSK_ACK_PUSHED).
    pushed: bool,
    /// RFC 7323 §4.3's TS.Recent, the timestamp to echo, and Linux's `rcv_wup`, `rcv_nxt` when
    /// the last ACK went out: only a segment at or below it may update TS.Recent, so a delayed
    /// ACK echoes the earlier of the segments it covers and a hole's retransmission is echoed
    /// when it fills the hole (`tcp_replace_ts_recent`).
    ts_recent: u32,
    rcv_wup: u64,
    /// The window the buffer holds (`tcp_full_space`): `rwnd` when fixed; with autotuning
    /// Linux's default, grown by DRS up to `rwnd`. Linux's `window_clamp` follows it.
    buffer: u64,
    /// Linux's `rcv_ssthresh`: the most window offered yet, grown per segment toward the
    /// buffer's free space (`tcp_grow_window`).
    rcv_ssthresh: u64,
    /// A duplicate to report in the next ACK's first SACK block (RFC 2883's D-SACK).
    dsack: Option<SackBlock>,
    /// Linux's `rcvq_space`: the bytes read in the last measured round trip, and where and when
    /// the current measurement began.
    space: u64,
    space_seq: u64,
    space_time: Option<Instant>,
    /// Linux's `rcv_rtt_est`: the receiver's RTT estimate, eight times scaled, taken from the
    /// timestamp echo (`tcp_rcv_rtt_measure_ts`) and from the time a window takes to fill
    /// (`tcp_rcv_rtt_measure`), with the sequence and time that measurement started.
    rcv_rtt8: u64,
    rtt_seq: u64,
    rtt_time: Option<Instant>,
    last_tsecr: u32,
}

impl Receiver {
    pub fn new(cfg: ReceiverConfig) -> Self {
        let mss = u64::from(cfg.mss.max(1));
        // `tcp_select_initial_window` offers the buffer's window in whole segments, and
        // `rcv_ssthresh` starts there; `tcp_init_buffer_space` then holds one segment back from
        // Linux's own default buffer (never below two). A fixed buffer is the scenario's `rwnd`.
        let (space, buffer) = if cfg.autotune {
            let full = (DEFAULT_RCVBUF * DEFAULT_SCALING_RATIO) >> 8;
            let clamp = full.saturating_sub(mss).max(2 * mss);
            (cfg.rwnd.min(full), cfg.rwnd.min(clamp))
        } else {
            (cfg.rwnd, cfg.rwnd)
        };
        let space = round_to_segments(space, cfg.mss);
        let rcv_ssthresh = space.min(buffer);
        let syn = space.min(MAX_SYN_WINDOW);
        Receiver {
            cfg,
            rcv_nxt: 0,
            right_edge: syn,
            syn_window: syn,
            ooo: RangeSet::new(),
            recent: SackBlocks::default(),
            unacked_segments: 0,
            delack_deadline: None,
            compression: SackCompression::default(),
            early_ack: None,
            quickacks: 0,
            demand_cwr: false,
            ato: cfg.delack,
            last_arrival: None,
            srtt: None,
            rto: INITIAL_RTO,
            synack_at: None,
            pushed: false,
            ts_recent: 0,
            rcv_wup: 0,
            buffer,
            rcv_ssthresh,
            dsack: None,
            space: rcv_ssthresh.min(INIT_SPACE_SEGMENTS * mss),
            space_seq: 0,
            space_time: None,
            rcv_rtt8: 0,
            rtt_seq: 0,
            rtt_time: None,
            last_tsecr: 0,
        }
    }

    /// A receiver whose window is open to `rwnd` from the start: for reassembling segments
    /// another stack sent (a capture, the kernel twin's replay), where the window was that
    /// stack's business.
    pub fn reassembler(cfg: ReceiverConfig) -> Self {
        let mut r = Receiver::new(ReceiverConfig {
            autotune: false,
            ..cfg
        });
        r.right_edge = cfg.rwnd;
        r.rcv_ssthresh = cfg.rwnd;
        r
    }

    pub fn rcv_nxt(&self) -> u64 {
        self.rcv_nxt
    }

    pub fn ooo_bytes(&self) -> u64 {
        self.ooo.bytes()
    }

    /// When the next held-back ACK is due: the delayed ACK's or SACK compression's deadline,
    /// the earlier.
    pub fn ack_deadline(&self) -> Option<Instant> {
        match (self.delack_deadline, self.compression.deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The window to advertise from `rcv_nxt`.
    pub fn window(&self) -> u64 {
        self.right_edge - self.rcv_nxt
    }

    /// The window the SYN-ACK offers (Linux `tcp_select_initial_window`): the buffer's, in whole
    /// segments, and no more than its unscaled 16-bit field holds (RFC 7323 §2.2), so the
    /// first flight is at most 45 segments of 1 448 bytes whatever the initial window.
    pub fn syn_window(&self) -> u64 {
        self.syn_window
    }

    /// The window's ceiling now: the buffer's (`window_clamp`), as autotuning has grown it.
    pub fn buffer_window(&self) -> u64 {
        self.buffer
    }

    /// Linux's `rcv_ssthresh`, for tests and the player.
    pub fn rcv_ssthresh(&self) -> u64 {
        self.rcv_ssthresh
    }

    /// The SYN-ACK goes out at `now`.
    pub fn on_syn(&mut self, now: Instant) -> Kind {
        self.synack_at = Some(now);
        Kind::SynAck {
            wnd: self.syn_window(),
            ts: self.ts_option(now),
        }
    }

    fn ts_option(&self, now: Instant) -> TsOpt {
        TsOpt::stamped(self.cfg.ts, now, self.cfg.ts_phase, self.ts_recent)
    }

    /// The handshake's last segment (or the first data, which acknowledges the SYN-ACK too)
    /// arrived: the receiver's RTT estimate (`tcp_synack_rtt_meas`; RFC 6298 §2.2 with Linux's
    /// 200 ms floor on the variance term).
    pub fn on_handshake_ack(&mut self, now: Instant) {
        if let Some(t0) = self.synack_at.take() {
            let rtt = now.saturating_duration_since(t0);
            self.srtt = Some(rtt);
            self.rto = rtt + rtt.saturating_mul(2).max(Duration::from_millis(200));
            // `tcp_init_buffer_space`: DRS measures from here.
            self.space_time = Some(now);
        }
    }

    /// Linux `tcp_rcv_rtt_update`: a timestamp sample smooths the estimate by 1/8; a window's
    /// (`win_dep`) only ever lowers it, as it can overestimate an application-limited flow.
    fn rcv_rtt_update(&mut self, sample: Duration, win_dep: bool) {
        let m = sample.as_nanos().max(1);
        if self.rcv_rtt8 == 0 || m << 3 < self.rcv_rtt8 {
            self.rcv_rtt8 = m << 3;
        } else if !win_dep {
            self.rcv_rtt8 = self.rcv_rtt8 - (self.rcv_rtt8 >> 3) + m;
        }
    }

    /// The receiver's RTT estimate (`rcv_rtt_est`), once it has one.
    pub fn rcv_rtt(&self) -> Option<Duration> {
        (self.rcv_rtt8 > 0).then_some(Duration(self.rcv_rtt8 >> 3))
    }

    /// Linux `tcp_rcv_rtt_measure_ts`: a full segment echoing a new timestamp of ours tells how
    /// long ago the ACK it answers left.
    fn rtt_measure_ts(&mut self, now: Instant, len: u32, ecr: u32) {
        if !self.cfg.ts || ecr == 0 || ecr == self.last_tsecr {
            return;
        }
        self.last_tsecr = ecr;
        if len >= self.cfg.mss {
            let ms = ts_clock(now, self.cfg.ts_phase).wrapping_sub(ecr);
            if ms > 0 && ms < 1 << 31 {
                self.rcv_rtt_update(Duration::from_millis(u64::from(ms)), false);
            }
        }
    }

    /// Linux `tcp_rcv_rtt_measure`: the time from offering a window to its last byte arriving.
    fn rtt_measure_window(&mut self, now: Instant) {
        if let Some(t0) = self.rtt_time {
            if self.rcv_nxt < self.rtt_seq {
                return;
            }
            self.rcv_rtt_update(now.saturating_duration_since(t0), true);
        }
        self.rtt_seq = self.rcv_nxt + (self.right_edge - self.rcv_wup);
        self.rtt_time = Some(now);
    }

    /// Linux `tcp_grow_window`: a segment that fits the buffer well raises `rcv_ssthresh` by two
    /// segments, toward the buffer's free space, and asks for a quick ACK so that the sender
    /// learns of the larger window (`icsk_ack.quick |= 1`).
    ///
    /// `unread` is the arriving segment itself when it is in order: Linux queues it, charging
    /// the buffer, before it grows the window, and the application reads it after.
    fn grow_window(&mut self, len: u32, unread: u64) {
        let free = self.free_space().saturating_sub(unread);
        let room = free.saturating_sub(self.rcv_ssthresh);
        if room == 0 {
            return;
        }
        let incr = (2 * u64::from(self.cfg.mss)).max(2 * u64::from(len));
        self.rcv_ssthresh += room.min(incr);
        self.quickacks |= 1;
    }

    /// Linux `tcp_space`: the buffer's window less what it holds, the out-of-order data (the
    /// application has read everything in order).
    fn free_space(&self) -> u64 {
        self.buffer.saturating_sub(self.ooo.bytes())
    }

    /// Linux `tcp_rcv_space_adjust` after the application read: once per receiver RTT, if it
    /// read more than in the last one, the buffer grows (`tcp_rcvbuf_grow`) to twice that (DRS
    /// is a round trip late), plus twice the growth in proportion (the sender may double each
    /// round), plus the out-of-order extent, up to `rwnd`.
    fn space_adjust(&mut self, now: Instant) {
        let (Some(t0), Some(rtt)) = (self.space_time, self.rcv_rtt()) else {
            return;
        };
        if now.saturating_duration_since(t0) < rtt {
            return;
        }
        let copied = self.rcv_nxt - self.space_seq;
        if copied > self.space {
            let old = self.space.max(1);
            self.space = copied;
            if self.cfg.autotune {
                let mut rcvwin = u128::from(copied) << 1;
                rcvwin += (rcvwin * u128::from(copied - old) / u128::from(old)) << 1;
                if let Some(last) = self.ooo.last() {
                    rcvwin += u128::from(last.end - self.rcv_nxt);
                }
                let want = u64::try_from(rcvwin).unwrap_or(u64::MAX).min(self.cfg.rwnd);
                self.buffer = self.buffer.max(want);
            }
        }
        self.space_seq = self.rcv_nxt;
        self.space_time = Some(now);
    }

    /// The delayed-ACK timeout now (`ato`), for tests and the player.
    pub fn ato(&self) -> Duration {
        self.ato
    }

    /// Linux `tcp_incr_quickack`: ACK the next segments at once, up to half a window of them.
    fn incr_quickack(&mut self) {
        self.incr_quickack_up_to(MAX_QUICKACKS);
    }

    fn incr_quickack_up_to(&mut self, max: u32) {
        let half_window = self.window() / (2 * u64::from(self.cfg.mss.max(1)));
        let quick = (half_window.max(2) as u32).min(max);
        self.quickacks = self.quickacks.max(quick);
    }

    /// Linux `tcp_ecn_check_ce`: a CE mark makes every ACK echo ECE until the sender's CWR; the
    /// first of an episode is ACKed at once, and the next one too (`tcp_enter_quickack_mode`
    /// with 2), since the sender may have a very small window.
    fn check_ce(&mut self, ecn: Ecn) {
        if !self.cfg.ecn || ecn != Ecn::Ce {
            return;
        }
        if !self.demand_cwr {
            self.incr_quickack_up_to(2);
            self.ato = self.cfg.delack;
            self.demand_cwr = true;
        }
    }

    /// Linux `tcp_event_data_recv`: the timeout follows the gaps between arrivals, and a gap
    /// longer than the RTO means the sender restarts from idle, so its first segments are
    /// ACKed at once.
    fn on_arrival_gap(&mut self, now: Instant) {
        let ato_min = self.cfg.delack;
        match self.last_arrival {
            None => {
                self.incr_quickack();
                self.ato = ato_min;
            }
            Some(last) => {
                let m = now.saturating_duration_since(last);
                if m <= ato_min / 2 {
                    self.ato = self.ato / 2 + ato_min / 2;
                } else if m < self.ato {
                    self.ato = (self.ato / 2 + m).min(self.rto);
                } else if m > self.rto {
                    self.incr_quickack();
                }
            }
        }
        self.last_arrival = Some(now);
    }

    /// Linux `tcp_send_delayed_ack`: how long this ACK may wait.
    fn delay(&self) -> Duration {
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

    /// Takes in the payload `seq..seq + len`, with its timestamp option and its ECN field and
    /// CWR flag, at `now`.
    pub fn on_data(
        &mut self,
        now: Instant,
        seq: u64,
        len: u32,
        ts: TsOpt,
        ecn: Ecn,
        cwr: bool,
    ) -> Arrival {
        self.on_handshake_ack(now);
        // Linux `tcp_ecn_accept_cwr`, first: the sender reduced its window, so the echo stops,
        // and this segment is ACKed at once (its window may be very small).
        let cwr_seen = self.cfg.ecn && cwr;
        if cwr_seen {
            self.demand_cwr = false;
        }
        // PAWS (RFC 7323 §5) as far as a path that never reorders needs it: TS.Recent only
        // moves forward.
        if self.cfg.ts && seq <= self.rcv_wup && ts.val >= self.ts_recent {
            self.ts_recent = ts.val;
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
            // RFC 2883, Linux `tcp_dsack_set`: the next ACK reports the duplicate first.
            self.dsack = Some(SackBlock { start: seq, end });
            return arrival;
        }
        if seq < self.rcv_nxt {
            // Partly old: the old part is a duplicate (`tcp_data_queue`'s partial packet).
            self.dsack = Some(SackBlock {
                start: seq,
                end: self.rcv_nxt,
            });
        }
        self.rtt_measure_ts(now, len, ts.ecr);
        // `tcp_measure_rcv_mss`: a full segment measures the buffer's payload share, and the
        // clamp follows the buffer's window at that ratio (the buffer only grows, so only the
        // first one moves it).
        if self.cfg.autotune && len >= self.cfg.mss {
            let window = (DEFAULT_RCVBUF * MEASURED_SCALING_RATIO) >> 8;
            self.buffer = self.buffer.max(window.min(self.cfg.rwnd));
        }
        if seq <= self.rcv_nxt {
            // `tcp_data_queue` then `tcp_event_data_recv`, then the application's read.
            self.check_ce(ecn);
            self.rcv_nxt = end;
            self.rtt_measure_window(now);
            self.on_arrival_gap(now);
            if len >= GROW_MIN_LEN {
                self.grow_window(len, end - seq);
            }
            self.pull_in_order();
        } else {
            // `tcp_sack_new_ofo_skb` keeps four blocks, the most recently changed first: a
            // segment that extends none of them pushes the oldest out, and an ACK that SACK
            // compression holds back goes out first, so that its blocks are not lost unsent.
            if self.compression.held > 0 && self.recent.len() >= MAX_SACK_BLOCKS {
                let extends = self.recent.iter().any(|b| seq <= b.end && b.start <= end);
                if !extends {
                    self.early_ack = Some(self.make_ack(now));
                }
            }
            // `tcp_data_queue_ofo` grows the window too, whatever the segment's size.
            self.check_ce(ecn);
            let joined = self.ooo.insert(SackBlock { start: seq, end });
            // A segment wholly past the offered window is not kept (RFC 9293 §3.10.7.4): it
            // changes no range, so no block.
            if joined.start < joined.end {
                self.recent.put_first(joined);
            }
            self.grow_window(len, 0);
        }
        arrival.delivered_to = self.rcv_nxt;
        if arrival.delivered_to > arrival.delivered_from {
            // The ranges now in order left the buffer.
            let rcv_nxt = self.rcv_nxt;
            self.recent.retain(|b| b.start > rcv_nxt);
        }

        // RFC 5681 §4.2: ACK at once when a hole fills and on out-of-order data (as far as SACK
        // compression lets it); otherwise at least every second full-sized segment, or when the
        // delayed-ACK timer fires (`__tcp_ack_snd_check`).
        let small = len < self.cfg.mss;
        let filled = had_hole && self.ooo.is_empty();
        if filled || self.cfg.delack == Duration::ZERO || self.quickacks > 0 || cwr_seen {
            arrival.ack_now = true;
        } else if !self.ooo.is_empty() {
            // More than a full segment newly in order (a hole partly filled) goes at once, and
            // SACK compression does not count it.
            arrival.ack_now =
                self.rcv_nxt - self.rcv_wup > u64::from(self.cfg.mss) || self.sack_now_or_hold(now);
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
        if arrival.delivered_to > arrival.delivered_from {
            // The application reads what is in order (`tcp_recvmsg`, where DRS runs).
            self.space_adjust(now);
        }
        arrival
    }

    /// `__tcp_ack_snd_check` with out-of-order data held: the first three ACKs at a cumulative
    /// ACK go at once, the next are held back, up to 44, for at most 1 ms or 5 % of the RTT
    /// (`tcp_comp_sack_delay_ns`, the receiver's RTT estimate or the handshake's if smaller, as
    /// Linux takes them in whole microseconds; its timer's 100 us of slack is not modelled).
    /// Returns whether the ACK goes now.
    fn sack_now_or_hold(&mut self, now: Instant) -> bool {
        let c = &mut self.compression;
        if !self.cfg.sack || c.held >= COMP_SACK_NR {
            return true;
        }
        if c.at != Some(self.rcv_nxt) {
            c.at = Some(self.rcv_nxt);
            c.sent = 0;
        }
        if c.sent < COMP_SACK_AFTER {
            c.sent += 1;
            return true;
        }
        c.held += 1;
        if c.deadline.is_none() {
            let mut rtt8_us = self.rcv_rtt8 / 1_000;
            let srtt8_us = self.srtt.map_or(0, |s| s.as_micros() << 3);
            if srtt8_us > 0 && srtt8_us < rtt8_us {
                rtt8_us = srtt8_us;
            }
            // `rtt * (NSEC_PER_USEC >> 3) / 20`: 5 % of the RTT, in nanoseconds.
            let delay = (rtt8_us * 125 / 20).min(COMP_SACK_DELAY_NS);
            c.deadline = Some(now + Duration::from_nanos(delay));
        }
        false
    }

    /// The held-back ACK the last arrival sent ahead of its own, once.
    pub fn take_early_ack(&mut self) -> Option<Kind> {
        self.early_ack.take()
    }

    /// Which held-back ACK is due at `now`, if one is: SACK compression's first, whose timer
    /// is the shorter.
    pub fn ack_due(&self, now: Instant) -> Option<AckTiming> {
        if self.compression.deadline.is_some_and(|d| d <= now) {
            Some(AckTiming::Compressed)
        } else if self.delack_deadline.is_some_and(|d| d <= now) {
            Some(AckTiming::Delayed)
        } else {
            None
        }
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

    /// Builds the ACK to send now, and resets the delayed-ACK state.
    // Inline, the ACK is built where the engine puts it on the wire: returned from a call, it was
    // written field by field and read back whole, a stalled store-to-load forward on every ACK.
    #[inline(always)]
    pub fn make_ack(&mut self, now: Instant) -> Kind {
        self.unacked_segments = 0;
        self.delack_deadline = None;
        // `tcp_event_ack_sent`: whatever sends it, an ACK ends the compression's hold.
        self.compression.held = 0;
        self.compression.deadline = None;
        self.pushed = false;
        self.rcv_wup = self.rcv_nxt;
        // Linux `tcp_dec_quickack_mode`: leaving quick-ACK mode deflates the timeout.
        if self.quickacks > 0 {
            self.quickacks -= 1;
            if self.quickacks == 0 {
                self.ato = self.cfg.delack;
            }
        }
        // `__tcp_select_window`: the buffer's free space, no more than `rcv_ssthresh`; and
        // `tcp_select_window` never moves the right edge back.
        let free = self.free_space();
        self.right_edge = self
            .right_edge
            .max(self.rcv_nxt + free.min(self.rcv_ssthresh));
        let mut sack = [WireSack::default(); MAX_SACK_BLOCKS];
        let mut n = 0;
        let dsack = self.dsack.take();
        if self.cfg.sack {
            // RFC 2883 §4: a D-SACK block first, once, then the others in their order.
            // A duplicate above the cumulative ACK is followed by the block that holds it.
            let mut holder = None;
            if let Some(d) = dsack {
                sack[0] = WireSack::of(d);
                n = 1;
                holder = self.ooo.containing(d.start);
                if let Some(b) = holder {
                    sack[1] = WireSack::of(b);
                    n = 2;
                }
            }
            for &b in self.recent.iter() {
                if n < sack_room(self.cfg.ts) && Some(b) != holder {
                    sack[n] = WireSack::of(b);
                    n += 1;
                }
            }
        }
        Kind::Ack {
            ack: self.rcv_nxt,
            wnd: window_field(self.window()),
            sack,
            sack_len: n as u8,
            ts: self.ts_option(now),
            ece: self.demand_cwr,
        }
    }
}

/// A window quantised to whole segments where it holds more than one (`tcp_select_initial_window`).
fn round_to_segments(space: u64, mss: u32) -> u64 {
    let mss = u64::from(mss.max(1));
    if space > mss {
        space / mss * mss
    } else {
        space
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::Packet;

    const MSS: u32 = 1000;

    /// Linux's defaults (the scenario's), with this window, segment size and buffer.
    fn cfg(rwnd: u64, mss: u32, autotune: bool) -> ReceiverConfig {
        ReceiverConfig {
            rwnd,
            mss,
            autotune,
            ..ReceiverConfig::of(&Scenario::default(), Duration::ZERO)
        }
    }

    fn rx(delack_ms: u64) -> Receiver {
        let mut r = Receiver::new(ReceiverConfig {
            delack: Duration::from_millis(delack_ms),
            ..cfg(64_000, MSS, false)
        });
        // Past the quick-ACK start, to see the steady-state rules.
        r.last_arrival = Some(Instant::ZERO);
        r
    }

    fn seg(r: &mut Receiver, n: u64) -> Arrival {
        seg_at(r, Instant::ZERO, n)
    }

    /// Full segment `n` arrives at `t`, without timestamps.
    fn seg_at(r: &mut Receiver, t: Instant, n: u64) -> Arrival {
        r.on_data(
            t,
            n * u64::from(MSS),
            MSS,
            TsOpt::default(),
            Ecn::NotEct,
            false,
        )
    }

    #[test]
    fn the_largest_window_a_scenario_allows_goes_out_whole_in_the_ack_s_field() {
        // `rwnd`'s bound, a fixed buffer: the ACK's 32-bit field must carry it unclipped.
        let max = crate::scenario::MAX_RWND;
        let mut r = Receiver::new(cfg(max, MSS, false));
        let Kind::Ack { wnd, .. } = r.make_ack(Instant::ZERO) else {
            panic!("an ACK")
        };
        assert_eq!(u64::from(wnd), r.window());
        assert!(r.window() > max - u64::from(MSS), "{}", r.window());
    }

    fn blocks(kind: Kind) -> Vec<(u64, u64)> {
        let p = Packet {
            flow: 0,
            kind,
            wire_bytes: 0,
        };
        p.sack_blocks()
            .iter()
            .map(|b| (b.start / 1000, b.end / 1000))
            .collect()
    }

    #[test]
    fn every_second_full_segment_is_acked_at_once() {
        let mut r = rx(40);
        assert!(!seg(&mut r, 0).ack_now);
        assert_eq!(r.ack_deadline(), Some(Instant::from_millis(40)));
        assert!(seg(&mut r, 1).ack_now);
        r.make_ack(Instant::ZERO);
        assert_eq!(r.ack_deadline(), None);
    }

    #[test]
    fn a_new_connection_acks_its_first_segments_at_once() {
        let mut r = Receiver::new(cfg(64_000, MSS, false));
        for n in 0..16 {
            assert!(seg(&mut r, n).ack_now, "segment {n}");
            r.make_ack(Instant::ZERO);
        }
        assert!(!seg(&mut r, 16).ack_now);
    }

    #[test]
    fn the_first_out_of_order_segments_are_acked_at_once_with_sack_blocks_newest_first() {
        let mut r = rx(40);
        seg(&mut r, 0);
        assert!(seg(&mut r, 2).ack_now);
        assert!(seg(&mut r, 5).ack_now);
        assert!(seg(&mut r, 3).ack_now);
        let ack = r.make_ack(Instant::ZERO);
        assert_eq!(blocks(ack), [(2, 4), (5, 6)]);
        assert!(matches!(ack, Kind::Ack { ack: 1000, .. }));
    }

    /// A receiver with out-of-order data at cumulative ACK 1000 whose first three ACKs went
    /// at once, with `rtt` as its own RTT estimate.
    fn compressing(rtt: Option<Duration>) -> Receiver {
        let mut r = rx(40);
        r.rcv_rtt8 = rtt.map_or(0, |d| d.as_nanos() << 3);
        seg(&mut r, 0);
        for n in 2..=4 {
            assert!(seg(&mut r, n).ack_now, "the first three go at once: {n}");
        }
        r
    }

    #[test]
    fn after_three_acks_for_one_hole_sack_compression_holds_the_next_for_at_most_1_ms() {
        // 40 ms: 5 % is 2 ms, so the 1 ms ceiling (`tcp_comp_sack_delay_ns`).
        let mut r = compressing(Some(Duration::from_millis(40)));
        let t = Instant::from_millis(3);
        let held = seg_at(&mut r, t, 5);
        assert!(!held.ack_now);
        let due = t + Duration::from_millis(1);
        assert_eq!(r.ack_deadline(), Some(due));
        // More out-of-order data joins the held ACK; the deadline stays.
        assert!(!seg_at(&mut r, t + Duration::from_micros(120), 6).ack_now);
        assert_eq!(r.ack_deadline(), Some(due));
        assert_eq!(r.ack_due(due - Duration::from_nanos(1)), None);
        assert_eq!(r.ack_due(due), Some(AckTiming::Compressed));
        // One ACK reports both, and ends the hold.
        assert_eq!(blocks(r.make_ack(due)), [(2, 7)]);
        assert_eq!(r.ack_deadline(), None);
        assert_eq!(r.ack_due(due), None);
        // Still the same hole: the next is held again.
        assert!(!seg_at(&mut r, due, 7).ack_now);
    }

    #[test]
    fn the_hold_is_5_percent_of_the_smaller_rtt_and_none_without_the_receiver_s_own() {
        // 10 ms: 0.5 ms.
        let mut r = compressing(Some(Duration::from_millis(10)));
        assert!(!seg(&mut r, 5).ack_now);
        assert_eq!(
            r.ack_deadline(),
            Some(Instant::ZERO + Duration::from_micros(500))
        );
        // The handshake's RTT counts when it is the smaller: 40 ms against 8 ms, 0.4 ms.
        let mut r = compressing(Some(Duration::from_millis(40)));
        r.srtt = Some(Duration::from_millis(8));
        assert!(!seg(&mut r, 5).ack_now);
        assert_eq!(
            r.ack_deadline(),
            Some(Instant::ZERO + Duration::from_micros(400))
        );
        // No estimate of its own yet: Linux's `rcv_rtt_est` is 0 and so is the hold.
        let mut r = compressing(None);
        r.srtt = Some(Duration::from_millis(8));
        assert!(!seg(&mut r, 5).ack_now);
        assert_eq!(r.ack_deadline(), Some(Instant::ZERO));
    }

    #[test]
    fn the_45th_held_ack_goes_at_once() {
        let mut r = compressing(Some(Duration::from_millis(40)));
        for n in 5..49 {
            assert!(!seg(&mut r, n).ack_now, "{n}");
        }
        assert!(seg(&mut r, 49).ack_now, "44 held (`tcp_comp_sack_nr`)");
    }

    #[test]
    fn a_new_cumulative_ack_starts_the_count_again() {
        let mut r = compressing(Some(Duration::from_millis(40)));
        assert!(!seg(&mut r, 7).ack_now);
        let _ = r.make_ack(Instant::ZERO);
        assert!(!seg(&mut r, 6).ack_now);
        // Segment 1 fills the first hole, not the one at 5: more than a segment is newly in
        // order, and that ACK goes at once, uncounted; at the new cumulative ACK the next three
        // out-of-order segments' go at once again.
        assert!(seg(&mut r, 1).ack_now);
        assert_eq!(r.rcv_nxt(), 5 * u64::from(MSS));
        let _ = r.make_ack(Instant::ZERO);
        for n in [9, 11, 13] {
            assert!(seg(&mut r, n).ack_now, "{n}");
        }
        assert!(!seg(&mut r, 15).ack_now);
    }

    #[test]
    fn a_fifth_block_sends_the_held_ack_first_with_the_four_it_pushes_out() {
        let mut r = rx(40);
        r.rcv_rtt8 = Duration::from_millis(40).as_nanos() << 3;
        seg(&mut r, 0);
        for n in [2, 4, 6] {
            assert!(seg(&mut r, n).ack_now);
        }
        let arrival = seg(&mut r, 8);
        assert!(!arrival.ack_now && r.take_early_ack().is_none());
        // Segment 10 extends none of the four blocks kept: the held ACK goes first, with the
        // three newest (all the option has room for beside the timestamps).
        let arrival = seg(&mut r, 10);
        let early = r.take_early_ack().map(blocks);
        assert_eq!(early, Some(vec![(8, 9), (6, 7), (4, 5)]));
        assert_eq!(r.take_early_ack(), None);
        // Segment 10's own ACK is held again.
        assert!(!arrival.ack_now);
        // Segment 11 extends a kept block: nothing goes early.
        let arrival = seg(&mut r, 11);
        assert!(r.take_early_ack().is_none() && !arrival.ack_now);
    }

    #[test]
    fn without_sack_every_out_of_order_segment_is_acked_at_once() {
        let mut r = Receiver::new(ReceiverConfig {
            sack: false,
            ..rx(40).cfg
        });
        r.last_arrival = Some(Instant::ZERO);
        r.rcv_rtt8 = Duration::from_millis(40).as_nanos() << 3;
        seg(&mut r, 0);
        for n in 2..20 {
            assert!(seg(&mut r, n).ack_now, "{n}");
        }
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
        assert!(blocks(r.make_ack(Instant::ZERO)).is_empty());
    }

    #[test]
    fn held_data_narrows_the_window_but_never_moves_its_right_edge_back() {
        let mut r = rx(0);
        r.make_ack(Instant::ZERO);
        assert_eq!(r.window(), 64_000);
        seg(&mut r, 1);
        r.make_ack(Instant::ZERO);
        // Free space is 63 000 but the edge offered at 64 000 stays.
        assert_eq!(r.window(), 64_000);
        seg(&mut r, 0);
        r.make_ack(Instant::ZERO);
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
        assert_eq!(blocks(r.make_ack(Instant::ZERO)), [(8, 9), (6, 7), (4, 5)]);
    }

    #[test]
    fn the_syn_window_is_whole_segments_within_the_unscaled_field() {
        // tcp_select_initial_window: Linux's default buffer offers 65 160 (45 x 1448, as `ss`
        // shows on the kernel) or 64 240 (44 x 1460); a fixed 4 MiB buffer offers all it can
        // say unscaled, 65 535. Either way the first flight is 45 segments of 1448.
        let rx = |rwnd: u64, mss: u32, autotune: bool| Receiver::new(cfg(rwnd, mss, autotune));
        assert_eq!(rx(4 << 20, 1448, true).syn_window(), 65_160);
        assert_eq!(rx(4 << 20, 1460, true).syn_window(), 64_240);
        assert_eq!(rx(4 << 20, 1448, false).syn_window(), 65_535);
        assert_eq!(rx(20_000, 1000, false).syn_window(), 20_000);
        assert_eq!(rx(20_500, 1000, true).syn_window(), 20_000);
        assert_eq!(rx(500, 1000, false).syn_window(), 500);
        // rcv_ssthresh starts one segment below the default buffer's 64 KiB (ss: 64088), or at
        // the whole fixed buffer.
        assert_eq!(rx(4 << 20, 1448, true).rcv_ssthresh(), 64_088);
        assert_eq!(
            rx(4 << 20, 1448, false).rcv_ssthresh(),
            (4 << 20) / 1448 * 1448
        );
    }

    #[test]
    fn each_segment_grows_the_offered_window_by_two_and_asks_for_a_quick_ack() {
        // tcp_grow_window: rcv_ssthresh gains 2 x MSS per full segment while the buffer has
        // room, and icsk_ack.quick |= 1 makes that segment's ACK immediate.
        let mut r = rx(40);
        r.buffer = 100_000;
        r.rcv_ssthresh = 20_000;
        r.right_edge = 20_000;
        r.quickacks = 0;
        let a = r.on_data(Instant::ZERO, 0, MSS, TsOpt::default(), Ecn::NotEct, false);
        assert!(a.ack_now);
        assert_eq!(r.rcv_ssthresh(), 22_000);
        r.make_ack(Instant::ZERO);
        assert_eq!(r.window(), 22_000);
        // At the buffer's free space it stops, and ACKs are delayed again. The arriving segment
        // holds its place in the buffer while the window grows (Linux queues it first), so the
        // offered window stops one segment short of the buffer's.
        r.rcv_ssthresh = 98_000;
        assert!(
            r.on_data(
                Instant::ZERO,
                1000,
                MSS,
                TsOpt::default(),
                Ecn::NotEct,
                false
            )
            .ack_now
        );
        assert_eq!(r.rcv_ssthresh(), 99_000);
        r.make_ack(Instant::ZERO);
        assert!(
            !r.on_data(
                Instant::ZERO,
                2000,
                MSS,
                TsOpt::default(),
                Ecn::NotEct,
                false
            )
            .ack_now
        );
    }

    #[test]
    fn autotuning_grows_the_buffer_once_a_round_trip_as_tcp_rcvbuf_grow() {
        // Measured on Linux 6.18 (tcp:tcp_rcvbuf_grow): having read c = 24 616 bytes in a round
        // trip after a space of 14 480, the clamp becomes 2c + 2 * 2c * (c - 14480) / 14480 =
        // 118 156. The lab's application reads at once, so it reads what arrived.
        let mut r = Receiver::new(cfg(4 << 20, MSS, true));
        assert_eq!(r.buffer_window(), 64_536);
        let rtt = Duration::from_millis(30);
        let one_rtt = Instant::ZERO + rtt;
        r.on_syn(Instant::ZERO);
        r.on_handshake_ack(one_rtt);
        // The first full segment measures the scaling ratio: 131 072 x 160 / 256.
        r.space = 14_480;
        r.rcv_rtt8 = rtt.as_nanos() << 3;
        r.on_data(one_rtt, 0, MSS, TsOpt::default(), Ecn::NotEct, false);
        assert_eq!(r.buffer_window(), 81_920);
        // 24 616 bytes by the end of the round trip: 24 full segments and a part.
        for n in 1..24 {
            r.on_data(
                one_rtt,
                n * u64::from(MSS),
                MSS,
                TsOpt::default(),
                Ecn::NotEct,
                false,
            );
            r.make_ack(one_rtt);
        }
        assert_eq!(r.buffer_window(), 81_920);
        r.on_data(
            one_rtt + rtt,
            24_000,
            616,
            TsOpt::default(),
            Ecn::NotEct,
            false,
        );
        assert_eq!(r.space, 24_616);
        assert_eq!(r.buffer_window(), 118_156);
    }
    #[test]
    fn the_ack_timeout_follows_the_gaps_between_arrivals() {
        // tcp_event_data_recv: a gap m with 20 < m < ato gives ato/2 + m; a missed timer
        // doubles it (tcp_delack_timer_handler); gaps of 20 ms or less bring it back toward 40.
        let mut r = rx(40);
        r.on_handshake_ack(Instant::ZERO);
        r.synack_at = None;
        r.rto = Duration::from_millis(300);
        r.on_delack_timeout();
        assert_eq!(r.ato(), Duration::from_millis(80));
        r.on_data(
            Instant::from_millis(30),
            0,
            MSS,
            TsOpt::default(),
            Ecn::NotEct,
            false,
        );
        assert_eq!(r.ato(), Duration::from_millis(70));
        r.make_ack(Instant::ZERO);
        r.on_data(
            Instant::from_millis(40),
            1000,
            MSS,
            TsOpt::default(),
            Ecn::NotEct,
            false,
        );
        assert_eq!(r.ato(), Duration::from_millis(55));
        // With no RTT known the wait is the timeout itself, within the 500 ms ceiling.
        assert_eq!(r.ack_deadline(), Some(Instant::from_millis(40 + 55)));
    }

    #[test]
    fn a_gap_longer_than_the_rto_and_a_duplicate_bring_quick_acks_back() {
        let mut r = rx(40);
        r.rto = Duration::from_millis(300);
        assert!(!seg(&mut r, 0).ack_now);
        r.make_ack(Instant::ZERO);
        // Idle for a second: the sender restarts, its segments are ACKed at once.
        assert!(seg_at(&mut r, Instant::from_secs(1), 1).ack_now);
        r.make_ack(Instant::ZERO);
        assert!(seg_at(&mut r, Instant::from_secs(1), 2).ack_now);
        for _ in 0..16 {
            r.make_ack(Instant::ZERO);
        }
        assert!(!seg_at(&mut r, Instant::from_secs(1), 3).ack_now);
        // A duplicate: quick ACKs again.
        r.make_ack(Instant::ZERO);
        assert!(seg_at(&mut r, Instant::from_secs(1), 0).ack_now);
        r.make_ack(Instant::ZERO);
        assert!(seg_at(&mut r, Instant::from_secs(1), 4).ack_now);
    }
}

#[cfg(test)]
mod ecn_tests {
    use super::*;

    const MSS: u32 = 1000;

    fn ecn_rx() -> Receiver {
        let mut r = Receiver::new(ReceiverConfig {
            rwnd: 64_000,
            mss: MSS,
            autotune: false,
            ecn: true,
            ..ReceiverConfig::of(&Scenario::default(), Duration::ZERO)
        });
        // Past the quick-ACK start, to see the steady-state rules.
        r.last_arrival = Some(Instant::ZERO);
        r
    }

    fn arrive(r: &mut Receiver, n: u64, ecn: Ecn, cwr: bool) -> (Arrival, bool) {
        let a = r.on_data(
            Instant::ZERO,
            n * u64::from(MSS),
            MSS,
            TsOpt::default(),
            ecn,
            cwr,
        );
        let ece = matches!(r.make_ack(Instant::ZERO), Kind::Ack { ece: true, .. });
        (a, ece)
    }

    /// RFC 3168 §6.1.3, Linux `tcp_ecn_check_ce` and `tcp_ecn_accept_cwr`: a CE mark sets ECE
    /// on every ACK until a segment with CWR arrives; the marked segment and the one after are
    /// ACKed at once, and so is the CWR segment.
    #[test]
    fn a_mark_is_echoed_until_cwr() {
        let mut r = ecn_rx();
        let (a, ece) = arrive(&mut r, 0, Ecn::Ect0, false);
        assert!(!a.ack_now && !ece, "an unmarked segment waits for a second");
        let (a, ece) = arrive(&mut r, 1, Ecn::Ce, false);
        assert!(a.ack_now && ece, "the mark is ACKed at once and echoed");
        let (a, ece) = arrive(&mut r, 2, Ecn::Ect0, false);
        assert!(
            a.ack_now && ece,
            "quick ACK for the next segment too, still echoing"
        );
        let (_, ece) = arrive(&mut r, 3, Ecn::Ect0, false);
        assert!(ece, "echoed until CWR");
        let (a, ece) = arrive(&mut r, 4, Ecn::Ect0, true);
        assert!(a.ack_now && !ece, "CWR stops the echo and is ACKed at once");
        let (_, ece) = arrive(&mut r, 5, Ecn::Ect0, false);
        assert!(!ece);
    }

    /// Without ECN negotiated a CE mark means nothing to the receiver.
    #[test]
    fn without_ecn_a_mark_is_not_echoed() {
        let mut r = ecn_rx();
        r.cfg.ecn = false;
        let (_, ece) = arrive(&mut r, 0, Ecn::Ce, false);
        assert!(!ece);
    }
}
