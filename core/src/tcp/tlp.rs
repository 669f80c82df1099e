//! Tail loss probe (RFC 8985 §7, Linux `tcp_schedule_loss_probe` and `tcp_send_loss_probe`):
//! when the ACKs stop while data is outstanding, send one segment after about two RTTs instead
//! of waiting for the retransmission timeout, so a loss at the tail of a burst draws the ACKs
//! that fast recovery needs.

use crate::time::Duration;

/// Linux's TCP_TIMEOUT_MIN, added to two SRTTs when more than one segment is out.
pub const TIMEOUT_MIN: Duration = Duration::from_millis(2);

/// The probe timeout for `srtt` with `segments_out` outstanding, not past the RTO deadline.
/// With a single segment out the receiver may be holding its ACK back (RFC 8985's WCDelAckT),
/// and Linux allows for it with its minimum RTO, `rto_min` (`tcp_rto_min` in
/// `tcp_schedule_loss_probe`; 200 ms unless set, as the `minrto` key sets it here).
pub fn probe_timeout(
    srtt: Option<Duration>,
    segments_out: usize,
    rto_left: Duration,
    rto_min: Duration,
) -> Duration {
    let pto = match srtt {
        Some(srtt) => {
            let extra = if segments_out == 1 {
                rto_min
            } else {
                TIMEOUT_MIN
            };
            srtt.saturating_mul(2) + extra
        }
        None => Duration::from_secs(1),
    };
    pto.min(rto_left)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_rtts_or_the_rto_whichever_is_first() {
        let srtt = Some(Duration::from_millis(100));
        let rto_min = Duration::from_millis(200);
        assert_eq!(
            probe_timeout(srtt, 10, Duration::from_secs(1), rto_min),
            Duration::from_millis(202)
        );
        assert_eq!(
            probe_timeout(srtt, 1, Duration::from_secs(1), rto_min),
            Duration::from_millis(400)
        );
        assert_eq!(
            probe_timeout(srtt, 1, Duration::from_millis(300), rto_min),
            Duration::from_millis(300)
        );
        // A lower minimum RTO shortens the single segment's allowance with it.
        assert_eq!(
            probe_timeout(srtt, 1, Duration::from_secs(1), Duration::from_millis(20)),
            Duration::from_millis(220)
        );
    }
}
