//! The sending end: handshake, the window, loss detection and recovery, the retransmission
//! timer, pacing.
//!
//! Windows and the data in flight are counted in packets, as Linux counts them
//! (`tcp_packets_in_flight`, `tcp_cwnd_test`); the receiver's window in bytes. Loss recovery is
//! Linux's `tcp_fastretrans_alert`: RFC 6675 with SACK and RFC 6582 (NewReno) without, both with
//! one reckoning of the data in flight, in which without SACK each duplicate ACK counts as one
//! packet that has left the network (RFC 5681's window inflation said another way). In fast
//! recovery the window is brought down to ssthresh by Proportional Rate Reduction (RFC 6937,
//! `tcp_cwnd_reduction`) and set to it when recovery ends; the ACK that ends one recovery may
//! start the next. With SACK, losses are also found by RACK and tail losses drawn out by a probe
//! (RFC 8985), as Linux does by default.

use crate::cc::{AckEvent, CongestionControl, LossEvent, Window, INFINITE_SSTHRESH_BYTES};
use crate::memo::Memo;
use crate::packet::{
    header_bytes, ts_clock, Ecn, Kind, Packet, SackBlock, TsOpt, SYN_OPTION_BYTES,
};
use crate::scenario::Scenario;
use crate::time::{serialisation_time, Duration, Instant};

use super::pacer::{self, Gso, Pacer};
use super::rack::Rack;
use super::rate::RateEstimator;
use super::rtt::RttEstimator;
use super::scoreboard::{Scoreboard, Seg, TxSnapshot, DUP_THRESH};
use super::timer::{Timer, TimerTable};
use super::tlp::probe_timeout;
use super::undo::Undo;

#[derive(Debug, Clone, Copy)]
pub struct SenderConfig {
    pub mss: u32,
    /// Initial window in segments (RFC 6928).
    pub iw: u32,
    pub sack: bool,
    pub rto_min: Duration,
    /// Timestamps (RFC 7323): every segment carries one, and an ACK's echo gives an RTT sample
    /// even for retransmitted data.
    pub ts: bool,
    /// The timestamp clock's phase ([`ts_clock`]).
    pub ts_phase: Duration,
    /// ECN was negotiated (RFC 3168 §6.1.1): new data goes out ECT(0), and an echoed mark
    /// reduces the window as a loss would, without a retransmission.
    pub ecn: bool,
}

impl SenderConfig {
    /// The sender a scenario describes, its timestamps on a clock of `ts_phase`.
    pub fn of(s: &Scenario, ts_phase: Duration) -> Self {
        SenderConfig {
            mss: s.mss,
            iw: s.iw,
            sack: s.sack,
            rto_min: Duration::from_millis_f64(s.minrto_ms),
            ts: s.ts,
            ts_phase,
            ecn: s.ecn,
        }
    }
}

/// Where the connection is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConnState {
    /// Not yet opened.
    Closed,
    /// SYN sent, waiting for the SYN-ACK.
    SynSent {
        retries: u32,
    },
    Established,
}

/// Linux's congestion states (`tcp_ca_state`), which say what the sender is doing about loss.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaState {
    /// Nothing amiss.
    Open,
    /// Duplicate ACKs or SACKs seen, not yet enough to call a loss.
    Disorder,
    /// Reducing the window for a congestion mark echoed by the receiver (ECE, RFC 3168
    /// §6.1.2), until data sent after the reduction began, beyond `high_seq`, is acknowledged
    /// (Linux's `TCP_CA_CWR`).
    Cwr { high_seq: u64 },
    /// Fast recovery until everything sent before the loss, up to `recover`, is acknowledged.
    Recovery { recover: u64 },
    /// After a retransmission timeout, until everything sent before it is acknowledged.
    Loss { recover: u64 },
}

/// What happened to the sender, for counters, traces and the player's explanations.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Note {
    SynSent {
        retry: u32,
    },
    Established {
        rtt: Option<Duration>,
    },
    FastRetransmit {
        seq: u64,
        cwnd_before: u64,
        cwnd_after: u64,
        ssthresh: u64,
    },
    /// An ACK echoed a congestion mark: the window's reduction begins (`tcp_enter_cwr`).
    EcnEcho {
        cwnd_before: u64,
        ssthresh: u64,
    },
    RecoveryDone {
        cwnd: u64,
    },
    Timeout {
        rto: Duration,
        backoff: u32,
        cwnd_before: u64,
        ssthresh: u64,
    },
    Retransmit {
        seq: u64,
        len: u32,
        in_flight: u64,
    },
    /// A tail loss probe: new data, or the last segment again.
    LossProbe {
        seq: u64,
        len: u32,
    },
    Send {
        seq: u64,
        len: u32,
        in_flight: u64,
    },
}

impl Note {
    /// The data in flight once the note's packet had left, for a note that counts it.
    pub fn in_flight_after(&self) -> Option<u64> {
        match *self {
            Note::Send { in_flight, .. } | Note::Retransmit { in_flight, .. } => Some(in_flight),
            _ => None,
        }
    }

    /// The data in flight just before the note's packet left, for a note that counts it.
    pub fn in_flight_before(&self) -> Option<u64> {
        match *self {
            Note::Send { in_flight, len, .. } | Note::Retransmit { in_flight, len, .. } => {
                Some(in_flight.saturating_sub(u64::from(len)))
            }
            _ => None,
        }
    }
}

/// What a window reduction answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reduction {
    Loss,
    /// A congestion mark echoed by the receiver.
    EcnEcho,
}

/// How a segment goes out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tx {
    New,
    Retransmit,
    /// A tail loss probe (RFC 8985 §7.3): new data, or the last segment again.
    Probe {
        retransmit: bool,
    },
}

/// What one ACK showed, for the loss state machine (Linux's `FLAG_*` of `tcp_ack`).
#[derive(Debug, Clone, Copy)]
struct AckFlags {
    /// The cumulative ACK moved (`FLAG_SND_UNA_ADVANCED`).
    advanced: bool,
    /// New data was SACKed (`FLAG_DATA_SACKED`).
    data_sacked: bool,
    /// A duplicate ACK by RFC 5681 §2 (RFC 6675 §2 with SACK).
    dupack: bool,
    /// Data never retransmitted, sent before the timeout, was acknowledged or SACKed
    /// (`FLAG_ORIG_SACK_ACKED`).
    orig_acked: bool,
    /// The timestamp echoed (0: none).
    ecr: u32,
    /// The ACK echoes a congestion mark, on a connection that negotiated ECN (`FLAG_ECE`).
    ece: bool,
}

/// Counters of one sender, for the summary.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SenderStats {
    pub syn_sent_at: Option<Instant>,
    pub handshake_ack_at: Option<Instant>,
    pub first_data_at: Option<Instant>,
    pub data_segments: u64,
    pub data_bytes: u64,
    pub retransmitted_segments: u64,
    pub retransmitted_bytes: u64,
    pub fast_retransmits: u64,
    /// Duplicate ACKs by RFC 5681 §2's definition: data outstanding, the same cumulative ACK
    /// and the same window as the ACK before, whether or not they SACK anything new. What a
    /// capture's analysis (Wireshark's `tcp.analysis.duplicate_ack`) counts at the sender.
    pub duplicate_acks: u64,
    pub timeouts: u64,
    pub loss_probes: u64,
    /// Reductions undone as spurious (Linux's TCPLossUndo, TCPFullUndo, TCPDSACKUndo).
    pub undos: u64,
}

pub struct Sender {
    flow: u16,
    cfg: SenderConfig,
    conn: ConnState,
    ca: CaState,
    snd_una: u64,
    snd_nxt: u64,
    /// The peer's newest TSval, echoed on every data segment (RFC 7323 §4.3).
    ts_recent: u32,
    /// Bytes the application has written so far (`u64::MAX` for a bulk sender).
    app_end: u64,
    /// The right edge of the peer's receive window: `ack + wnd` of the latest ACK.
    peer_edge: u64,
    board: Scoreboard,
    rtt: RttEstimator,
    rate: RateEstimator,
    cc: Box<dyn CongestionControl>,
    /// `cc.paces()`, asked once.
    paces: bool,
    /// `cc.samples_rate()`, asked once.
    samples_rate: bool,
    w: Window,
    dupacks: u32,
    /// Bytes the latest ACK newly SACKed.
    last_sacked: u64,
    /// Without SACK: duplicate ACKs taken as packets that have left the network (Linux's
    /// `sacked_out` for Reno).
    reno_sacked: u32,
    /// Proportional Rate Reduction (RFC 6937): the window when recovery began, and the packets
    /// delivered and sent since (`prior_cwnd`, `prr_delivered`, `prr_out`).
    prior_cwnd: u32,
    prr_delivered: u64,
    prr_out: u64,
    /// Whether the current reduction may still be undone, and what to restore.
    undo: Undo,
    /// Timeouts since the cumulative ACK last advanced (Linux's `icsk_retransmits`).
    rto_retransmits: u32,
    /// F-RTO (RFC 5682, Linux's `tp->frto`): this timeout may yet prove spurious.
    frto: bool,
    /// F-RTO's step 2b: the next transmission is new data, not the retransmissions a timeout
    /// asks for (Linux's `REXMIT_NEW`).
    frto_new_data: bool,
    /// The next new segment carries CWR (Linux's `TCP_ECN_QUEUE_CWR`).
    queue_cwr: bool,
    /// The retransmission timer, the tail loss probe's, RACK's reordering timer and the pacer's.
    timers: TimerTable,
    rack: Rack,
    /// The end of the tail loss probe while its ACK is awaited.
    tlp_high_seq: Option<u64>,
    /// The probe resent the last segment rather than sending new data (`tlp_retrans`).
    tlp_retrans: bool,
    /// Pacing: when the next GSO packet may leave. The pacing timer is armed for it while a
    /// packet waits.
    pacer: Pacer,
    /// Kept answers ([`Memo`]) of what pacing derives at every send from a rate that changes a
    /// few times a round: the GSO packet's segments, by the rate, min RTT and the algorithm's
    /// least; a segment's time at the rate, by the rate and the segment's length.
    quantum_memo: Memo<(u64, Option<Duration>, u32), u32>,
    pace_memo: Memo<(u64, u32), Duration>,
    /// Linux's `tcp_cwnd_validate` state: whether the window limited the latest round, and the
    /// most packets that were outstanding in it (`max_packets_out`).
    is_cwnd_limited: bool,
    max_out: u64,
    usage_seq: u64,
    /// When data last left (Linux's `lsndtime`): how long the connection has been idle.
    last_send: Option<Instant>,
    stats: SenderStats,
    notes: Option<Vec<(Instant, Note)>>,
}

impl Sender {
    pub fn new(flow: u16, cfg: SenderConfig, cc: Box<dyn CongestionControl>) -> Self {
        Sender {
            flow,
            cfg,
            conn: ConnState::Closed,
            ca: CaState::Open,
            snd_una: 0,
            snd_nxt: 0,
            ts_recent: 0,
            app_end: 0,
            peer_edge: 0,
            board: Scoreboard::new(),
            rtt: RttEstimator::new(cfg.rto_min),
            rate: RateEstimator::default(),
            paces: cc.paces(),
            samples_rate: cc.samples_rate(),
            quantum_memo: Memo::default(),
            pace_memo: Memo::default(),
            cc,
            w: Window::new(cfg.iw, cfg.mss),
            dupacks: 0,
            last_sacked: 0,
            reno_sacked: 0,
            prior_cwnd: 0,
            undo: Undo::default(),
            rto_retransmits: 0,
            frto: false,
            frto_new_data: false,
            queue_cwr: false,
            prr_delivered: 0,
            prr_out: 0,
            timers: TimerTable::default(),
            rack: Rack::new(),
            tlp_high_seq: None,
            tlp_retrans: false,
            pacer: Pacer::default(),
            is_cwnd_limited: false,
            max_out: 0,
            usage_seq: 0,
            last_send: None,
            stats: SenderStats::default(),
            notes: None,
        }
    }

    /// Keeps a log of what the sender did, for the step-through player, or stops keeping it.
    pub fn record_notes(&mut self, on: bool) {
        self.notes = on.then(Vec::new);
    }

    /// The notes kept since they were last taken, oldest first.
    pub fn notes(&self) -> &[(Instant, Note)] {
        self.notes.as_deref().unwrap_or_default()
    }

    pub fn take_notes(&mut self) -> Vec<(Instant, Note)> {
        self.notes.as_mut().map(std::mem::take).unwrap_or_default()
    }

    fn note(&mut self, now: Instant, note: Note) {
        self.note_with(now, |_| note);
    }

    /// Notes what `note` makes of the sender, working it out only when notes are kept: sends
    /// are noted on every packet.
    fn note_with(&mut self, now: Instant, note: impl FnOnce(&Sender) -> Note) {
        if self.notes.is_some() {
            let note = note(self);
            if let Some(notes) = self.notes.as_mut() {
                notes.push((now, note));
            }
        }
    }

    /// Duplicate ACKs in a row.
    pub fn dupacks(&self) -> u32 {
        self.dupacks
    }

    /// Bytes the latest ACK newly SACKed.
    pub fn last_sacked(&self) -> u64 {
        self.last_sacked
    }

    pub fn conn_state(&self) -> ConnState {
        self.conn
    }

    pub fn ca_state(&self) -> CaState {
        self.ca
    }

    pub fn window(&self) -> Window {
        self.w
    }

    pub fn snd_una(&self) -> u64 {
        self.snd_una
    }

    pub fn snd_nxt(&self) -> u64 {
        self.snd_nxt
    }

    /// The peer's advertised window as of the latest ACK.
    pub fn peer_window(&self) -> u64 {
        self.peer_edge.saturating_sub(self.snd_una)
    }

    /// Bytes in flight: Linux's `tcp_packets_in_flight` in bytes, a duplicate ACK without SACK
    /// taken as a full segment.
    pub fn in_flight(&self) -> u64 {
        self.board
            .pipe()
            .saturating_sub(u64::from(self.reno_sacked) * u64::from(self.cfg.mss))
    }

    /// Packets in flight (Linux `tcp_packets_in_flight`): what the congestion window limits.
    pub fn packets_in_flight(&self) -> u32 {
        let pipe = self
            .board
            .pipe_segs()
            .saturating_sub(u64::from(self.reno_sacked));
        u32::try_from(pipe).unwrap_or(u32::MAX)
    }

    /// Packets delivered so far, acknowledged or SACKed (Linux's `tp->delivered`).
    pub fn delivered_packets(&self) -> u64 {
        self.rate.delivered()
    }

    /// Whether the window is being reduced in fast recovery (`tcp_in_cwnd_reduction`).
    /// Linux `tcp_in_cwnd_reduction`: PRR brings the window down in CWR and in Recovery.
    fn in_cwnd_reduction(&self) -> bool {
        matches!(self.ca, CaState::Cwr { .. } | CaState::Recovery { .. })
    }

    /// Whether the scoreboard holds nothing SACKed, deemed lost or resent: then everything
    /// from `snd_una` to `snd_nxt` is in flight, and an observer can count it without the
    /// sender's help.
    pub fn knows_no_loss(&self) -> bool {
        self.board.sacked_bytes() == 0
            && self.board.lost_bytes() == 0
            && self.board.retrans_bytes() == 0
    }

    pub fn rtt(&self) -> &RttEstimator {
        &self.rtt
    }

    pub fn stats(&self) -> &SenderStats {
        &self.stats
    }

    pub fn cc(&self) -> &dyn CongestionControl {
        self.cc.as_ref()
    }

    /// Everything written has been acknowledged.
    pub fn all_acked(&self) -> bool {
        self.snd_una >= self.app_end
    }

    /// The application writes `bytes` more (`u64::MAX` for without end).
    pub fn write(&mut self, bytes: u64) {
        self.app_end = self.app_end.saturating_add(bytes);
    }

    pub fn app_end(&self) -> u64 {
        self.app_end
    }

    /// The earliest time the sender wants its timer to run.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.timers.next_expiry().map(|(_, at)| at)
    }

    /// Opens the connection: the first SYN.
    pub fn connect(&mut self, now: Instant, out: &mut Vec<Packet>) {
        self.conn = ConnState::SynSent { retries: 0 };
        self.stats.syn_sent_at = Some(now);
        self.send_syn(now, 0, out);
    }

    fn send_syn(&mut self, now: Instant, retry: u32, out: &mut Vec<Packet>) {
        out.push(Packet {
            flow: self.flow,
            kind: Kind::Syn,
            wire_bytes: header_bytes(self.cfg.ts) + SYN_OPTION_BYTES,
        });
        self.timers.set(Timer::Rto, now + self.rtt.rto());
        self.note(now, Note::SynSent { retry });
    }

    /// The SYN-ACK arrived, offering a window of `wnd` bytes: the handshake's third segment
    /// goes out with the first data.
    pub fn on_syn_ack(&mut self, now: Instant, wnd: u64, ts: TsOpt, out: &mut Vec<Packet>) {
        let ConnState::SynSent { retries } = self.conn else {
            return;
        };
        self.ts_recent = ts.val;
        self.conn = ConnState::Established;
        // Karn's rule for the SYN too; Linux seeds SRTT from the handshake.
        let mut sample = None;
        if retries == 0 {
            if let Some(t0) = self.stats.syn_sent_at {
                sample = Some(now - t0);
                // Linux's first sample is the SYN-ACK's, with snd_una = snd_nxt = ISN + 1.
                self.rtt.sample(now - t0, self.snd_una, self.snd_nxt);
            }
        }
        // RFC 6298 §5.7 as Linux applies it (`tcp_init_transfer`): after repeated SYN loss the
        // connection starts from one segment.
        if retries > 1 {
            self.w.cwnd = 1;
        }
        self.timers.stop(Timer::Rto);
        self.peer_edge = wnd;
        out.push(Packet {
            flow: self.flow,
            kind: Kind::HandshakeAck,
            wire_bytes: header_bytes(self.cfg.ts),
        });
        self.stats.handshake_ack_at = Some(now);
        self.note(now, Note::Established { rtt: sample });
        self.try_send(now, out);
    }

    pub fn on_timer(&mut self, now: Instant, out: &mut Vec<Packet>) {
        // Linux arms one timer for both: the probe's replaces the retransmission timer
        // (`tcp_schedule_loss_probe`, RFC 8985 §7.2), so a probe due by the RTO's deadline goes
        // out and re-arms the RTO instead of losing the tie to it.
        if self.timers.is_due(Timer::Tlp, now) {
            self.send_loss_probe(now, out);
        }
        if self.timers.is_due(Timer::Rto, now) {
            self.on_rto(now, out);
        }
        if self.timers.is_due(Timer::RackReorder, now) {
            // RACK's reordering timer (RFC 8985 §6.3), Linux `tcp_rack_reo_timeout`: what it
            // finds lost starts recovery, with PRR's first step taken at once.
            let lost_before = self.board.lost_marked();
            self.detect_losses(now);
            let newly_lost = self.board.lost_marked().since(lost_before);
            if newly_lost.segs > 0
                && matches!(
                    self.ca,
                    CaState::Open | CaState::Disorder | CaState::Cwr { .. }
                )
            {
                let cwnd_before = self.w.cwnd_bytes();
                self.enter_recovery(now, false);
                if !self.cc.controls_window() {
                    self.cwnd_reduction(1, pkts(newly_lost.segs), false);
                }
                self.note_recovery(now, cwnd_before);
            }
            self.try_send(now, out);
        }
        if self.timers.is_due(Timer::Pacing, now) {
            self.timers.stop(Timer::Pacing);
            self.try_send(now, out);
        }
    }

    fn on_rto(&mut self, now: Instant, out: &mut Vec<Packet>) {
        self.timers.stop(Timer::Rto);
        match self.conn {
            ConnState::Closed => {}
            ConnState::SynSent { retries } => {
                // RFC 6298 §5.5: back off and try again.
                self.rtt.back_off();
                self.conn = ConnState::SynSent {
                    retries: retries + 1,
                };
                self.send_syn(now, retries + 1, out);
            }
            ConnState::Established => {
                if self.board.is_empty() {
                    return;
                }
                let rto = self.rtt.rto();
                self.stats.timeouts += 1;
                let cwnd_before = self.w.cwnd_bytes();
                // `tcp_enter_loss`: ssthresh is reduced, and a new loss episode may be undone as
                // a whole, unless a reduction made for this window is under way: a recovery not
                // yet over, or a timeout repeated with no ACK advancing since.
                let reduce = match self.ca {
                    CaState::Open | CaState::Disorder => true,
                    CaState::Cwr { high_seq: recover } | CaState::Recovery { recover } => {
                        recover <= self.snd_una
                    }
                    CaState::Loss { recover } => {
                        recover <= self.snd_una || self.rto_retransmits == 0
                    }
                };
                // RFC 5682 §3.1 step 1 and §3.2: F-RTO is tried unless the timeout interrupts
                // a recovery; repeated timeouts on the same segment keep trying.
                self.frto = matches!(
                    self.ca,
                    CaState::Open | CaState::Disorder | CaState::Cwr { .. }
                ) || self.rto_retransmits > 0;
                self.frto_new_data = false;
                if reduce {
                    self.begin_undo(true);
                    self.queue_cwr = self.cfg.ecn;
                }
                // `tcp_timeout_mark_lost`: RACK spares segments sent within its RTT. Linux marks
                // them before it tells the algorithm of the new state (`tcp_set_ca_state`), which
                // may read the count (BBR's long-term sampling).
                let rack_rtt = self.rack.rtt();
                let spare_after = (rack_rtt > Duration::ZERO).then(|| now - rack_rtt);
                self.board.mark_all_lost(spare_after);
                let loss = LossEvent {
                    now,
                    flight_size: self.snd_nxt - self.snd_una,
                    total_lost: self.board.lost_marked().segs,
                    snd_nxt: self.snd_nxt,
                };
                self.cc.on_rto(&mut self.w, &loss, reduce);
                // A timeout replaces the reordering timer (Linux arms one timer for both).
                self.timers.stop(Timer::RackReorder);
                self.timers.stop(Timer::Tlp);
                self.tlp_high_seq = None;
                self.reno_sacked = 0;
                self.dupacks = 0;
                // RFC 5681 §3.1, Linux `tcp_enter_loss`: the window is what is in flight once
                // the losses are marked, plus one: after a full stall, one packet, the loss
                // window.
                self.w.cwnd = self.packets_in_flight() + 1;
                self.w.cwnd_cnt = 0;
                self.ca = CaState::Loss {
                    recover: self.snd_nxt,
                };
                self.rto_retransmits += 1;
                self.rtt.back_off();
                self.note(
                    now,
                    Note::Timeout {
                        rto,
                        backoff: self.rtt.backoff(),
                        cwnd_before,
                        ssthresh: self.w.ssthresh_bytes().unwrap_or(INFINITE_SSTHRESH_BYTES),
                    },
                );
                self.try_send(now, out);
                // RFC 6298 §5.6: restart the timer with the backed-off value.
                self.timers.set(Timer::Rto, now + self.rtt.rto());
            }
        }
    }

    /// An ACK arrived: Linux's `tcp_ack`. The scoreboard takes the SACK blocks and the
    /// cumulative ACK (`tcp_sacktag_write_queue`, `tcp_clean_rtx_queue`), losses are found and
    /// the congestion state moves (`tcp_fastretrans_alert`), then the window is reduced by PRR
    /// or grown by the algorithm (`tcp_cong_control`), and what the window allows is sent.
    /// `ece`: the ACK's ECN-Echo flag.
    #[allow(clippy::too_many_arguments)]
    pub fn on_ack(
        &mut self,
        now: Instant,
        ack: u64,
        wnd: u64,
        sack: &[SackBlock],
        ts: TsOpt,
        ece: bool,
        out: &mut Vec<Packet>,
    ) {
        if self.conn != ConnState::Established || ack > self.snd_nxt || ack < self.snd_una {
            return;
        }
        if ack == self.snd_una && self.snd_nxt > self.snd_una && ack + wnd == self.peer_edge {
            self.stats.duplicate_acks += 1;
        }
        // The ACK path never reorders, so the latest ACK carries the latest window
        // (RFC 9293's SND.WL1/SND.WL2 checks are always met).
        self.peer_edge = ack + wnd;
        // TS.Recent (RFC 7323 §4.3, `tcp_replace_ts_recent`): an ACK carries no data, so every
        // one is at the left window edge and the newest TSval is the one to echo.
        if self.cfg.ts && ts.val.wrapping_sub(self.ts_recent) as i32 >= 0 {
            self.ts_recent = ts.val;
        }

        // RFC 2883 §4, Linux `tcp_check_dsack`: a first block below the ACK, or inside the
        // second, reports a duplicate; its retransmissions count toward an undo.
        let dsack = self.cfg.sack
            && sack.first().is_some_and(|b0| {
                b0.start < ack
                    || sack
                        .get(1)
                        .is_some_and(|b1| b1.start <= b0.start && b0.end <= b1.end)
            });
        let mut dsack_tlp = false;
        if dsack {
            let b0 = sack[0];
            let segs = (b0.end - b0.start).div_ceil(u64::from(self.cfg.mss.max(1)));
            self.undo.on_dsack(b0, pkts(segs));
            // FLAG_DSACK_TLP: the probe's retransmission arrived as a duplicate.
            dsack_tlp = self.tlp_retrans && self.tlp_high_seq == Some(b0.end);
        }
        let lost_before = self.board.lost_marked();
        let sacked = if self.cfg.sack && !sack.is_empty() {
            self.board.sack(sack)
        } else {
            Default::default()
        };
        let (newly_sacked, sack_latest) = (sacked.newly, sacked.latest);
        self.last_sacked = newly_sacked.bytes;
        let advanced = ack > self.snd_una;
        let mut newly_acked = 0;
        let mut acked_pkts = 0u32;
        let mut sacked_pkts = pkts(newly_sacked.segs);
        let mut latest = sack_latest;
        // Linux `tcp_clean_rtx_queue` and `tcp_ack_update_rtt`: the estimator's sample is the
        // oldest newly acknowledged segment's, else the first newly SACKed one's, by timing and
        // Karn's rule; the controller's is the newest's. Failing both, on an ACK that advances,
        // the timestamp echo (RFC 7323 §4), which retransmitted data gives too.
        let mut seq_rtt = sacked.rtt_sent_at.map(|t| now - t);
        let mut ca_rtt = sacked.last_sent_at.map(|t| now - t);
        let mut first_orig_end = sacked.first_orig_end;
        let mut is_dupack = false;
        if advanced {
            let acked = self.board.ack(ack);
            self.snd_una = ack;
            self.rto_retransmits = 0;
            if let Some(e) = acked.first_orig_end {
                first_orig_end = Some(first_orig_end.map_or(e, |f| f.min(e)));
            }
            newly_acked = acked.newly_delivered;
            acked_pkts = pkts(acked.newly_delivered_segs);
            if let Some(t) = acked.rtt_sent_at {
                seq_rtt = Some(now - t);
            }
            if ca_rtt.is_none() {
                ca_rtt = acked.last_sent_at.map(|t| now - t);
            }
            if seq_rtt.is_none() && self.cfg.ts && ts.ecr != 0 {
                let ms = ts_clock(now, self.cfg.ts_phase).wrapping_sub(ts.ecr).max(1);
                let sample = Duration::from_millis(u64::from(ms));
                seq_rtt = Some(sample);
                ca_rtt = Some(sample);
            }
            if let Some(d) = acked.latest {
                if latest.is_none_or(|l| d.sent_after(&l)) {
                    latest = Some(d);
                }
            }
            self.dupacks = 0;
            if !self.cfg.sack {
                // Linux `tcp_remove_reno_sacks`: the ACK's first packet filled the hole; the
                // rest had been counted as delivered by their duplicate ACKs, so only
                // max(acked - duplicates, 1) is newly delivered.
                let segs = pkts(acked.segs);
                acked_pkts = segs.saturating_sub(self.reno_sacked).max(1);
                self.reno_sacked = self.reno_sacked.saturating_sub(segs.saturating_sub(1));
                if matches!(
                    self.ca,
                    CaState::Loss { .. } | CaState::Open | CaState::Disorder
                ) {
                    // `tcp_process_loss` and `tcp_fastretrans_alert`'s default branch
                    // (`tcp_reset_reno_sack`): outside recovery an advancing ACK clears them.
                    self.reno_sacked = 0;
                }
            }
            // RFC 6298 §5.2 and §5.3.
            if self.board.is_empty() {
                self.timers.stop(Timer::Rto);
            } else {
                self.timers.set(Timer::Rto, now + self.rtt.rto());
            }
        } else if !self.board.is_empty() && (!self.cfg.sack || newly_sacked.segs > 0) {
            // RFC 5681 §2's duplicate ACK; with SACK, RFC 6675 §2 counts only those that SACK
            // new data.
            self.dupacks += 1;
            is_dupack = true;
            // Linux `tcp_process_loss`: after a timeout a duplicate ACK counts as a packet that
            // left the network only once data beyond the timeout's `recover` is out; before that
            // it is most likely for a resent segment the receiver already had.
            let counts = match self.ca {
                CaState::Loss { recover } => self.snd_nxt > recover,
                _ => true,
            };
            if !self.cfg.sack && counts {
                // `tcp_add_reno_sack`, within `tcp_limit_reno_sacked`: the holes (at least one)
                // are not counted as delivered.
                let out_segs = pkts(self.board.out_segs());
                let holes = pkts(self.board.lost_segs()).max(1).min(out_segs);
                let before = self.reno_sacked;
                self.reno_sacked = (self.reno_sacked + 1).min(out_segs - holes);
                sacked_pkts = self.reno_sacked.saturating_sub(before);
            }
        }
        if let Some(r) = seq_rtt {
            // A valid sample also ends the timer's backoff (`icsk_backoff = 0`).
            self.rtt.sample(r, self.snd_una, self.snd_nxt);
        }
        let delivered_now = newly_acked + newly_sacked.bytes;
        let rate = if self.samples_rate {
            self.rate.on_delivered(
                now,
                acked_pkts + sacked_pkts,
                latest.map(|d| (d.sent_at, d.tx)),
                self.rtt.min_rtt(),
            )
        } else {
            self.rate.count_delivered(acked_pkts + sacked_pkts);
            None
        };
        if let Some(d) = latest {
            self.rack.on_delivered(now, d, self.rtt.min_rtt());
        }
        self.process_tlp_ack(now, advanced, newly_sacked.segs > 0, dsack_tlp);
        // Linux `tcp_ack_is_dubious`: an ACK that finds the sender Open and moves the cumulative
        // ACK without a SACK, a D-SACK or an echoed mark leaves loss detection alone (nothing
        // is SACKed, so RACK can find no loss); RACK's list only forgets what is acknowledged.
        let dubious = self.ca != CaState::Open
            || !advanced
            || newly_sacked.segs > 0
            || dsack
            || (self.cfg.ecn && ece);
        if dubious {
            self.detect_losses(now);
        } else {
            self.rack.forget_acked(&self.board);
        }
        let cwnd_before = self.w.cwnd_bytes();
        // Linux's `FLAG_ORIG_SACK_ACKED`: data sent once only, before the timeout's `high_seq`,
        // was acknowledged or SACKed.
        let orig_acked = match self.ca {
            CaState::Loss { recover } => first_orig_end.is_some_and(|e| e <= recover),
            _ => false,
        };
        let flags = AckFlags {
            advanced,
            data_sacked: newly_sacked.segs > 0,
            dupack: is_dupack,
            orig_acked,
            ecr: ts.ecr,
            ece: self.cfg.ecn && ece,
        };
        let entered = self.fastretrans_alert(now, flags);
        let newly_lost = self.board.lost_marked().since(lost_before);

        let acked_sacked = acked_pkts + sacked_pkts;
        if acked_sacked > 0 || delivered_now > 0 {
            if self.in_cwnd_reduction() && !self.cc.controls_window() {
                self.cwnd_reduction(acked_sacked, pkts(newly_lost.segs), advanced);
            }
            let ev = AckEvent {
                now,
                acked: acked_pkts,
                sacked: sacked_pkts,
                data_acked: advanced && newly_acked > 0,
                lost: pkts(newly_lost.segs),
                total_lost: self.board.lost_marked().segs,
                rtt: ca_rtt,
                min_rtt: self.rtt.min_rtt(),
                in_flight: self.packets_in_flight(),
                cwnd_limited: self.cwnd_limited(),
                in_recovery: self.in_cwnd_reduction(),
                in_cwr: matches!(self.ca, CaState::Cwr { .. }),
                delivered: self.rate.delivered(),
                snd_una: self.snd_una,
                snd_nxt: self.snd_nxt,
                next_departure: self.pacer.next(),
                srtt: self.rtt.srtt(),
                rate,
            };
            self.cc.on_ack(&mut self.w, &ev);
        }
        if entered {
            self.note_recovery(now, cwnd_before);
        }
        if self.ca == CaState::Open && self.board.retrans_bytes() == 0 {
            self.undo.clear_stamp();
        }
        self.try_send(now, out);
    }

    fn note_recovery(&mut self, now: Instant, cwnd_before: u64) {
        self.note(
            now,
            Note::FastRetransmit {
                seq: self.snd_una,
                cwnd_before,
                cwnd_after: self.w.cwnd_bytes(),
                ssthresh: self.w.ssthresh_bytes().unwrap_or(INFINITE_SSTHRESH_BYTES),
            },
        );
    }

    /// Linux `tcp_fastretrans_alert`: leaves recovery once everything outstanding at its start
    /// is acknowledged, and on the same ACK enters a new one if losses are already marked;
    /// marks NewReno's losses; enters recovery from Open or Disorder. Returns whether recovery
    /// began on this ACK.
    fn fastretrans_alert(&mut self, now: Instant, f: AckFlags) -> bool {
        let AckFlags {
            advanced, ecr, ece, ..
        } = f;
        match self.ca {
            // CWR holds until something above `high_seq` is acknowledged, so that the CWR flag
            // has reached the receiver; then the window is ssthresh (`tcp_end_cwnd_reduction`).
            CaState::Cwr { high_seq } if self.snd_una > high_seq => {
                self.ca = CaState::Open;
                self.end_cwnd_reduction(true);
            }
            CaState::Recovery { recover } if self.snd_una >= recover => {
                // `tcp_try_undo_recovery`: a recovery whose retransmissions all proved
                // needless gives back the window it took.
                if self.undo.may_undo(ecr) {
                    self.undo_reduction(false);
                }
                // `tcp_try_undo_recovery`: without SACK the state holds until something above
                // `recover` is acknowledged, so that duplicate ACKs for the retransmissions do
                // not start a false fast retransmit (RFC 6582 §3.2 step 6, "careful").
                if !self.cfg.sack && self.snd_una == recover {
                    self.reno_sacked = 0;
                    return false;
                }
                self.reno_sacked = 0;
                self.ca = CaState::Open;
                self.end_cwnd_reduction(false);
                self.note(
                    now,
                    Note::RecoveryDone {
                        cwnd: self.w.cwnd_bytes(),
                    },
                );
            }
            CaState::Loss { recover } => {
                if !self.process_loss(now, f, recover) {
                    return false;
                }
            }
            CaState::Recovery { .. } if self.undo.all_dsacked() => {
                // `tcp_try_undo_dsack`: every retransmission arrived as a duplicate; the
                // recovery ends, and a loss still evident starts a new one below.
                self.undo_reduction(false);
                self.reno_sacked = 0;
                self.ca = CaState::Open;
            }
            CaState::Recovery { .. } => {
                if advanced && !self.cfg.sack {
                    // RFC 6582 §3.2 step 5, Linux `tcp_newreno_mark_lost`: a partial ACK; the
                    // next hole is lost too.
                    self.board.mark_head_lost();
                }
                return false;
            }
            CaState::Open | CaState::Disorder | CaState::Cwr { .. } => {}
        }
        // Open or Disorder, or just left recovery on this ACK.
        if !self.cfg.sack && self.reno_sacked as usize >= DUP_THRESH {
            // `tcp_newreno_mark_lost`: DupThresh duplicate ACKs make the head lost.
            self.board.mark_head_lost();
        }
        // `tcp_time_to_recover`: a loss is marked.
        if self.board.lost_segs() > 0 {
            self.enter_recovery(now, ece);
            return true;
        }
        // Linux `tcp_try_to_open`: an echoed mark begins a reduction (`tcp_enter_cwr`); outside
        // one, the sender is Open again only once nothing is left out (`tcp_left_out`, which
        // counts Reno's duplicate ACKs not yet cleared).
        if ece {
            self.enter_cwr(now);
        }
        if !matches!(self.ca, CaState::Cwr { .. }) {
            self.ca = if self.dupacks > 0 || self.board.sacked_bytes() > 0 || self.reno_sacked > 0 {
                CaState::Disorder
            } else {
                CaState::Open
            };
        }
        false
    }

    /// Linux `tcp_enter_cwr`: an ECN echo reduces the window as one loss would (the
    /// algorithm's ssthresh, PRR spreading the cut over the round) but retransmits nothing, and
    /// is not undone.
    fn enter_cwr(&mut self, now: Instant) {
        if !matches!(self.ca, CaState::Open | CaState::Disorder) {
            return;
        }
        let cwnd_before = self.w.cwnd_bytes();
        self.undo.forget();
        self.init_cwnd_reduction(now, Reduction::EcnEcho);
        self.ca = CaState::Cwr {
            high_seq: self.snd_nxt,
        };
        self.note(
            now,
            Note::EcnEcho {
                cwnd_before,
                ssthresh: self.w.ssthresh_bytes().unwrap_or(INFINITE_SSTHRESH_BYTES),
            },
        );
    }

    /// Linux `tcp_process_loss`, an ACK after a timeout, with F-RTO (RFC 5682 §3.1, its SACK
    /// variant, Linux's `tcp_frto` = 2). Returns whether the sender left the Loss state, to go
    /// on as from Open on the same ACK.
    fn process_loss(&mut self, now: Instant, f: AckFlags, recover: u64) -> bool {
        // `tcp_try_undo_loss`: the timestamps show the originals arrived (Eifel, RFC 3522).
        // Without SACK the state holds until the timeout's data is all acknowledged.
        if f.advanced && self.undo.may_undo(f.ecr) {
            let open = self.cfg.sack || self.snd_una > recover;
            self.try_undo_loss(now, open);
            return open;
        }
        if self.frto {
            if f.orig_acked {
                // Step 3b: data never retransmitted was acknowledged: it was only delayed, and
                // so was everything the timeout deemed lost.
                self.try_undo_loss(now, true);
                return true;
            }
            if self.snd_nxt > recover {
                // Step 3a: new data went out and the reply is still a duplicate: the loss was
                // real, and recovery goes on as RFC 5681's.
                if f.data_sacked || f.dupack {
                    self.frto = false;
                }
            } else if f.advanced && self.snd_una < recover {
                // Step 2b: the first retransmission was acknowledged; send new data, not more
                // retransmissions, and let the next ACK tell whether the timeout was spurious.
                if self.app_end > self.snd_nxt && self.peer_edge > self.snd_nxt {
                    self.frto_new_data = true;
                    return false;
                }
                self.frto = false;
            }
        }
        if self.snd_una >= recover {
            // `tcp_try_undo_recovery` for the Loss state; without SACK the state holds while
            // the ACK sits at `recover` (RFC 6582 §3.2 step 6).
            if !self.cfg.sack && self.snd_una == recover {
                return false;
            }
            self.ca = CaState::Open;
            return true;
        }
        false
    }

    /// `tcp_try_undo_loss`: the timeout was spurious; nothing is lost after all. Once `open`,
    /// RACK judges every segment afresh on this ACK (`tcp_identify_packet_loss` after
    /// `tcp_process_loss`).
    fn try_undo_loss(&mut self, now: Instant, open: bool) {
        self.undo_reduction(true);
        self.rto_retransmits = 0;
        self.frto = false;
        if open {
            self.ca = CaState::Open;
        }
        self.detect_losses(now);
    }

    /// Linux `tcp_cwnd_reduction`, PRR (RFC 6937): while more is in flight than ssthresh, send
    /// ssthresh/prior_cwnd of what is delivered (spreading the cut over the round); below it,
    /// send what is delivered plus one on an ACK that advances with no new loss (PRR-SSRB);
    /// and at least the first retransmission at once.
    fn cwnd_reduction(&mut self, newly_acked_sacked: u32, newly_lost: u32, advanced: bool) {
        if newly_acked_sacked == 0 || self.prior_cwnd == 0 {
            return;
        }
        let in_flight = i64::from(self.packets_in_flight());
        let delta = i64::from(self.w.ssthresh) - in_flight;
        self.prr_delivered += u64::from(newly_acked_sacked);
        let prr_out = i64::try_from(self.prr_out).unwrap_or(i64::MAX);
        let mut sndcnt = if delta < 0 {
            let dividend =
                u64::from(self.w.ssthresh) * self.prr_delivered + u64::from(self.prior_cwnd) - 1;
            i64::try_from(dividend / u64::from(self.prior_cwnd)).unwrap_or(i64::MAX) - prr_out
        } else {
            let delivered = i64::try_from(self.prr_delivered).unwrap_or(i64::MAX);
            let mut n = (delivered - prr_out).max(i64::from(newly_acked_sacked));
            if advanced && newly_lost == 0 {
                n += 1;
            }
            delta.min(n)
        };
        sndcnt = sndcnt.max(if self.prr_out > 0 { 0 } else { 1 });
        self.w.cwnd = u32::try_from(in_flight + sndcnt).unwrap_or(u32::MAX);
    }

    /// Marks what the evidence says is lost with SACK: RACK (RFC 8985 §6) alone, as Linux with
    /// its default `tcp_recovery` (`tcp_identify_packet_loss`; `tcp_fastretrans_alert` calls
    /// RFC 6675's `tcp_update_scoreboard` only without RACK). DupThresh lives on in RACK's
    /// reordering window, none once three segments are SACKed, which marks every hole a later
    /// delivery proves lost: all IsLost would. Without SACK the third duplicate ACK does it (in
    /// `fastretrans_alert`).
    fn detect_losses(&mut self, now: Instant) {
        if !self.cfg.sack || self.conn != ConnState::Established {
            return;
        }
        let reo_wnd = self.reordering_window();
        match self.rack.detect(now, reo_wnd, &mut self.board) {
            (_, Some(at)) => self.timers.set(Timer::RackReorder, at),
            (_, None) => self.timers.stop(Timer::RackReorder),
        }
    }

    /// Linux's `tcp_rack_reo_wnd`: the path has never reordered, so once recovery is under way,
    /// or DupThresh segments are SACKed, a later delivery is proof of loss at once; before that a
    /// quarter of the minimum RTT is allowed.
    fn reordering_window(&self) -> Duration {
        let recovering = matches!(self.ca, CaState::Recovery { .. } | CaState::Loss { .. });
        if recovering || self.board.sacked_segments() >= DUP_THRESH {
            return Duration::ZERO;
        }
        let quarter = self.rtt.min_rtt().map_or(Duration::ZERO, |m| m / 4);
        self.rtt.srtt().map_or(quarter, |s| quarter.min(s))
    }

    /// Arms the tail loss probe where Linux would (`tcp_schedule_loss_probe`): with SACK, in
    /// the Open or CWR state, with data out and no probe awaiting its ACK.
    fn schedule_loss_probe(&mut self, now: Instant) {
        let eligible = self.cfg.sack
            && matches!(self.ca, CaState::Open | CaState::Cwr { .. })
            && !self.board.is_empty()
            && self.tlp_high_seq.is_none();
        if eligible {
            let rto_left = self
                .timers
                .get(Timer::Rto)
                .map_or(Duration::MAX, |d| d.saturating_duration_since(now));
            let pto = probe_timeout(
                self.rtt.srtt(),
                self.board.len(),
                rto_left,
                self.cfg.rto_min,
            );
            self.timers.set(Timer::Tlp, now + pto);
        } else {
            self.timers.stop(Timer::Tlp);
        }
    }

    /// RFC 8985 §7.3: new data if the receiver's window allows, else the last segment again;
    /// either way past the congestion window, as Linux forces one probe out.
    fn send_loss_probe(&mut self, now: Instant, out: &mut Vec<Packet>) {
        self.timers.stop(Timer::Tlp);
        if self.board.is_empty() || !matches!(self.ca, CaState::Open | CaState::Cwr { .. }) {
            return;
        }
        let mss = u64::from(self.cfg.mss);
        let new_len = self.app_end.saturating_sub(self.snd_nxt).min(mss);
        let (seq, len, retransmit) = if new_len > 0 && self.snd_nxt + new_len <= self.peer_edge {
            (self.snd_nxt, new_len as u32, false)
        } else {
            let Some(last) = self.board.last() else {
                return;
            };
            (last.seq, last.len, true)
        };
        self.stats.loss_probes += 1;
        self.transmit(now, seq, len, Tx::Probe { retransmit }, out);
        self.tlp_high_seq = Some(self.snd_nxt);
        self.tlp_retrans = retransmit;
        // Linux `tcp_rearm_rto` after a probe: the timeout counts from the first unacknowledged
        // segment's transmission (`tcp_rto_delta_us`), not from now.
        let head_sent = self.board.front().map_or(now, |s| s.sent_at);
        let deadline = head_sent + self.rtt.rto();
        self.timers
            .set(Timer::Rto, deadline.max(now + Duration::from_micros(1)));
    }

    /// Linux `tcp_process_tlp_ack`: a probe of new data, or a duplicate ACK showing that the
    /// original and the probe both arrived, ends the episode; an ACK beyond the probe after it
    /// resent the last segment means the probe repaired a loss, and the window is reduced as
    /// for one congestion event, at once (`tcp_init_cwnd_reduction`, then
    /// `tcp_end_cwnd_reduction`: cwnd = ssthresh).
    fn process_tlp_ack(&mut self, now: Instant, advanced: bool, sacked_new: bool, dsack_tlp: bool) {
        let Some(high) = self.tlp_high_seq else {
            return;
        };
        if self.snd_una < high {
            return;
        }
        if !self.tlp_retrans || dsack_tlp {
            // New data probed, or a D-SACK shows that the original and the probe both arrived.
            self.tlp_high_seq = None;
        } else if self.snd_una > high {
            self.tlp_high_seq = None;
            if matches!(self.ca, CaState::Open | CaState::Disorder) && !self.cc.controls_window() {
                // A congestion event of one round, begun and ended at once (Linux's CWR).
                self.init_cwnd_reduction(now, Reduction::Loss);
                self.end_cwnd_reduction(true);
            }
        } else if !advanced && !sacked_new {
            self.tlp_high_seq = None;
        }
    }

    /// RFC 2861 (since obsoleted by RFC 7661) as Linux applies it by default
    /// (`tcp_slow_start_after_idle`, `tcp_cwnd_restart`): new data after more than an RTO with
    /// nothing out finds a window no longer validated by the path; ssthresh keeps three-quarters
    /// of it, and cwnd is halved for each RTO of idleness, down to the initial window. An
    /// algorithm that sets the window itself (BBR) is left alone.
    fn restart_after_idle(&mut self, now: Instant) {
        let Some(last) = self.last_send else {
            return;
        };
        let rto = self.rtt.rto();
        let idle = now.saturating_duration_since(last);
        if self.cc.controls_window() || idle <= rto || rto == Duration::ZERO {
            return;
        }
        let cwnd = self.w.cwnd;
        self.w.ssthresh = self.current_ssthresh();
        let restart = self.cfg.iw.min(cwnd);
        let mut left = idle;
        let mut w = cwnd;
        loop {
            left = left.saturating_sub(rto);
            if left == Duration::ZERO || w <= restart {
                break;
            }
            w >>= 1;
        }
        self.w.cwnd = w.max(restart);
        self.w.cwnd_cnt = 0;
    }

    /// Linux `tcp_enter_recovery`: the window's reduction begins, and recovery lasts until
    /// everything sent so far is acknowledged. A reduction already under way for an ECN echo
    /// (CWR) goes on as it was; a reduction begun on an ACK echoing a mark, or continued from
    /// CWR, keeps no ssthresh to restore, so an undo gives nothing back (`prior_ssthresh = 0`).
    fn enter_recovery(&mut self, now: Instant, ece: bool) {
        self.stats.fast_retransmits += 1;
        let reducing = self.in_cwnd_reduction();
        self.begin_undo(!reducing && !ece);
        if !reducing {
            self.init_cwnd_reduction(now, Reduction::Loss);
        }
        self.ca = CaState::Recovery {
            recover: self.snd_nxt,
        };
    }

    /// Linux `tcp_init_cwnd_reduction`: ssthresh from the algorithm, PRR's counts from zero,
    /// the window left for PRR to bring down.
    fn init_cwnd_reduction(&mut self, now: Instant, why: Reduction) {
        let loss = LossEvent {
            now,
            flight_size: self.snd_nxt - self.snd_una,
            total_lost: self.board.lost_marked().segs,
            snd_nxt: self.snd_nxt,
        };
        self.prior_cwnd = self.w.cwnd;
        self.prr_delivered = 0;
        self.prr_out = 0;
        // `tcp_ecn_queue_cwr`: the next new segment tells the receiver of the reduction.
        self.queue_cwr = self.cfg.ecn;
        self.w.cwnd_cnt = 0;
        self.tlp_high_seq = None;
        match why {
            Reduction::Loss => self.cc.on_enter_recovery(&mut self.w, &loss),
            Reduction::EcnEcho => self.cc.on_ecn_echo(&mut self.w, &loss),
        }
    }

    /// Linux `tcp_end_cwnd_reduction`: the window is ssthresh, whatever PRR left, unless the
    /// reduction was undone (a `cwr` reduction, the probe's, has nothing to undo); an algorithm
    /// that sets the window itself keeps its own.
    fn end_cwnd_reduction(&mut self, cwr: bool) {
        if !self.cc.controls_window()
            && self.w.ssthresh_bytes().is_some()
            && (cwr || self.undo.pending())
        {
            self.w.cwnd = self.w.ssthresh;
        }
    }

    /// Linux `tcp_current_ssthresh`: outside a reduction, at least three quarters of the window.
    fn current_ssthresh(&self) -> u32 {
        if self.in_cwnd_reduction() {
            self.w.ssthresh
        } else {
            self.w.ssthresh.max((self.w.cwnd >> 1) + (self.w.cwnd >> 2))
        }
    }

    /// Linux `tcp_init_undo`, keeping the window and ssthresh as they would be restored
    /// (`prior_cwnd`, `tcp_current_ssthresh`), or nothing to restore unless `restorable`.
    fn begin_undo(&mut self, restorable: bool) {
        let prior_ssthresh = if restorable {
            self.current_ssthresh()
        } else {
            0
        };
        self.undo.begin(
            self.snd_una,
            pkts(self.board.retrans_segs()),
            self.w.cwnd,
            prior_ssthresh,
        );
    }

    /// Linux `tcp_undo_cwnd_reduction`: the window (`tcp_reno_undo_cwnd`, which CUBIC uses too)
    /// and ssthresh of before the reduction come back; after a timeout nothing stays lost.
    fn undo_reduction(&mut self, unmark_loss: bool) {
        if unmark_loss {
            self.board.clear_lost();
            self.rack.rebuild(&self.board);
            self.timers.stop(Timer::RackReorder);
        }
        if let Some(r) = self.undo.take() {
            self.cc.on_undo();
            if !self.cc.controls_window() {
                self.w.cwnd = self.w.cwnd.max(r.cwnd);
            }
            self.w.ssthresh = self.w.ssthresh.max(r.ssthresh);
        }
        self.stats.undos += 1;
    }

    /// Linux `tcp_is_cwnd_limited`: in slow start, whether the window is under twice what was
    /// outstanding lately; otherwise whether the window was the limit in the latest round.
    fn cwnd_limited(&self) -> bool {
        if self.w.in_slow_start() {
            u64::from(self.w.cwnd) < 2 * self.max_out
        } else {
            self.is_cwnd_limited
        }
    }

    /// Linux `tcp_cwnd_validate`.
    fn validate_cwnd(&mut self, limited: bool) {
        let out = self.board.out_segs();
        if self.snd_una >= self.usage_seq
            || limited
            || (!self.is_cwnd_limited && out > self.max_out)
        {
            self.is_cwnd_limited = limited;
            self.max_out = out;
            self.usage_seq = self.snd_nxt;
        }
    }

    /// Sends what the windows allow: retransmissions first, then new data (RFC 6675 NextSeg).
    /// The loss bookkeeping's work since the last call, for the engine's budget.
    pub fn take_work(&mut self) -> u64 {
        self.board.take_work()
    }

    pub fn try_send(&mut self, now: Instant, out: &mut Vec<Packet>) {
        // One loop, built twice: a sender that never paces carries none of the pacer's work.
        if self.paces {
            self.try_send_as::<true>(now, out);
        } else {
            self.try_send_as::<false>(now, out);
        }
    }

    #[inline(always)]
    fn try_send_as<const PACED: bool>(&mut self, now: Instant, out: &mut Vec<Packet>) {
        if self.conn != ConnState::Established {
            return;
        }
        let mut blocked_by_cwnd = false;
        // F-RTO's step 2b (`tcp_xmit_recovery` with `REXMIT_NEW`): new data only; if none can
        // go, F-RTO gives up and the retransmissions follow at once.
        let new_only = std::mem::take(&mut self.frto_new_data);
        let nxt_before = self.snd_nxt;
        let pacing = if PACED { self.cc.pacing_rate() } else { None };
        debug_assert!(self.paces || self.cc.pacing_rate().is_none());
        // A paced sender hands out GSO packets of `quantum` segments (Linux's `tcp_tso_segs`,
        // computed once a `tcp_write_xmit`); the pacer holds back the next packet, not the next
        // segment of this one.
        let quantum = pacing.map_or(u32::MAX, |rate| {
            let (min_rtt, min_segs, mss) =
                (self.rtt.min_rtt(), self.cc.min_tso_segs(), self.cfg.mss);
            self.quantum_memo
                .get((rate.to_bits(), min_rtt, min_segs), || {
                    pacer::tso_segs(rate, min_rtt, mss, min_segs)
                })
        });
        let mut gso: Option<Gso> = None;
        loop {
            if pacing.is_some() && gso.is_none() && !self.pacer.ready(now) {
                self.timers.set(Timer::Pacing, self.pacer.next());
                break;
            }
            let retransmit = if new_only {
                None
            } else {
                self.board.next_retransmit()
            };
            let (seq, len) = match retransmit {
                Some(seg) => seg,
                None if self.snd_nxt < self.app_end => {
                    let len = (self.app_end - self.snd_nxt).min(u64::from(self.cfg.mss)) as u32;
                    (self.snd_nxt, len)
                }
                None => {
                    if self.packets_in_flight() < self.w.cwnd {
                        self.rate.mark_app_limited(self.packets_in_flight());
                    }
                    break;
                }
            };
            let end = seq + u64::from(len);
            if retransmit.is_none() && end > self.peer_edge {
                break;
            }
            // A segment that does not continue the GSO packet being built starts the next one,
            // which the pacer may hold back.
            if let Some(g) = gso.filter(|g| !g.takes(seq, retransmit.is_some(), quantum)) {
                gso = None;
                self.gso_sent(g);
                if !self.pacer.ready(now) {
                    self.timers.set(Timer::Pacing, self.pacer.next());
                    break;
                }
            }
            if retransmit.is_none() && self.board.is_empty() {
                self.restart_after_idle(now);
            }
            // Linux `tcp_cwnd_test`: a packet of any size while fewer than cwnd are in flight.
            if self.packets_in_flight() >= self.w.cwnd {
                blocked_by_cwnd = true;
                break;
            }
            if self.in_cwnd_reduction() {
                self.prr_out += 1;
            }
            let how = if retransmit.is_some() {
                Tx::Retransmit
            } else {
                Tx::New
            };
            self.transmit(now, seq, len, how, out);
            if let Some(rate) = pacing {
                // Linux paces packets at `pacing_gain * bw` with bw counted in packets; the
                // pacer here spaces each packet's wire bytes, so the payload rate is scaled by a
                // full segment's wire size over its payload.
                let header = header_bytes(self.cfg.ts);
                let mss = f64::from(self.cfg.mss.max(1));
                let time = self.pace_memo.get((rate.to_bits(), len), || {
                    let wire_rate = rate * (mss + f64::from(header)) / mss;
                    let bits_per_s = (wire_rate * 8.0).max(1.0) as u64;
                    serialisation_time(u64::from(len + header), bits_per_s)
                });
                Pacer::add(&mut gso, now, seq, end, retransmit.is_some(), time);
            }
        }
        if let Some(g) = gso {
            self.gso_sent(g);
        }
        if new_only && self.snd_nxt == nxt_before {
            self.frto = false;
            self.try_send(now, out);
            return;
        }
        let limited = blocked_by_cwnd || self.packets_in_flight() >= self.w.cwnd;
        self.validate_cwnd(limited);
        self.schedule_loss_probe(now);
    }

    /// The GSO packet `g` has left: the pacer charges it, and a packet waiting for the pacer
    /// waits for its new release time.
    fn gso_sent(&mut self, g: Gso) {
        self.pacer.sent(g, self.stats.data_segments);
        if self.timers.get(Timer::Pacing).is_some() {
            self.timers.set(Timer::Pacing, self.pacer.next());
        }
    }

    /// Puts one segment on the wire and records it.
    /// One note says each packet: a probe is noted as the probe it is, whether it carries new
    /// data or the last segment again.
    fn transmit(&mut self, now: Instant, seq: u64, len: u32, how: Tx, out: &mut Vec<Packet>) {
        // Linux `tcp_event_data_sent`: the first packet after the pipe emptied tells the
        // algorithm how long it was idle (`CA_EVENT_TX_START`).
        if self.packets_in_flight() == 0 {
            if let Some(last) = self.last_send {
                self.cc
                    .on_tx_start(now, now.saturating_duration_since(last));
            }
        }
        self.last_send = Some(now);
        let tx = if self.samples_rate {
            self.rate.on_send(now, self.board.is_empty())
        } else {
            TxSnapshot::default()
        };
        if matches!(how, Tx::Probe { .. }) {
            self.note(now, Note::LossProbe { seq, len });
        }
        if matches!(how, Tx::Retransmit | Tx::Probe { retransmit: true }) {
            self.undo.on_retransmit(ts_clock(now, self.cfg.ts_phase));
            self.board.on_retransmit(seq, now, tx);
            self.stats.retransmitted_segments += 1;
            self.stats.retransmitted_bytes += u64::from(len);
            if how == Tx::Retransmit {
                self.note_with(now, |s| Note::Retransmit {
                    seq,
                    len,
                    in_flight: s.in_flight(),
                });
            }
        } else {
            self.board.push(Seg::sent(seq, len, now, tx));
            self.snd_nxt = seq + u64::from(len);
            if how == Tx::New {
                self.note_with(now, |s| Note::Send {
                    seq,
                    len,
                    in_flight: s.in_flight(),
                });
            }
        }
        self.rack.on_transmit(now, seq);
        self.stats.data_segments += 1;
        self.stats.data_bytes += u64::from(len);
        self.stats.first_data_at.get_or_insert(now);
        // Linux `tcp_ecn_send`: new data goes out ECT(0), the first after a reduction with CWR;
        // a retransmission goes out not ECN-capable (RFC 3168 §6.1.5).
        let new = matches!(how, Tx::New | Tx::Probe { retransmit: false });
        let ecn = if self.cfg.ecn && new {
            Ecn::Ect0
        } else {
            Ecn::NotEct
        };
        let cwr = ecn == Ecn::Ect0 && std::mem::take(&mut self.queue_cwr);
        out.push(Packet {
            flow: self.flow,
            kind: Kind::Data {
                seq,
                len,
                ts: self.ts_option(now),
                ecn,
                cwr,
            },
            wire_bytes: len + header_bytes(self.cfg.ts),
        });
        // RFC 6298 §5.1.
        if self.timers.get(Timer::Rto).is_none() {
            self.timers.set(Timer::Rto, now + self.rtt.rto());
        }
    }

    /// The timestamp option of a segment sent at `now`.
    fn ts_option(&self, now: Instant) -> TsOpt {
        TsOpt::stamped(self.cfg.ts, now, self.cfg.ts_phase, self.ts_recent)
    }
}

/// A packet count the scoreboard keeps in `u64`, as the window's `u32`.
fn pkts(n: u64) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
