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
    /// The mean absolute difference of consecutive messages' latencies, in order of writing
    /// (seed 004's jitter), ms.
    pub jitter_ms: Option<f64>,
    /// RFC 3550's smoothed interarrival jitter over the same latencies, ms.
    pub rfc3550_jitter_ms: Option<f64>,
}

/// The latency probe's statistics (`probe=MS`): round trips of its pings under the load.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProbeStats {
    pub sent: u64,
    pub received: u64,
    /// Pings or echoes lost on the path (those still out at the end are neither).
    pub lost: u64,
    pub p50_ms: Option<f64>,
    pub p99_ms: Option<f64>,
    /// Over the pings' one-way delays to the far host, as for messages.
    pub jitter_ms: Option<f64>,
    pub rfc3550_jitter_ms: Option<f64>,
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

/// Percentiles of a delay, ms.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DelayStats {
    pub p50: f64,
    pub p95: f64,
    pub p99: f64,
}

/// The fields `../shared/spec/scenario.md` promises in every summary, in its order. Outside
/// tools read these names; the runner's tests check each is present.
pub const SPEC_FIELDS: &[&str] = &[
    "scenario",
    "goodput_MBps",
    "completion_ms",
    "transfer_ms",
    "completion_rtts",
    "transfer_rtts",
    "handshake_ms",
    "data_segments_sent",
    "retransmitted_segments",
    "retrans_bytes_pct",
    "dropped_data",
    "dropped_acks",
    "queue_drops",
    "fast_retransmits",
    "timeouts",
    "msgs",
    "hol",
    "throughput_windows_MBps",
    "jain_fairness",
    "mathis_MBps",
    "bdp_bytes",
    "window_limit_MBps",
    "events",
    "sim_wall_ms",
];

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
    /// The sojourn of data packets at the bottleneck: from joining its queue to going onto its
    /// link. `null` when no data packet passed it.
    pub queue_delay_ms: Option<DelayStats>,
    /// The same for each connection, where there are several (FQ-CoDel treats them apart);
    /// `null` for one that sent no data. Empty for a single connection.
    pub per_flow_queue_delay_ms: Vec<Option<DelayStats>>,
    /// Packets the queue discipline dropped early (RED, CoDel, PIE), apart from `queue_drops`,
    /// the overflow of the hard limit.
    pub aqm_drops: u64,
    /// Packets the policer in front of the bottleneck dropped (`police`).
    pub policer_drops: u64,
    /// Packets the queue discipline marked CE instead of dropping (`ecn=1`).
    pub ecn_marks: u64,
    pub fast_retransmits: u64,
    /// Duplicate ACKs the senders received, by RFC 5681 §2's definition (the count a capture's
    /// analysis at the sender gives).
    pub duplicate_acks: u64,
    pub timeouts: u64,
    pub msgs: Option<MsgStats>,
    pub hol: Option<HolStats>,
    /// The latency probe's, when `probe` is set.
    pub probe: Option<ProbeStats>,
    pub throughput_windows_MBps: Option<WindowStats>,
    pub jain_fairness: Option<f64>,
    pub per_flow_goodput_MBps: Vec<f64>,
    /// Each flow's name, in the order of the per-flow fields ("flow 2 (CUBIC, 80 ms)" where
    /// the flows' settings differ); empty for a single connection.
    #[serde(default)]
    pub flow_names: Vec<String>,
    /// ACK segments the receivers sent (the handshake's excepted), lost ones included.
    pub acks_sent: u64,
    pub mathis_MBps: Option<f64>,
    pub bdp_bytes: f64,
    pub window_limit_MBps: f64,
    /// True when the run stopped at a budget (events, or packets on the path) before the
    /// workload finished; `stopped_by` says which.
    pub budget_exhausted: bool,
    /// Why the run ended: `finished`, `time_limit`, `event_budget`, `packet_budget` or `idle`.
    /// `idle` is a safeguard a run reaching its `dur` never shows (the event ending the run stays
    /// queued until it returns), kept for compatibility.
    pub stopped_by: crate::sim::Stop,
    /// True when the run reached `dur` before an app=body or app=msgs workload finished.
    pub time_limit_reached: bool,
    pub events: u64,
    pub sim_wall_ms: f64,
}

#[cfg(test)]
mod tests {
    use super::SPEC_FIELDS;

    /// The project's copy of the contract lists the fields in one sentence; the list here must
    /// say the same, in the same order.
    #[test]
    fn the_spec_fields_are_those_the_scenario_doc_lists() {
        let doc = include_str!("../../../docs/scenario.md");
        let Some(start) = doc.find("The JSON object has the fields of the spec (") else {
            panic!("docs/scenario.md no longer lists the summary's fields");
        };
        let rest = &doc[start..];
        let list = &rest[..rest.find(')').unwrap_or(rest.len())];
        let named: Vec<&str> = list.split('`').skip(1).step_by(2).collect();
        assert_eq!(named, SPEC_FIELDS);
    }
}
