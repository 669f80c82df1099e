//! Ideal slow start (RFC 5681 with RFC 6928's initial window): the window doubles every round
//! trip, so after `k` round trips `iw * (2^k - 1)` segments have been sent.

use crate::rate::MBytePerS;

/// Segments sent after `rounds` full round trips of ideal slow start from an initial window of
/// `iw` segments: `iw * (2^rounds - 1)`, saturating instead of overflowing.
pub fn segments_after_rounds(iw: u32, rounds: u32) -> u64 {
    let doubling = 1u64.checked_shl(rounds).unwrap_or(u64::MAX);
    u64::from(iw).saturating_mul(doubling.saturating_sub(1))
}

/// The number of round trips of ideal slow start needed to send `segments` segments: the
/// smallest `k` with `iw * (2^k - 1) >= segments`.
pub fn rounds_to_send(iw: u32, segments: u64) -> u32 {
    if iw == 0 {
        return u32::MAX;
    }
    let mut k = 0;
    while segments_after_rounds(iw, k) < segments {
        k += 1;
    }
    k
}

/// Segments needed to carry `bytes` of payload with segments of `mss` bytes.
pub fn segments_for(bytes: u64, mss: u32) -> u64 {
    if mss == 0 {
        return 0;
    }
    bytes.div_ceil(u64::from(mss))
}

/// The time one body needs on an ideal path, in ms: the handshake's round trip, then ideal slow
/// start (doubling each round from `iw`) until the window covers the path's BDP, then the rest at
/// the link's payload rate, and the last byte's one-way trip. No loss, no delayed ACKs.
///
/// `link` is the rate a round's segments leave at (the connection's share of the link); the
/// receiver's window, `window_bytes`, caps what is in flight, so a window under the BDP sends
/// that much a round trip. The cap is not a rate: a round of 443 segments under a 4 MiB window
/// still leaves at the link's rate, not at 4 MiB per round trip.
pub fn ideal_completion_ms(
    iw: u32,
    mss: u32,
    body: u64,
    rtt_ms: f64,
    link: MBytePerS,
    window_bytes: f64,
) -> f64 {
    let segs = segments_for(body, mss);
    let bytes_per_ms = link.0 * 1e3;
    if bytes_per_ms <= 0.0 || rtt_ms < 0.0 {
        return f64::INFINITY;
    }
    if segs == 0 {
        return rtt_ms * 1.5;
    }
    let mss = f64::from(mss.max(1));
    let bdp_segs = (bytes_per_ms * rtt_ms / mss).max(1.0);
    // At least a segment in flight; a window too large to count is no cap.
    let cap = if window_bytes.is_finite() && window_bytes >= 0.0 {
        ((window_bytes / mss).floor() as u64).max(1)
    } else {
        u64::MAX
    };
    // The body's bytes from segment `from` on: the last segment carries what is left.
    let bytes_from = |from: u64| (body as f64 - from as f64 * mss).max(0.0);
    let mut t = rtt_ms;
    let mut sent = 0u64;
    let mut window = u64::from(iw.max(1));
    loop {
        let w = window.min(cap);
        let left = segs - sent;
        if w as f64 >= bdp_segs {
            // The pipe is full: the rest streams at the link rate.
            return t + bytes_from(sent) / bytes_per_ms + rtt_ms / 2.0;
        }
        if w == cap || w >= left {
            // The window grows no more (or need not): `w` segments a round trip to the end.
            let rounds = left.div_ceil(w);
            let last_from = sent + (rounds - 1) * w;
            return t
                + (rounds - 1) as f64 * rtt_ms
                + bytes_from(last_from) / bytes_per_ms
                + rtt_ms / 2.0;
        }
        sent += w;
        t += rtt_ms;
        window = window.saturating_mul(2);
    }
}

/// Ideal slow start's sending rate over time, as steps `(start ms, rate)`: the window doubles
/// each round trip from `iw` until it fills the link. Time 0 is the first data sent.
pub fn ideal_rate_steps(
    iw: u32,
    mss: u32,
    rtt_ms: f64,
    payload: MBytePerS,
    until_ms: f64,
) -> Vec<(f64, MBytePerS)> {
    let mut out = Vec::new();
    if rtt_ms <= 0.0 || payload.0 <= 0.0 {
        return out;
    }
    let mut window = f64::from(iw.max(1)) * f64::from(mss);
    let mut t = 0.0;
    while t <= until_ms && out.len() < 64 {
        let rate = MBytePerS::of(window, rtt_ms * 1e-3).min(payload);
        out.push((t, rate));
        if rate >= payload {
            break;
        }
        t += rtt_ms;
        window *= 2.0;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iw10_matches_the_seed_posts_table() {
        // Seed 003: 10 * (2^k - 1) after k round trips.
        assert_eq!(segments_after_rounds(10, 0), 0);
        assert_eq!(segments_after_rounds(10, 1), 10);
        assert_eq!(segments_after_rounds(10, 7), 1270);
        assert_eq!(segments_after_rounds(10, 8), 2550);
    }

    #[test]
    fn a_2_5_mb_body_needs_eight_rounds_with_iw10() {
        let segs = segments_for(2_499_986, 1460);
        assert_eq!(segs, 1713);
        assert_eq!(rounds_to_send(10, segs), 8);
        assert_eq!(rounds_to_send(1, 1), 1);
        assert_eq!(rounds_to_send(4, 0), 0);
    }

    #[test]
    fn huge_rounds_saturate() {
        assert_eq!(segments_after_rounds(1000, 200), u64::MAX);
    }
}

#[cfg(test)]
mod ideal_tests {
    use super::*;

    #[test]
    fn seed_003s_post_needs_eight_and_a_half_rtts_on_an_ideal_path() {
        // 1713 segments: rounds of 10..640 (1270 after 7), the 8th carries the rest; the last
        // byte lands half an RTT after it leaves. The link (120.7 MB/s) adds the 8th round's
        // 443 segments' serialisation, 5.4 ms.
        let t = ideal_completion_ms(10, 1460, 2_499_986, 31.537, MBytePerS(120.7), f64::INFINITY);
        let expected = 31.537 * 8.5 + 443.0 * 1460.0 / 120_700.0;
        assert!((t - expected).abs() < 0.01, "{t} vs {expected}");
    }

    #[test]
    fn a_long_body_streams_at_the_link_rate_once_the_pipe_is_full() {
        // 100 MB over a 1 MB BDP: the streaming time dominates.
        let t = ideal_completion_ms(10, 1000, 100_000_000, 10.0, MBytePerS(100.0), f64::INFINITY);
        assert!(t > 1000.0 && t < 1100.0, "{t}");
    }

    #[test]
    fn a_window_far_above_the_last_round_does_not_slow_it() {
        // rtt=466 at 1 Gbit/s with the 4 MiB default window: the 8th round's 443 segments leave
        // at the link's rate (121.6 MB/s), not at 4 MiB a round trip (9 MB/s, 72 ms).
        let t = ideal_completion_ms(10, 1460, 2_500_000, 466.0, MBytePerS(121.6), 4_194_304.0);
        let expected = 466.0 * 8.5 + 443.0 * 1460.0 / 121_600.0;
        assert!((t - expected).abs() < 0.01, "{t} vs {expected}");
    }

    #[test]
    fn a_window_under_the_bdp_sends_that_much_a_round_trip() {
        // 64 KiB: 44 segments of 1 460 B. Rounds of 10, 20, 40, then 44 a round trip; 1 000
        // segments: 70 after three rounds, 930 more in 22 rounds (21 full, the last of 6).
        let t = ideal_completion_ms(10, 1460, 1_460_000, 100.0, MBytePerS(100.0), 65_536.0);
        let expected = 100.0 + 3.0 * 100.0 + 21.0 * 100.0 + 6.0 * 1460.0 / 100_000.0 + 50.0;
        assert!((t - expected).abs() < 0.01, "{t} vs {expected}");
    }

    #[test]
    fn the_rate_doubles_each_round_until_the_link() {
        let steps = ideal_rate_steps(10, 1000, 100.0, MBytePerS(1.0), 10_000.0);
        assert_eq!(steps[0], (0.0, MBytePerS(0.1)));
        assert_eq!(steps[1], (100.0, MBytePerS(0.2)));
        assert_eq!(steps.last().map(|s| s.1), Some(MBytePerS(1.0)));
    }
}
