//! HyStart, as Linux's CUBIC runs it (`tcp_cubic.c`, after Ha and Rhee 2011): leave slow start
//! before the first loss when a round's ACKs arrive as a train longer than half the minimum RTT
//! (the pipe is about full), or when the round's RTT has grown past the minimum by a margin
//! (a queue is building).

use crate::time::{Duration, Instant};

/// Linux's `hystart_low_window`: below 16 segments slow start is left alone (its rounds
/// still counted).
pub const LOW_WINDOW_SEGMENTS: u32 = 16;
/// Linux's `hystart_ack_delta_us`: ACKs closer than this belong to one train.
pub const ACK_DELTA: Duration = Duration(2_000_000);
/// Linux's HYSTART_MIN_SAMPLES: RTT samples a round takes before its delay is judged.
pub const MIN_SAMPLES: u32 = 8;
/// Linux's HYSTART_DELAY_MIN and HYSTART_DELAY_MAX: the clamp on the delay threshold.
pub const DELAY_MIN: Duration = Duration(4_000_000);
pub const DELAY_MAX: Duration = Duration(16_000_000);

/// Why HyStart ended slow start.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HyStartExit {
    AckTrain,
    DelayIncrease,
}

#[derive(Debug, Clone, Default)]
pub struct HyStart {
    found: Option<HyStartExit>,
    end_seq: u64,
    round_start: Instant,
    last_ack: Instant,
    curr_rtt: Option<Duration>,
    sample_cnt: u32,
}

impl HyStart {
    pub fn found(&self) -> Option<HyStartExit> {
        self.found
    }

    /// A round from `now` until what was sent by `snd_nxt` is acknowledged
    /// (`bictcp_hystart_reset`).
    pub fn start_round(&mut self, now: Instant, snd_nxt: u64) {
        self.round_start = now;
        self.last_ack = now;
        self.end_seq = snd_nxt;
        self.curr_rtt = None;
        self.sample_cnt = 0;
    }

    /// One ACK with an RTT sample during slow start (Linux `hystart_update`), the window
    /// `cwnd` segments. `delay_min` is the lowest RTT seen; `ack_delay` Linux's allowance for
    /// ACKs bunched by offloads. Returns the exit the first time one is found.
    #[allow(clippy::too_many_arguments)]
    pub fn on_ack(
        &mut self,
        now: Instant,
        snd_una: u64,
        snd_nxt: u64,
        cwnd: u32,
        rtt: Duration,
        delay_min: Duration,
        ack_delay: Duration,
    ) -> Option<HyStartExit> {
        if self.found.is_some() {
            return None;
        }
        if snd_una > self.end_seq {
            self.start_round(now, snd_nxt);
        }
        // Linux since 6.13 ("tcp_cubic: fix incorrect HyStart round start detection"): the
        // rounds are counted from the first ACK, below the low window too, so that each starts
        // with the first ACK of a flight. Counted only from 16 segments, a round began in the
        // middle of one, and the idle gap before the next broke its ACK train: a 20 Mbit/s,
        // 40 ms path left slow start a round late, at twice the window.
        if cwnd < LOW_WINDOW_SEGMENTS {
            return None;
        }
        if now.saturating_duration_since(self.last_ack) <= ACK_DELTA {
            self.last_ack = now;
            // Unpaced, the train may end at half the minimum RTT.
            let threshold = (delay_min + ack_delay) / 2;
            if now.saturating_duration_since(self.round_start) > threshold {
                self.found = Some(HyStartExit::AckTrain);
                return self.found;
            }
        }
        // Linux since 2020 ("tcp_cubic: fix spurious HYSTART_DELAY exit upon drop in min RTT"):
        // the round's minimum takes every sample, and is judged once MIN_SAMPLES are in.
        self.curr_rtt = Some(self.curr_rtt.map_or(rtt, |c| c.min(rtt)));
        if self.sample_cnt < MIN_SAMPLES {
            self.sample_cnt += 1;
        } else if let Some(curr) = self.curr_rtt {
            let margin = (delay_min / 8).max(DELAY_MIN).min(DELAY_MAX);
            if curr > delay_min + margin {
                self.found = Some(HyStartExit::DelayIncrease);
                return self.found;
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1_000_000;

    #[test]
    fn a_train_longer_than_half_the_min_rtt_ends_slow_start() {
        let mut h = HyStart::default();
        let rtt = Duration(20 * MS);
        // ACKs every 0.5 ms from t = 100 ms: the train passes 10 ms after 20 ACKs.
        let mut exit = None;
        let mut n = 0;
        while exit.is_none() && n < 100 {
            let now = Instant(100 * MS + n * MS / 2);
            exit = h.on_ack(now, 1000 + n, 1_000_000, 100, rtt, rtt, Duration::ZERO);
            n += 1;
        }
        assert_eq!(exit, Some(HyStartExit::AckTrain));
        assert_eq!(n, 22);
    }

    #[test]
    fn a_growing_rtt_ends_slow_start() {
        let mut h = HyStart::default();
        let base = Duration(100 * MS);
        let mut exit = None;
        // ACKs 5 ms apart (no train) whose RTT is 20 ms above the minimum.
        for n in 0..20u64 {
            exit = exit.or(h.on_ack(
                Instant(n * 5 * MS),
                1 + n,
                1_000,
                100,
                Duration(120 * MS),
                base,
                Duration::ZERO,
            ));
        }
        assert_eq!(exit, Some(HyStartExit::DelayIncrease));
    }

    #[test]
    fn a_lower_rtt_after_the_first_samples_is_not_a_delay_increase() {
        let mut h = HyStart::default();
        let base = Duration(100 * MS);
        // Eight samples 15 ms above the minimum (past its 12.5 ms margin), then the path's
        // minimum again: the round's minimum follows it down, so slow start goes on.
        for n in 0..20u64 {
            let rtt = if n < 8 { Duration(115 * MS) } else { base };
            let exit = h.on_ack(
                Instant(n * 5 * MS),
                1 + n,
                1_000,
                100,
                rtt,
                base,
                Duration::ZERO,
            );
            assert_eq!(exit, None, "sample {n}");
        }
    }

    #[test]
    fn a_steady_rtt_and_sparse_acks_leave_slow_start_alone() {
        let mut h = HyStart::default();
        let base = Duration(100 * MS);
        for n in 0..50u64 {
            assert_eq!(
                h.on_ack(
                    Instant(n * 5 * MS),
                    1 + n,
                    1_000,
                    100,
                    Duration(101 * MS),
                    base,
                    Duration::ZERO
                ),
                None
            );
        }
    }

    /// Linux 6.13's round start: rounds are counted from the first ACK, below the low window
    /// too, so each flight's ACKs make a round of their own and its train is judged whole.
    /// (Counted from 16 segments, the round below began in the middle of the first flight,
    /// the second flight's first ACKs ran on in it after the gap, and its train was judged
    /// only from its thirteenth ACK: too short to end slow start.) In segments: ten sent
    /// before the first flight, each ACK covering one and releasing two.
    #[test]
    fn rounds_are_counted_below_the_low_window() {
        let rtt = Duration(20 * MS);
        let mut h = HyStart::default();
        for n in 0..10u64 {
            let now = Instant(100 * MS + n * MS);
            let exit = h.on_ack(
                now,
                2 + n,
                11 + 2 * n,
                10 + n as u32,
                rtt,
                rtt,
                Duration::ZERO,
            );
            assert_eq!(exit, None, "first flight, ACK {n}");
        }
        // The second flight, 30 ms on: its ACKs 1 ms apart pass half the RTT at the twelfth.
        let mut exit = None;
        let mut m = 0u64;
        while exit.is_none() && m < 20 {
            let now = Instant(140 * MS + m * MS);
            exit = h.on_ack(
                now,
                12 + m,
                31 + 2 * m,
                20 + m as u32,
                rtt,
                rtt,
                Duration::ZERO,
            );
            m += 1;
        }
        assert_eq!(exit, Some(HyStartExit::AckTrain));
        assert_eq!(m, 12);
    }
}
