//! What happened at one step, and the state it left.

use serde::{Deserialize, Serialize};

/// Steps kept per run; a lesson's scenario needs a few thousand.
pub const MAX_STEPS: usize = 100_000;

/// The loss-recovery state of the sender after a step (Linux's `tcp_ca_state`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CaLabel {
    Open,
    Disorder,
    Recovery,
    Loss,
}

/// Why a packet was lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DropCauseLabel {
    /// Random loss on the wire.
    Random,
    /// The bottleneck's queue was full.
    QueueFull,
    /// The lesson's staged loss.
    Staged,
}

/// How an ACK changed the window.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Growth {
    SlowStart,
    CongestionAvoidance,
    /// A model-based algorithm (BBR) set the window.
    Model,
    /// No growth: in recovery, or the window is not the limit.
    Held,
}

/// One event of the run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StepKind {
    SynSent {
        retry: u32,
    },
    SynReceived,
    Established {
        rtt_ms: Option<f64>,
    },
    Sent {
        seq: u64,
        len: u32,
    },
    Retransmitted {
        seq: u64,
        len: u32,
    },
    LossProbe {
        seq: u64,
        len: u32,
    },
    DataLost {
        seq: u64,
        cause: DropCauseLabel,
    },
    DatagramLost {
        id: u32,
        cause: DropCauseLabel,
    },
    AckLost {
        ack: u64,
    },
    /// A data segment reached the receiver; `delivered` bytes went to the application, `held`
    /// bytes wait behind a hole.
    DataArrived {
        seq: u64,
        len: u32,
        in_order: bool,
        delivered: u64,
        held: u64,
    },
    DatagramArrived {
        id: u32,
    },
    AckSent {
        ack: u64,
        sack_blocks: u8,
        delayed: bool,
    },
    /// An ACK reached the sender: `acked` new bytes (of `mss`), the window from `cwnd_before`
    /// to `cwnd_after` bytes.
    AckArrived {
        ack: u64,
        acked: u64,
        sacked: u64,
        growth: Growth,
        cwnd_before: u64,
        cwnd_after: u64,
    },
    DuplicateAck {
        ack: u64,
        count: u32,
    },
    FastRetransmit {
        seq: u64,
        cwnd_before: u64,
        cwnd_after: u64,
        ssthresh: u64,
    },
    RecoveryDone {
        cwnd: u64,
    },
    Timeout {
        rto_ms: f64,
        backoff: u32,
        cwnd_before: u64,
        ssthresh: u64,
    },
    MessageWritten {
        id: u32,
    },
    /// A head-of-line stall ended: `messages` reached the application at once.
    HolRelease {
        event: u32,
        messages: u32,
        worst_ms: f64,
    },
}

impl StepKind {
    /// A name per kind, for the page's filters and for the test that every kind is explained.
    pub fn name(&self) -> &'static str {
        match self {
            StepKind::SynSent { .. } => "syn_sent",
            StepKind::SynReceived => "syn_received",
            StepKind::Established { .. } => "established",
            StepKind::Sent { .. } => "sent",
            StepKind::Retransmitted { .. } => "retransmitted",
            StepKind::LossProbe { .. } => "loss_probe",
            StepKind::DataLost { .. } => "data_lost",
            StepKind::DatagramLost { .. } => "datagram_lost",
            StepKind::AckLost { .. } => "ack_lost",
            StepKind::DataArrived { .. } => "data_arrived",
            StepKind::DatagramArrived { .. } => "datagram_arrived",
            StepKind::AckSent { .. } => "ack_sent",
            StepKind::AckArrived { .. } => "ack_arrived",
            StepKind::DuplicateAck { .. } => "duplicate_ack",
            StepKind::FastRetransmit { .. } => "fast_retransmit",
            StepKind::RecoveryDone { .. } => "recovery_done",
            StepKind::Timeout { .. } => "timeout",
            StepKind::MessageWritten { .. } => "message_written",
            StepKind::HolRelease { .. } => "hol_release",
        }
    }

    /// Kinds a teacher jumps between ("next loss / recovery / timeout / release").
    pub fn is_landmark(&self) -> bool {
        matches!(
            self,
            StepKind::DataLost { .. }
                | StepKind::FastRetransmit { .. }
                | StepKind::RecoveryDone { .. }
                | StepKind::Timeout { .. }
                | StepKind::HolRelease { .. }
        )
    }
}

/// The sender's state after a step.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct FlowState {
    pub cwnd: u64,
    pub ssthresh: Option<u64>,
    pub in_flight: u64,
    pub srtt_ms: Option<f64>,
    pub rto_ms: f64,
    pub ca: CaLabel,
    /// Packets waiting at the bottleneck (all flows).
    pub queue: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Step {
    pub t_ms: f64,
    pub flow: u16,
    #[serde(flatten)]
    pub kind: StepKind,
    pub state: FlowState,
}

/// A run's steps.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Steps {
    pub mss: u32,
    /// The algorithm's name ("reno", "cubic", "bbr"), for the explanations.
    pub cc: String,
    pub steps: Vec<Step>,
    /// The run went on past [`MAX_STEPS`]; later steps were not kept.
    pub truncated: bool,
}

impl Steps {
    pub fn new(mss: u32, cc: &str) -> Self {
        Steps {
            mss,
            cc: cc.to_string(),
            steps: Vec::with_capacity(4096),
            truncated: false,
        }
    }

    pub fn push(&mut self, step: Step) {
        if self.steps.len() >= MAX_STEPS {
            self.truncated = true;
            return;
        }
        self.steps.push(step);
    }

    /// The index of the last step at or before `t_ms` (the player's `at=`).
    pub fn index_at(&self, t_ms: f64) -> Option<usize> {
        let n = self.steps.partition_point(|s| s.t_ms <= t_ms);
        n.checked_sub(1)
    }
}
