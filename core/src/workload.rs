//! What the applications at either end do: send one body, send without end, or (later) write
//! messages on a clock.

use crate::scenario::{App, Scenario};

/// One flow's application.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Workload {
    /// Writes `bytes` at once on a new connection; done when the receiver has read them all.
    Body { bytes: u64 },
    /// Writes without end; runs until the time limit.
    Bulk,
}

impl Workload {
    pub fn from_scenario(s: &Scenario) -> Workload {
        match s.app {
            App::Body => Workload::Body { bytes: s.body },
            App::Bulk | App::Msgs => Workload::Bulk,
        }
    }

    /// Bytes written when the connection opens.
    pub fn initial_write(&self) -> u64 {
        match self {
            Workload::Body { bytes } => *bytes,
            Workload::Bulk => u64::MAX,
        }
    }

    /// Bytes the receiver must read for the flow to be done, if it ends.
    pub fn target(&self) -> Option<u64> {
        match self {
            Workload::Body { bytes } => Some(*bytes),
            Workload::Bulk => None,
        }
    }
}
