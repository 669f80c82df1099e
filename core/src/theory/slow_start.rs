//! Ideal slow start (RFC 5681 with RFC 6928's initial window): the window doubles every round
//! trip, so after `k` round trips `iw * (2^k - 1)` segments have been sent.

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
