//! Limits set by the path and the window: the bandwidth-delay product, window/RTT and Mathis.

use crate::rate::{MBytePerS, MbitPerS};

/// Mathis et al.'s constant for periodic loss with one ACK per segment, C = sqrt(3/2).
pub const MATHIS_C: f64 = 1.224_744_871_391_589;

/// Bandwidth-delay product in bytes: `bw * rtt`.
pub fn bdp_bytes(bw: MbitPerS, rtt_ms: f64) -> f64 {
    bw.bytes().0 * 1e6 * rtt_ms * 1e-3
}

/// Throughput a window allows: `window / rtt`.
pub fn window_limit(window_bytes: f64, rtt_ms: f64) -> MBytePerS {
    MBytePerS::of(window_bytes, rtt_ms * 1e-3)
}

/// Mathis, Semke, Mahdavi and Ott (1997): Reno's throughput under random loss `p` (a fraction),
/// `C * mss / (rtt * sqrt(p))`; `None` without loss, where the formula says nothing.
pub fn mathis(mss: u32, rtt_ms: f64, p: f64) -> Option<MBytePerS> {
    if p <= 0.0 || rtt_ms <= 0.0 {
        return None;
    }
    Some(MBytePerS::of(
        MATHIS_C * f64::from(mss),
        rtt_ms * 1e-3 * p.sqrt(),
    ))
}

/// The link's rate as payload: every full segment pays its header bytes (52 with timestamps,
/// 40 without).
pub fn link_payload(bw: MbitPerS, mss: u32, ts: bool) -> MBytePerS {
    let mss = f64::from(mss);
    bw.bytes() * (mss / (mss + f64::from(crate::packet::header_bytes(ts))))
}

/// A full-sized packet's time on the link, ms: what one packet waiting adds to the next one's
/// delay.
pub fn packet_ms(bw: MbitPerS, mss: u32, ts: bool) -> f64 {
    let bytes = f64::from(mss) + f64::from(crate::packet::header_bytes(ts));
    bytes * 8.0 / (bw.0 * 1e6) * 1e3
}

/// What a scenario's path and windows allow its connections: the link is shared by all
/// of them, while each has a receive window of its own. The verdict and the sweep's theory both
/// read it, so they judge a run by the same limits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// The link's payload rate.
    pub link: MBytePerS,
    /// rwnd/RTT: one connection's window limit.
    pub window_each: MBytePerS,
    /// The connections sharing the link (at least one).
    pub conns: f64,
}

impl Limits {
    pub fn of(s: &crate::scenario::Scenario) -> Limits {
        Limits {
            link: link_payload(MbitPerS(mean_rate_mbps(s)), s.mss, s.ts),
            window_each: window_limit(s.rwnd as f64, s.rtt_ms),
            conns: crate::workload::Workload::connections(s).max(1) as f64,
        }
    }

    /// All the connections' windows together.
    pub fn window_all(&self) -> MBytePerS {
        self.window_each * self.conns
    }

    /// One connection's share of the link: the rate its segments leave at.
    pub fn share(&self) -> MBytePerS {
        self.link / self.conns
    }
}

/// The bottleneck's rate over the run: `bw`, or with a schedule the mean of its rates over
/// `dur`, each for as long as it held; a link of opportunities' mean otherwise.
pub fn mean_rate_mbps(s: &crate::scenario::Scenario) -> f64 {
    use crate::scenario::sched::Setting;
    if let Some(m) = s.link_model() {
        return m.mean_bits_per_s() / 1e6;
    }
    let mut rate = s.bw_mbps;
    let (mut from, mut sum) = (0.0, 0.0);
    for c in &s.sched {
        if let Setting::Bw(mbps) = c.setting {
            let at = c.at_s.min(s.dur_s);
            sum += rate * (at - from);
            (from, rate) = (at, mbps);
        }
    }
    if s.dur_s <= 0.0 || from == 0.0 && sum == 0.0 {
        return rate;
    }
    (sum + rate * (s.dur_s - from)) / s.dur_s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_scheduled_rate_counts_for_as_long_as_it_holds() {
        let s = |q: &str| crate::scenario::Scenario::parse(q).unwrap_or_default();
        assert_eq!(mean_rate_mbps(&s("bw=100&dur=20&sched=10:bw:10")), 55.0);
        assert_eq!(mean_rate_mbps(&s("bw=100&dur=20&sched=0:bw:10")), 10.0);
        assert_eq!(mean_rate_mbps(&s("bw=100&dur=5&sched=10:bw:10")), 100.0);
        assert_eq!(mean_rate_mbps(&s("bw=40")), 40.0);
    }

    #[test]
    fn bdp_of_the_default_path() {
        // 1 Gbit/s over 28 ms: 3.5 MB, as seed 003 says.
        assert!((bdp_bytes(MbitPerS(1000.0), 28.0) - 3_500_000.0).abs() < 1e-6);
    }

    #[test]
    fn mathis_matches_seed_000() {
        // Seed 000: MSS 16332, RTT 20 ms, p = 0.1 % gives 31.50 MB/s.
        let m = mathis(16332, 20.0, 0.001).map_or(0.0, |m| m.0);
        assert!((m - 31.6).abs() < 0.2, "{m}");
        assert_eq!(mathis(1460, 20.0, 0.0), None);
    }

    #[test]
    fn a_4_mib_window_over_20_ms() {
        let w = window_limit(4_194_304.0, 20.0).0;
        assert!((w - 209.715_2).abs() < 1e-6);
    }
}
