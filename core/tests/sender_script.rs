//! The sender driven packet by packet, after smoltcp's `send!`/`recv!` tests: each scenario feeds
//! ACKs (with SACK blocks) at given times and asserts the segments that go out and the window,
//! ssthresh and state after each, named for the RFC clause or the Linux function it follows.
//!
//! Sequence numbers are in packets of `MSS` bytes; the connection's first data byte is 0.

use tcplab::cc::{new_controller, CcOptions, INFINITE_SSTHRESH};
use tcplab::packet::{Ecn, Kind, Packet, SackBlock, TsOpt};
use tcplab::tcp::{CaState, Sender, SenderConfig};
use tcplab::time::{Duration, Instant};
use tcplab::CcAlgo;

const MSS: u32 = 1000;
const RTT_MS: u64 = 100;

struct Script {
    s: Sender,
    now: Instant,
    out: Vec<Packet>,
}

impl Script {
    /// A connection established at 100 ms with `iw` packets of window and a bulk writer, its
    /// first flight already out.
    fn bulk(cc: CcAlgo, iw: u32, sack: bool) -> Script {
        Script::bulk_ts(cc, iw, sack, false)
    }

    fn bulk_ts(cc: CcAlgo, iw: u32, sack: bool, ts: bool) -> Script {
        let mut t = Script::opened_ts(cc, iw, sack, ts);
        t.write(u64::MAX);
        t
    }

    /// The same with nothing written yet.
    fn opened(cc: CcAlgo, iw: u32, sack: bool) -> Script {
        Script::opened_ts(cc, iw, sack, false)
    }

    fn opened_ts(cc: CcAlgo, iw: u32, sack: bool, ts: bool) -> Script {
        Script::opened_with(cc, iw, sack, ts, 1 << 30)
    }

    /// A connection whose SYN-ACK offered `syn_window` bytes.
    fn opened_with(cc: CcAlgo, iw: u32, sack: bool, ts: bool, syn_window: u64) -> Script {
        let cfg = SenderConfig {
            mss: MSS,
            iw,
            sack,
            ts,
            ..SenderConfig::of(&tcplab::Scenario::default(), Duration::ZERO)
        };
        Script::opened_cfg(cc, cfg, syn_window)
    }

    /// A bulk connection that negotiated ECN (RFC 3168 §6.1.1), its first flight out.
    fn bulk_ecn(cc: CcAlgo, iw: u32) -> Script {
        let cfg = SenderConfig {
            mss: MSS,
            iw,
            sack: true,
            ts: false,
            ecn: true,
            ..SenderConfig::of(&tcplab::Scenario::default(), Duration::ZERO)
        };
        let mut t = Script::opened_cfg(cc, cfg, 1 << 30);
        t.write(u64::MAX);
        t
    }

    fn opened_cfg(cc: CcAlgo, cfg: SenderConfig, syn_window: u64) -> Script {
        let cc = new_controller(
            cc,
            CcOptions {
                hystart: false,
                seed: 1,
            },
        );
        let mut s = Sender::new(0, cfg, cc);
        let mut out = Vec::new();
        s.connect(Instant::ZERO, &mut out);
        let now = Instant::from_millis(RTT_MS);
        s.on_syn_ack(now, syn_window, TsOpt::default(), &mut out);
        out.clear();
        Script { s, now, out }
    }

    fn at(&mut self, ms: u64) {
        self.now = Instant::from_millis(ms);
    }

    /// The data segments sent since the last call, as (first packet, bytes).
    fn sent(&mut self) -> Vec<(u64, u32)> {
        self.out
            .drain(..)
            .filter_map(|p| match p.kind {
                Kind::Data { seq, len, .. } => Some((seq / u64::from(MSS), len)),
                _ => None,
            })
            .collect()
    }

    /// The data segments sent since the last call, as (first packet, ECN field, CWR flag).
    fn sent_ecn(&mut self) -> Vec<(u64, Ecn, bool)> {
        self.out
            .drain(..)
            .filter_map(|p| match p.kind {
                Kind::Data { seq, ecn, cwr, .. } => Some((seq / u64::from(MSS), ecn, cwr)),
                _ => None,
            })
            .collect()
    }

    /// The application writes `bytes` now, and the sender sends what its windows allow.
    fn write(&mut self, bytes: u64) {
        self.s.write(bytes);
        self.s.try_send(self.now, &mut self.out);
    }

    /// The sender's timers run at `now`.
    fn timer(&mut self) {
        self.s.on_timer(self.now, &mut self.out);
    }

    fn window(&self) -> (u32, u32) {
        let w = self.s.window();
        (w.cwnd, w.ssthresh)
    }
}

/// `recv!(t, ack N)` or `recv!(t, ack N, sack [a..b, ...])`: an ACK of everything below packet N,
/// with SACK blocks in packets.
macro_rules! recv {
    ($t:expr, ack $ack:expr) => {
        recv!($t, ack $ack, sack [])
    };
    // An ACK whose timestamp option echoes `ecr`.
    ($t:expr, ack_bytes $ack:expr, ecr $ecr:expr) => {{
        let now = $t.now;
        let ts = TsOpt { val: 0, ecr: $ecr };
        $t.s.on_ack(now, $ack, 1 << 30, &[], ts, false, &mut $t.out);
    }};
    ($t:expr, ack $ack:expr, ece) => {{
        let now = $t.now;
        $t.s.on_ack(now, $ack * u64::from(MSS), 1 << 30, &[], TsOpt::default(), true, &mut $t.out);
    }};
    ($t:expr, ack $ack:expr, sack [$($a:literal..$b:literal),*]) => {{
        let blocks = [$(SackBlock { start: $a * u64::from(MSS), end: $b * u64::from(MSS) }),*];
        let now = $t.now;
        $t.s.on_ack(now, $ack * u64::from(MSS), 1 << 30, &blocks, TsOpt::default(), false, &mut $t.out);
    }};
}

/// `send!(t, [a..b])`: exactly full segments a..b went out since the last check.
macro_rules! send {
    ($t:expr, [$a:literal..$b:literal]) => {{
        let want: Vec<(u64, u32)> = ($a..$b).map(|p| (p, MSS)).collect();
        assert_eq!($t.sent(), want, "segments sent");
    }};
    ($t:expr, []) => {{
        assert_eq!($t.sent(), Vec::new(), "segments sent");
    }};
}

/// Linux `tcp_slow_start`: every packet acknowledged adds one to the window, whatever the
/// ACK covers; so an ACK of two packets releases four.
#[test]
fn tcp_slow_start_counts_packets() {
    let mut t = Script::bulk(CcAlgo::Reno, 10, true);
    send!(t, [0..10]);
    t.at(200);
    recv!(t, ack 2);
    assert_eq!(t.window(), (12, INFINITE_SSTHRESH));
    send!(t, [10..14]);
    recv!(t, ack 10);
    assert_eq!(t.window().0, 20);
    send!(t, [14..30]);
    assert_eq!(t.s.packets_in_flight(), 20);
}

/// Linux `tcp_cwnd_test` and `tcp_sendmsg`: a 100-byte write takes a whole packet of the
/// window, and writes made while the window is full are appended to the unsent tail, to go out
/// together in segments of up to an MSS.
#[test]
fn tcp_cwnd_test_counts_small_segments_as_packets_and_writes_coalesce() {
    let mut t = Script::opened(CcAlgo::Reno, 4, true);
    for _ in 0..30 {
        t.write(100);
    }
    // Four segments of one write each fill the window of four packets...
    let lens: Vec<u32> = t.sent().into_iter().map(|(_, l)| l).collect();
    assert_eq!(lens, vec![100; 4]);
    assert_eq!(t.s.packets_in_flight(), 4);
    // ...and the 26 writes behind them, 2 600 bytes, leave as full segments when ACKs come.
    t.at(200);
    let now = t.now;
    t.s.on_ack(now, 400, 1 << 30, &[], TsOpt::default(), false, &mut t.out);
    let lens: Vec<u32> = t.sent().into_iter().map(|(_, l)| l).collect();
    assert_eq!(lens, vec![1000, 1000, 600]);
}

/// RFC 6937 and Linux `tcp_cwnd_reduction`: entering recovery, ssthresh is set at once and
/// the window is what is in flight plus the retransmission; while more than ssthresh is in
/// flight, what goes out tracks ceil(ssthresh * delivered / prior_cwnd); and at the end of
/// recovery the window is ssthresh (`tcp_end_cwnd_reduction`).
#[test]
fn tcp_cwnd_reduction_spreads_the_cut_over_the_round() {
    let mut t = Script::bulk(CcAlgo::Reno, 20, true);
    send!(t, [0..20]);
    // Packet 0 is lost; the SACKs for 1, 2, 3 arrive a round trip after they left. The first
    // two leave the sender in Disorder, and each lets one new packet into the room it made.
    t.at(200);
    recv!(t, ack 0, sack [1..2]);
    recv!(t, ack 0, sack [1..3]);
    send!(t, [20..22]);
    recv!(t, ack 0, sack [1..4]);
    // RFC 6675's DupThresh: recovery, ssthresh 10; 22 out, 3 SACKed and 1 lost: 18 in flight,
    // and one more for the retransmission: ceil(10 * 1 / 20) = 1.
    assert!(matches!(t.s.ca_state(), CaState::Recovery { recover } if recover == 22_000));
    let (prior, ssthresh) = (20u64, 10u64);
    assert_eq!(t.window(), (19, 10));
    send!(t, [0..1]);
    let mut prr_out = 1u64;
    let mut proportional = 0;
    for sacked_to in 5..=20u64 {
        let now = t.now;
        let block = [SackBlock {
            start: 1000,
            end: sacked_to * 1000,
        }];
        t.s.on_ack(now, 0, 1 << 30, &block, TsOpt::default(), false, &mut t.out);
        let sent = t.out.len() as u64;
        let in_flight_after_ack = u64::from(t.s.packets_in_flight()) - sent;
        prr_out += sent;
        // Packets delivered since recovery began: the SACK that started it and those since.
        let delivered = sacked_to - 3;
        if in_flight_after_ack > ssthresh {
            proportional += 1;
            assert_eq!(
                prr_out,
                (ssthresh * delivered).div_ceil(prior),
                "SACK to {sacked_to}"
            );
        }
        t.sent();
    }
    assert!(
        proportional >= 10,
        "{proportional} ACKs in PRR's proportional part"
    );
    // The ACK of everything sent before recovery ends it, and the window is ssthresh.
    t.at(300);
    recv!(t, ack 22);
    assert_eq!(t.s.ca_state(), CaState::Open);
    assert_eq!(t.window().1, 10);
    assert!(
        (10..=12).contains(&t.window().0),
        "ssthresh, then grown by what this ACK delivered: {}",
        t.window().0
    );
}

/// Linux `tcp_fastretrans_alert`: the ACK that ends one recovery, when losses sent during it
/// are already marked, starts the next on the same ACK; no Open state between them.
#[test]
fn tcp_fastretrans_alert_leaves_and_reenters_recovery_on_one_ack() {
    let mut t = Script::bulk(CcAlgo::Reno, 20, true);
    send!(t, [0..20]);
    t.at(200);
    recv!(t, ack 0, sack [1..4]);
    assert!(matches!(t.s.ca_state(), CaState::Recovery { .. }));
    for end in 5..=20u64 {
        let now = t.now;
        t.s.on_ack(
            now,
            0,
            1 << 30,
            &[SackBlock {
                start: 1000,
                end: end * 1000,
            }],
            TsOpt::default(),
            false,
            &mut t.out,
        );
    }
    let during: Vec<u64> = t.sent().into_iter().map(|(p, _)| p).collect();
    assert_eq!(during[0], 0, "the retransmission first");
    let first_new = during[1];
    assert_eq!(first_new, 20);
    // Of the new packets sent in recovery, the first is lost. A round trip later one ACK
    // brings the retransmission of 0 in, with everything up to 20, and SACKs 21 to 23.
    let last = *during.last().unwrap_or(&first_new);
    assert!(last >= 23, "{during:?}");
    assert!(matches!(t.s.ca_state(), CaState::Recovery { recover } if recover == 20_000));
    let before = t.s.stats().fast_retransmits;
    let ssthresh_before = t.window().1;
    t.at(300);
    recv!(t, ack 20, sack [21..24]);
    // Everything below `recover` is in, so that recovery ends and cwnd = ssthresh; RACK marked
    // 20 lost on the same ACK (sent before 21, which was delivered), so `tcp_time_to_recover`
    // starts a new recovery at once, halving again from there, and 20 goes out again.
    assert!(
        matches!(t.s.ca_state(), CaState::Recovery { recover } if recover > 20_000),
        "{:?}",
        t.s.ca_state()
    );
    assert_eq!(t.s.stats().fast_retransmits, before + 1);
    assert_eq!(
        t.window().1,
        ssthresh_before / 2,
        "ssthresh halved from cwnd = ssthresh"
    );
}

/// Linux `tcp_add_reno_sack` and `tcp_remove_reno_sacks`: without SACK, each duplicate ACK
/// counts one packet delivered, and the cumulative ACK that fills the hole credits only what
/// the duplicates did not, max(acked - duplicates, 1): ten packets are delivered once.
#[test]
fn tcp_remove_reno_sacks_credits_each_packet_once() {
    let mut t = Script::bulk(CcAlgo::Reno, 10, false);
    send!(t, [0..10]);
    t.at(200);
    for _ in 1..10 {
        recv!(t, ack 0);
    }
    // Three duplicate ACKs made the head lost (`tcp_newreno_mark_lost`).
    assert!(matches!(t.s.ca_state(), CaState::Recovery { .. }));
    assert_eq!(t.s.delivered_packets(), 9);
    t.at(300);
    recv!(t, ack 10);
    assert_eq!(t.s.delivered_packets(), 10);
}

/// RFC 5681 §3.1 and Linux `tcp_enter_loss`: a timeout sets ssthresh from the window and the
/// window to one packet, and slow start resends from the first unacknowledged.
#[test]
fn tcp_enter_loss_restarts_from_one_packet() {
    let mut t = Script::bulk(CcAlgo::Cubic, 10, true);
    send!(t, [0..10]);
    // Nothing comes back: the probe fires first (RFC 8985 §7), then the timer.
    let mut fired = 0;
    while t.s.stats().timeouts == 0 && fired < 10 {
        let Some(d) = t.s.next_deadline() else { break };
        t.now = d;
        t.timer();
        fired += 1;
    }
    assert_eq!(t.s.stats().timeouts, 1);
    assert!(matches!(t.s.ca_state(), CaState::Loss { .. }));
    // CUBIC's 717/1024 of 10 packets.
    assert_eq!(t.window(), (1, 7));
    let resent: Vec<u64> = t.sent().into_iter().map(|(p, _)| p).collect();
    assert_eq!(resent.last(), Some(&0), "{resent:?}");
}

/// Runs the timers until the first timeout, and returns the retransmission's timestamp.
fn until_timeout(t: &mut Script) -> u32 {
    let mut tsval = 0;
    while t.s.stats().timeouts == 0 {
        let Some(d) = t.s.next_deadline() else {
            break;
        };
        t.now = d;
        t.timer();
    }
    for p in t.out.drain(..) {
        if let Kind::Data { seq: 0, ts, .. } = p.kind {
            tsval = ts.val;
        }
    }
    tsval
}

/// RFC 7323 §4 and Linux `tcp_ack_update_rtt`: with timestamps, the ACK of a retransmission
/// echoes the retransmission's timestamp, so it gives an RTT sample, and a valid sample ends the
/// timer's backoff at once. Without them Karn's rule (RFC 6298 §3) takes none from it, and the
/// backoff holds until data sent once is acknowledged.
#[test]
fn tcp_ack_update_rtt_ends_the_backoff_with_the_first_new_ack() {
    for ts in [true, false] {
        let mut t = Script::bulk_ts(CcAlgo::Reno, 4, true, ts);
        send!(t, [0..4]);
        // The first flight's ACKs are all lost; the probe, then the timer.
        let tsval = until_timeout(&mut t);
        assert_eq!(t.s.rtt().backoff(), 1);
        // The retransmission arrives and the receiver, holding 1..4 already, ACKs everything,
        // echoing the retransmission's timestamp.
        t.now += Duration::from_millis(RTT_MS);
        let ecr = if ts { tsval } else { 0 };
        recv!(t, ack_bytes 4_000, ecr ecr);
        if ts {
            assert_eq!(t.s.rtt().backoff(), 0, "ts=1: the echo is a sample");
            assert_eq!(t.s.rtt().latest(), Some(Duration::from_millis(RTT_MS)));
        } else {
            assert_eq!(t.s.rtt().backoff(), 1, "ts=0: Karn's rule, no sample");
        }
    }
}

/// Linux `tcp_process_tlp_ack`: a probe that resent the last segment and is followed by an ACK
/// beyond it repaired a loss, so the window is cut as for one congestion event, at once.
#[test]
fn tcp_process_tlp_ack_reduces_the_window_when_the_probe_repaired_a_loss() {
    let mut t = Script::opened(CcAlgo::Reno, 10, true);
    t.write(10 * u64::from(MSS));
    send!(t, [0..10]);
    // All but the last arrive; the last is lost.
    t.at(200);
    recv!(t, ack 9);
    assert_eq!(t.window().0, 19);
    // Nothing more to send: the probe resends the last segment.
    let Some(pto) = t.s.next_deadline() else {
        unreachable!("a probe is armed")
    };
    t.now = pto;
    t.timer();
    send!(t, [9..10]);
    assert_eq!(t.s.stats().loss_probes, 1);
    // Its ACK covers everything, but not beyond the probe: the episode is still open...
    t.now += Duration::from_millis(RTT_MS);
    recv!(t, ack 10);
    assert_eq!(t.window().1, INFINITE_SSTHRESH);
    // ...until new data is acknowledged beyond it: then ssthresh is half the window, and the
    // window is ssthresh.
    t.write(4 * u64::from(MSS));
    send!(t, [10..14]);
    t.now += Duration::from_millis(RTT_MS);
    let before = t.window().0;
    recv!(t, ack 14);
    assert_eq!(t.window().1, before / 2);
    assert_eq!(t.window().0, before / 2);
}

/// RFC 7323 §2.2 and Linux `tcp_select_initial_window`: the SYN-ACK's window is not scaled, so
/// it offers at most 65 535 bytes in whole segments, and an initial window of 100 packets sends
/// what fits in it: 65 of 1000 bytes (45 of 1448 with Linux's default MSS and timestamps).
#[test]
fn the_first_flight_is_capped_by_the_syn_window() {
    use tcplab::tcp::{Receiver, ReceiverConfig};
    let rx = Receiver::new(ReceiverConfig {
        rwnd: 4 << 20,
        mss: MSS,
        ..ReceiverConfig::of(&tcplab::Scenario::default(), Duration::ZERO)
    });
    assert_eq!(rx.syn_window(), 65_000);
    let mut t = Script::opened_with(CcAlgo::Cubic, 100, true, true, rx.syn_window());
    t.write(u64::MAX);
    send!(t, [0..65]);
    assert_eq!(
        t.window().0,
        100,
        "the window is the initial one; the receiver's is the limit"
    );
    // The first ACK carries the full window: the rest of the initial window follows at once.
    t.at(200);
    let now = t.now;
    t.s.on_ack(
        now,
        2_000,
        4 << 20,
        &[],
        TsOpt::default(),
        false,
        &mut t.out,
    );
    assert_eq!(
        t.sent().len(),
        2 + 35 + 2,
        "two released, 35 the SYN window held back, two grown"
    );
}

/// Linux `tcp_cwnd_restart` (`tcp_slow_start_after_idle=1`, RFC 2861): after more than an RTO
/// with nothing out, the window is halved for each RTO of idleness, down to the initial window,
/// and ssthresh keeps three-quarters of it.
#[test]
fn tcp_cwnd_restart_after_idle() {
    let mut t = Script::opened(CcAlgo::Reno, 10, true);
    t.write(10 * u64::from(MSS));
    send!(t, [0..10]);
    t.at(200);
    recv!(t, ack 10);
    assert_eq!(t.window(), (20, INFINITE_SSTHRESH));
    // 100 ms RTT: the RTO is 300 ms. 250 ms after the last send nothing changes...
    t.at(350);
    t.write(u64::from(MSS));
    send!(t, [10..11]);
    assert_eq!(t.window().0, 20);
    t.at(450);
    recv!(t, ack 11);
    // (One packet out of twenty did not use the window: no growth, `tcp_is_cwnd_limited`.)
    assert_eq!(t.window().0, 20);
    // ...after 1.2 s, four RTOs, the window of 20 is back to the initial 10.
    t.at(1_550);
    t.write(u64::from(MSS));
    send!(t, [11..12]);
    assert_eq!(t.window().0, 10);
}

/// RFC 3522 (Eifel detection) as Linux's `tcp_try_undo_loss` applies it: a timeout whose
/// first ACK echoes a timestamp older than the retransmission was spurious (the originals were
/// only delayed), so the window and ssthresh come back and nothing stays marked lost.
#[test]
fn tcp_try_undo_loss_after_a_spurious_timeout() {
    let mut t = Script::bulk_ts(CcAlgo::Reno, 10, true, true);
    let originals: Vec<u32> = t
        .out
        .iter()
        .filter_map(|p| match p.kind {
            Kind::Data { ts, .. } => Some(ts.val),
            _ => None,
        })
        .collect();
    assert_eq!(originals.len(), 10);
    t.sent();
    until_timeout(&mut t);
    assert!(matches!(t.s.ca_state(), CaState::Loss { .. }));
    assert_eq!(t.window(), (1, 5));
    // The originals were delayed, not lost: their ACK echoes their own timestamp.
    recv!(t, ack_bytes 4_000, ecr originals[0]);
    assert_eq!(t.s.ca_state(), CaState::Open);
    assert_eq!(t.s.stats().undos, 1);
    assert_eq!(
        t.window().1,
        INFINITE_SSTHRESH,
        "slow start again, as before the timeout"
    );
    assert!(t.window().0 >= 10, "{:?}", t.window());
    // What goes out is new data, not the segments the timeout had deemed lost.
    let sent = t.sent();
    assert!(
        !sent.is_empty() && sent.iter().all(|&(p, _)| p >= 10),
        "{sent:?}"
    );
}

/// The same ACK echoing the retransmission's own timestamp shows the loss was real: no undo.
#[test]
fn a_timeout_whose_retransmission_is_echoed_is_not_undone() {
    let mut t = Script::bulk_ts(CcAlgo::Reno, 10, true, true);
    t.sent();
    let tsval = until_timeout(&mut t);
    t.now += Duration::from_millis(RTT_MS);
    let now = t.now;
    t.s.on_ack(
        now,
        1_000,
        1 << 30,
        &[],
        TsOpt { val: 0, ecr: tsval },
        false,
        &mut t.out,
    );
    assert_eq!(t.s.stats().undos, 0);
    assert_eq!(t.window().1, 5);
}

/// RFC 2883 and Linux `tcp_try_undo_dsack`: a fast retransmit whose only retransmission comes
/// back as a duplicate (the original was late, not lost) is undone: ssthresh and the window
/// return to what they were.
#[test]
fn tcp_try_undo_dsack_when_the_retransmission_was_a_duplicate() {
    let mut t = Script::bulk(CcAlgo::Reno, 10, true);
    send!(t, [0..10]);
    t.at(200);
    recv!(t, ack 0, sack [1..2]);
    recv!(t, ack 0, sack [1..3]);
    recv!(t, ack 0, sack [1..4]);
    assert!(matches!(t.s.ca_state(), CaState::Recovery { .. }));
    let cut = t.window();
    assert_eq!(cut.1, 5);
    let resent = t.sent();
    assert!(resent.contains(&(0, MSS)), "{resent:?}");
    // The late original fills the hole; then the retransmission arrives as a duplicate.
    recv!(t, ack 4);
    recv!(t, ack 4, sack [0..1]);
    assert_eq!(t.s.stats().undos, 1);
    assert!(!matches!(t.s.ca_state(), CaState::Recovery { .. }));
    assert_eq!(t.window().1, INFINITE_SSTHRESH);
    assert!(t.window().0 >= 10, "{:?}", t.window());
}

/// RFC 5682 §3.1 (F-RTO, Linux `tcp_process_loss` with `tcp_frto` = 2), step 2b then 3a: once
/// the timeout's retransmission is acknowledged, new data goes out instead of more
/// retransmissions; a duplicate ACK in reply shows the loss was real, and the retransmissions
/// follow.
#[test]
fn frto_sends_new_data_first_and_a_duplicate_ack_proves_the_loss_real() {
    let mut t = Script::bulk(CcAlgo::Reno, 10, true);
    send!(t, [0..10]);
    until_timeout(&mut t);
    let high = t.s.snd_nxt() / u64::from(MSS);
    assert_eq!(t.window(), (1, 5));
    // Only the retransmission of 0 arrived.
    t.now += Duration::from_millis(RTT_MS);
    recv!(t, ack 1);
    let sent = t.sent();
    assert_eq!(
        sent,
        vec![(high, MSS), (high + 1, MSS)],
        "two new segments, not retransmissions"
    );
    assert!(matches!(t.s.ca_state(), CaState::Loss { .. }));
    // The new data arrives above the hole: the reply SACKs it.
    t.now += Duration::from_millis(RTT_MS);
    let now = t.now;
    let block = [SackBlock {
        start: high * u64::from(MSS),
        end: (high + 1) * u64::from(MSS),
    }];
    t.s.on_ack(
        now,
        1_000,
        1 << 30,
        &block,
        TsOpt::default(),
        false,
        &mut t.out,
    );
    let sent = t.sent();
    assert_eq!(sent.first(), Some(&(1, MSS)), "{sent:?}");
    assert_eq!(t.s.stats().undos, 0);
    assert_eq!(t.window().1, 5);
}

/// RFC 5682 §3.1 step 3b: after the new data, an ACK of data sent once only, before the timeout
/// (the originals were delayed, not lost), shows the timeout was spurious even without
/// timestamps: the window and ssthresh come back and nothing is resent.
#[test]
fn frto_undoes_a_spurious_timeout_without_timestamps() {
    let mut t = Script::bulk(CcAlgo::Reno, 10, true);
    send!(t, [0..10]);
    until_timeout(&mut t);
    let high = t.s.snd_nxt() / u64::from(MSS);
    // The delayed original's ACK, too soon after the retransmission to be its (RACK does not
    // take it as the retransmission's delivery, RFC 8985 §6.2 step 2).
    t.now += Duration::from_millis(10);
    recv!(t, ack 1);
    assert_eq!(t.sent().len(), 2);
    t.now += Duration::from_millis(10);
    recv!(t, ack 3);
    assert_eq!(t.s.ca_state(), CaState::Open);
    assert_eq!(t.s.stats().undos, 1);
    assert_eq!(t.window().1, INFINITE_SSTHRESH);
    assert!(t.window().0 >= 10, "{:?}", t.window());
    let sent = t.sent();
    assert!(
        !sent.is_empty() && sent.iter().all(|&(p, _)| p >= high + 2),
        "new data only: {sent:?}"
    );
}

/// Linux `tcp_enter_loss`: a timeout repeated with no ACK advancing since keeps the first one's
/// ssthresh (the same episode), but one after the cumulative ACK moved is a new reduction.
#[test]
fn tcp_enter_loss_reduces_again_only_after_an_ack_advanced() {
    let mut t = Script::bulk(CcAlgo::Reno, 10, true);
    send!(t, [0..10]);
    until_timeout(&mut t);
    assert_eq!(t.window(), (1, 5));
    // The backed-off timer fires again: same episode.
    let d = t.s.next_deadline().expect("the timer is armed");
    t.now = d;
    t.timer();
    assert_eq!(t.s.stats().timeouts, 2);
    assert_eq!(t.window(), (1, 5));
    // The retransmission is acknowledged (the window grows to 2), then the timer fires once
    // more: ssthresh is cut from the window of now.
    t.now += Duration::from_millis(RTT_MS);
    recv!(t, ack 1);
    t.sent();
    assert_eq!(t.window().0, 2);
    while t.s.stats().timeouts == 2 {
        let d = t.s.next_deadline().expect("the timer is armed");
        t.now = d;
        t.timer();
    }
    assert_eq!(t.window(), (1, 2));
}

/// Linux `tcp_timeout_mark_lost`: at a timeout, a segment sent less than RACK's RTT ago is not
/// deemed lost yet (only the head always is); it stays in flight and the loss window counts it.
#[test]
fn tcp_timeout_mark_lost_spares_segments_sent_within_the_rack_rtt() {
    let mut t = Script::bulk(CcAlgo::Reno, 10, true);
    send!(t, [0..10]);
    // Segment 0 is delivered after one RTT (RACK's RTT: 100 ms); the window releases 10 and 11.
    t.at(200);
    recv!(t, ack 1);
    send!(t, [10..12]);
    // Nothing more arrives. The probe sends 12 and the timer fires right after it.
    until_timeout(&mut t);
    let sent_since_probe = t.s.snd_nxt() / u64::from(MSS) - 12;
    assert_eq!(sent_since_probe, 1, "the probe sent one new segment");
    // The probe's segment is spared: one packet in flight besides the head's retransmission.
    assert_eq!(t.window().0, 2);
    assert_eq!(t.s.packets_in_flight(), 2);
}

/// RFC 3168 §6.1.2 and Linux `tcp_enter_cwr`: an ACK echoing a congestion mark cuts ssthresh as
/// a loss would (Reno: half), at once, and PRR brings the window down over the round; nothing
/// is retransmitted; echoes in the same round change nothing more; the next new segment
/// carries CWR, every new segment ECT(0); CWR ends, cwnd = ssthresh, once data sent after it
/// began is acknowledged.
#[test]
fn tcp_enter_cwr_reduces_once_a_round_and_retransmits_nothing() {
    let mut t = Script::bulk_ecn(CcAlgo::Reno, 20);
    let first = t.sent_ecn();
    assert_eq!(first.len(), 20);
    assert!(first.iter().all(|&(_, ecn, cwr)| ecn == Ecn::Ect0 && !cwr));
    t.at(200);
    recv!(t, ack 1, ece);
    assert_eq!(t.s.ca_state(), CaState::Cwr { high_seq: 20_000 });
    assert_eq!(t.window().1, 10, "ssthresh halved at once");
    // PRR: ceil(ssthresh x delivered / prior_cwnd) = ceil(10 x 1 / 20) = 1 segment, with CWR.
    assert_eq!(t.sent_ecn(), [(20, Ecn::Ect0, true)]);
    recv!(t, ack 2, ece);
    assert_eq!(
        t.window().1,
        10,
        "a second echo in the round cuts nothing more"
    );
    assert_eq!(t.sent_ecn(), [], "ceil(10 x 2 / 20) - 1 = 0");
    recv!(t, ack 3);
    assert_eq!(t.sent_ecn(), [(21, Ecn::Ect0, false)]);
    for n in 4..=20 {
        recv!(t, ack n);
    }
    assert!(
        matches!(t.s.ca_state(), CaState::Cwr { .. }),
        "CWR holds until data above high_seq is acknowledged"
    );
    t.sent_ecn();
    recv!(t, ack 21);
    assert_eq!(t.s.ca_state(), CaState::Open);
    assert_eq!(t.window(), (10, 10));
    assert_eq!(t.s.stats().retransmitted_segments, 0);
}

/// RFC 3168 §6.1.5, Linux `tcp_ecn_send`: a retransmission is not ECN-capable, so that a mark
/// never hides a second loss of the same data; and a loss found while in CWR goes on with the
/// reduction under way rather than cutting again (`tcp_enter_recovery` in a reduction).
#[test]
fn retransmissions_are_not_ect_and_recovery_from_cwr_cuts_no_further() {
    let mut t = Script::bulk_ecn(CcAlgo::Reno, 20);
    t.sent_ecn();
    t.at(200);
    recv!(t, ack 0, ece);
    let ssthresh = t.window().1;
    assert!(matches!(t.s.ca_state(), CaState::Cwr { .. }));
    t.sent_ecn();
    // Packet 0 is lost: three packets above it SACKed.
    recv!(t, ack 0, sack [1..4]);
    assert!(matches!(t.s.ca_state(), CaState::Recovery { .. }));
    assert_eq!(t.window().1, ssthresh, "no second cut");
    let out = t.sent_ecn();
    assert!(out.contains(&(0, Ecn::NotEct, false)), "{out:?}");
}
