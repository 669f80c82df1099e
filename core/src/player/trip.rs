//! Each packet's trip over the path, as the path decided it: when it left its sender, when it
//! left the bottleneck's queue onto the wire, when it reached the far end, or where it was
//! lost. The player's picture of the path draws these and derives nothing: the link model is
//! the simulator's alone (`crate::link`), so a queue on the ACK direction or a changing path
//! shows as it happened.

use serde::{Deserialize, Serialize};

use crate::link::DropCause;

/// What a packet carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cargo {
    Syn,
    SynAck,
    /// The third segment of the handshake (RFC 9293 §3.5).
    HandshakeAck,
    /// New data.
    Data,
    /// Data sent before: a retransmission, or a tail loss probe repeating the last segment.
    Repair,
    Datagram,
    Ack,
    /// The latency probe's ping, and its echo.
    Probe,
    ProbeReply,
}

impl Cargo {
    /// Whether the packet goes from the receiver back to the sender.
    pub fn is_ack_direction(self) -> bool {
        matches!(self, Cargo::SynAck | Cargo::Ack | Cargo::ProbeReply)
    }
}

/// How a trip ended.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TripEnd {
    /// It left the path's queue onto the wire at `departs_ms` (its sending time, where the
    /// direction has no queue) and reached the far end at `arrives_ms`.
    Arrived { departs_ms: f64, arrives_ms: f64 },
    /// It was lost at `at_ms`, for this cause: when it was offered to the path, or, where a
    /// queue discipline dropped it after it waited, then.
    Lost { at_ms: f64, cause: DropCause },
    /// It was still waiting at a managed bottleneck when the record ended.
    Queued,
}

/// One packet's trip.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Trip {
    pub flow: u16,
    pub cargo: Cargo,
    /// It left its sender (the receiver, for an ACK), ms since the run began.
    pub sent_ms: f64,
    pub end: TripEnd,
}

impl Trip {
    /// When the trip is over: arrived or lost (never, within the record, for one queued).
    pub fn over_ms(&self) -> f64 {
        match self.end {
            TripEnd::Arrived { arrives_ms, .. } => arrives_ms,
            TripEnd::Lost { at_ms, .. } => at_ms,
            TripEnd::Queued => f64::INFINITY,
        }
    }
}

/// The path's fixed delays each way, for the picture's labels (`crate::link::PathShape`).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
pub struct OneWay {
    pub data_ms: f64,
    pub ack_ms: f64,
}
