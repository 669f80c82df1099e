//! RTT estimation and the retransmission timeout as Linux's `tcp_rtt_estimator` and
//! `tcp_set_rto` do them, which refine RFC 6298 in three ways:
//!
//! - The variance term of the timeout is `rttvar`, which tracks the largest mean deviation seen
//!   over the last round trip (`mdev_max`) and never falls below `rto_min` (200 ms): the floor is
//!   on the variance term rather than on the whole timeout, so a 100 ms path times out after
//!   about 300 ms, not 200 (RFC 6298 §2.4 puts a 1 s floor on the whole).
//! - It decays toward that round trip's maximum by a quarter per round trip, not per sample, so
//!   a large window's many samples do not shrink it within one flight.
//! - When an RTT sample is below SRTT the deviation's gain is 1/32 instead of 1/4 (an Eifel-like
//!   rule): a falling RTT does not inflate the timeout.
//!
//! The timer ticks in jiffies (HZ 250 on the machine the lab is measured against), so the
//! timeout rounds up to a whole 4 ms (`usecs_to_jiffies`). Each timeout doubles the timer
//! (RFC 6298 §5.5) up to Linux's TCP_RTO_MAX of 120 s.

use crate::time::Duration;

/// RFC 6298 §2.1 and Linux's TCP_TIMEOUT_INIT: the timeout before any sample.
pub const INITIAL_RTO: Duration = Duration::from_secs(1);
/// Linux's TCP_RTO_MAX.
pub const MAX_RTO: Duration = Duration::from_secs(120);
/// One jiffy at HZ 250: the granularity of Linux's retransmission timer.
pub const JIFFY: Duration = Duration::from_millis(4);

#[derive(Debug, Clone)]
pub struct RttEstimator {
    /// Linux's fixed-point state, in nanoseconds: `srtt_us` is 8 x SRTT; `mdev_us`,
    /// `mdev_max_us` and `rttvar_us` are 4 x deviations, so `rttvar` is the timeout's whole
    /// variance term.
    srtt8: Option<u64>,
    mdev4: u64,
    mdev_max4: u64,
    rttvar4: u64,
    /// Linux's `rtt_seq`: `snd_nxt` when this round of variance tracking began; the round
    /// ends when `snd_una` passes it.
    rtt_seq: u64,
    min_rtt: Option<Duration>,
    latest: Option<Duration>,
    /// Samples taken so far: a trace records each new one.
    samples: u64,
    rto_min: Duration,
    /// Timeouts in a row since the last valid sample: the timer is doubled this many times.
    backoff: u32,
    /// The timeout to arm, kept up to date as samples and timeouts come: the sender reads it
    /// several times per ACK.
    rto: Duration,
}

impl RttEstimator {
    pub fn new(rto_min: Duration) -> Self {
        RttEstimator {
            srtt8: None,
            mdev4: 0,
            mdev_max4: 0,
            rttvar4: 0,
            rtt_seq: 0,
            min_rtt: None,
            latest: None,
            samples: 0,
            rto_min,
            backoff: 0,
            rto: INITIAL_RTO,
        }
    }

    /// Feeds one RTT measurement `r`, taken on an ACK that moved `snd_una` with `snd_nxt` where
    /// it is (`tcp_rtt_estimator`). A valid sample also ends any backoff, as Linux's
    /// `tcp_ack_update_rtt` does.
    #[inline(always)]
    pub fn sample(&mut self, r: Duration, snd_una: u64, snd_nxt: u64) {
        self.latest = Some(r);
        self.samples += 1;
        self.min_rtt = Some(self.min_rtt.map_or(r, |m| m.min(r)));
        let m = r.0.max(1);
        let floor = self.rto_min.0;
        match self.srtt8 {
            None => {
                // The first sample: the timeout is three RTTs, or RTT + rto_min.
                self.srtt8 = Some(m << 3);
                self.mdev4 = m << 1;
                self.rttvar4 = self.mdev4.max(floor);
                self.mdev_max4 = self.rttvar4;
                self.rtt_seq = snd_nxt;
            }
            Some(srtt8) => {
                let srtt = srtt8 >> 3;
                // SRTT <- 7/8 SRTT + 1/8 R.
                self.srtt8 = Some((srtt8 - srtt + m).max(1));
                let quarter = self.mdev4 >> 2;
                let err = srtt.abs_diff(m);
                if m < srtt {
                    // A falling RTT moves the deviation at 1/32 if it would raise it.
                    if err > quarter {
                        self.mdev4 += (err - quarter) >> 3;
                    } else {
                        self.mdev4 -= quarter - err;
                    }
                } else {
                    // mdev <- 3/4 mdev + 1/4 |err|.
                    self.mdev4 = self.mdev4 - quarter + err;
                }
                if self.mdev4 > self.mdev_max4 {
                    self.mdev_max4 = self.mdev4;
                    self.rttvar4 = self.rttvar4.max(self.mdev_max4);
                }
                if snd_una > self.rtt_seq {
                    // A round trip ended: rttvar decays a quarter of the way to its largest
                    // deviation, and the next round's tracking starts from the floor.
                    if self.mdev_max4 < self.rttvar4 {
                        self.rttvar4 -= (self.rttvar4 - self.mdev_max4) >> 2;
                    }
                    self.rtt_seq = snd_nxt;
                    self.mdev_max4 = floor;
                }
            }
        }
        self.backoff = 0;
        self.rto = self.backed_off_rto();
    }

    /// The timeout before backoff (`__tcp_set_rto`, whole jiffies, `tcp_bound_rto`).
    pub fn base_rto(&self) -> Duration {
        match self.srtt8 {
            None => INITIAL_RTO,
            Some(srtt8) => {
                let rto = (srtt8 >> 3) + self.rttvar4;
                Duration(rto.div_ceil(JIFFY.0).saturating_mul(JIFFY.0)).min(MAX_RTO)
            }
        }
    }

    /// The timeout to arm now: the base timeout doubled once per timeout in a row.
    pub fn rto(&self) -> Duration {
        self.rto
    }

    fn backed_off_rto(&self) -> Duration {
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

    pub fn srtt(&self) -> Option<Duration> {
        self.srtt8.map(|s| Duration(s >> 3))
    }

    /// The timeout's variance term, `rttvar_us`: four mean deviations, at least `rto_min`.
    pub fn rttvar(&self) -> Duration {
        Duration(self.rttvar4)
    }

    pub fn min_rtt(&self) -> Option<Duration> {
        self.min_rtt
    }

    pub fn latest(&self) -> Option<Duration> {
        self.latest
    }

    /// How many samples the estimator has taken.
    pub fn samples(&self) -> u64 {
        self.samples
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    #[test]
    fn before_any_sample_the_timeout_is_one_second() {
        let e = RttEstimator::new(Duration(200 * MS));
        assert_eq!(e.rto(), Duration::from_secs(1));
    }

    #[test]
    fn the_first_sample_gives_three_rtts_or_rtt_plus_the_floor() {
        let mut e = RttEstimator::new(Duration(200 * MS));
        e.sample(Duration(100 * MS), 0, 10);
        assert_eq!(e.srtt(), Some(Duration(100 * MS)));
        // 100 + max(2 * 100, 200) ms.
        assert_eq!(e.rttvar(), Duration(200 * MS));
        assert_eq!(e.rto(), Duration(300 * MS));
        let mut e = RttEstimator::new(Duration(200 * MS));
        e.sample(Duration(150 * MS), 0, 10);
        // 450 ms is 112.5 jiffies: the timer fires on the 113th, at 452 ms.
        assert_eq!(e.rto(), Duration(452 * MS));
    }

    #[test]
    fn a_steady_path_times_out_after_srtt_plus_the_floor_in_whole_jiffies() {
        let mut e = RttEstimator::new(Duration(200 * MS));
        for i in 0..100 {
            e.sample(Duration(28 * MS), i * 10, i * 10 + 10);
        }
        assert_eq!(e.rto(), Duration(228 * MS));
        let mut e = RttEstimator::new(Duration(200 * MS));
        for i in 0..100 {
            e.sample(Duration(29 * MS), i * 10, i * 10 + 10);
        }
        // 229 ms rounds up to the next 4 ms tick.
        assert_eq!(e.rto(), Duration(232 * MS));
    }

    #[test]
    fn the_variance_term_decays_once_per_round_trip_not_per_sample() {
        // tcp_rtt_estimator: within a round (snd_una not past rtt_seq) samples never lower
        // rttvar; each round moves it a quarter of the way to that round's largest deviation.
        let mut e = RttEstimator::new(Duration(MS));
        e.sample(Duration(100 * MS), 0, 100);
        assert_eq!(e.rttvar(), Duration(200 * MS));
        for _ in 0..50 {
            e.sample(Duration(100 * MS), 50, 100);
        }
        assert_eq!(e.rttvar(), Duration(200 * MS));
        // The first round ends: its largest deviation was the first sample's, so no decay yet,
        // and the next round's tracking starts from the floor.
        e.sample(Duration(100 * MS), 101, 200);
        assert_eq!(e.rttvar(), Duration(200 * MS));
        // The second round's deviations are all below the 1 ms floor: rttvar loses a quarter
        // of (200 - 1) ms.
        e.sample(Duration(100 * MS), 201, 300);
        assert_eq!(e.rttvar(), Duration(200 * MS - ((199 * MS) >> 2)));
        // RFC 6298 would have brought it to almost nothing after 53 equal samples.
    }

    #[test]
    fn a_falling_rtt_barely_moves_the_deviation() {
        let mut e = RttEstimator::new(Duration(MS));
        e.sample(Duration(100 * MS), 0, 10);
        // mdev4 = 200; a sample 80 below: err - mdev/4 = 30 is taken at 1/8 (1/32 of mdev).
        e.sample(Duration(20 * MS), 0, 10);
        assert_eq!(e.mdev4, 200 * MS + 30 * MS / 8);
        // A rise of 80 at the full gain: mdev4 = 3/4 mdev4 + err.
        let mut f = RttEstimator::new(Duration(MS));
        f.sample(Duration(100 * MS), 0, 10);
        f.sample(Duration(180 * MS), 0, 10);
        assert_eq!(f.mdev4, 150 * MS + 80 * MS);
        assert_eq!(f.srtt(), Some(Duration(110 * MS)));
        assert_eq!(f.rto(), Duration(340 * MS));
    }

    #[test]
    fn backoff_doubles_up_to_the_cap_and_a_sample_ends_it() {
        let mut e = RttEstimator::new(Duration(200 * MS));
        e.sample(Duration(100 * MS), 0, 10);
        e.back_off();
        e.back_off();
        assert_eq!(e.rto(), Duration(1_200 * MS));
        for _ in 0..20 {
            e.back_off();
        }
        assert_eq!(e.rto(), MAX_RTO);
        e.sample(Duration(100 * MS), 10, 20);
        assert_eq!(e.backoff(), 0);
    }
}
