//! BBR v1 (Bottleneck Bandwidth and Round-trip propagation time), as Linux's
//! `net/ipv4/tcp_bbr.c` (Cardwell et al., ACM Queue 14(5), 2016).
//!
//! BBR models the path instead of reacting to loss. On each ACK it updates two estimates:
//!
//! - the bottleneck bandwidth, the windowed maximum of the delivery-rate samples over the last
//!   ten round trips (`bbr_update_bw`);
//! - the propagation delay, the windowed minimum of the RTT samples over the last ten seconds
//!   (`bbr_update_min_rtt`);
//!
//! and paces at `pacing_gain * bw` with a window of `cwnd_gain * bw * min_rtt`. A state machine
//! chooses the gains: Startup doubles the rate each round until the bandwidth stops growing,
//! Drain empties the queue Startup built, ProbeBW cycles its gain around 1 to probe for more
//! bandwidth and to yield it, and ProbeRTT dips to four packets in flight every ten seconds to
//! measure the propagation delay afresh.
//!
//! The model is in Linux's integer units, so that its rounding is Linux's: the window, the
//! targets and the counts in packets; the bandwidth in packets per microsecond scaled by 2^24
//! ([`Bw`], `BW_UNIT`), from rate samples of packets over whole microseconds; min_rtt in whole
//! microseconds; the pacing rate in bytes per second of `mss`-byte packets
//! (`bbr_rate_bytes_per_sec`); gains in Linux's fixed point (`BBR_UNIT` = 256), so they are
//! exactly Linux's values (the high gain is 739/256 = 2.8867).
//!
//! Where this differs from Linux, and why:
//! - Long-term sampling (`bbr_lt_bw_sampling`) is Linux's; how often it finds a policer turns on
//!   how a recovery's ACKs come (docs/validation.md, "A policer against a shaper"): on
//!   `preset=policer&cc=bbr` the lab takes the policed rate three times in 30 s and resends
//!   6.5 % of its bytes, Linux once or three times and 6.6 to 7.3 %; at some round trips (38 and
//!   41 ms) the lab's flow still takes it at every probe, Linux's at none tried.
//! - `rs->prior_in_flight` is taken as the data in flight after the ACK plus what it delivered.
//! - ProbeRTT marks the connection application-limited (`tp->app_limited`) so its low-rate
//!   samples do not pull the bandwidth down; the rate estimator is the sender's, so BBR keeps the
//!   span of delivered counts that mark covers and flags the samples that fall in it.
//! - There is no idle-restart event (`bbr_cwnd_event`), and no undo of spurious recoveries.
//! - Linux initialises the pacing rate from the handshake's RTT; the algorithm hears first of the
//!   connection with the first ACK of data, so the initial window goes out unpaced.
//! - A new min_rtt sample must be lower than the minimum, where Linux takes an equal one too
//!   (`rs->rtt_us <= bbr->min_rtt_us`) and restarts the filter's ten seconds with it. The lab's
//!   delays are exact: once a ProbeRTT has measured the empty queue's RTT, the ACKs at an
//!   empty queue equal it to the microsecond, and with Linux's test no ProbeRTT follows (one
//!   dip in 35 s). The kernel, whose RTTs are not exact, probes every 10.4 s on a clean
//!   100 Mbit/s, 50 ms path (the twin: dips at 10.4, 21.1 and 31.5 s of
//!   `cc=bbr&rtt=50&bw=100&app=bulk&dur=35`), as the lab does with the strict test.
//! - `rs->is_ack_delayed` is not reported: an expired min_rtt takes the next RTT sample even if a
//!   delayed ACK inflated it (ProbeRTT then brings it down again).

use super::minmax::MaxFilter;
use super::{AckEvent, CongestionControl, LossEvent, Window};
use crate::memo::Memo;
use crate::rng::SplitMix64;
use crate::scenario::CcAlgo;
use crate::tcp::pacer;
use crate::time::{Duration, Instant};

/// Linux's fixed point for gains: 1.0 is `BBR_UNIT`.
pub const BBR_SCALE: u32 = 8;
pub const BBR_UNIT: u32 = 1 << BBR_SCALE;
/// Linux's fixed point for bandwidth: a packet per microsecond is `BW_UNIT`.
pub const BW_SCALE: u32 = 24;
pub const BW_UNIT: u64 = 1 << BW_SCALE;

/// Phases in the ProbeBW gain cycle.
pub const CYCLE_LEN: usize = 8;
/// Window of the bandwidth filter, in round trips.
pub const BBR_BW_RTTS: u64 = CYCLE_LEN as u64 + 2;
/// Window of the min_rtt filter, in seconds.
pub const BBR_MIN_RTT_WIN_SEC: u64 = 10;
/// The least time ProbeRTT holds the window at `BBR_CWND_MIN_TARGET`, in ms.
pub const BBR_PROBE_RTT_MODE_MS: u64 = 200;
/// Pace about 1% below the estimated bandwidth, to keep the queue small.
pub const BBR_PACING_MARGIN_PERCENT: u32 = 1;
/// 2/ln(2): the smallest gain that doubles the sending rate each round, as slow start does.
pub const BBR_HIGH_GAIN: u32 = BBR_UNIT * 2885 / 1000 + 1;
/// 1/high_gain: drains Startup's queue in about one round.
pub const BBR_DRAIN_GAIN: u32 = BBR_UNIT * 1000 / 2885;
/// The steady-state cwnd gain, which tolerates delayed and stretched ACKs.
pub const BBR_CWND_GAIN: u32 = BBR_UNIT * 2;
/// ProbeBW's pacing gains: probe, drain, then cruise for six phases.
pub const BBR_PACING_GAIN: [u32; CYCLE_LEN] = [
    BBR_UNIT * 5 / 4,
    BBR_UNIT * 3 / 4,
    BBR_UNIT,
    BBR_UNIT,
    BBR_UNIT,
    BBR_UNIT,
    BBR_UNIT,
    BBR_UNIT,
];
/// ProbeBW starts at a random one of this many phases (never the draining one).
pub const BBR_CYCLE_RAND: u32 = 7;
/// The least window, in packets: two ACK-every-other-packet exchanges in flight.
pub const BBR_CWND_MIN_TARGET: u32 = 4;
/// Startup goes on while the bandwidth grows by this factor per round...
pub const BBR_FULL_BW_THRESH: u32 = BBR_UNIT * 5 / 4;
/// ...and ends after this many rounds without.
pub const BBR_FULL_BW_CNT: u32 = 3;
/// Gain on the ACK-aggregation allowance added to the target window.
pub const BBR_EXTRA_ACKED_GAIN: u32 = BBR_UNIT;
/// Window of the ACK-aggregation filter, in round trips (two halves of this length).
pub const BBR_EXTRA_ACKED_WIN_RTTS: u32 = 5;
/// An aggregation epoch is restarted once this many packets have been ACKed in it.
pub const BBR_ACK_EPOCH_ACKED_RESET_THRESH: u32 = 1 << 20;
/// The ACK-aggregation allowance is at most this long at the estimated bandwidth, in µs.
pub const BBR_EXTRA_ACKED_MAX_US: u64 = 100_000;
/// Long-term sampling (`bbr_lt_bw_sampling`): an interval lasts at least this many rounds...
pub const BBR_LT_INTVL_MIN_RTTS: u32 = 4;
/// ...and is lossy, a policer's sign, if it lost this many 256ths of what it delivered (20 %).
pub const BBR_LT_LOSS_THRESH: u64 = 50;
/// Two intervals' rates agree if they differ by an eighth or less...
pub const BBR_LT_BW_RATIO: u64 = BBR_UNIT as u64 / 8;
/// ...or by 4 kbit/s or less (in bytes per second).
pub const BBR_LT_BW_DIFF: u64 = 4000 / 8;
/// Pace at the policed rate this many rounds, then probe again.
pub const BBR_LT_BW_MAX_RTTS: u32 = 48;
/// Linux's TCP_INIT_CWND: the BDP assumed before any RTT sample, in packets.
pub const TCP_INIT_CWND: u32 = 10;
/// `bbr_min_tso_rate`: below 1.2 Mbit/s the send quantum is one segment, above it two at least.
pub const BBR_MIN_TSO_RATE_BYTES: u64 = 1_200_000 / 8;

/// A bandwidth in Linux's BBR units: packets per microsecond, scaled by `BW_UNIT` (2^24). A
/// `u32`, as Linux's max filter holds it: that is 256 packets a microsecond, 3 Tbit/s of
/// 1500-byte packets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Bw(pub u32);

impl Bw {
    /// `packets` over `interval_us` (`bbr_update_bw`, `bbr_init_pacing_rate_from_rtt`),
    /// rounded down; Linux stores the u64 quotient in a u32, which saturates here.
    pub fn of(packets: u64, interval_us: u64) -> Bw {
        let bw = packets.saturating_mul(BW_UNIT) / interval_us.max(1);
        Bw(u32::try_from(bw).unwrap_or(u32::MAX))
    }

    /// Packets delivered at this rate over `us` microseconds, rounded down.
    fn packets_in(self, us: u64) -> u64 {
        u64::from(self.0).saturating_mul(us) >> BW_SCALE
    }

    /// Bytes per second of `mss`-byte packets, for the charts.
    pub fn bytes_per_sec(self, mss: u64) -> f64 {
        f64::from(self.0) * mss as f64 * 1e6 / BW_UNIT as f64
    }
}

/// BBR's state machine (Linux `enum bbr_mode`), written `startup`, `drain`, `probe_bw`,
/// `probe_rtt`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BbrMode {
    /// Ramp up the sending rate rapidly to fill the pipe.
    Startup,
    /// Drain the queue Startup created.
    Drain,
    /// Pace around the estimated bandwidth, cycling the gain to discover and share it.
    ProbeBw,
    /// Cut the data in flight to four packets to measure the propagation delay.
    ProbeRtt,
}

impl BbrMode {
    pub const ALL: [BbrMode; 4] = [
        BbrMode::Startup,
        BbrMode::Drain,
        BbrMode::ProbeBw,
        BbrMode::ProbeRtt,
    ];

    /// A small number for a trace's rows of numbers: the mode's place in [`BbrMode::ALL`].
    pub fn code(self) -> u8 {
        self as u8
    }

    pub fn from_code(code: u64) -> Option<BbrMode> {
        BbrMode::ALL.get(usize::try_from(code).ok()?).copied()
    }
}

/// Long-term bandwidth sampling (`bbr_lt_bw_sampling`; policers as Flach et al., SIGCOMM 2016,
/// found them common): a
/// token-bucket policer shows as intervals that lose a fifth of their packets or more while
/// delivering at one rate. Two such intervals in a row whose rates agree give the policed rate,
/// which BBR then paces at, with no probing, for 48 rounds.
#[derive(Debug, Clone, Copy, Default)]
struct LongTerm {
    /// An interval is under way (it starts at a loss).
    sampling: bool,
    /// The policed rate is in use, for `rtt_cnt` rounds so far.
    use_bw: bool,
    /// The last interval's rate, or the policed rate while in use.
    bw: Bw,
    /// Rounds in this interval, or since the policed rate came into use.
    rtt_cnt: u32,
    /// Where the interval began: the last delivery's time in ms, `tp->delivered`, `tp->lost`.
    last_stamp_ms: u64,
    last_delivered: u64,
    last_lost: u64,
}

/// The connection's counters as long-term sampling reads them: `tp->delivered_mstamp` (the
/// last delivery's time), `tp->delivered` and `tp->lost`.
#[derive(Debug, Clone, Copy, Default)]
struct Counters {
    delivered_at: Instant,
    delivered: u64,
    lost: u64,
}

/// A duration in whole microseconds, as Linux's `rs->rtt_us` and `tcp_min_rtt` (a u32).
fn whole_us(t: Duration) -> u32 {
    u32::try_from(t.as_micros()).unwrap_or(u32::MAX)
}

/// Linux's congestion states as BBR tells them apart (`tcp_ca_state`: Open and Disorder are one
/// here, CWR does not occur), ordered as there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum CaState {
    Open,
    Recovery,
    Loss,
}

#[derive(Debug, Clone)]
pub struct Bbr {
    rng: SplitMix64,
    mode: BbrMode,
    /// Max recent delivery rate ([`Bw`]'s units), timed in rounds.
    bw: MaxFilter,
    /// Packet-timed rounds elapsed.
    rtt_cnt: u64,
    /// The delivered count that ends the current round.
    next_rtt_delivered: u64,
    round_start: bool,
    /// Min RTT in the `BBR_MIN_RTT_WIN_SEC` window in microseconds, and when it was taken
    /// (Linux's ~0U before any sample is `None`).
    min_rtt_us: Option<u32>,
    min_rtt_stamp: Instant,
    /// End of the 200 ms ProbeRTT hold, once in flight has come down to the minimum.
    probe_rtt_done_stamp: Option<Instant>,
    probe_rtt_round_done: bool,
    prev_ca_state: CaState,
    packet_conservation: bool,
    /// The window before loss recovery or ProbeRTT cut it, to restore after.
    prior_cwnd: u32,
    /// Startup's full-pipe detection: the bandwidth to beat by 25%, and rounds without.
    full_bw: Bw,
    full_bw_cnt: u32,
    full_bw_reached: bool,
    cycle_idx: usize,
    /// When the current gain-cycle phase began.
    cycle_stamp: Instant,
    pacing_gain: u32,
    cwnd_gain: u32,
    /// Bytes per second of `mss`-byte packets (`sk_pacing_rate`); none before the first ACK.
    pacing_rate: Option<u64>,
    has_seen_rtt: bool,
    mss: u64,
    /// ACK aggregation (`bbr_update_ack_aggregation`): the epoch's start and bytes ACKed in it,
    /// and the most excess ACKed in each half of the window.
    ack_epoch_stamp: Instant,
    ack_epoch_acked: u32,
    extra_acked: [u32; 2],
    extra_acked_win_rtts: u32,
    extra_acked_win_idx: usize,
    /// Fast recovery started since the last ACK: that ACK counts as reporting a loss.
    loss_pending: bool,
    /// After a timeout: the sender is in Linux's TCP_CA_Loss until snd_una reaches this.
    loss_recover: Option<u64>,
    last_snd_una: u64,
    /// Delivered counts `[from, until]` whose packets were sent while ProbeRTT had marked the
    /// connection application-limited.
    probe_rtt_app_limited: Option<(u64, u64)>,
    initialised: bool,
    lt: LongTerm,
    /// The counters at the last ACK, for the long-term sampling a timeout runs.
    counters: Counters,
    /// The send quantum, kept with the pacing rate and MSS it was computed from ([`Memo`]:
    /// every ACK asks for it, and it changes a few ACKs in a round).
    quantum_memo: Memo<(u64, u64), u32>,
}

impl Bbr {
    /// A BBR sender whose random choices (ProbeBW's starting phase) follow `seed`.
    pub fn new(seed: u64) -> Self {
        Bbr {
            rng: SplitMix64::new(seed),
            mode: BbrMode::Startup,
            bw: MaxFilter::default(),
            rtt_cnt: 0,
            next_rtt_delivered: 0,
            round_start: false,
            min_rtt_us: None,
            min_rtt_stamp: Instant::ZERO,
            probe_rtt_done_stamp: None,
            probe_rtt_round_done: false,
            prev_ca_state: CaState::Open,
            packet_conservation: false,
            prior_cwnd: 0,
            full_bw: Bw(0),
            full_bw_cnt: 0,
            full_bw_reached: false,
            cycle_idx: 0,
            cycle_stamp: Instant::ZERO,
            pacing_gain: BBR_HIGH_GAIN,
            cwnd_gain: BBR_HIGH_GAIN,
            pacing_rate: None,
            has_seen_rtt: false,
            mss: 1,
            ack_epoch_stamp: Instant::ZERO,
            ack_epoch_acked: 0,
            extra_acked: [0; 2],
            extra_acked_win_rtts: 0,
            extra_acked_win_idx: 0,
            loss_pending: false,
            loss_recover: None,
            last_snd_una: 0,
            probe_rtt_app_limited: None,
            initialised: false,
            lt: LongTerm::default(),
            counters: Counters::default(),
            quantum_memo: Memo::default(),
        }
    }

    pub fn mode(&self) -> BbrMode {
        self.mode
    }

    /// The windowed-max bottleneck bandwidth (`bbr_max_bw`).
    fn max_bw(&self) -> Bw {
        Bw(self.bw.get())
    }

    /// The bandwidth the model paces and sizes the window by (`bbr_bw`): the policed rate
    /// while long-term sampling has found one, else the windowed max.
    fn model_bw(&self) -> Bw {
        if self.lt.use_bw {
            self.lt.bw
        } else {
            self.max_bw()
        }
    }

    /// Whether the policed rate is in use (`lt_use_bw`).
    pub fn policed(&self) -> bool {
        self.lt.use_bw
    }

    /// `bbr_reset_lt_bw_sampling_interval`.
    fn reset_lt_interval(&mut self, c: Counters) {
        self.lt.last_stamp_ms = c.delivered_at.as_millis();
        self.lt.last_delivered = c.delivered;
        self.lt.last_lost = c.lost;
        self.lt.rtt_cnt = 0;
    }

    /// `bbr_reset_lt_bw_sampling`.
    fn reset_lt(&mut self, c: Counters) {
        self.lt.bw = Bw(0);
        self.lt.use_bw = false;
        self.lt.sampling = false;
        self.reset_lt_interval(c);
    }

    /// `bbr_lt_bw_interval_done`: a lossy interval delivered at `bw`; if the one before agreed,
    /// the policed rate is their mean.
    fn lt_interval_done(&mut self, bw: Bw, c: Counters) {
        if self.lt.bw.0 > 0 {
            let diff = bw.0.abs_diff(self.lt.bw.0);
            let close = u64::from(diff) * u64::from(BBR_UNIT)
                <= BBR_LT_BW_RATIO * u64::from(self.lt.bw.0)
                || self.rate_bytes_per_sec(Bw(diff), BBR_UNIT) <= BBR_LT_BW_DIFF;
            if close {
                self.lt.bw = Bw(((u64::from(bw.0) + u64::from(self.lt.bw.0)) >> 1) as u32);
                self.lt.use_bw = true;
                self.pacing_gain = BBR_UNIT;
                self.lt.rtt_cnt = 0;
                return;
            }
        }
        self.lt.bw = bw;
        self.reset_lt_interval(c);
    }

    /// `bbr_lt_bw_sampling`: `losses` packets newly lost, on a sample that is or is not
    /// application-limited.
    fn lt_sampling(&mut self, c: Counters, losses: u32, app_limited: bool) {
        if self.lt.use_bw {
            // Probe again after 48 rounds at the policed rate.
            if self.mode == BbrMode::ProbeBw && self.round_start {
                self.lt.rtt_cnt += 1;
                if self.lt.rtt_cnt >= BBR_LT_BW_MAX_RTTS {
                    self.reset_lt(c);
                    self.reset_probe_bw_mode(c.delivered_at);
                }
            }
            return;
        }
        // Sample from the first loss on, once the policer's tokens are spent: earlier rates
        // include its burst.
        if !self.lt.sampling {
            if losses == 0 {
                return;
            }
            self.reset_lt_interval(c);
            self.lt.sampling = true;
        }
        // Running out of data would understate the rate.
        if app_limited {
            self.reset_lt(c);
            return;
        }
        if self.round_start {
            self.lt.rtt_cnt += 1;
        }
        if self.lt.rtt_cnt < BBR_LT_INTVL_MIN_RTTS {
            return;
        }
        if self.lt.rtt_cnt > 4 * BBR_LT_INTVL_MIN_RTTS {
            self.reset_lt(c);
            return;
        }
        // An interval ends at a loss, when the policer's tokens are spent again.
        if losses == 0 {
            return;
        }
        let lost = c.lost.saturating_sub(self.lt.last_lost);
        let delivered = c.delivered.saturating_sub(self.lt.last_delivered);
        if delivered == 0 || (lost << BBR_SCALE) < BBR_LT_LOSS_THRESH * delivered {
            return;
        }
        let t_ms = c
            .delivered_at
            .as_millis()
            .saturating_sub(self.lt.last_stamp_ms);
        if t_ms < 1 {
            return;
        }
        if t_ms >= u64::from(u32::MAX) / 1_000 {
            self.reset_lt(c);
            return;
        }
        self.lt_interval_done(Bw::of(delivered, t_ms * 1_000), c);
    }

    /// The bandwidth the model uses (`bbr_bw`: the policed rate if one was found, else the
    /// windowed max), in payload bytes per second.
    pub fn bw(&self) -> Option<f64> {
        let bw = self.model_bw();
        (bw.0 > 0).then(|| bw.bytes_per_sec(self.mss))
    }

    pub fn min_rtt(&self) -> Option<Duration> {
        self.min_rtt_us
            .map(|us| Duration::from_nanos(u64::from(us) * 1_000))
    }

    pub fn pacing_gain(&self) -> f64 {
        f64::from(self.pacing_gain) / f64::from(BBR_UNIT)
    }

    pub fn cwnd_gain(&self) -> f64 {
        f64::from(self.cwnd_gain) / f64::from(BBR_UNIT)
    }

    /// Whether Startup has judged the pipe full.
    pub fn full_bw_reached(&self) -> bool {
        self.full_bw_reached
    }

    /// The ProbeBW gain-cycle phase, 0 being the 1.25 probe.
    pub fn cycle_idx(&self) -> usize {
        self.cycle_idx
    }

    /// The pacing rate in payload bytes per second (`sk_pacing_rate`).
    pub fn pacing_rate_payload(&self) -> Option<f64> {
        self.pacing_rate.map(|r| r as f64)
    }

    /// `bw * gain` with the pacing margin, bytes per second (`bbr_rate_bytes_per_sec`), in
    /// Linux's order of operations and so with its rounding; saturating where Linux's u64
    /// would wrap (beyond 2.9 Tbit/s).
    fn rate_bytes_per_sec(&self, bw: Bw, gain: u32) -> u64 {
        let rate = u64::from(bw.0)
            .saturating_mul(self.mss)
            .saturating_mul(u64::from(gain))
            >> BBR_SCALE;
        let margin = 1_000_000 / 100 * u64::from(100 - BBR_PACING_MARGIN_PERCENT);
        rate.saturating_mul(margin) >> BW_SCALE
    }

    /// `bbr_init_pacing_rate_from_rtt`: high_gain * cwnd / SRTT, or over a nominal 1 ms before
    /// any RTT sample.
    fn init_pacing_rate_from_rtt(&mut self, cwnd: u32, srtt: Option<Duration>) {
        let rtt_us = match srtt {
            Some(srtt) => {
                self.has_seen_rtt = true;
                u64::from(whole_us(srtt)).max(1)
            }
            None => 1_000,
        };
        let bw = Bw::of(u64::from(cwnd), rtt_us);
        self.pacing_rate = Some(self.rate_bytes_per_sec(bw, BBR_HIGH_GAIN));
    }

    /// `bbr_set_pacing_rate`: never slower during Startup, before the pipe is known full.
    fn set_pacing_rate(&mut self, w: &Window, ack: &AckEvent, bw: Bw, gain: u32) {
        let rate = self.rate_bytes_per_sec(bw, gain);
        if !self.has_seen_rtt && ack.srtt.is_some() {
            self.init_pacing_rate_from_rtt(w.cwnd, ack.srtt);
        }
        if self.full_bw_reached || self.pacing_rate.is_none_or(|r| rate > r) {
            self.pacing_rate = Some(rate);
        }
    }

    /// `bbr_save_cwnd`: the last known good window, to restore after losses or ProbeRTT.
    fn save_cwnd(&mut self, w: &Window) {
        if self.prev_ca_state < CaState::Recovery && self.mode != BbrMode::ProbeRtt {
            self.prior_cwnd = w.cwnd;
        } else {
            self.prior_cwnd = self.prior_cwnd.max(w.cwnd);
        }
    }

    /// `bbr_bdp`: ceil(bw * min_rtt * gain), in packets, rounded up after the gain is applied
    /// and its fixed point removed, as Linux does.
    fn bdp(&self, bw: Bw, gain: u32) -> u32 {
        let Some(min_rtt_us) = self.min_rtt_us else {
            // No valid RTT sample yet: be safe, cap at the initial window.
            return TCP_INIT_CWND;
        };
        let w = u64::from(bw.0) * u64::from(min_rtt_us);
        let bdp = (w.saturating_mul(u64::from(gain)) >> BBR_SCALE).div_ceil(BW_UNIT);
        u32::try_from(bdp).unwrap_or(u32::MAX)
    }

    /// `bbr_quantization_budget`: room for the segments queued at both ends, rounded up to an
    /// even count for delayed ACKs, and two more in the probing phase so that even a small BDP
    /// gets inflight above it.
    fn quantization_budget(&self, cwnd: u32) -> u32 {
        let mut segs = cwnd.saturating_add(3 * self.tso_segs_goal());
        segs = segs.saturating_add(1) & !1;
        if self.mode == BbrMode::ProbeBw && self.cycle_idx == 0 {
            segs = segs.saturating_add(2);
        }
        segs
    }

    /// `bbr_tso_segs_goal`: the segments one send quantum carries, "sort of
    /// `tcp_tso_autosize`": about a millisecond of the pacing rate (`sk_pacing_shift` 10), at
    /// most a 64 KiB GSO packet less the headers' room, at least one or two segments, at most
    /// 127. The rate is Linux's to the byte (`bbr_rate_bytes_per_sec`, of `mss`-byte packets),
    /// so the quantum is too.
    fn tso_segs_goal(&self) -> u32 {
        // The sender's own `tcp_tso_autosize` without its min-RTT share (no RTT given).
        let rate = self.pacing_rate.unwrap_or(0);
        self.quantum_memo.get((rate, self.mss), || {
            let mss = u32::try_from(self.mss).unwrap_or(u32::MAX);
            pacer::tso_segs(rate as f64, None, mss, self.min_tso_segs()).min(0x7F)
        })
    }

    /// `bbr_inflight`.
    fn inflight(&self, bw: Bw, gain: u32) -> u32 {
        self.quantization_budget(self.bdp(bw, gain))
    }

    /// `bbr_packets_in_net_at_edt`: what will still be in the network when the pacer lets the
    /// next GSO packet go (its earliest departure time, `tcp_wstamp_ns`): the data in flight,
    /// plus that packet when inflight is meant to grow, less what the bandwidth estimate delivers
    /// until then. Pacing decisions already made are "baked in".
    fn in_net_at_edt(&self, inflight_now: u32, ack: &AckEvent) -> u32 {
        let interval_us = ack
            .next_departure
            .saturating_duration_since(ack.now)
            .as_micros();
        let delivered = self.model_bw().packets_in(interval_us);
        let mut inflight_at_edt = inflight_now;
        if self.pacing_gain > BBR_UNIT {
            inflight_at_edt = inflight_at_edt.saturating_add(self.tso_segs_goal());
        }
        let left = u64::from(inflight_at_edt).saturating_sub(delivered);
        u32::try_from(left).unwrap_or(u32::MAX)
    }

    /// `bbr_set_cwnd`'s target: `cwnd_gain` BDPs of the model plus the ACK-aggregation
    /// allowance, rounded up for the segments queued at both ends (`bbr_quantization_budget`).
    fn target_cwnd(&self) -> u32 {
        self.quantization_budget(
            self.bdp(self.model_bw(), self.cwnd_gain)
                .saturating_add(self.ack_aggregation_cwnd()),
        )
    }

    /// `bbr_ack_aggregation_cwnd`: extra window for ACKs that arrive in bunches.
    fn ack_aggregation_cwnd(&self) -> u32 {
        if BBR_EXTRA_ACKED_GAIN == 0 || !self.full_bw_reached {
            return 0;
        }
        let max_aggr = self.model_bw().packets_in(BBR_EXTRA_ACKED_MAX_US);
        let max_aggr = u32::try_from(max_aggr).unwrap_or(u32::MAX);
        let extra = self.extra_acked[0].max(self.extra_acked[1]);
        let aggr = extra.saturating_mul(BBR_EXTRA_ACKED_GAIN) >> BBR_SCALE;
        aggr.min(max_aggr)
    }

    /// `bbr_update_bw`: count rounds, and feed the max filter.
    fn update_bw(&mut self, ack: &AckEvent, losses: u32, app_limited: bool) {
        self.round_start = false;
        let Some(rs) = ack.rate else {
            return; // Not a valid observation.
        };
        // A round ends when a packet sent after the previous round's end is delivered.
        if rs.prior_delivered >= self.next_rtt_delivered {
            self.next_rtt_delivered = ack.delivered;
            self.rtt_cnt += 1;
            self.round_start = true;
            self.packet_conservation = false;
        }
        self.lt_sampling(self.counters, losses, app_limited);
        // Packets over microseconds, scaled first: the ratio is well under one for most paths.
        let bw = Bw::of(u64::from(rs.delivered), rs.interval_us);
        // Application-limited samples understate the path: keep them only if they say more.
        if !app_limited || bw >= self.max_bw() {
            self.bw.update(BBR_BW_RTTS, self.rtt_cnt, bw.0);
        }
    }

    /// `bbr_update_ack_aggregation`: the most data ACKed beyond what the bandwidth explains.
    fn update_ack_aggregation(&mut self, ack: &AckEvent, w: &Window) {
        let acked = ack.acked.saturating_add(ack.sacked);
        if BBR_EXTRA_ACKED_GAIN == 0 || acked == 0 || ack.rate.is_none() {
            return;
        }
        if self.round_start {
            self.extra_acked_win_rtts = (self.extra_acked_win_rtts + 1).min(0x1F);
            if self.extra_acked_win_rtts >= BBR_EXTRA_ACKED_WIN_RTTS {
                self.extra_acked_win_rtts = 0;
                self.extra_acked_win_idx ^= 1;
                self.extra_acked[self.extra_acked_win_idx] = 0;
            }
        }
        // What the bandwidth estimate would have delivered over the epoch.
        let epoch_us = ack
            .now
            .as_micros()
            .saturating_sub(self.ack_epoch_stamp.as_micros());
        let expected = self.model_bw().packets_in(epoch_us);
        let mut expected = u32::try_from(expected).unwrap_or(u32::MAX);
        // Restart the epoch when ACKs run below the expected rate, or after very many.
        let reset_at = BBR_ACK_EPOCH_ACKED_RESET_THRESH;
        if self.ack_epoch_acked <= expected
            || self.ack_epoch_acked.saturating_add(acked) >= reset_at
        {
            self.ack_epoch_acked = 0;
            self.ack_epoch_stamp = ack.now;
            expected = 0;
        }
        self.ack_epoch_acked = self.ack_epoch_acked.saturating_add(acked).min(0xFFFFF);
        let extra = self.ack_epoch_acked.saturating_sub(expected).min(w.cwnd);
        let slot = &mut self.extra_acked[self.extra_acked_win_idx];
        *slot = (*slot).max(extra);
    }

    /// `bbr_is_next_cycle_phase`: a phase lasts one min_rtt, the probe longer until inflight
    /// reaches 1.25 BDP (or a loss says it will not fit), the drain shorter if inflight is down
    /// to one BDP.
    fn is_next_cycle_phase(&self, ack: &AckEvent, losses: bool) -> bool {
        let is_full_length = self.min_rtt_us.is_some_and(|m| {
            ack.now
                .as_micros()
                .saturating_sub(self.cycle_stamp.as_micros())
                > u64::from(m)
        });
        if self.pacing_gain == BBR_UNIT {
            return is_full_length;
        }
        let prior_in_flight = ack
            .in_flight
            .saturating_add(ack.acked)
            .saturating_add(ack.sacked);
        let inflight = self.in_net_at_edt(prior_in_flight, ack);
        let bw = self.max_bw();
        if self.pacing_gain > BBR_UNIT {
            return is_full_length && (losses || inflight >= self.inflight(bw, self.pacing_gain));
        }
        is_full_length || inflight <= self.inflight(bw, BBR_UNIT)
    }

    /// `bbr_advance_cycle_phase`.
    fn advance_cycle_phase(&mut self, now: Instant) {
        self.cycle_idx = (self.cycle_idx + 1) % CYCLE_LEN;
        self.cycle_stamp = now;
    }

    /// `bbr_reset_probe_bw_mode`: start the cycle at a random phase other than the drain.
    fn reset_probe_bw_mode(&mut self, now: Instant) {
        self.mode = BbrMode::ProbeBw;
        self.cycle_idx = CYCLE_LEN - 1 - self.rng.below(BBR_CYCLE_RAND) as usize;
        self.advance_cycle_phase(now);
    }

    /// `bbr_reset_mode`.
    fn reset_mode(&mut self, now: Instant) {
        if self.full_bw_reached {
            self.reset_probe_bw_mode(now);
        } else {
            self.mode = BbrMode::Startup;
        }
    }

    /// `bbr_check_full_bw_reached`: the pipe is full after `BBR_FULL_BW_CNT` rounds in which
    /// the bandwidth grew by less than 25%.
    fn check_full_bw_reached(&mut self, app_limited: bool) {
        if self.full_bw_reached || !self.round_start || app_limited {
            return;
        }
        let max_bw = self.max_bw();
        let thresh = (u64::from(self.full_bw.0) * u64::from(BBR_FULL_BW_THRESH)) >> BBR_SCALE;
        if u64::from(max_bw.0) >= thresh {
            self.full_bw = max_bw;
            self.full_bw_cnt = 0;
            return;
        }
        self.full_bw_cnt += 1;
        self.full_bw_reached = self.full_bw_cnt >= BBR_FULL_BW_CNT;
    }

    /// `bbr_check_drain`: once the pipe is full, drain until inflight is down to one BDP.
    fn check_drain(&mut self, w: &mut Window, ack: &AckEvent) {
        if self.mode == BbrMode::Startup && self.full_bw_reached {
            self.mode = BbrMode::Drain;
            w.ssthresh = self.inflight(self.max_bw(), BBR_UNIT);
        }
        if self.mode == BbrMode::Drain
            && self.in_net_at_edt(ack.in_flight, ack) <= self.inflight(self.max_bw(), BBR_UNIT)
        {
            self.reset_probe_bw_mode(ack.now);
        }
    }

    /// `bbr_check_probe_rtt_done`.
    fn check_probe_rtt_done(&mut self, w: &mut Window, now: Instant) {
        if self.probe_rtt_done_stamp.is_none_or(|d| now <= d) {
            return;
        }
        // Wait a while until the next ProbeRTT.
        self.min_rtt_stamp = now;
        w.cwnd = w.cwnd.max(self.prior_cwnd);
        self.reset_mode(now);
    }

    /// `bbr_update_min_rtt`, and ProbeRTT's entry and exit.
    fn update_min_rtt(&mut self, w: &mut Window, ack: &AckEvent) {
        let window = Duration::from_secs(BBR_MIN_RTT_WIN_SEC);
        let filter_expired = ack.now > self.min_rtt_stamp + window;
        // Only a lower sample restarts the ten seconds, where Linux's test is `rs->rtt_us <=
        // bbr->min_rtt_us` (see the module's notes).
        if let Some(rtt) = ack.rtt.map(whole_us) {
            if self.min_rtt_us.is_none_or(|m| rtt < m) || filter_expired {
                self.min_rtt_us = Some(rtt);
                self.min_rtt_stamp = ack.now;
            }
        }

        if BBR_PROBE_RTT_MODE_MS > 0 && filter_expired && self.mode != BbrMode::ProbeRtt {
            // Dip, to drain the queue; note cwnd so it can be restored.
            self.mode = BbrMode::ProbeRtt;
            self.save_cwnd(w);
            self.probe_rtt_done_stamp = None;
            self.probe_rtt_app_limited = None;
        }

        if self.mode == BbrMode::ProbeRtt {
            // Ignore the low-rate samples of this mode: Linux sets `tp->app_limited` to
            // delivered + inflight on each of its ACKs, so every packet sent from the first of
            // them until delivery passes the last mark is flagged.
            let mark = ack
                .delivered
                .saturating_add(u64::from(ack.in_flight))
                .max(1);
            self.probe_rtt_app_limited = match self.probe_rtt_app_limited {
                Some((from, until)) => Some((from, until.max(mark))),
                None => Some((ack.delivered, mark)),
            };
            // Hold the minimum in flight for max(200 ms, one round).
            if self.probe_rtt_done_stamp.is_none() && ack.in_flight <= BBR_CWND_MIN_TARGET {
                self.probe_rtt_done_stamp =
                    Some(ack.now + Duration::from_millis(BBR_PROBE_RTT_MODE_MS));
                self.probe_rtt_round_done = false;
                self.next_rtt_delivered = ack.delivered;
            } else if self.probe_rtt_done_stamp.is_some() {
                if self.round_start {
                    self.probe_rtt_round_done = true;
                }
                if self.probe_rtt_round_done {
                    self.check_probe_rtt_done(w, ack.now);
                }
            }
        }
    }

    /// `bbr_update_gains`.
    fn update_gains(&mut self) {
        (self.pacing_gain, self.cwnd_gain) = match self.mode {
            BbrMode::Startup => (BBR_HIGH_GAIN, BBR_HIGH_GAIN),
            // Slow, to drain; keep cwnd.
            BbrMode::Drain => (BBR_DRAIN_GAIN, BBR_HIGH_GAIN),
            // At the policed rate there is no probing.
            BbrMode::ProbeBw if self.lt.use_bw => (BBR_UNIT, BBR_CWND_GAIN),
            BbrMode::ProbeBw => (BBR_PACING_GAIN[self.cycle_idx], BBR_CWND_GAIN),
            BbrMode::ProbeRtt => (BBR_UNIT, BBR_UNIT),
        };
    }

    /// `bbr_set_cwnd_to_recover_or_restore`: packet conservation for the first round of fast
    /// recovery (send what was delivered), the saved window back after it. Returns the window
    /// and whether conservation applies.
    fn set_cwnd_to_recover_or_restore(
        &mut self,
        w: &Window,
        ack: &AckEvent,
        state: CaState,
        acked: u32,
        losses: u32,
    ) -> (u32, bool) {
        let mut cwnd = w.cwnd;
        // An ACK for P packets should release at most 2P: take off what was lost first, then
        // bbr_set_cwnd slow-starts toward the target.
        if losses > 0 {
            cwnd = cwnd.saturating_sub(losses).max(1);
        }
        if state == CaState::Recovery && self.prev_ca_state != CaState::Recovery {
            // First round of recovery: packet conservation, starting a round now; cut unused
            // window.
            self.packet_conservation = true;
            self.next_rtt_delivered = ack.delivered;
            cwnd = ack.in_flight.saturating_add(acked);
        } else if self.prev_ca_state >= CaState::Recovery && state < CaState::Recovery {
            // Leaving loss recovery: restore the window saved at its start.
            cwnd = cwnd.max(self.prior_cwnd);
            self.packet_conservation = false;
        }
        self.prev_ca_state = state;
        if self.packet_conservation {
            return (cwnd.max(ack.in_flight.saturating_add(acked)), true);
        }
        (cwnd, false)
    }

    /// `bbr_set_cwnd`: slow-start toward the target window if below it (the bandwidth estimate
    /// grows, or a loss pulled the window down), snap down to it if above once the pipe is full.
    fn set_cwnd(&mut self, w: &mut Window, ack: &AckEvent, state: CaState, losses: u32) {
        let acked = ack.acked.saturating_add(ack.sacked);
        let mut cwnd = w.cwnd;
        if acked > 0 {
            let (c, conserving) = self.set_cwnd_to_recover_or_restore(w, ack, state, acked, losses);
            cwnd = c;
            if !conserving {
                let target = self.target_cwnd();
                if self.full_bw_reached {
                    // Only cut the window once the pipe was filled.
                    cwnd = cwnd.saturating_add(acked).min(target);
                } else if cwnd < target || ack.delivered < u64::from(TCP_INIT_CWND) {
                    cwnd = cwnd.saturating_add(acked);
                }
                cwnd = cwnd.max(BBR_CWND_MIN_TARGET);
            }
        }
        w.cwnd = cwnd;
        if self.mode == BbrMode::ProbeRtt {
            // Drain the queue, refresh min_rtt.
            w.cwnd = w.cwnd.min(BBR_CWND_MIN_TARGET);
        }
    }

    /// The congestion state the sender is in at this ACK.
    /// CWR is below Recovery in Linux's order of states, so BBR's packet conservation and
    /// its restore at recovery's end ignore an ECN echo's reduction.
    fn ca_state(&mut self, ack: &AckEvent) -> CaState {
        if ack.in_recovery && !ack.in_cwr {
            return CaState::Recovery;
        }
        match self.loss_recover {
            Some(recover) if ack.snd_una < recover => CaState::Loss,
            _ => {
                self.loss_recover = None;
                CaState::Open
            }
        }
    }

    /// Whether the sampled packet left while ProbeRTT had marked the connection
    /// application-limited.
    fn probe_rtt_marked(&self, ack: &AckEvent) -> bool {
        match (self.probe_rtt_app_limited, ack.rate) {
            (Some((from, until)), Some(rs)) => (from..=until).contains(&rs.prior_delivered),
            _ => false,
        }
    }
}

impl CongestionControl for Bbr {
    fn algo(&self) -> CcAlgo {
        CcAlgo::Bbr
    }

    fn model_based(&self) -> bool {
        true
    }

    /// `bbr_main`: update the model, then set the pacing rate and the window from it.
    fn on_ack(&mut self, w: &mut Window, ack: &AckEvent) {
        self.mss = u64::from(w.mss.max(1));
        if ack.acked.saturating_add(ack.sacked) > 0 {
            self.counters.delivered_at = ack.now;
        }
        self.counters.delivered = ack.delivered;
        self.counters.lost = ack.total_lost;
        if !self.initialised {
            // `bbr_init`: the min_rtt filter starts from the connection's lowest RTT so far.
            self.initialised = true;
            self.min_rtt_us = ack.min_rtt.map(whole_us);
            self.min_rtt_stamp = ack.now;
            self.next_rtt_delivered = 0;
            self.init_pacing_rate_from_rtt(w.cwnd, ack.srtt);
            self.reset_lt(self.counters);
        }
        self.last_snd_una = ack.snd_una;
        // Linux's `rs->losses`; the ACK that starts recovery counts at least the segment it
        // retransmits.
        let pending = std::mem::take(&mut self.loss_pending);
        let losses = if pending { ack.lost.max(1) } else { ack.lost };
        let state = self.ca_state(ack);
        let app_limited = ack.rate.is_some_and(|r| r.app_limited) || self.probe_rtt_marked(ack);

        // bbr_update_model
        self.update_bw(ack, losses, app_limited);
        self.update_ack_aggregation(ack, w);
        if self.mode == BbrMode::ProbeBw && self.is_next_cycle_phase(ack, losses > 0) {
            self.advance_cycle_phase(ack.now);
        }
        self.check_full_bw_reached(app_limited);
        self.check_drain(w, ack);
        self.update_min_rtt(w, ack);
        self.update_gains();

        let bw = self.model_bw();
        self.set_pacing_rate(w, ack, bw, self.pacing_gain);
        self.set_cwnd(w, ack, state, losses);
    }

    /// `bbr_ssthresh`: save the window for when recovery ends; ssthresh is left as it is. The
    /// window itself is set by the ACK that follows (packet conservation).
    fn on_enter_recovery(&mut self, w: &mut Window, _loss: &LossEvent) {
        self.mss = u64::from(w.mss.max(1));
        self.save_cwnd(w);
        self.loss_pending = true;
    }

    /// `bbr_ssthresh` alone: the window is saved and nothing else changes. BBR v1 takes no
    /// signal from ECN; its model sets the window as before.
    fn on_ecn_echo(&mut self, w: &mut Window, _loss: &LossEvent) {
        self.mss = u64::from(w.mss.max(1));
        self.save_cwnd(w);
    }

    /// `bbr_main` sets the window on every ACK, recovery included (Linux's `cong_control`):
    /// no PRR, and `tcp_end_cwnd_reduction` leaves the window alone when recovery ends; the
    /// next ACK restores the saved window.
    fn controls_window(&self) -> bool {
        true
    }

    /// `tcp_enter_loss` calls `bbr_ssthresh` (on the first timeout of an episode), then
    /// `bbr_set_state(TCP_CA_Loss)`: full-pipe detection starts over. The sender then sets the
    /// window to one segment, and BBR grows it back from the next ACK.
    fn on_rto(&mut self, w: &mut Window, loss: &LossEvent, first: bool) {
        self.mss = u64::from(w.mss.max(1));
        if first {
            self.save_cwnd(w);
        }
        // `bbr_set_state(TCP_CA_Loss)`: the timeout ends a round and counts as a loss for the
        // long-term sampling.
        self.prev_ca_state = CaState::Loss;
        self.full_bw = Bw(0);
        self.round_start = true;
        self.counters.lost = loss.total_lost;
        self.lt_sampling(self.counters, 1, false);
        // The sender leaves TCP_CA_Loss once everything outstanding now is acknowledged.
        self.loss_recover = Some(self.last_snd_una.saturating_add(loss.flight_size));
    }

    /// `bbr_undo_cwnd`: the slow-down was spurious, so the full-pipe estimate it may have
    /// stalled starts over, as does the long-term sampling its losses fed; the window stays as
    /// BBR set it.
    fn on_undo(&mut self) {
        self.full_bw = Bw(0);
        self.full_bw_cnt = 0;
        self.reset_lt(self.counters);
    }

    fn pacing_rate(&self) -> Option<f64> {
        self.pacing_rate.filter(|r| *r > 0).map(|r| r as f64)
    }

    fn paces(&self) -> bool {
        true
    }

    fn samples_rate(&self) -> bool {
        true
    }

    /// `bbr_min_tso_segs`: one segment a GSO packet below 1.2 Mbit/s, two above.
    fn min_tso_segs(&self) -> u32 {
        if self.pacing_rate.unwrap_or(0) < BBR_MIN_TSO_RATE_BYTES {
            1
        } else {
            2
        }
    }

    fn model_key(&self) -> Option<super::ModelKey> {
        // Every input of `model` below (`target_cwnd` and `ack_aggregation_cwnd` included).
        Some(super::ModelKey([
            self.mode.code() as u64
                | (self.cycle_idx as u64) << 8
                | u64::from(self.full_bw_reached) << 16
                | u64::from(self.lt.use_bw) << 17
                | u64::from(self.pacing_gain) << 32,
            u64::from(self.cwnd_gain) | u64::from(self.lt.bw.0) << 32,
            self.mss,
            u64::from(self.bw.get()),
            self.min_rtt_us.map_or(u64::MAX, u64::from),
            self.pacing_rate.unwrap_or(u64::MAX),
            u64::from(self.extra_acked[0]) | u64::from(self.extra_acked[1]) << 32,
        ]))
    }

    fn model(&self) -> super::CcModel {
        super::CcModel::Bbr {
            mode: self.mode,
            bw: self.bw(),
            min_rtt: self.min_rtt(),
            pacing_gain: self.pacing_gain(),
            cwnd_gain: self.cwnd_gain(),
            pacing_rate: self.pacing_rate_payload(),
            phase: (self.mode == BbrMode::ProbeBw).then_some(self.cycle_idx as u8),
            target_cwnd: self.min_rtt_us.map(|_| self.target_cwnd()),
            extra_acked: self.ack_aggregation_cwnd(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cc::{RateSample, INFINITE_SSTHRESH};

    /// One packet, the unit of windows and of what an ACK delivers; it carries `MSS` bytes.
    const PKT: u32 = 1;
    const MSS: u32 = 1000;
    const RTT: Duration = Duration::from_millis(100);

    fn window(cwnd_segs: u32) -> Window {
        Window::new(cwnd_segs * PKT, MSS)
    }

    /// A flow over a path of `RTT` as BBR sees it, one ACK at a time: each ACK delivers
    /// `acked` packets and carries a rate sample of `rate` bytes/s over one RTT.
    struct Flow {
        bbr: Bbr,
        w: Window,
        now: Instant,
        /// Packets delivered (`tp->delivered`).
        delivered: u64,
        /// Packets lost so far (`tp->lost`), and those the next ACK reports newly lost.
        total_lost: u64,
        losses: u32,
        in_flight: u32,
        in_recovery: bool,
        rtt: Duration,
    }

    impl Flow {
        fn new(seed: u64) -> Self {
            Flow {
                bbr: Bbr::new(seed),
                w: window(10),
                now: Instant::ZERO,
                delivered: 0,
                total_lost: 0,
                losses: 0,
                in_flight: 10 * PKT,
                in_recovery: false,
                rtt: RTT,
            }
        }

        /// One ACK `dt` after the last, delivering `acked` packets that were sent when
        /// `prior_delivered` packets had been delivered, with a sample of `rate` bytes/s: the
        /// packets of `MSS` bytes delivered over one `RTT` at that rate, to the nearest.
        fn ack_with(&mut self, dt: Duration, acked: u32, rate: f64, prior_delivered: u64) {
            self.now += dt;
            self.delivered += u64::from(acked);
            let packets = (rate * RTT.as_secs_f64() / f64::from(MSS)).round() as u32;
            let ev = AckEvent {
                now: self.now,
                acked,
                sacked: 0,
                data_acked: acked > 0,
                lost: std::mem::take(&mut self.losses),
                total_lost: self.total_lost,
                rtt: Some(self.rtt),
                min_rtt: Some(RTT),
                in_flight: self.in_flight,
                cwnd_limited: true,
                in_recovery: self.in_recovery,
                in_cwr: false,
                delivered: self.delivered,
                snd_una: self.delivered * u64::from(MSS),
                snd_nxt: (self.delivered + u64::from(self.in_flight)) * u64::from(MSS),
                next_departure: self.now,
                srtt: Some(RTT),
                rate: Some(RateSample {
                    delivered: packets,
                    interval_us: RTT.as_micros(),
                    app_limited: false,
                    prior_delivered,
                }),
            };
            self.bbr.on_ack(&mut self.w, &ev);
        }

        /// One round trip: a single ACK that ends the round, after `dt`.
        fn round(&mut self, dt: Duration, rate: f64) {
            let prior = self.delivered;
            self.ack_with(dt, PKT, rate, prior);
        }

        /// Drives the flow through Startup on a path of `rate` bytes/s into ProbeBW.
        fn run_into_probe_bw(&mut self, rate: f64) {
            let mut r = rate / 16.0;
            for _ in 0..30 {
                self.round(RTT, r);
                r = (r * 2.0).min(rate);
                if self.bbr.mode() == BbrMode::Drain {
                    // Drained: what is in flight is below one BDP.
                    self.in_flight = PKT;
                }
                if self.bbr.mode() == BbrMode::ProbeBw {
                    return;
                }
            }
            panic!("still in {:?}", self.bbr.mode());
        }
    }

    #[test]
    fn equal_model_keys_give_equal_models() {
        // The world records BBR's model only when its key changes: every ACK of a flow
        // through Startup, Drain and ProbeBW, with ACKs that come in bunches (extra_acked)
        // and rates that change, must keep the model when it keeps the key.
        let mut f = Flow::new(11);
        let mut last = (f.bbr.model_key(), f.bbr.model());
        let mut changes = 0;
        let mut check = |f: &Flow| {
            let now = (f.bbr.model_key(), f.bbr.model());
            assert!(now.0.is_some());
            if now.0 == last.0 {
                assert_eq!(now.1, last.1, "the same key, another model");
            } else {
                changes += 1;
            }
            last = now;
        };
        let mut rate = 50_000.0;
        for i in 0..400u32 {
            let prior = f.delivered;
            let burst = if i % 7 == 0 { 8 * PKT } else { PKT };
            let dt = if i % 7 == 0 { RTT / 4 } else { RTT / 16 };
            f.ack_with(dt, burst, rate, prior);
            check(&f);
            if i % 50 == 0 {
                rate *= 1.7;
            }
            if f.bbr.mode() == BbrMode::Drain {
                f.in_flight = PKT;
            }
        }
        assert!(changes > 20, "{changes} model changes");
    }

    #[test]
    fn startup_paces_and_grows_at_high_gain_and_ends_after_three_rounds_without_25pct() {
        assert_eq!(BBR_HIGH_GAIN, 739);
        assert_eq!(BBR_DRAIN_GAIN, 88);
        let mut f = Flow::new(1);
        f.in_flight = 1_000 * PKT;
        let mut r = 100_000.0;
        // The bandwidth doubles for five rounds: Startup stays.
        for _ in 0..5 {
            f.round(RTT, r);
            r *= 2.0;
            assert_eq!(f.bbr.mode(), BbrMode::Startup);
            assert_eq!(f.bbr.pacing_gain(), 739.0 / 256.0);
            assert_eq!(f.bbr.cwnd_gain(), 739.0 / 256.0);
        }
        let plateau = r / 2.0;
        // Then 10% more, and nothing: the first round at +10% counts, as do the next two.
        f.round(RTT, plateau * 1.1);
        assert_eq!(f.bbr.mode(), BbrMode::Startup);
        f.round(RTT, plateau * 1.1);
        assert_eq!(f.bbr.mode(), BbrMode::Startup);
        f.round(RTT, plateau);
        // Three rounds without 25% growth: the pipe is full; inflight is high, so Drain.
        assert!(f.bbr.full_bw_reached());
        assert_eq!(f.bbr.mode(), BbrMode::Drain);
        assert_eq!(f.bbr.pacing_gain(), 88.0 / 256.0);
        // Drain's pacing: bw / high gain, less the 1% margin (in payload bytes per second), to
        // the rounding of Linux's units.
        let bw = plateau * 1.1;
        let expect = bw * 88.0 / 256.0 * 0.99;
        let got = f.bbr.pacing_rate_payload().unwrap_or(0.0);
        assert!((got - expect).abs() < 1e-4 * expect, "{got} vs {expect}");
        // ssthresh shows the BDP target, as Linux sets it on entering Drain.
        assert!(f.w.ssthresh < INFINITE_SSTHRESH);
        // Once inflight is down to a BDP, ProbeBW.
        f.in_flight = PKT;
        f.ack_with(Duration::from_millis(1), PKT, bw, 0);
        assert_eq!(f.bbr.mode(), BbrMode::ProbeBw);
        assert_eq!(f.bbr.cwnd_gain(), 2.0);
    }

    #[test]
    fn startup_pacing_is_never_lowered_before_the_pipe_is_full() {
        let mut f = Flow::new(1);
        f.round(RTT, 1_000_000.0);
        let before = f.bbr.pacing_rate_payload().unwrap_or(0.0);
        f.round(RTT, 10_000.0);
        assert_eq!(f.bbr.pacing_rate_payload(), Some(before));
    }

    #[test]
    fn probe_bw_cycles_through_the_eight_gains() {
        let rate = 1_000_000.0; // 1 MB/s over 100 ms: a BDP of 100 segments.
        let mut f = Flow::new(7);
        f.run_into_probe_bw(rate);
        let bdp = 100 * PKT;
        let mut gains = vec![f.bbr.pacing_gain()];
        for _ in 0..16 {
            // Inflight that lets each phase run one min_rtt: above 1.25 BDP when probing, above
            // one BDP when draining (less would end the drain early).
            let gain = f.bbr.pacing_gain();
            f.in_flight = if gain > 1.0 {
                bdp * 5 / 4 + 10 * PKT
            } else if gain < 1.0 {
                bdp + 10 * PKT
            } else {
                bdp
            };
            let idx = f.bbr.cycle_idx();
            // A phase does not end before one min_rtt...
            f.ack_with(Duration::from_millis(50), PKT, rate, 0);
            assert_eq!(f.bbr.cycle_idx(), idx);
            // ...and ends after it.
            f.ack_with(Duration::from_millis(51), PKT, rate, 0);
            assert_eq!(f.bbr.cycle_idx(), (idx + 1) % CYCLE_LEN);
            gains.push(f.bbr.pacing_gain());
        }
        let start = gains.iter().position(|&g| g == 1.25).unwrap_or(usize::MAX);
        assert!(start < 8, "{gains:?}");
        assert_eq!(
            gains[start..start + 8],
            [1.25, 0.75, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0],
            "{gains:?}"
        );
    }

    #[test]
    fn the_probing_phase_persists_until_inflight_reaches_125pct_of_bdp() {
        let rate = 1_000_000.0;
        let mut f = Flow::new(3);
        f.run_into_probe_bw(rate);
        // Walk to phase 0.
        while f.bbr.cycle_idx() != 0 {
            f.in_flight = 100 * PKT;
            f.ack_with(Duration::from_millis(101), PKT, rate, 0);
        }
        f.in_flight = 100 * PKT;
        for _ in 0..5 {
            f.ack_with(Duration::from_millis(101), PKT, rate, 0);
            assert_eq!(f.bbr.cycle_idx(), 0);
        }
        f.in_flight = 200 * PKT;
        f.ack_with(Duration::from_millis(1), PKT, rate, 0);
        assert_eq!(f.bbr.cycle_idx(), 1);
        // The draining phase ends early once inflight is at one BDP.
        f.ack_with(Duration::from_millis(1), PKT, rate, 0);
        assert_eq!(f.bbr.cycle_idx(), 1);
        f.in_flight = 90 * PKT;
        f.ack_with(Duration::from_millis(1), PKT, rate, 0);
        assert_eq!(f.bbr.cycle_idx(), 2);
    }

    #[test]
    fn probe_bw_never_starts_in_the_draining_phase_and_the_seed_decides() {
        let mut seen = [false; CYCLE_LEN];
        for seed in 0..200 {
            let mut f = Flow::new(seed);
            f.run_into_probe_bw(1_000_000.0);
            seen[f.bbr.cycle_idx()] = true;
            let mut again = Flow::new(seed);
            again.run_into_probe_bw(1_000_000.0);
            assert_eq!(again.bbr.cycle_idx(), f.bbr.cycle_idx());
        }
        assert_eq!(seen, [true, false, true, true, true, true, true, true]);
    }

    #[test]
    fn probe_rtt_comes_when_min_rtt_is_ten_seconds_old_and_holds_four_packets_200ms() {
        let rate = 1_000_000.0;
        let mut f = Flow::new(5);
        f.rtt = Duration::from_millis(120); // Queueing: no sample beats the minimum.
        f.run_into_probe_bw(rate);
        let stamp = f.bbr.min_rtt_stamp;
        // Cruise for ten seconds.
        f.in_flight = 100 * PKT;
        while f.now + Duration::from_millis(10) <= stamp + Duration::from_secs(10) {
            f.ack_with(Duration::from_millis(10), PKT, rate, f.delivered);
            assert_ne!(f.bbr.mode(), BbrMode::ProbeRtt, "{}", f.now);
        }
        let cwnd_before = f.w.cwnd;
        f.ack_with(Duration::from_millis(10), PKT, rate, f.delivered);
        assert_eq!(f.bbr.mode(), BbrMode::ProbeRtt);
        assert_eq!(f.w.cwnd, 4 * PKT);
        assert_eq!((f.bbr.pacing_gain(), f.bbr.cwnd_gain()), (1.0, 1.0));
        // The expired filter took the new (higher) sample.
        assert_eq!(f.bbr.min_rtt(), Some(Duration::from_millis(120)));
        // In flight falls to four packets; from then the mode holds 200 ms and one round.
        f.rtt = Duration::from_millis(100);
        f.in_flight = 4 * PKT;
        f.ack_with(Duration::from_millis(10), PKT, rate, 0);
        let low_since = f.now;
        assert_eq!(f.bbr.min_rtt(), Some(Duration::from_millis(100)));
        while f.now <= low_since + Duration::from_millis(200) {
            assert_eq!(f.bbr.mode(), BbrMode::ProbeRtt, "{}", f.now);
            assert_eq!(f.w.cwnd, 4 * PKT);
            f.ack_with(Duration::from_millis(10), PKT, rate / 10.0, f.delivered);
        }
        f.ack_with(Duration::from_millis(10), PKT, rate, f.delivered);
        assert_eq!(f.bbr.mode(), BbrMode::ProbeBw);
        // The window before the dip comes back (less the probing phase's two extra segments,
        // if the new cycle starts elsewhere).
        assert!(
            f.w.cwnd + 2 * PKT >= cwnd_before,
            "{} < {cwnd_before}",
            f.w.cwnd
        );
        // ProbeRTT's low-rate samples were flagged application-limited: the bandwidth stands.
        let bw = f.bbr.bw().unwrap_or(0.0);
        assert!((bw - rate).abs() < 1e-4 * rate, "{bw}");
    }

    #[test]
    fn min_rtt_is_kept_in_whole_microseconds_as_linux_does() {
        let mut f = Flow::new(2);
        f.run_into_probe_bw(1_000_000.0);
        let ack = |f: &mut Flow, rtt_ns: u64| {
            f.rtt = Duration::from_nanos(rtt_ns);
            f.ack_with(Duration::from_millis(10), PKT, 1_000_000.0, 0);
        };
        // 99.9999 ms is 99999 us, a new minimum.
        ack(&mut f, 99_999_900);
        let stamp = f.now;
        assert_eq!(f.bbr.min_rtt(), Some(Duration::from_nanos(99_999_000)));
        // 99.9993 ms is lower, but the same 99999 us: the ten seconds do not restart.
        ack(&mut f, 99_999_300);
        assert_eq!(f.bbr.min_rtt_stamp, stamp);
        // A whole microsecond less does.
        ack(&mut f, 99_998_999);
        assert_eq!(f.bbr.min_rtt(), Some(Duration::from_nanos(99_998_000)));
        assert_eq!(f.bbr.min_rtt_stamp, f.now);
    }

    #[test]
    fn recovery_conserves_packets_for_a_round_then_restores_the_window() {
        let rate = 1_000_000.0;
        let mut f = Flow::new(9);
        f.run_into_probe_bw(rate);
        // A window at its target, 2 BDP, half of it in flight.
        f.w.cwnd = 200 * PKT;
        f.in_flight = 150 * PKT;
        f.ack_with(Duration::from_millis(30), PKT, rate, f.delivered);
        let before = f.w.cwnd;
        let ssthresh = f.w.ssthresh;
        f.bbr.on_enter_recovery(
            &mut f.w,
            &LossEvent {
                now: f.now,
                flight_size: u64::from(before * MSS),
                total_lost: f.total_lost,
                snd_nxt: 0,
            },
        );
        assert_eq!((f.w.cwnd, f.w.ssthresh), (before, ssthresh));
        f.in_recovery = true;
        f.in_flight = 100 * PKT;
        f.ack_with(Duration::from_millis(1), 2 * PKT, rate, 0);
        // Packet conservation: what is in flight plus what was delivered.
        assert_eq!(f.w.cwnd, 102 * PKT);
        f.ack_with(Duration::from_millis(1), 2 * PKT, rate, 0);
        assert_eq!(f.w.cwnd, 102 * PKT);
        // Recovery ends: the saved window is back.
        f.in_recovery = false;
        f.ack_with(Duration::from_millis(1), 2 * PKT, rate, f.delivered);
        // Restored (then grown by what this ACK delivered, up to the target).
        assert!(
            (before..=before + 2 * PKT).contains(&f.w.cwnd),
            "{} vs {before}",
            f.w.cwnd
        );
    }

    #[test]
    fn after_a_timeout_the_window_regrows_from_four_packets_and_is_restored_at_the_end() {
        let rate = 1_000_000.0;
        let mut f = Flow::new(11);
        f.run_into_probe_bw(rate);
        f.in_flight = 150 * PKT;
        f.ack_with(Duration::from_millis(30), PKT, rate, f.delivered);
        let before = f.w.cwnd;
        let outstanding = 150 * PKT;
        f.bbr.on_rto(
            &mut f.w,
            &LossEvent {
                now: f.now,
                flight_size: u64::from(outstanding * MSS),
                total_lost: f.total_lost,
                snd_nxt: 0,
            },
            true,
        );
        f.w.cwnd = PKT; // As the sender does.
        f.in_flight = 0;
        f.ack_with(Duration::from_millis(300), PKT, rate, 0);
        assert_eq!(f.w.cwnd, 4 * PKT);
        f.ack_with(Duration::from_millis(1), 2 * PKT, rate, 0);
        assert_eq!(f.w.cwnd, 6 * PKT);
        // Everything outstanding at the timeout is acknowledged: TCP_CA_Loss ends.
        f.ack_with(Duration::from_millis(1), outstanding, rate, 0);
        assert!(f.w.cwnd >= before, "{} < {before}", f.w.cwnd);
    }

    #[test]
    fn odd_inputs_do_not_panic() {
        let mut b = Bbr::new(0);
        let mut w = Window {
            cwnd: 0,
            ssthresh: 0,
            cwnd_cnt: 0,
            mss: 0,
        };
        let mut ev = AckEvent {
            now: Instant::MAX,
            acked: u32::MAX,
            sacked: u32::MAX,
            data_acked: true,
            lost: u32::MAX,
            total_lost: u64::MAX,
            rtt: Some(Duration::ZERO),
            min_rtt: Some(Duration::ZERO),
            in_flight: u32::MAX,
            cwnd_limited: false,
            in_recovery: false,
            in_cwr: false,
            delivered: u64::MAX,
            snd_una: u64::MAX,
            snd_nxt: u64::MAX,
            next_departure: Instant::MAX,
            srtt: Some(Duration::ZERO),
            rate: Some(RateSample {
                delivered: u32::MAX,
                interval_us: 1,
                app_limited: false,
                prior_delivered: u64::MAX,
            }),
        };
        for _ in 0..50 {
            b.on_ack(&mut w, &ev);
            ev.rate = Some(RateSample {
                delivered: 0,
                interval_us: u64::MAX,
                app_limited: true,
                prior_delivered: 0,
            });
            ev.in_recovery = !ev.in_recovery;
            b.on_enter_recovery(
                &mut w,
                &LossEvent {
                    now: Instant::MAX,
                    flight_size: u64::MAX,
                    total_lost: u64::MAX,
                    snd_nxt: u64::MAX,
                },
            );
            b.on_rto(
                &mut w,
                &LossEvent {
                    now: Instant::MAX,
                    flight_size: u64::MAX,
                    total_lost: u64::MAX,
                    snd_nxt: u64::MAX,
                },
                true,
            );
        }
        let _ = b.pacing_rate();
    }

    #[test]
    fn the_send_quantum_is_a_millisecond_of_the_pacing_rate() {
        // At 12.5 MB/s: 12 207 bytes a millisecond, 12 segments of 1000 B; at 1 GB/s the 64 KiB
        // ceiling, 65 segments.
        let mut b = Bbr::new(0);
        b.mss = u64::from(MSS);
        b.pacing_rate = Some(12_500_000);
        assert_eq!(b.tso_segs_goal(), 12);
        b.pacing_rate = Some(1_000_000_000);
        assert_eq!(b.tso_segs_goal(), 65);
        // Slow: one or two segments.
        b.pacing_rate = Some(100_000);
        b.min_rtt_us = Some(100_000);
        assert_eq!(b.tso_segs_goal(), 1);
        assert_eq!(b.quantization_budget(10), 14);
    }

    /// The model's arithmetic is Linux's, to the unit: worked by hand from `tcp_bbr.c`.
    #[test]
    fn the_model_rounds_as_linux_does() {
        // 10 packets over 100 ms: 10 * 2^24 / 100 000 = 1677.72, stored as 1677.
        let bw = Bw::of(10, 100_000);
        assert_eq!(bw, Bw(1677));
        let mut b = Bbr::new(0);
        b.mss = 1448;
        // bbr_rate_bytes_per_sec at unit gain: 1677 * 1448 * 256 >> 8 = 2 428 296, times
        // 990 000, >> 24: 143 290 (where 10 * 1448 / 0.1 s * 0.99 is 143 352).
        assert_eq!(b.rate_bytes_per_sec(bw, BBR_UNIT), 143_290);
        // At the high gain: 1677 * 1448 * 739 >> 8 = 7 009 807; * 990 000 >> 24 = 413 638.
        assert_eq!(b.rate_bytes_per_sec(bw, BBR_HIGH_GAIN), 413_638);
        // bbr_bdp over 100 ms: 1677 * 100 000 = 167 700 000; at gain 2 (512) that is
        // 335 400 000 after the shift, / 2^24 = 19.99, rounded up to 20.
        b.min_rtt_us = Some(100_000);
        assert_eq!(b.bdp(bw, BBR_CWND_GAIN), 20);
        // At unit gain 9.996 rounds up to 10; with no RTT sample, the initial window.
        assert_eq!(b.bdp(bw, BBR_UNIT), 10);
        b.min_rtt_us = None;
        assert_eq!(b.bdp(bw, BBR_CWND_GAIN), TCP_INIT_CWND);
        // The ACK-aggregation cap: 100 ms at the bandwidth, 1677 * 100 000 >> 24 = 9 packets.
        assert_eq!(bw.packets_in(BBR_EXTRA_ACKED_MAX_US), 9);
        // What the charts show: 1677 / 2^24 packets a microsecond of 1448 bytes.
        assert!((bw.bytes_per_sec(1448) - 144_737.0).abs() < 1.0);
    }

    /// `bbr_packets_in_net_at_edt`: what the bandwidth delivers before the pacer's next
    /// departure is not counted as in the network then.
    #[test]
    fn inflight_at_the_next_departure_leaves_out_what_is_delivered_until_then() {
        let mut b = Bbr::new(0);
        b.mss = u64::from(MSS);
        // 100 packets over 100 ms: a packet a millisecond, 16 777 in Linux's units.
        b.bw.update(BBR_BW_RTTS, 0, Bw::of(100, 100_000).0);
        let mut ack = AckEvent::plain(Instant::from_millis(1_000), 1);
        b.pacing_gain = BBR_UNIT;
        assert_eq!(b.in_net_at_edt(50, &ack), 50);
        // The next departure 10.5 ms away: ten packets delivered by then (10 499 us).
        ack.next_departure = ack.now + Duration::from_nanos(10_499_999);
        assert_eq!(b.in_net_at_edt(50, &ack), 40);
        // Probing: the packet leaving then counts (the quantum, one segment below 1.2 Mbit/s).
        b.pacing_gain = BBR_PACING_GAIN[0];
        b.pacing_rate = Some(100_000);
        assert_eq!(b.in_net_at_edt(50, &ack), 41);
        // A departure in the past is now; more delivered than in flight is none.
        ack.next_departure = Instant::from_millis(10);
        assert_eq!(b.in_net_at_edt(50, &ack), 51);
        ack.next_departure = ack.now + Duration::from_secs(1);
        assert_eq!(b.in_net_at_edt(50, &ack), 0);
    }

    /// `bbr_lt_bw_sampling`: two intervals of four rounds that each lose a fifth of what they
    /// deliver, at one rate, are a policer's; BBR paces at that rate, without probing, for 48
    /// rounds, then probes again. Lighter loss never looks like policing.
    #[test]
    fn two_lossy_intervals_at_one_rate_are_taken_for_a_policer_for_48_rounds() {
        let rate = 1_000_000.0; // 100 packets a 100 ms round.
        let lossy_rounds = |f: &mut Flow, n: usize, lost: u32| {
            for _ in 0..n {
                f.losses = lost;
                f.total_lost += u64::from(lost);
                let prior = f.delivered;
                f.ack_with(RTT, 100, rate, prior);
            }
        };
        // A tenth lost: not a policer, however long.
        let mut f = Flow::new(4);
        f.run_into_probe_bw(rate);
        f.in_flight = 100 * PKT;
        lossy_rounds(&mut f, 12, 10);
        assert!(!f.bbr.policed());

        // A quarter lost: the first interval ends at its fourth round (three rounds' losses and
        // deliveries after the loss that began it, 75 of 300 packets), the second four rounds
        // later at the same rate.
        let mut f = Flow::new(4);
        f.run_into_probe_bw(rate);
        f.in_flight = 100 * PKT;
        lossy_rounds(&mut f, 7, 25);
        assert!(!f.bbr.policed());
        lossy_rounds(&mut f, 1, 25);
        assert!(f.bbr.policed());
        // 400 packets over 400 ms, in Linux's units, is what it paces at, with no probing.
        assert_eq!(f.bbr.lt.bw, Bw::of(400, 400_000));
        assert_eq!(f.bbr.pacing_gain(), 1.0);
        let paced = f.bbr.pacing_rate_payload().unwrap_or(0.0);
        assert!((paced - 0.99 * rate).abs() < 1e-3 * rate, "{paced}");
        // Forty-seven more rounds at the policed rate; the 48th probes again.
        lossy_rounds(&mut f, 47, 0);
        assert!(f.bbr.policed());
        assert_eq!(f.bbr.pacing_gain(), 1.0);
        lossy_rounds(&mut f, 1, 0);
        assert!(!f.bbr.policed());
        assert_eq!(f.bbr.mode(), BbrMode::ProbeBw);
    }

    /// `bbr_undo_cwnd`: an undone reduction restarts the full-pipe estimate and leaves the
    /// window as it is.
    #[test]
    fn an_undo_restarts_the_full_pipe_estimate() {
        let mut f = Flow::new(1);
        f.round(RTT, 1e6);
        f.round(RTT, 1e6);
        assert!(f.bbr.full_bw > Bw(0) && f.bbr.full_bw_cnt > 0);
        let cwnd = f.w.cwnd;
        f.bbr.on_undo();
        assert_eq!((f.bbr.full_bw, f.bbr.full_bw_cnt), (Bw(0), 0));
        assert_eq!(f.w.cwnd, cwnd);
    }
}
