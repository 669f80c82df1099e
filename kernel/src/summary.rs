//! The twin's JSON summary: the simulator's fields with the same names and meanings (docs/
//! scenario.md), each measured on the real kernel, `null` where the kernel cannot say; then what
//! only the twin has: the engine, the router's counters and how precisely it kept time.

use serde::Serialize;
use tcplab::metrics::summary::{HolStats, MsgStats, WindowStats};

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
    pub fast_retransmits: Option<u64>,
    pub timeouts: Option<u64>,
    pub msgs: Option<MsgStats>,
    pub hol: Option<HolStats>,
    pub throughput_windows_MBps: Option<WindowStats>,
    pub jain_fairness: Option<f64>,
    pub per_flow_goodput_MBps: Vec<f64>,
    pub mathis_MBps: Option<f64>,
    pub bdp_bytes: f64,
    pub window_limit_MBps: f64,
    pub budget_exhausted: Option<bool>,
    pub stopped_by: String,
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
    /// The largest window the receiver advertised, as the sender saw it (`tcpi_snd_wnd`).
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
