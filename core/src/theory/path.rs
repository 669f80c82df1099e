//! Limits set by the path and the window: the bandwidth-delay product, window/RTT and Mathis.

/// Mathis et al.'s constant for periodic loss with one ACK per segment, C = sqrt(3/2).
pub const MATHIS_C: f64 = 1.224_744_871_391_589;

/// Bandwidth-delay product in bytes: `bw * rtt / 8`.
pub fn bdp_bytes(bw_mbps: f64, rtt_ms: f64) -> f64 {
    bw_mbps * 1e6 * rtt_ms * 1e-3 / 8.0
}

/// Throughput a window allows, in MB/s (10^6 bytes): `window / rtt`.
pub fn window_limit_mbps(window_bytes: f64, rtt_ms: f64) -> f64 {
    window_bytes / (rtt_ms * 1e-3) / 1e6
}

/// The link rate in MB/s (10^6 bytes) of payload and headers.
pub fn link_mbytes_per_s(bw_mbps: f64) -> f64 {
    bw_mbps / 8.0
}

/// Mathis, Semke, Mahdavi and Ott (1997): Reno's throughput under random loss `p` (a fraction),
/// `C * mss / (rtt * sqrt(p))`, in MB/s; `None` without loss, where the formula says nothing.
pub fn mathis_mbps(mss: u32, rtt_ms: f64, p: f64) -> Option<f64> {
    if p <= 0.0 || rtt_ms <= 0.0 {
        return None;
    }
    Some(MATHIS_C * f64::from(mss) / (rtt_ms * 1e-3 * p.sqrt()) / 1e6)
}

/// The link's rate as payload, in MB/s: every full segment pays its header bytes (52 with
/// timestamps, 40 without).
pub fn link_payload_mbps(bw_mbps: f64, mss: u32, ts: bool) -> f64 {
    let mss = f64::from(mss);
    bw_mbps / 8.0 * mss / (mss + f64::from(crate::packet::header_bytes(ts)))
}

/// What a scenario's path and windows allow its connections, in MB/s: the link is shared by all
/// of them, while each has a receive window of its own. The verdict and the sweep's theory both
/// read it, so they judge a run by the same limits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// The link's payload rate.
    pub link: f64,
    /// rwnd/RTT: one connection's window limit.
    pub window_each: f64,
    /// The connections sharing the link (at least one).
    pub conns: f64,
}

impl Limits {
    pub fn of(s: &crate::scenario::Scenario) -> Limits {
        Limits {
            link: link_payload_mbps(s.bw_mbps, s.mss, s.ts),
            window_each: window_limit_mbps(s.rwnd as f64, s.rtt_ms),
            conns: crate::workload::Workload::connections(s).max(1) as f64,
        }
    }

    /// All the connections' windows together.
    pub fn window_all(&self) -> f64 {
        self.window_each * self.conns
    }

    /// What one connection can reach on an ideal path: its share of the link, or its window.
    pub fn each(&self) -> f64 {
        (self.link / self.conns).min(self.window_each)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bdp_of_the_default_path() {
        // 1 Gbit/s over 28 ms: 3.5 MB, as seed 003 says.
        assert!((bdp_bytes(1000.0, 28.0) - 3_500_000.0).abs() < 1e-6);
    }

    #[test]
    fn mathis_matches_seed_000() {
        // Seed 000: MSS 16332, RTT 20 ms, p = 0.1 % gives 31.50 MB/s.
        let m = mathis_mbps(16332, 20.0, 0.001).unwrap_or(0.0);
        assert!((m - 31.6).abs() < 0.2, "{m}");
        assert_eq!(mathis_mbps(1460, 20.0, 0.0), None);
    }

    #[test]
    fn a_4_mib_window_over_20_ms() {
        let w = window_limit_mbps(4_194_304.0, 20.0);
        assert!((w - 209.715_2).abs() < 1e-6);
    }
}
