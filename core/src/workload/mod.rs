//! What the applications at either end do: send one body, send without end, or write messages
//! on a clock over one or more connections or as UDP datagrams.

pub mod messages;
pub mod probe;

use crate::scenario::{App, Scenario};

pub use messages::{HolEvent, MessageLog, MsgRecord};

/// One connection's application.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Workload {
    /// Writes `bytes` at once on a new connection; done when the receiver has read them all.
    Body { bytes: u64 },
    /// Writes without end; runs until the time limit.
    Bulk,
    /// Writes whatever the message clock gives it (app=msgs).
    Messages,
}

impl Workload {
    pub fn from_scenario(s: &Scenario) -> Workload {
        match s.app {
            App::Body => Workload::Body { bytes: s.body },
            App::Bulk => Workload::Bulk,
            App::Msgs => Workload::Messages,
        }
    }

    /// TCP connections the scenario opens: `flows` of a body or bulk workload, `conns` for
    /// messages (none when they go as UDP).
    pub fn connections(s: &Scenario) -> usize {
        match s.app {
            App::Body | App::Bulk => s.flows.max(1) as usize,
            App::Msgs => s.conns as usize,
        }
    }

    /// Bytes written when the connection opens.
    pub fn initial_write(&self) -> u64 {
        match self {
            Workload::Body { bytes } => *bytes,
            Workload::Bulk => u64::MAX,
            Workload::Messages => 0,
        }
    }

    /// Bytes the receiver must read for the connection to be done, if it ends by itself.
    pub fn target(&self) -> Option<u64> {
        match self {
            Workload::Body { bytes } => Some(*bytes),
            Workload::Bulk | Workload::Messages => None,
        }
    }
}
