//! The twin's JSON summary: the simulator's fields with the same names and meanings (docs/
//! scenario.md), each measured on the real kernel, `null` where the kernel cannot say; then what
//! only the twin has: the engine, the router's counters and how precisely it kept time.

use serde::Serialize;
use tcplab::metrics::summary::{DelayStats, HolStats, MsgStats, ProbeStats, WindowStats};

use crate::router::RouterReport;

/// Field for field as `tcplab::Summary`, in its order; every field the simulator counts from its
/// own state (events, the simulation's wall time, budgets) is `None` here.
#[derive(Debug, Clone, Serialize)]
#[allow(non_snake_case)]
pub struct KernelSummary {
    pub scenario: String,
    pub goodput_MBps: Option<f64>,
    pub completion_ms: Option<f64>,
    pub transfer_ms: Option<f64>,
    pub completion_rtts: Option<f64>,
    pub transfer_rtts: Option<f64>,
    pub handshake_ms: Option<f64>,
    pub data_segments_sent: Option<u64>,
    pub retransmitted_segments: Option<u64>,
    pub retrans_bytes_pct: Option<f64>,
    pub dropped_data: Option<u64>,
    pub dropped_acks: Option<u64>,
    pub queue_drops: Option<u64>,
    pub queue_delay_ms: Option<DelayStats>,
    /// The router does not tell the connections' sojourns apart: empty.
    pub per_flow_queue_delay_ms: Vec<Option<DelayStats>>,
    pub aqm_drops: Option<u64>,
    pub policer_drops: Option<u64>,
    pub ecn_marks: Option<u64>,
    pub fast_retransmits: Option<u64>,
    /// Linux counts no duplicate ACKs where the twin can read them (its TCP_INFO and its MIB
    /// have none): `null`. A capture of the run (`run --pcap`) shows them to tshark.
    pub duplicate_acks: Option<u64>,
    pub timeouts: Option<u64>,
    pub msgs: Option<MsgStats>,
    pub hol: Option<HolStats>,
    /// The twin runs no latency probe (the plan refuses `probe`).
    pub probe: Option<ProbeStats>,
    pub throughput_windows_MBps: Option<WindowStats>,
    pub jain_fairness: Option<f64>,
    pub per_flow_goodput_MBps: Vec<f64>,
    pub flow_names: Vec<String>,
    pub acks_sent: Option<u64>,
    pub mathis_MBps: Option<f64>,
    pub bdp_bytes: f64,
    pub window_limit_MBps: f64,
    pub budget_exhausted: Option<bool>,
    pub stopped_by: tcplab::sim::Stop,
    pub time_limit_reached: bool,
    pub events: Option<u64>,
    pub sim_wall_ms: Option<f64>,
    /// `linux <release>`: which engine produced the numbers.
    pub engine: String,
    /// The run's wall time, set-up of the namespaces apart.
    pub wall_ms: f64,
    pub router: RouterReport,
    pub kernel: KernelSide,
}

/// What the kernel itself reported about the connections.
#[derive(Debug, Clone, Serialize)]
pub struct KernelSide {
    /// The congestion control the sender's sockets ran.
    pub cc: String,
    /// The MSS the sender used (`tcpi_snd_mss`) on its first connection.
    pub snd_mss: Option<u32>,
    /// The largest window the receiver's segments carried to the sender, read from every segment
    /// the router handed on (after its cap at `rwnd`).
    pub rwnd_seen_bytes: Option<u64>,
    /// The receiver's own largest advertised window (`tcpi_rcv_wnd`).
    pub rwnd_advertised_bytes: Option<u64>,
    /// Packets the TUN devices dropped for want of room in their rings (should be 0).
    pub device_drops: u64,
    /// TLP probes sent (`TcpExt TCPLossProbes`).
    pub loss_probes: Option<u64>,
    /// RTO-based recoveries (`tcpi_total_rto_recoveries`).
    pub rto_recoveries: Option<u64>,
    /// The inodes of the run's two network namespaces (sender, receiver), gone when it ends.
    pub namespaces: [u64; 2],
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::router::{DirCounters, LatenessSummary};
    use tcplab::{RunOptions, Scenario};

    fn kernel_summary() -> KernelSummary {
        KernelSummary {
            scenario: String::new(),
            goodput_MBps: None,
            completion_ms: None,
            transfer_ms: None,
            completion_rtts: None,
            transfer_rtts: None,
            handshake_ms: None,
            data_segments_sent: None,
            retransmitted_segments: None,
            retrans_bytes_pct: None,
            dropped_data: None,
            dropped_acks: None,
            queue_drops: None,
            queue_delay_ms: None,
            per_flow_queue_delay_ms: Vec::new(),
            aqm_drops: None,
            policer_drops: None,
            ecn_marks: None,
            fast_retransmits: None,
            duplicate_acks: None,
            timeouts: None,
            msgs: None,
            hol: None,
            probe: None,
            throughput_windows_MBps: None,
            jain_fairness: None,
            per_flow_goodput_MBps: Vec::new(),
            flow_names: Vec::new(),
            acks_sent: None,
            mathis_MBps: None,
            bdp_bytes: 0.0,
            window_limit_MBps: 0.0,
            budget_exhausted: None,
            stopped_by: tcplab::sim::Stop::Finished,
            time_limit_reached: false,
            events: None,
            sim_wall_ms: None,
            engine: String::new(),
            wall_ms: 0.0,
            router: RouterReport {
                data: DirCounters::default(),
                ack: DirCounters::default(),
                foreign: 0,
                write_errors: 0,
                release_lateness: LatenessSummary {
                    packets: 0,
                    p50_us: None,
                    p99_us: None,
                    p999_us: None,
                    max_us: None,
                },
                realtime: false,
                windows_capped: 0,
                largest_window: None,
                deliveries: Vec::new(),
                sojourn: Default::default(),
            },
            kernel: KernelSide {
                cc: String::new(),
                snd_mss: None,
                rwnd_seen_bytes: None,
                rwnd_advertised_bytes: None,
                device_drops: 0,
                loss_probes: None,
                rto_recoveries: None,
                namespaces: [0, 0],
            },
        }
    }

    /// Top-level keys of a JSON object, in the order written.
    fn keys(json: &str) -> Vec<String> {
        let value: serde_json::Value = serde_json::from_str(json).unwrap_or_default();
        let mut found: Vec<(usize, String)> = value
            .as_object()
            .map(|m| {
                m.keys()
                    .filter_map(|k| json.find(&format!("\"{k}\":")).map(|i| (i, k.clone())))
                    .collect()
            })
            .unwrap_or_default();
        found.sort();
        found.into_iter().map(|(_, k)| k).collect()
    }

    #[test]
    fn the_kernel_summary_has_the_simulators_fields_in_its_order() {
        let sim = tcplab::run(
            &Scenario::parse("body=10000").unwrap_or_default(),
            &RunOptions::default(),
        )
        .summary;
        let sim_keys = keys(&serde_json::to_string(&sim).unwrap_or_default());
        let kernel_keys = keys(&serde_json::to_string(&kernel_summary()).unwrap_or_default());
        assert!(sim_keys.len() >= tcplab::metrics::summary::SPEC_FIELDS.len());
        assert_eq!(&kernel_keys[..sim_keys.len()], &sim_keys[..]);
        assert_eq!(
            &kernel_keys[sim_keys.len()..],
            ["engine", "wall_ms", "router", "kernel"]
        );
    }
}
