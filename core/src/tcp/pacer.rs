//! The sender's pacer, as Linux paces a connection itself (`SK_PACING_NEEDED`, which BBR asks
//! for): the sender hands the device one GSO packet at a time, a run of segments the size
//! `tcp_tso_autosize` gives (a 1024th of a second at the pacing rate, two segments at least), and
//! the next may leave only once this one's payload has had its time at the pacing rate
//! (`tcp_pacing_check`, `tcp_update_skb_after_send`). A paced sender therefore sends bursts:
//! eight back-to-back segments every 0.96 ms at 100 Mbit/s, as the kernel twin's capture shows
//! (docs/validation.md, "The pacer's bursts").

use crate::time::{Duration, Instant};

/// Linux's `sk_gso_max_size` on a device of the legacy 64 KiB GSO limit: `GSO_LEGACY_MAX_SIZE`
/// less `MAX_TCP_HEADER` (320 bytes on x86-64) and one (`sk_setup_caps`).
pub const GSO_MAX_BYTES: u64 = 65_536 - 1 - 320;

/// Linux's `sk_pacing_shift`: a GSO packet carries about 2^-10 s of the pacing rate.
const PACING_SHIFT: u32 = 10;

/// Linux's `tcp_tso_rtt_log` (9): below a min RTT of 32 × 2^9 us, a GSO packet may also carry
/// `GSO_MAX_BYTES >> (min_rtt_us >> 9)`, so that flows on short paths send fewer, larger ones.
const TSO_RTT_LOG: u32 = 9;

/// Linux's `tcp_min_tso_segs` sysctl: the fewest segments a GSO packet is sized for, unless the
/// congestion control says otherwise (BBR's `min_tso_segs`).
pub const MIN_TSO_SEGS: u32 = 2;

/// Linux does not pace a connection's first ten data segments (`tcp_update_skb_after_send`,
/// after sch_fq's initial quantum).
const UNPACED_SEGS: u64 = 10;

/// Linux's `tcp_tso_autosize` (through `tcp_tso_segs`): how many segments of `mss` bytes one GSO
/// packet carries at `rate` payload bytes a second, on a path whose least RTT is `min_rtt`.
pub fn tso_segs(rate: f64, min_rtt: Option<Duration>, mss: u32, min_segs: u32) -> u32 {
    // `sk_pacing_rate >> sk_pacing_shift`, in whole bytes as the kernel's unsigned long.
    let mut bytes = (rate.max(0.0) as u64) >> PACING_SHIFT;
    // `tcp_min_rtt` is ~0U before any sample: no share of the GSO limit then.
    let r = min_rtt.map_or(u64::MAX, |d| d.as_micros() >> TSO_RTT_LOG);
    if r < 32 {
        bytes += GSO_MAX_BYTES >> r;
    }
    let segs = bytes.min(GSO_MAX_BYTES) / u64::from(mss.max(1));
    u32::try_from(segs).unwrap_or(u32::MAX).max(min_segs)
}

/// One GSO packet while its segments are handed out: a run of contiguous segments of one kind
/// (new data from `tcp_write_xmit`, or a retransmission from `tcp_xmit_retransmit_queue`).
#[derive(Debug, Clone, Copy)]
pub struct Gso {
    /// When it leaves.
    at: Instant,
    retransmit: bool,
    /// The end of its last segment: the next segment joins only if it starts there.
    end: u64,
    segs: u32,
    /// Its payload's time at the pacing rate, so far.
    time: Duration,
}

impl Gso {
    /// Whether a segment `[seq, ...)` of this kind is the next of this GSO packet, which carries
    /// at most `quantum` segments.
    pub fn takes(&self, seq: u64, retransmit: bool, quantum: u32) -> bool {
        self.retransmit == retransmit && self.end == seq && self.segs < quantum
    }
}

/// Linux's `tcp_wstamp_ns`: the earliest the next GSO packet may leave.
#[derive(Debug, Default)]
pub struct Pacer {
    next: Instant,
}

impl Pacer {
    pub fn next(&self) -> Instant {
        self.next
    }

    /// Whether a new GSO packet may leave at `now` (`tcp_pacing_check`).
    pub fn ready(&self, now: Instant) -> bool {
        now >= self.next
    }

    /// Adds a segment of `[seq, end)` taking `time` at the pacing rate to `gso`, or opens a GSO
    /// packet with it.
    pub fn add(
        gso: &mut Option<Gso>,
        now: Instant,
        seq: u64,
        end: u64,
        retransmit: bool,
        time: Duration,
    ) {
        match gso {
            Some(g) => {
                debug_assert!(g.takes(seq, retransmit, u32::MAX));
                g.end = end;
                g.segs += 1;
                g.time += time;
            }
            None => {
                *gso = Some(Gso {
                    at: now,
                    retransmit,
                    end,
                    segs: 1,
                    time,
                })
            }
        }
    }

    /// The GSO packet `gso` has left, the connection's `segs_out` data segments with it: the
    /// next may leave once its payload has had its time, less up to half of that for the time
    /// this one left after it was due (`tcp_update_skb_after_send`: the "credit" for OS jitter,
    /// which is how a pacer that fell behind, as after an idle or window-limited spell,
    /// catches up).
    pub fn sent(&mut self, gso: Gso, segs_out: u64) {
        let prior = self.next;
        self.next = prior.max(gso.at);
        if segs_out >= UNPACED_SEGS {
            let credit = self.next.saturating_duration_since(prior);
            let len = gso.time;
            let forgiven = Duration::from_nanos((len.as_nanos() / 2).min(credit.as_nanos()));
            self.next += Duration::from_nanos(len.as_nanos() - forgiven.as_nanos());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MSS: u32 = 1448;

    #[test]
    fn a_gso_packet_carries_a_1024th_of_a_second_of_the_rate() {
        // 100 Mbit/s at BBR's 1.25 gain and 1 % margin: 15.47 MB/s, 15 107 bytes, 10 segments.
        let rate = 100e6 / 8.0 * 1.25 * 0.99;
        assert_eq!(tso_segs(rate, Some(Duration::from_millis(50)), MSS, 2), 10);
        // The unit gain: 12.38 MB/s, 12 084 bytes, 8 segments, as the kernel's capture shows.
        assert_eq!(
            tso_segs(rate / 1.25, Some(Duration::from_millis(50)), MSS, 2),
            8
        );
        // Slow rates get the floor; 64 KiB less the headers' room is the ceiling.
        assert_eq!(
            tso_segs(100_000.0, Some(Duration::from_millis(50)), MSS, 2),
            2
        );
        assert_eq!(
            tso_segs(100_000.0, Some(Duration::from_millis(50)), MSS, 1),
            1
        );
        assert_eq!(tso_segs(1e12, None, MSS, 2), (GSO_MAX_BYTES / 1448) as u32);
    }

    #[test]
    fn a_short_path_adds_a_share_of_the_gso_limit() {
        let rate = 1e6;
        // 976 bytes of rate alone: the floor.
        assert_eq!(tso_segs(rate, Some(Duration::from_millis(20)), MSS, 2), 2);
        // min RTT 1 ms: 1000 >> 9 = 1, half the limit more: (976 + 32 607) / 1448 = 23.
        assert_eq!(tso_segs(rate, Some(Duration::from_millis(1)), MSS, 2), 23);
        // Under 512 us: the whole limit.
        assert_eq!(
            tso_segs(rate, Some(Duration::from_micros(300)), MSS, 2),
            (GSO_MAX_BYTES / 1448) as u32
        );
    }

    #[test]
    fn the_next_packet_waits_for_this_ones_time_and_the_first_ten_segments_do_not() {
        let mut p = Pacer::default();
        let t = Instant::ZERO + Duration::from_millis(5);
        let mut gso = None;
        for i in 0..8u64 {
            Pacer::add(
                &mut gso,
                t,
                i * 1448,
                (i + 1) * 1448,
                false,
                Duration::from_micros(120),
            );
        }
        let g = gso.take().expect("a packet");
        assert!(
            !g.takes(8 * 1448, true, 10),
            "a retransmission starts its own"
        );
        assert!(!g.takes(8 * 1448, false, 8), "full");
        assert!(g.takes(8 * 1448, false, 9));
        // Eight segments out: not paced yet.
        p.sent(g, 8);
        assert_eq!(p.next(), t);
        // Sixteen: 960 us, none of it forgiven, as this one left on time.
        p.sent(g, 16);
        assert_eq!(p.next(), t + Duration::from_micros(960));
        assert!(!p.ready(t + Duration::from_micros(959)));
        assert!(p.ready(t + Duration::from_micros(960)));
    }

    #[test]
    fn a_late_packet_has_up_to_half_its_time_forgiven() {
        let mut p = Pacer::default();
        let g = |at: Instant| Gso {
            at,
            retransmit: false,
            end: 0,
            segs: 8,
            time: Duration::from_micros(1000),
        };
        let t0 = Instant::ZERO + Duration::from_millis(10);
        // The first ten segments leave unpaced: the pacer is at their departure.
        p.sent(g(t0), 8);
        assert_eq!(p.next(), t0);
        p.sent(g(t0), 16);
        assert_eq!(p.next(), t0 + Duration::from_micros(1000));
        // 200 us late: 200 forgiven.
        let late = t0 + Duration::from_micros(1200);
        p.sent(g(late), 28);
        assert_eq!(p.next(), late + Duration::from_micros(800));
        // Far later (an idle spell): half at most.
        let idle = late + Duration::from_millis(50);
        p.sent(g(idle), 36);
        assert_eq!(p.next(), idle + Duration::from_micros(500));
    }
}
