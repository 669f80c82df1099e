//! Links whose capacity comes as delivery opportunities rather than a rate: a Mahimahi trace
//! (`--link-trace FILE`), or a seeded model of a cellular (`link=lte`) or Wi-Fi (`link=wifi`)
//! link.
//!
//! Mahimahi's format (Netravali et al., "Mahimahi: accurate record-and-replay for HTTP",
//! USENIX ATC 2015): one line per opportunity, the millisecond at which the link can deliver
//! one MTU-sized packet of 1504 bytes; several lines with the same millisecond are several
//! opportunities then; the trace repeats, its last line's millisecond being its period. An
//! opportunity nobody waits for is lost; a packet longer than what one opportunity carries
//! takes the rest from the next, and what it leaves of an opportunity serves the packet behind
//! it at the same instant.

use std::fmt;
use std::sync::Arc;

use crate::player::Language;
use crate::rate::MBytePerS;
use crate::rng::SimRng;
use crate::time::{Duration, Instant};

/// The bytes one opportunity delivers: Mahimahi's `PACKET_SIZE`.
pub const OPPORTUNITY_BYTES: u32 = 1504;

/// The longest trace read: ten million opportunities (a day of an LTE link's measured
/// traces is far less) keep a trace in 80 MB.
pub const MAX_OPPORTUNITIES: usize = 10_000_000;

/// A Mahimahi trace, read and checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkTrace {
    /// Each opportunity's millisecond, ascending; the last is the period.
    ms: Vec<u64>,
}

/// Why a trace file is not a trace: the line at fault and what it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TraceError {
    Empty,
    NotANumber {
        line: usize,
        text: String,
    },
    /// A line holds what no text file does (a NUL, a byte that is not UTF-8): a binary file.
    NotText {
        line: usize,
    },
    Descending {
        line: usize,
        ms: u64,
        before: u64,
    },
    ZeroPeriod,
    TooLong,
}

impl TraceError {
    /// What is wrong, in `lang`.
    pub fn say(&self, lang: Language) -> String {
        match (self, lang) {
            (TraceError::Empty, Language::En) => {
                "the trace has no opportunities (one millisecond a line)".into()
            }
            (TraceError::Empty, Language::Zh) => "轨迹中没有传输机会（应每行一个毫秒数）".into(),
            (TraceError::NotANumber { line, text }, Language::En) => format!(
                "line {line}: {} is not a whole number of milliseconds",
                crate::scenario::shown(text)
            ),
            (TraceError::NotANumber { line, text }, Language::Zh) => format!(
                "第 {line} 行：{} 不是整数毫秒",
                crate::scenario::shown(text)
            ),
            (TraceError::NotText { line }, Language::En) => format!(
                "line {line} is not text: a trace is a plain text file, a millisecond a line"
            ),
            (TraceError::NotText { line }, Language::Zh) => {
                format!("第 {line} 行不是文本：轨迹是纯文本文件，每行一个毫秒数")
            }
            (TraceError::Descending { line, ms, before }, Language::En) => format!(
                "line {line}: {ms} ms comes after {before} ms (the milliseconds must not go back)"
            ),
            (TraceError::Descending { line, ms, before }, Language::Zh) => {
                format!("第 {line} 行：{ms} ms 排在 {before} ms 之后（毫秒数不能倒退）")
            }
            (TraceError::ZeroPeriod, Language::En) => "the trace's last millisecond is 0: a trace \
                that repeats needs a period of at least 1 ms"
                .into(),
            (TraceError::ZeroPeriod, Language::Zh) => {
                "轨迹的最后一个毫秒数是 0：循环使用的轨迹周期至少要 1 ms".into()
            }
            (TraceError::TooLong, Language::En) => {
                format!("the trace has more than {MAX_OPPORTUNITIES} opportunities")
            }
            (TraceError::TooLong, Language::Zh) => {
                format!("轨迹的传输机会超过了 {MAX_OPPORTUNITIES} 个")
            }
        }
    }
}

impl fmt::Display for TraceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.say(Language::En))
    }
}

impl std::error::Error for TraceError {}

impl LinkTrace {
    /// Reads Mahimahi's text: a millisecond a line, blank lines and surrounding spaces
    /// ignored.
    pub fn parse(text: &str) -> Result<LinkTrace, TraceError> {
        let mut ms: Vec<u64> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            // A binary file, read as text, is replacement characters and control bytes: said
            // so, rather than quoted back.
            if line
                .chars()
                .any(|c| c == char::REPLACEMENT_CHARACTER || (c.is_control() && c != '\t'))
            {
                return Err(TraceError::NotText { line: i + 1 });
            }
            let v: u64 = line.parse().map_err(|_| TraceError::NotANumber {
                line: i + 1,
                text: line.to_string(),
            })?;
            if let Some(&before) = ms.last() {
                if v < before {
                    return Err(TraceError::Descending {
                        line: i + 1,
                        ms: v,
                        before,
                    });
                }
            }
            if ms.len() == MAX_OPPORTUNITIES {
                return Err(TraceError::TooLong);
            }
            ms.push(v);
        }
        match ms.last() {
            None => Err(TraceError::Empty),
            Some(0) => Err(TraceError::ZeroPeriod),
            Some(_) => Ok(LinkTrace { ms }),
        }
    }

    /// The trace as Mahimahi writes it.
    pub fn text(&self) -> String {
        let mut out = String::with_capacity(self.ms.len() * 6);
        for m in &self.ms {
            out.push_str(&m.to_string());
            out.push('\n');
        }
        out
    }

    pub fn opportunities(&self) -> usize {
        self.ms.len()
    }

    pub fn period(&self) -> Duration {
        Duration::from_millis(self.ms.last().copied().unwrap_or(1))
    }

    /// The trace's mean rate, bits per second.
    pub fn mean_bits_per_s(&self) -> f64 {
        self.ms.len() as f64 * f64::from(OPPORTUNITY_BYTES) * 8.0 / self.period().as_secs_f64()
    }
}

/// Where a link's opportunities come from.
#[derive(Debug, Clone)]
enum Source {
    Trace {
        trace: Arc<LinkTrace>,
        next: usize,
        lap: u64,
    },
    Lte(Lte),
    Wifi(Wifi),
}

/// A cellular link as Sprout models one (Winstein, Sivaraman and Balakrishnan, "Stochastic
/// forecasts achieve high throughput and low delay over cellular networks", NSDI 2013, §3):
/// packets are delivered as a Poisson process whose rate wanders as Brownian motion. Sprout's
/// rate sticks at 0 in an outage it leaves at 1 a second; here it is reflected at 0 and at
/// twice the mean instead, so that it averages `bw` exactly, and its outages are the stretches
/// it spends near 0. Sprout's volatility, 200 packets/s per √s, was fitted to links averaging
/// about 500 packets/s: σ here is 0.4 of the mean per √s. Each millisecond is split into 128
/// slots, each an opportunity with the chance the rate gives it (a binomial draw close to
/// Poisson), with arithmetic alone so that native and wasm32 runs draw the same link.
#[derive(Debug, Clone)]
struct Lte {
    /// The rate's walk and the slots draw from streams of their own, so that the path the
    /// rate takes follows the seed alone, whatever the slots draw.
    walk_rng: SimRng,
    rng: SimRng,
    /// Packets a millisecond: now, the mean, and σ for one millisecond's step.
    rate: f64,
    mean: f64,
    step: f64,
    /// The millisecond whose slots are being given, and the next slot.
    tick: u64,
    slot: u32,
    /// `(1 - p)^(2^i)` for this millisecond's chance `p` of a slot: 1, 2, 4 ... 128 slots
    /// without an opportunity.
    powers: [f64; LTE_SLOT_BITS],
}

const LTE_SLOTS: u32 = 128;
/// Enough bits to count every slot of a millisecond failing: 2^8 > 128.
const LTE_SLOT_BITS: usize = 8;
/// Mixed into the seed for the slots' stream ("lteslots").
const LTE_SLOT_STREAM: u64 = 0x6c74_6573_6c6f_7473;
/// σ as a share of the mean rate, per √s (Sprout: 200 packets/s per √s at about 500).
const LTE_VOLATILITY: f64 = 0.4;

impl Lte {
    fn new(bits_per_s: f64, seed: u64) -> Lte {
        // At most half the slots on average, so that twice the mean still fits in them.
        let mean = (bits_per_s / (f64::from(OPPORTUNITY_BYTES) * 8.0) / 1000.0)
            .min(f64::from(LTE_SLOTS) / 2.0);
        // √0.001 s: one millisecond of Brownian motion.
        let step = LTE_VOLATILITY * mean * 0.001f64.sqrt();
        let mut lte = Lte {
            walk_rng: SimRng::new(seed),
            rng: SimRng::new(seed ^ LTE_SLOT_STREAM),
            rate: mean,
            mean,
            step,
            tick: 0,
            slot: 0,
            powers: [1.0; LTE_SLOT_BITS],
        };
        lte.set_powers();
        lte
    }

    /// The powers of the chance that a slot is no opportunity, for the rate now.
    fn set_powers(&mut self) {
        let mut pow = 1.0 - self.rate / f64::from(LTE_SLOTS);
        for p in &mut self.powers {
            *p = pow;
            pow *= pow;
        }
    }

    /// A standard normal draw as the sum of twelve uniforms less six (Irwin-Hall): exact
    /// arithmetic, so every platform draws the same. Each uniform is 16 bits of a 64-bit draw,
    /// at the middle of its step (so that its mean is one half): three draws a millisecond
    /// instead of twelve, for a walk that takes a step every millisecond, packets or not.
    fn normal(&mut self) -> f64 {
        const STEP: f64 = 1.0 / 65_536.0;
        // The twelve 16-bit parts summed as integers: the same sum as in floating point,
        // where each term and partial sum has fewer than 53 bits and so is exact.
        let mut steps = 0u64;
        for _ in 0..3 {
            let bits = self.walk_rng.next_u64();
            steps += (bits & 0xffff) + (bits >> 16 & 0xffff) + (bits >> 32 & 0xffff) + (bits >> 48);
        }
        // Each uniform at the middle of its step: half a step more, twelve times.
        (steps as f64 + 6.0) * STEP - 6.0
    }

    /// The rate's step into the next millisecond, reflected into [0, 2 × mean].
    fn walk(&mut self) {
        let top = 2.0 * self.mean;
        let mut r = self.rate + self.step * self.normal();
        if r < 0.0 {
            r = -r;
        }
        if r > top {
            r = 2.0 * top - r;
        }
        self.rate = r.clamp(0.0, top);
        self.set_powers();
    }

    /// The next slot that is an opportunity. The slots of a millisecond are Bernoulli trials
    /// of one chance `p`, so the failures before the next success are geometric: one uniform
    /// `u` decides them all, as the most `k` with `u < (1 - p)^k` (inversion). A millisecond
    /// that ends first takes the next one's chance afresh, as the trials have no memory.
    fn next(&mut self) -> Instant {
        loop {
            if self.slot == LTE_SLOTS {
                self.slot = 0;
                self.tick += 1;
                self.walk();
            }
            let u = self.rng.uniform();
            self.slot += self.failures(u, LTE_SLOTS - self.slot);
            if self.slot < LTE_SLOTS {
                let slot = self.slot;
                self.slot += 1;
                let ns = self.tick * 1_000_000 + u64::from(slot) * 1_000_000 / u64::from(LTE_SLOTS);
                return Instant(ns);
            }
        }
    }

    /// The most `k <= room` with `u < (1 - p)^k`, found bit by bit from the powers
    /// `(1 - p)^(2^i)` of this millisecond: multiplications alone, so that every platform
    /// draws the same.
    fn failures(&self, u: f64, room: u32) -> u32 {
        let mut k = 0;
        let mut below = 1.0;
        for (i, pow) in self.powers.iter().enumerate().rev() {
            let step = 1 << i;
            if k + step <= room && u < below * pow {
                below *= pow;
                k += step;
            }
        }
        k
    }
}

/// A Wi-Fi station's downlink as 802.11n/ac aggregation makes it (IEEE 802.11n-2009: an
/// A-MPDU of up to 64 frames; Linux's mac80211 builds aggregates of up to about 4 ms of
/// airtime, Høiland-Jørgensen et al., "Ending the anomaly", USENIX ATC 2018): the medium is
/// won after a random contention gap (0 to 2 ms, 1 ms on average: DIFS, backoff and the other
/// stations' turns), then a 4 ms aggregate delivers its frames together as its block ACK
/// comes back. The frames an aggregate carries are what keeps the mean at `bw`.
#[derive(Debug, Clone)]
struct Wifi {
    rng: SimRng,
    /// Frames per aggregate, and those of the current one still to give.
    frames: u32,
    left: u32,
    /// When the current aggregate's frames are delivered.
    at: Instant,
    /// When the medium is next contended for.
    free: Instant,
}

const WIFI_AIRTIME: Duration = Duration::from_millis(4);
const WIFI_MEAN_GAP_NS: f64 = 1_000_000.0;

impl Wifi {
    fn new(bits_per_s: f64, seed: u64) -> Wifi {
        let cycle_s = (WIFI_AIRTIME.as_nanos() as f64 + WIFI_MEAN_GAP_NS) / 1e9;
        let frames = (bits_per_s * cycle_s / (f64::from(OPPORTUNITY_BYTES) * 8.0)).round();
        Wifi {
            rng: SimRng::new(seed),
            frames: (frames as u32).max(1),
            left: 0,
            at: Instant::ZERO,
            free: Instant::ZERO,
        }
    }

    fn next(&mut self) -> Instant {
        if self.left == 0 {
            let gap = (self.rng.uniform() * 2.0 * WIFI_MEAN_GAP_NS) as u64;
            self.at = self.free + Duration(gap) + WIFI_AIRTIME;
            self.free = self.at;
            self.left = self.frames;
        }
        self.left -= 1;
        self.at
    }
}

impl Source {
    fn next(&mut self) -> Instant {
        match self {
            Source::Trace { trace, next, lap } => {
                let period = trace.period().as_nanos();
                let ms = trace.ms[*next];
                let t = Instant(*lap * period + ms * 1_000_000);
                *next += 1;
                if *next == trace.ms.len() {
                    *next = 0;
                    *lap += 1;
                }
                t
            }
            Source::Lte(l) => l.next(),
            Source::Wifi(w) => w.next(),
        }
    }
}

/// Which link a scenario's bottleneck is (`link`).
#[derive(Debug, Clone, PartialEq)]
pub enum LinkModel {
    Trace(Arc<LinkTrace>),
    Lte { bits_per_s: f64, seed: u64 },
    Wifi { bits_per_s: f64, seed: u64 },
}

impl LinkModel {
    /// The model's mean rate, bits per second.
    pub fn mean_bits_per_s(&self) -> f64 {
        match self {
            LinkModel::Trace(t) => t.mean_bits_per_s(),
            LinkModel::Lte { bits_per_s, seed } => {
                let l = Lte::new(*bits_per_s, *seed);
                l.mean * 1000.0 * f64::from(OPPORTUNITY_BYTES) * 8.0
            }
            LinkModel::Wifi { bits_per_s, seed } => {
                // What the rounded frames per aggregate give.
                let w = Wifi::new(*bits_per_s, *seed);
                let cycle_s = (WIFI_AIRTIME.as_nanos() as f64 + WIFI_MEAN_GAP_NS) / 1e9;
                f64::from(w.frames) * f64::from(OPPORTUNITY_BYTES) * 8.0 / cycle_s
            }
        }
    }
}

/// What `model` could carry between `from` and `to`, MB/s of payload: every opportunity in that
/// span used, each worth its 1504 bytes less the headers' share of a packet of `payload` bytes
/// in `wire` bytes (as the goodput chart's shading of the link, `view::capacity`).
pub fn payload_between(
    model: &LinkModel,
    from: Instant,
    to: Instant,
    (payload, wire): (u32, u32),
) -> MBytePerS {
    let span = to.saturating_duration_since(from).as_secs_f64();
    if span <= 0.0 {
        return MBytePerS(0.0);
    }
    let mut o = Opportunities::new(model);
    let (mut t, mut count) = (Instant::ZERO, 0u64);
    loop {
        // Each call takes the next opportunity: the run itself went through these.
        let next = o.depart(t, OPPORTUNITY_BYTES);
        if next > to {
            break;
        }
        if next > from {
            count += 1;
        }
        t = next;
    }
    MBytePerS(count as f64 * opportunity_payload(payload, wire) / span / 1e6)
}

/// The payload bytes one opportunity carries for packets of `payload` bytes in `wire` bytes:
/// its 1504 bytes less the headers' share.
pub fn opportunity_payload(payload: u32, wire: u32) -> f64 {
    f64::from(OPPORTUNITY_BYTES) * f64::from(payload) / f64::from(wire.max(1))
}

/// A link's opportunities in order, and the bytes the last one left over.
#[derive(Debug, Clone)]
pub struct Opportunities {
    source: Source,
    /// The next opportunity, drawn but not used.
    ahead: Instant,
    /// Bytes left of the opportunity at `left_at`, for a packet that starts then.
    left: u32,
    left_at: Option<Instant>,
}

impl Opportunities {
    pub fn new(model: &LinkModel) -> Opportunities {
        let mut source = match model {
            LinkModel::Trace(trace) => Source::Trace {
                trace: Arc::clone(trace),
                next: 0,
                lap: 0,
            },
            LinkModel::Lte { bits_per_s, seed } => Source::Lte(Lte::new(*bits_per_s, *seed)),
            LinkModel::Wifi { bits_per_s, seed } => Source::Wifi(Wifi::new(*bits_per_s, *seed)),
        };
        let ahead = source.next();
        Opportunities {
            source,
            ahead,
            left: 0,
            left_at: None,
        }
    }

    /// When a packet of `bytes` that reaches the head of the queue at `start` has been
    /// delivered: at the opportunity that completes it. Starts never go back (the queue is
    /// FIFO).
    pub fn depart(&mut self, start: Instant, bytes: u32) -> Instant {
        // What the opportunity the packet ahead left at this very instant still carries.
        let mut credit = if self.left_at == Some(start) {
            self.left
        } else {
            0
        };
        let mut at = start;
        while credit < bytes {
            // Opportunities before the packet was there went unused.
            while self.ahead < start {
                self.ahead = self.source.next();
            }
            at = self.ahead;
            credit += OPPORTUNITY_BYTES;
            self.ahead = self.source.next();
        }
        self.left = credit - bytes;
        self.left_at = Some(at);
        at
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_lte_links_slots_give_as_many_opportunities_as_its_rate_says() {
        // The rate held still: 0.83 opportunities a millisecond (10 Mbit/s), and 40 (480).
        for bits_per_s in [10e6, 480e6] {
            let mut lte = Lte::new(bits_per_s, 7);
            lte.step = 0.0;
            let ms = 200_000;
            let mut n = 0u64;
            while lte.next() < Instant(ms * 1_000_000) {
                n += 1;
            }
            let expected = lte.mean * ms as f64;
            assert!(
                (n as f64 / expected - 1.0).abs() < 0.01,
                "{bits_per_s}: {n} opportunities, {expected} expected"
            );
        }
    }

    fn trace(text: &str) -> Arc<LinkTrace> {
        Arc::new(LinkTrace::parse(text).unwrap_or_else(|e| panic!("{e}")))
    }

    #[test]
    fn a_trace_reads_as_mahimahi_writes_it_and_says_what_is_wrong() {
        let t = trace("0\n 5\n5\n\n12\n");
        assert_eq!(
            (t.opportunities(), t.period()),
            (4, Duration::from_millis(12))
        );
        assert_eq!(t.text(), "0\n5\n5\n12\n");
        assert_eq!(LinkTrace::parse(&t.text()).as_ref(), Ok(&*t));
        // 4 x 1504 bytes in 12 ms.
        assert!((t.mean_bits_per_s() - 4.0 * 1504.0 * 8.0 / 0.012).abs() < 1e-6);
        let err = |s: &str| LinkTrace::parse(s).map(|_| ()).unwrap_err().to_string();
        assert_eq!(
            err(""),
            "the trace has no opportunities (one millisecond a line)"
        );
        assert_eq!(
            err("1\n2\nx3\n"),
            "line 3: x3 is not a whole number of milliseconds"
        );
        assert_eq!(
            err("4\n3\n"),
            "line 2: 3 ms comes after 4 ms (the milliseconds must not go back)"
        );
        assert!(err("-1").starts_with("line 1:"));
        assert!(err("0\n0").contains("period of at least 1 ms"));
        // A binary file is said to be one, not quoted back.
        let binary = String::from_utf8_lossy(&[b'1', b'\n', 0x89, b'P', b'N', b'G', 0, 7]);
        assert_eq!(
            err(&binary),
            "line 2 is not text: a trace is a plain text file, a millisecond a line"
        );
        // A tab and Windows' line ends are text.
        assert_eq!(
            LinkTrace::parse("1\n2\t\r\n3\r\n").map(|t| t.opportunities()),
            Ok(3)
        );
    }

    #[test]
    fn each_opportunity_carries_one_packet_and_the_trace_repeats() {
        // 1504-byte packets, all queued at 0: each leaves at its opportunity, one for one,
        // and the second lap follows 10 ms later.
        let mut o = Opportunities::new(&LinkModel::Trace(trace("1\n1\n4\n10\n")));
        let mut start = Instant::ZERO;
        let mut out = Vec::new();
        for _ in 0..8 {
            let d = o.depart(start, OPPORTUNITY_BYTES);
            out.push(d.as_nanos() / 1_000_000);
            start = d;
        }
        assert_eq!(out, [1, 1, 4, 10, 11, 11, 14, 20]);
    }

    #[test]
    fn an_opportunity_nobody_waits_for_is_lost_and_leftovers_serve_the_next_packet() {
        let mut o = Opportunities::new(&LinkModel::Trace(trace("1\n2\n3\n4\n5\n100\n")));
        let ms = |t: Instant| t.as_nanos() / 1_000_000;
        // A packet arriving at 2.5 ms finds opportunities 1 and 2 gone.
        let a = o.depart(Instant(2_500_000), 1000);
        assert_eq!(ms(a), 3);
        // The next starts as it leaves: 504 bytes of opportunity 3 and all of 4 carry it.
        let b = o.depart(a, 1000);
        assert_eq!(ms(b), 4);
        // 1008 left of opportunity 4: a 1000-byte packet leaves with it at once.
        assert_eq!(ms(o.depart(b, 1000)), 4);
        // A 1512-byte packet takes the rest of 4 and 1504 more of 5.
        assert_eq!(ms(o.depart(b, 1512)), 5);
    }

    #[test]
    fn the_models_average_their_rate_and_repeat_with_their_seed() {
        for model in [
            LinkModel::Lte {
                bits_per_s: 12e6,
                seed: 3,
            },
            LinkModel::Wifi {
                bits_per_s: 50e6,
                seed: 3,
            },
        ] {
            let mut o = Opportunities::new(&model);
            let mut again = Opportunities::new(&model);
            let mut t = Instant::ZERO;
            let mut n = 0u64;
            // Always a packet waiting, for ten minutes: LTE's rate wanders over its whole
            // range in about 25 s ((2 × mean / σ)²), so a minute's average is still one draw
            // of the walk (0.6 to 1.4 of the mean); ten minutes' is within a fifth of it.
            while t < Instant::from_secs_f64(600.0) {
                let next = o.depart(t, OPPORTUNITY_BYTES);
                assert_eq!(
                    again.depart(t, OPPORTUNITY_BYTES),
                    next,
                    "{model:?}: the same draws"
                );
                t = next;
                n += 1;
            }
            let rate = n as f64 * 1504.0 * 8.0 / t.as_secs_f64();
            let want = model.mean_bits_per_s();
            assert!(
                (rate - want).abs() < 0.2 * want,
                "{model:?}: {rate:.0} bit/s against a mean of {want:.0}"
            );
        }
    }

    #[test]
    fn wifi_delivers_in_bursts_of_an_aggregate() {
        let mut o = Opportunities::new(&LinkModel::Wifi {
            bits_per_s: 30e6,
            seed: 1,
        });
        let mut t = Instant::ZERO;
        let mut at = Vec::new();
        for _ in 0..200 {
            t = o.depart(t, OPPORTUNITY_BYTES);
            at.push(t);
        }
        // 30 Mbit/s over 5 ms cycles: 12 frames an aggregate, delivered together.
        let bursts = at.windows(2).filter(|w| w[1] != w[0]).count() + 1;
        assert_eq!(200usize.div_ceil(12), bursts);
    }
}
