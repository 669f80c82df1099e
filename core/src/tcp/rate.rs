//! Delivery-rate estimation, as Linux's `tcp_rate.c` (draft-cheng-iccrg-delivery-rate-estimation):
//! each segment remembers how much had been delivered when it was sent; when it is delivered,
//! the difference over the elapsed time is a sample of the path's rate. As in Linux, what is
//! delivered is counted in packets (`tp->delivered`) and the times in whole microseconds.

use crate::cc::RateSample;
use crate::time::{Duration, Instant};

use super::scoreboard::TxSnapshot;

#[derive(Debug, Default, Clone)]
pub struct RateEstimator {
    /// Packets delivered (cumulatively ACKed or SACKed) so far: Linux's `tp->delivered`.
    delivered: u64,
    delivered_time: Instant,
    first_tx_time: Instant,
    /// Nonzero while the sender is application-limited: the delivered count at which that ends.
    app_limited_until: u64,
}

impl RateEstimator {
    /// Packets delivered so far (Linux's `tp->delivered`).
    pub fn delivered(&self) -> u64 {
        self.delivered
    }

    /// The snapshot to store with a segment sent at `now` (`tcp_rate_skb_sent`). With nothing
    /// in flight the clocks restart, so idle time is not counted as delivery time.
    pub fn on_send(&mut self, now: Instant, nothing_in_flight: bool) -> TxSnapshot {
        if nothing_in_flight {
            self.first_tx_time = now;
            self.delivered_time = now;
        }
        TxSnapshot {
            delivered: self.delivered,
            delivered_time: self.delivered_time,
            first_tx_time: self.first_tx_time,
            app_limited: self.app_limited_until != 0,
        }
    }

    /// The sender ran out of data with room in the window, `in_flight` packets out
    /// (`tcp_rate_check_app_limited`).
    pub fn mark_app_limited(&mut self, in_flight: u32) {
        self.app_limited_until = (self.delivered + u64::from(in_flight)).max(1);
    }

    /// An ACK delivered `newly` packets, for a sender that takes no samples: the count alone.
    pub fn count_delivered(&mut self, newly: u32) {
        self.delivered += u64::from(newly);
    }

    /// An ACK delivered `newly` packets; `latest` is the snapshot and send time of the most
    /// recently sent of them (`tcp_rate_skb_delivered` and `tcp_rate_gen`).
    pub fn on_delivered(
        &mut self,
        now: Instant,
        newly: u32,
        latest: Option<(Instant, TxSnapshot)>,
        min_rtt: Option<Duration>,
    ) -> Option<RateSample> {
        if newly == 0 {
            return None;
        }
        self.delivered += u64::from(newly);
        if self.app_limited_until != 0 && self.delivered > self.app_limited_until {
            self.app_limited_until = 0;
        }
        let (sent_at, tx) = latest?;
        let send_us = sent_at
            .as_micros()
            .saturating_sub(tx.first_tx_time.as_micros());
        self.first_tx_time = sent_at;
        let ack_us = now
            .as_micros()
            .saturating_sub(tx.delivered_time.as_micros());
        self.delivered_time = now;
        let interval_us = send_us.max(ack_us);
        // A sample over less than the minimum RTT would come from ACK compression: Linux drops
        // it (`rs->interval_us < tcp_min_rtt(tp)`), as it does one of no time at all.
        let min_rtt_us = min_rtt.map_or(0, Duration::as_micros);
        if interval_us == 0 || interval_us < min_rtt_us {
            return None;
        }
        Some(RateSample {
            delivered: u32::try_from(self.delivered - tx.delivered).unwrap_or(u32::MAX),
            interval_us,
            app_limited: tx.app_limited,
            prior_delivered: tx.delivered,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_delivered_over_one_rtt_samples_the_rate() {
        let mut r = RateEstimator::default();
        let rtt = Duration::from_millis(100);
        // Ten segments sent back to back at t = 0.
        let snap = r.on_send(Instant::ZERO, true);
        let s = r
            .on_delivered(
                Instant::ZERO + rtt,
                10,
                Some((Instant::ZERO, snap)),
                Some(rtt),
            )
            .expect("sample");
        assert_eq!(s.delivered, 10);
        assert_eq!(s.interval_us, 100_000);
        assert_eq!(s.prior_delivered, 0);
    }

    #[test]
    fn the_interval_is_the_difference_of_whole_microsecond_stamps() {
        // Sent at 0.9 us, its window's clocks at 0.9 us, delivered at 1000.1 us: Linux's stamps
        // are 0 and 1000 us, so the interval is 1000 us, not 999.2.
        let mut r = RateEstimator::default();
        let sent = Instant::from_nanos(900);
        let snap = r.on_send(sent, true);
        let s = r
            .on_delivered(Instant::from_nanos(1_000_100), 1, Some((sent, snap)), None)
            .expect("sample");
        assert_eq!(s.interval_us, 1_000);
        // Delivered within the same microsecond it was sent: no time, no sample.
        let snap = r.on_send(Instant::from_nanos(2_000_100), true);
        let sample = r.on_delivered(
            Instant::from_nanos(2_000_900),
            1,
            Some((Instant::from_nanos(2_000_100), snap)),
            None,
        );
        assert_eq!(sample, None);
    }

    #[test]
    fn application_limited_samples_are_flagged_until_the_mark_is_passed() {
        let mut r = RateEstimator::default();
        r.mark_app_limited(5);
        let snap = r.on_send(Instant::ZERO, true);
        assert!(snap.app_limited);
        r.on_delivered(
            Instant::from_millis(10),
            6,
            Some((Instant::ZERO, snap)),
            None,
        );
        assert!(!r.on_send(Instant::from_millis(10), true).app_limited);
    }
}
