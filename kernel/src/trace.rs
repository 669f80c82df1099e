//! The kernel's window trace, from the sender's `TCP_INFO`, in the columns of `tcplab trace
//! --what cwnd` and then those only the kernel has.

use std::fmt::Write;

use tcplab::metrics::trace::CWND_CSV_HEADER;

use crate::twin::Sample;

/// The kernel's columns after the simulator's.
pub const KERNEL_COLUMNS: &str = "retransmits,delivery_rate_MBps";

/// Linux's "no slow-start threshold yet" (`TCP_INFINITE_SSTHRESH`).
const INFINITE_SSTHRESH: u32 = 0x7fff_ffff;

pub fn cwnd_csv(samples: &[Sample]) -> String {
    let mut out = format!("{CWND_CSV_HEADER},{KERNEL_COLUMNS}\n");
    for s in samples {
        let i = &s.info;
        let mss = u64::from(i.snd_mss);
        // Linux's tcp_packets_in_flight: sent and not acknowledged, less what is SACKed or
        // marked lost, plus what was retransmitted.
        let in_flight =
            u64::from(i.unacked + i.retrans).saturating_sub(u64::from(i.sacked + i.lost));
        let ssthresh = if i.snd_ssthresh >= INFINITE_SSTHRESH {
            String::new()
        } else {
            (u64::from(i.snd_ssthresh) * mss).to_string()
        };
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{}",
            s.t.as_millis_f64(),
            s.flow,
            u64::from(i.snd_cwnd) * mss,
            ssthresh,
            in_flight * mss,
            i.snd_wnd,
            f64::from(i.rtt_us) / 1e3,
            f64::from(i.rto_us) / 1e3,
            i.total_retrans,
            i.delivery_rate as f64 / 1e6,
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sys::TcpInfo;
    use tcplab::time::Instant;

    #[test]
    fn a_sample_becomes_a_row_in_bytes_and_milliseconds() {
        let info = TcpInfo {
            snd_mss: 1448,
            snd_cwnd: 10,
            snd_ssthresh: INFINITE_SSTHRESH,
            unacked: 8,
            sacked: 2,
            lost: 1,
            retrans: 1,
            snd_wnd: 65535,
            rtt_us: 20_500,
            rto_us: 221_000,
            total_retrans: 3,
            delivery_rate: 12_500_000,
            ..TcpInfo::default()
        };
        let csv = cwnd_csv(&[Sample {
            t: Instant(1_500_000),
            flow: 0,
            info,
        }]);
        let row = csv.lines().nth(1).unwrap_or_default();
        assert_eq!(row, "1.5,0,14480,,8688,65535,20.5,221,3,12.5");
        assert_eq!(
            csv.lines().next(),
            Some("t_ms,flow,cwnd_bytes,ssthresh_bytes,in_flight_bytes,rwnd_bytes,srtt_ms,rto_ms,retransmits,delivery_rate_MBps")
        );
    }
}
