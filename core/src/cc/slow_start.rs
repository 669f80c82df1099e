//! Slow start (RFC 5681 §3.1), counting bytes acknowledged as Linux's `tcp_slow_start` counts
//! packets: every acknowledged byte adds a byte to the window, so the window doubles each round
//! trip whether the receiver ACKs every segment or every second one (RFC 3465).

use super::Window;

/// Grows `w.cwnd` by `acked` bytes, but not past ssthresh. Returns the bytes left over once
/// ssthresh is reached, which congestion avoidance then uses (as Linux does).
pub fn slow_start(w: &mut Window, acked: u64) -> u64 {
    let cwnd = w.cwnd.saturating_add(acked).min(w.ssthresh);
    let used = cwnd.saturating_sub(w.cwnd);
    w.cwnd = cwnd.max(w.cwnd);
    acked - used.min(acked)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_acked_byte_adds_a_byte() {
        let mut w = Window {
            cwnd: 14_600,
            ssthresh: u64::MAX,
            mss: 1460,
        };
        assert_eq!(slow_start(&mut w, 2920), 0);
        assert_eq!(w.cwnd, 17_520);
    }

    #[test]
    fn stops_at_ssthresh_and_returns_the_rest() {
        let mut w = Window {
            cwnd: 10_000,
            ssthresh: 11_000,
            mss: 1000,
        };
        assert_eq!(slow_start(&mut w, 3000), 2000);
        assert_eq!(w.cwnd, 11_000);
    }
}
