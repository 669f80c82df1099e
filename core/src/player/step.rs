//! What happened at one step, and the state it left.

use crate::tcp::receiver::AckTiming;
use serde::{Deserialize, Serialize};

/// Steps kept per run; a lesson's scenario needs a few thousand.
pub const MAX_STEPS: usize = 100_000;

/// The loss-recovery state of the sender after a step (Linux's `tcp_ca_state`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CaLabel {
    Open,
    Disorder,
    /// Reducing the window for an ECN echo.
    Cwr,
    Recovery,
    Loss,
}

pub use crate::link::DropCause;

/// Why the bottleneck's queue discipline dropped or marked a packet: what the player explains
/// of each decision (`crate::link::managed::Why`, in the steps' units).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QueueWhy {
    /// The hard limit, `queue` packets, was reached.
    Limit { limit: u32 },
    /// FQ-CoDel was over its limit: the fattest flow's head was dropped (RFC 8290 §4.1.3).
    FattestFlow { limit: u32 },
    /// CoDel's control law (RFC 8289 §3.3): the packet's sojourn, the decision's number in
    /// this dropping state, and the time to the next one (`None`: the packet behind it waited
    /// less than target, and the dropping state ends).
    Codel {
        sojourn_ms: f64,
        count: u32,
        next_in_ms: Option<f64>,
        target_ms: f64,
        interval_ms: f64,
    },
    /// PIE's drop probability (RFC 8033 §4.1), percent.
    Pie {
        probability_pct: f64,
        target_ms: f64,
    },
    /// RED's average queue (packets) and the probability it acted with, percent.
    Red { average: f64, probability_pct: f64 },
}

/// Why slow start ended without a loss.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SlowStartEnd {
    /// The window reached ssthresh (set by an earlier loss or timeout).
    Ssthresh,
    /// HyStart saw the ACKs of a round spread over more than half the minimum RTT
    /// (`hystart_ack_train`): the path's capacity is reached.
    HyStartAckTrain,
    /// HyStart saw the round's RTT rise above the minimum by an eighth (`hystart_delay`): a queue
    /// is building.
    HyStartDelay,
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
#[serde(rename_all = "snake_case")]
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
    /// A data segment was lost; `why` is the queue discipline's reason where it dropped it.
    DataLost {
        seq: u64,
        len: u32,
        cause: DropCause,
        why: Option<QueueWhy>,
    },
    DatagramLost {
        id: u32,
        cause: DropCause,
        why: Option<QueueWhy>,
    },
    AckLost {
        ack: u64,
    },
    /// The queue discipline marked a segment Congestion Experienced instead of dropping it
    /// (RFC 3168 §5).
    CeMarked {
        seq: u64,
        len: u32,
        why: QueueWhy,
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
        /// Why it went out when it did: with its segment, on the delayed-ACK timer, or held
        /// back by SACK compression.
        timing: AckTiming,
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
    /// An ACK echoed a congestion mark (ECE): the window's reduction begins, as for a loss,
    /// with nothing to retransmit (RFC 3168 §6.1.2, Linux `tcp_enter_cwr`).
    EcnEcho {
        cwnd_before: u64,
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
    /// Slow start ended on this ACK, and congestion avoidance begins.
    SlowStartExit {
        reason: SlowStartEnd,
        cwnd: u64,
        ssthresh: u64,
    },
    /// The sender's loss-recovery state changed (Linux's `tcp_set_ca_state`).
    StateChange {
        from: CaLabel,
        to: CaLabel,
    },
}

/// A kind of step without its numbers: what a lesson opens on (`Preset::moment`) and what the
/// `kind` column of `tcplab trace --what steps` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepTag {
    SynSent,
    SynReceived,
    Established,
    Sent,
    Retransmitted,
    LossProbe,
    DataLost,
    DatagramLost,
    AckLost,
    CeMarked,
    DataArrived,
    DatagramArrived,
    AckSent,
    AckArrived,
    DuplicateAck,
    FastRetransmit,
    EcnEcho,
    RecoveryDone,
    Timeout,
    MessageWritten,
    HolRelease,
    SlowStartExit,
    StateChange,
}

impl StepTag {
    /// Every tag, in the order of [`StepKind`]'s variants: a kind added there goes here too,
    /// and gets an example in [`StepKind::examples`] (the tests check the three agree).
    pub const ALL: [StepTag; 23] = [
        StepTag::SynSent,
        StepTag::SynReceived,
        StepTag::Established,
        StepTag::Sent,
        StepTag::Retransmitted,
        StepTag::LossProbe,
        StepTag::DataLost,
        StepTag::DatagramLost,
        StepTag::AckLost,
        StepTag::CeMarked,
        StepTag::DataArrived,
        StepTag::DatagramArrived,
        StepTag::AckSent,
        StepTag::AckArrived,
        StepTag::DuplicateAck,
        StepTag::FastRetransmit,
        StepTag::EcnEcho,
        StepTag::RecoveryDone,
        StepTag::Timeout,
        StepTag::MessageWritten,
        StepTag::HolRelease,
        StepTag::SlowStartExit,
        StepTag::StateChange,
    ];

    /// The tag's name, as the steps' CSV writes it (serde's name of it too).
    pub fn name(self) -> &'static str {
        match self {
            StepTag::SynSent => "syn_sent",
            StepTag::SynReceived => "syn_received",
            StepTag::Established => "established",
            StepTag::Sent => "sent",
            StepTag::Retransmitted => "retransmitted",
            StepTag::LossProbe => "loss_probe",
            StepTag::DataLost => "data_lost",
            StepTag::DatagramLost => "datagram_lost",
            StepTag::AckLost => "ack_lost",
            StepTag::CeMarked => "ce_marked",
            StepTag::DataArrived => "data_arrived",
            StepTag::DatagramArrived => "datagram_arrived",
            StepTag::AckSent => "ack_sent",
            StepTag::AckArrived => "ack_arrived",
            StepTag::DuplicateAck => "duplicate_ack",
            StepTag::FastRetransmit => "fast_retransmit",
            StepTag::EcnEcho => "ecn_echo",
            StepTag::RecoveryDone => "recovery_done",
            StepTag::Timeout => "timeout",
            StepTag::MessageWritten => "message_written",
            StepTag::HolRelease => "hol_release",
            StepTag::SlowStartExit => "slow_start_exit",
            StepTag::StateChange => "state_change",
        }
    }
}

impl StepKind {
    /// The kind without its numbers.
    pub fn tag(&self) -> StepTag {
        match self {
            StepKind::SynSent { .. } => StepTag::SynSent,
            StepKind::SynReceived => StepTag::SynReceived,
            StepKind::Established { .. } => StepTag::Established,
            StepKind::Sent { .. } => StepTag::Sent,
            StepKind::Retransmitted { .. } => StepTag::Retransmitted,
            StepKind::LossProbe { .. } => StepTag::LossProbe,
            StepKind::DataLost { .. } => StepTag::DataLost,
            StepKind::DatagramLost { .. } => StepTag::DatagramLost,
            StepKind::AckLost { .. } => StepTag::AckLost,
            StepKind::CeMarked { .. } => StepTag::CeMarked,
            StepKind::DataArrived { .. } => StepTag::DataArrived,
            StepKind::DatagramArrived { .. } => StepTag::DatagramArrived,
            StepKind::AckSent { .. } => StepTag::AckSent,
            StepKind::AckArrived { .. } => StepTag::AckArrived,
            StepKind::DuplicateAck { .. } => StepTag::DuplicateAck,
            StepKind::FastRetransmit { .. } => StepTag::FastRetransmit,
            StepKind::EcnEcho { .. } => StepTag::EcnEcho,
            StepKind::RecoveryDone { .. } => StepTag::RecoveryDone,
            StepKind::Timeout { .. } => StepTag::Timeout,
            StepKind::MessageWritten { .. } => StepTag::MessageWritten,
            StepKind::HolRelease { .. } => StepTag::HolRelease,
            StepKind::SlowStartExit { .. } => StepTag::SlowStartExit,
            StepKind::StateChange { .. } => StepTag::StateChange,
        }
    }

    /// The kind's name (its tag's).
    pub fn name(&self) -> &'static str {
        self.tag().name()
    }

    /// One example of every kind, with numbers a classroom would see: what the explanations of
    /// the core and of the page are tested on.
    pub fn examples() -> Vec<StepKind> {
        vec![
            StepKind::SynSent { retry: 0 },
            StepKind::SynSent { retry: 2 },
            StepKind::SynReceived,
            StepKind::Established { rtt_ms: Some(28.0) },
            StepKind::Established { rtt_ms: None },
            StepKind::Sent { seq: 0, len: 1460 },
            StepKind::Retransmitted {
                seq: 14600,
                len: 1460,
            },
            StepKind::LossProbe {
                seq: 29200,
                len: 1460,
            },
            StepKind::DataLost {
                seq: 1460,
                len: 1460,
                cause: DropCause::Data,
                why: None,
            },
            StepKind::DataLost {
                seq: 1460,
                len: 1460,
                cause: DropCause::Queue,
                why: None,
            },
            StepKind::DataLost {
                seq: 1460,
                len: 1460,
                cause: DropCause::Staged,
                why: None,
            },
            StepKind::DataLost {
                seq: 1460,
                len: 1460,
                cause: DropCause::Aqm,
                why: Some(QueueWhy::Codel {
                    sojourn_ms: 12.0,
                    count: 3,
                    next_in_ms: Some(57.7),
                    target_ms: 5.0,
                    interval_ms: 100.0,
                }),
            },
            StepKind::DataLost {
                seq: 1460,
                len: 1460,
                cause: DropCause::Queue,
                why: Some(QueueWhy::FattestFlow { limit: 1000 }),
            },
            StepKind::DataLost {
                seq: 1460,
                len: 1460,
                cause: DropCause::Aqm,
                why: Some(QueueWhy::Pie {
                    probability_pct: 3.5,
                    target_ms: 15.0,
                }),
            },
            StepKind::DataLost {
                seq: 1460,
                len: 1460,
                cause: DropCause::Aqm,
                why: Some(QueueWhy::Red {
                    average: 9.5,
                    probability_pct: 4.5,
                }),
            },
            StepKind::CeMarked {
                seq: 1460,
                len: 1460,
                why: QueueWhy::Codel {
                    sojourn_ms: 7.0,
                    count: 1,
                    next_in_ms: None,
                    target_ms: 5.0,
                    interval_ms: 100.0,
                },
            },
            StepKind::DatagramLost {
                id: 7,
                cause: DropCause::Data,
                why: None,
            },
            StepKind::AckLost { ack: 2920 },
            StepKind::DataArrived {
                seq: 0,
                len: 1460,
                in_order: true,
                delivered: 1460,
                held: 0,
            },
            StepKind::DataArrived {
                seq: 2920,
                len: 1460,
                in_order: false,
                delivered: 0,
                held: 1460,
            },
            StepKind::DataArrived {
                seq: 1460,
                len: 1460,
                in_order: true,
                delivered: 4380,
                held: 0,
            },
            StepKind::DatagramArrived { id: 8 },
            StepKind::AckSent {
                ack: 2920,
                sack_blocks: 1,
                timing: AckTiming::Now,
            },
            StepKind::AckArrived {
                ack: 29200,
                acked: 2920,
                sacked: 0,
                growth: Growth::SlowStart,
                cwnd_before: 20 * 1460,
                cwnd_after: 22 * 1460,
            },
            StepKind::DuplicateAck {
                ack: 14600,
                count: 3,
            },
            StepKind::FastRetransmit {
                seq: 14600,
                cwnd_before: 40 * 1460,
                cwnd_after: 28 * 1460,
                ssthresh: 28 * 1460,
            },
            StepKind::EcnEcho {
                cwnd_before: 40 * 1460,
                ssthresh: 28 * 1460,
            },
            StepKind::EcnEcho {
                cwnd_before: 40 * 1460,
                ssthresh: crate::cc::INFINITE_SSTHRESH_BYTES,
            },
            StepKind::RecoveryDone { cwnd: 28 * 1460 },
            StepKind::FastRetransmit {
                seq: 14600,
                cwnd_before: 40 * 1460,
                cwnd_after: 40 * 1460,
                ssthresh: crate::cc::INFINITE_SSTHRESH_BYTES,
            },
            StepKind::Timeout {
                rto_ms: 412.0,
                backoff: 3,
                cwnd_before: 30 * 1460,
                ssthresh: 15 * 1460,
            },
            StepKind::Timeout {
                rto_ms: 250.0,
                backoff: 1,
                cwnd_before: 30 * 1460,
                ssthresh: crate::cc::INFINITE_SSTHRESH_BYTES,
            },
            StepKind::MessageWritten { id: 70 },
            StepKind::HolRelease {
                event: 0,
                messages: 19,
                worst_ms: 272.0,
            },
            StepKind::SlowStartExit {
                reason: SlowStartEnd::HyStartAckTrain,
                cwnd: 60 * 1460,
                ssthresh: 60 * 1460,
            },
            StepKind::SlowStartExit {
                reason: SlowStartEnd::HyStartDelay,
                cwnd: 44 * 1460,
                ssthresh: 44 * 1460,
            },
            StepKind::SlowStartExit {
                reason: SlowStartEnd::Ssthresh,
                cwnd: 20 * 1460,
                ssthresh: 20 * 1460,
            },
            StepKind::StateChange {
                from: CaLabel::Open,
                to: CaLabel::Disorder,
            },
            StepKind::StateChange {
                from: CaLabel::Recovery,
                to: CaLabel::Open,
            },
        ]
    }

    /// Kinds a teacher jumps between ("next loss / ECN echo / recovery / timeout / release",
    /// and the end of slow start, which a run without loss has too). An ECN echo is the
    /// sender's answer to a mark, once a round trip at most; the marks themselves can be
    /// thousands.
    pub fn is_landmark(&self) -> bool {
        matches!(
            self,
            StepKind::DataLost { .. }
                | StepKind::EcnEcho { .. }
                | StepKind::FastRetransmit { .. }
                | StepKind::RecoveryDone { .. }
                | StepKind::Timeout { .. }
                | StepKind::HolRelease { .. }
                | StepKind::SlowStartExit { .. }
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
    pub kind: StepKind,
    pub state: FlowState,
}

/// Which of a run's steps a recording keeps: every step from `from_ms` on, up to [`MAX_STEPS`].
/// A long run has tens of millions of steps; the player asks for the part around its cursor.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct StepWindow {
    /// The first instant kept (ms since the run began).
    pub from_ms: f64,
    /// Stop the run once the record is full: nothing after it is kept, so simulating on would
    /// only cost time. A run that must also be measured whole keeps going.
    pub stop_when_full: bool,
}

impl StepWindow {
    /// Every step from the start, the run going on to its end.
    pub const WHOLE_RUN: StepWindow = StepWindow {
        from_ms: 0.0,
        stop_when_full: false,
    };

    /// The steps from `from_ms` on, for the player and `tcplab trace --what steps`: the run
    /// ends with the record.
    pub fn from(from_ms: f64) -> StepWindow {
        StepWindow {
            from_ms: if from_ms.is_finite() {
                from_ms.max(0.0)
            } else {
                0.0
            },
            stop_when_full: true,
        }
    }
}

/// A run's steps.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Steps {
    pub mss: u32,
    /// The algorithm, for the explanations: every flow's, or flow 1's where `flow_cc` differs.
    pub cc: crate::scenario::CcAlgo,
    /// Each flow's algorithm where the flows' differ (`cc=bbr,cubic`); empty otherwise.
    #[serde(default)]
    pub flow_cc: Vec<crate::scenario::CcAlgo>,
    pub steps: Vec<Step>,
    /// Every packet's trip that began while the steps were kept, in order of sending.
    pub trips: Vec<super::Trip>,
    /// The path's delays each way.
    pub one_way: super::OneWay,
    /// Where the record starts (ms): 0, or a later instant when the steps before it were not
    /// kept ([`StepWindow`]).
    pub from_ms: f64,
    /// The run went on past [`MAX_STEPS`]; later steps were not kept.
    pub truncated: bool,
}

impl Steps {
    pub fn new(
        mss: u32,
        cc: crate::scenario::CcAlgo,
        one_way: super::OneWay,
        from_ms: f64,
    ) -> Self {
        Steps {
            mss,
            cc,
            flow_cc: Vec::new(),
            steps: Vec::with_capacity(4096),
            trips: Vec::with_capacity(4096),
            one_way,
            from_ms,
            truncated: false,
        }
    }

    /// The algorithm of flow `flow` (0-based).
    pub fn cc_of(&self, flow: u16) -> crate::scenario::CcAlgo {
        self.flow_cc
            .get(usize::from(flow))
            .copied()
            .unwrap_or(self.cc)
    }

    /// Keeps `step`, unless the record is full. Returns whether it was kept.
    pub fn push(&mut self, step: Step) -> bool {
        if self.is_full() {
            self.truncated = true;
            return false;
        }
        self.steps.push(step);
        true
    }

    pub fn is_full(&self) -> bool {
        self.steps.len() >= MAX_STEPS
    }

    /// Whether the record leaves out steps before its first (it starts after the run's start).
    pub fn starts_late(&self) -> bool {
        self.from_ms > 0.0
    }

    /// The index of the last step at or before `t_ms` (the player's `at=`).
    pub fn index_at(&self, t_ms: f64) -> Option<usize> {
        let n = self.steps.partition_point(|s| s.t_ms <= t_ms);
        n.checked_sub(1)
    }
}

#[cfg(test)]
mod tests {
    use super::{StepKind, StepTag};

    #[test]
    fn the_examples_name_every_kind() {
        let mut named: Vec<StepTag> = StepKind::examples().iter().map(StepKind::tag).collect();
        named.sort_unstable();
        named.dedup();
        let mut all = StepTag::ALL.to_vec();
        all.sort_unstable();
        all.dedup();
        assert_eq!(named, all);
        // The CSV's names are serde's.
        for tag in StepTag::ALL {
            let written = serde_json::to_value(tag).ok();
            assert_eq!(written.as_ref().and_then(|v| v.as_str()), Some(tag.name()));
        }
    }
}
