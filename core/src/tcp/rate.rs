//! Delivery-rate estimation, as Linux's `tcp_rate.c` (draft-cheng-iccrg-delivery-rate-estimation):
//! each segment remembers how much had been delivered when it was sent; when it is delivered,
//! the difference over the elapsed time is a sample of the path's rate.

use crate::cc::RateSample;
use crate::time::{Duration, Instant};

use super::scoreboard::TxSnapshot;

#[derive(Debug, Default, Clone)]
pub struct RateEstimator {
    /// Bytes delivered (cumulatively ACKed or SACKed) so far.
    delivered: u64,
    delivered_time: Instant,
    first_tx_time: Instant,
    /// Nonzero while the sender is application-limited: the delivered count at which that ends.
    app_limited_until: u64,
}

impl RateEstimator {
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

    /// The sender ran out of data with room in the window (`tcp_rate_check_app_limited`).
    pub fn mark_app_limited(&mut self, in_flight: u64) {
        self.app_limited_until = (self.delivered + in_flight).max(1);
    }

    /// An ACK delivered `newly` bytes; `latest` is the snapshot and send time of the most
    /// recently sent of them (`tcp_rate_skb_delivered` and `tcp_rate_gen`).
    pub fn on_delivered(
        &mut self,
        now: Instant,
        newly: u64,
        latest: Option<(Instant, TxSnapshot)>,
        min_rtt: Option<Duration>,
    ) -> Option<RateSample> {
        if newly == 0 {
            return None;
        }
        self.delivered += newly;
        if self.app_limited_until != 0 && self.delivered > self.app_limited_until {
            self.app_limited_until = 0;
        }
        let (sent_at, tx) = latest?;
        let send_interval = sent_at.saturating_duration_since(tx.first_tx_time);
        self.first_tx_time = sent_at;
        let ack_interval = now.saturating_duration_since(tx.delivered_time);
        self.delivered_time = now;
        let interval = send_interval.max(ack_interval);
        // A sample over less than the minimum RTT would come from ACK compression: Linux drops it.
        if interval == Duration::ZERO || min_rtt.is_some_and(|m| interval < m) {
            return None;
        }
        Some(RateSample {
            delivered: self.delivered - tx.delivered,
            interval,
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
        // Ten segments of 1000 bytes sent back to back at t = 0.
        let snap = r.on_send(Instant::ZERO, true);
        let s = r
            .on_delivered(
                Instant::ZERO + rtt,
                10_000,
                Some((Instant::ZERO, snap)),
                Some(rtt),
            )
            .expect("sample");
        assert_eq!(s.delivered, 10_000);
        assert_eq!(s.interval, rtt);
        assert_eq!(s.rate(), Some(100_000.0));
    }

    #[test]
    fn application_limited_samples_are_flagged_until_the_mark_is_passed() {
        let mut r = RateEstimator::default();
        r.mark_app_limited(5_000);
        let snap = r.on_send(Instant::ZERO, true);
        assert!(snap.app_limited);
        r.on_delivered(
            Instant::from_millis(10),
            6_000,
            Some((Instant::ZERO, snap)),
            None,
        );
        assert!(!r.on_send(Instant::from_millis(10), true).app_limited);
    }
}
