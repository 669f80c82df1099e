//! RTT estimation and the retransmission timeout (RFC 6298), with Linux's floor.
//!
//! SRTT and RTTVAR follow RFC 6298 §2 exactly. The timeout is Linux's `tcp_set_rto`:
//! `SRTT + max(4 * RTTVAR, rto_min)`, which puts the 200 ms floor on the variance term rather
//! than on the whole timeout, so a 100 ms path times out after about 300 ms, not 200. Samples
//! come only from data sent once (Karn's rule, RFC 6298 §3): the lab's simplification, since
//! Linux, with timestamps, samples retransmitted data too (`tcp_rtt_tsopt_us`). Each timeout
//! doubles the timer (§5.5) up to Linux's TCP_RTO_MAX of 120 s.

use crate::time::Time;

/// RFC 6298 §2.1 and Linux's TCP_TIMEOUT_INIT: the timeout before any sample.
pub const INITIAL_RTO: Time = Time::from_secs(1);
/// Linux's TCP_RTO_MAX.
pub const MAX_RTO: Time = Time::from_secs(120);

#[derive(Debug, Clone)]
pub struct RttEstimator {
    srtt: Option<Time>,
    rttvar: Time,
    min_rtt: Option<Time>,
    latest: Option<Time>,
    rto_min: Time,
    /// Timeouts in a row since the last valid sample: the timer is doubled this many times.
    backoff: u32,
    /// The timeout to arm, kept up to date as samples and timeouts come: the sender reads it
    /// several times per ACK.
    rto: Time,
}

impl RttEstimator {
    pub fn new(rto_min: Time) -> Self {
        RttEstimator {
            srtt: None,
            rttvar: Time::ZERO,
            min_rtt: None,
            latest: None,
            rto_min,
            backoff: 0,
            rto: INITIAL_RTO,
        }
    }

    /// Feeds one RTT measurement (RFC 6298 §2.2, §2.3). A valid sample also ends any backoff,
    /// as Linux's `tcp_ack_update_rtt` does.
    pub fn sample(&mut self, r: Time) {
        self.latest = Some(r);
        self.min_rtt = Some(self.min_rtt.map_or(r, |m| m.min(r)));
        match self.srtt {
            None => {
                self.srtt = Some(r);
                self.rttvar = Time(r.0 / 2);
            }
            Some(srtt) => {
                let err = srtt.0.abs_diff(r.0);
                // RTTVAR <- 3/4 RTTVAR + 1/4 |SRTT - R'|; SRTT <- 7/8 SRTT + 1/8 R'.
                self.rttvar = Time((3 * self.rttvar.0 + err) / 4);
                self.srtt = Some(Time((7 * srtt.0 + r.0) / 8));
            }
        }
        self.backoff = 0;
        self.rto = self.backed_off_rto();
    }

    /// The timeout before backoff.
    pub fn base_rto(&self) -> Time {
        match self.srtt {
            None => INITIAL_RTO,
            Some(srtt) => (srtt + self.rttvar.saturating_mul(4).max(self.rto_min)).min(MAX_RTO),
        }
    }

    /// The timeout to arm now: the base timeout doubled once per timeout in a row.
    pub fn rto(&self) -> Time {
        self.rto
    }

    fn backed_off_rto(&self) -> Time {
        let factor = 1u64.checked_shl(self.backoff).unwrap_or(u64::MAX);
        self.base_rto().saturating_mul(factor).min(MAX_RTO)
    }

    /// A timeout fired: double the timer (RFC 6298 §5.5).
    pub fn back_off(&mut self) {
        self.backoff = self.backoff.saturating_add(1).min(32);
        self.rto = self.backed_off_rto();
    }

    pub fn backoff(&self) -> u32 {
        self.backoff
    }

    pub fn srtt(&self) -> Option<Time> {
        self.srtt
    }

    pub fn rttvar(&self) -> Time {
        self.rttvar
    }

    pub fn min_rtt(&self) -> Option<Time> {
        self.min_rtt
    }

    pub fn latest(&self) -> Option<Time> {
        self.latest
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    #[test]
    fn before_any_sample_the_timeout_is_one_second() {
        let e = RttEstimator::new(Time(200 * MS));
        assert_eq!(e.rto(), Time::from_secs(1));
    }

    #[test]
    fn the_first_sample_sets_srtt_and_half_of_it_as_rttvar() {
        let mut e = RttEstimator::new(Time(200 * MS));
        e.sample(Time(100 * MS));
        assert_eq!(e.srtt(), Some(Time(100 * MS)));
        assert_eq!(e.rttvar(), Time(50 * MS));
        // 100 + max(4 * 50, 200) ms.
        assert_eq!(e.rto(), Time(300 * MS));
    }

    #[test]
    fn a_steady_path_times_out_after_srtt_plus_the_floor() {
        let mut e = RttEstimator::new(Time(200 * MS));
        for _ in 0..100 {
            e.sample(Time(28 * MS));
        }
        assert_eq!(e.rto(), Time(228 * MS));
    }

    #[test]
    fn later_samples_use_the_rfc_gains() {
        let mut e = RttEstimator::new(Time(MS));
        e.sample(Time(100 * MS));
        e.sample(Time(180 * MS));
        // RTTVAR = 3/4 * 50 + 1/4 * 80 = 57.5; SRTT = 7/8 * 100 + 1/8 * 180 = 110.
        assert_eq!(e.rttvar(), Time(57_500_000));
        assert_eq!(e.srtt(), Some(Time(110 * MS)));
        assert_eq!(e.rto(), Time(340 * MS));
    }

    #[test]
    fn backoff_doubles_up_to_the_cap_and_a_sample_ends_it() {
        let mut e = RttEstimator::new(Time(200 * MS));
        e.sample(Time(100 * MS));
        e.back_off();
        e.back_off();
        assert_eq!(e.rto(), Time(1_200 * MS));
        for _ in 0..20 {
            e.back_off();
        }
        assert_eq!(e.rto(), MAX_RTO);
        e.sample(Time(100 * MS));
        assert_eq!(e.backoff(), 0);
    }
}
