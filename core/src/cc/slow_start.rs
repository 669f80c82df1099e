//! Slow start (RFC 5681 §3.1) in packets, as Linux's `tcp_slow_start`: every packet
//! acknowledged or SACKed adds a packet to the window, so the window doubles each round trip
//! whether the receiver ACKs every segment or every second one (RFC 3465 with L = the whole
//! ACK, as Linux counts it).

use super::Window;

/// Grows `w.cwnd` by `acked` packets, but not past ssthresh. Returns the packets left over once
/// ssthresh is reached, which congestion avoidance then uses (as Linux does).
pub fn slow_start(w: &mut Window, acked: u32) -> u32 {
    let cwnd = w.cwnd.saturating_add(acked).min(w.ssthresh).max(w.cwnd);
    let used = cwnd - w.cwnd;
    w.cwnd = cwnd;
    acked - used.min(acked)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_acked_packet_adds_a_packet() {
        let mut w = Window::new(10, 1460);
        assert_eq!(slow_start(&mut w, 2), 0);
        assert_eq!(w.cwnd, 12);
    }

    #[test]
    fn stops_at_ssthresh_and_returns_the_rest() {
        let mut w = Window {
            ssthresh: 11,
            ..Window::new(10, 1000)
        };
        assert_eq!(slow_start(&mut w, 3), 2);
        assert_eq!(w.cwnd, 11);
    }
}
