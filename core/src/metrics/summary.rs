//! The runner's JSON summary (`tcplab run`), field for field as in the spec.

use serde::{Deserialize, Serialize};

/// Message-latency statistics (app=msgs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MsgStats {
    pub sent: u64,
    pub received: u64,
    pub lost: u64,
    pub p50_ms: Option<f64>,
    pub p90_ms: Option<f64>,
    pub p99_ms: Option<f64>,
    pub max_ms: Option<f64>,
    pub over_80ms_pct: Option<f64>,
}

/// Head-of-line blocking statistics (app=msgs over TCP).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HolStats {
    pub events: u64,
    pub held_median: Option<f64>,
    pub held_max: Option<u64>,
    pub worst_delay_median_ms: Option<f64>,
}

/// Percentiles of goodput over consecutive windows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WindowStats {
    pub p50: f64,
    pub p95: f64,
    pub p99: f64,
}

/// One run's summary. `None` serialises as `null`: the field does not apply to this run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[allow(non_snake_case)]
pub struct Summary {
    pub scenario: String,
    pub goodput_MBps: Option<f64>,
    pub completion_ms: Option<f64>,
    pub transfer_ms: Option<f64>,
    pub completion_rtts: Option<f64>,
    pub transfer_rtts: Option<f64>,
    pub handshake_ms: Option<f64>,
    pub data_segments_sent: u64,
    pub retransmitted_segments: u64,
    pub retrans_bytes_pct: Option<f64>,
    pub dropped_data: u64,
    pub dropped_acks: u64,
    pub queue_drops: u64,
    pub fast_retransmits: u64,
    pub timeouts: u64,
    pub msgs: Option<MsgStats>,
    pub hol: Option<HolStats>,
    pub throughput_windows_MBps: Option<WindowStats>,
    pub jain_fairness: Option<f64>,
    pub per_flow_goodput_MBps: Vec<f64>,
    pub mathis_MBps: Option<f64>,
    pub bdp_bytes: f64,
    pub window_limit_MBps: f64,
    /// True when the run stopped at a budget (events, or packets on the path) before the
    /// workload finished; `stopped_by` says which.
    pub budget_exhausted: bool,
    /// Why the run ended: `finished`, `time_limit`, `event_budget`, `packet_budget` or `idle`.
    pub stopped_by: String,
    /// True when the run reached `dur` before an app=body or app=msgs workload finished.
    pub time_limit_reached: bool,
    pub events: u64,
    pub sim_wall_ms: f64,
}
