//! The path: a bottleneck with a rate and a drop-tail queue, then propagation delay, in the data
//! direction; propagation delay alone in the ACK direction; random loss on either.

pub mod aqm;
pub mod bottleneck;
pub mod delay_line;
pub mod loss;
pub mod managed;
pub mod opportunity;
pub mod path;
pub mod policer;
pub mod schedule;

pub use bottleneck::{Bottleneck, Enqueued};

/// Why a packet was lost: the one name of it the traces, the view, the player's steps and the
/// page all use (serde writes `data`, `ack`, `queue`, `staged`, `aqm`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DropCause {
    /// Random loss on the data direction.
    Data,
    /// Random loss on the ACK direction.
    Ack,
    /// The bottleneck's queue was full: its hard limit (`queue`), or FQ-CoDel's over its
    /// limit dropping from the fattest flow.
    Queue,
    /// A lesson's staged loss (`drop=`).
    Staged,
    /// The queue discipline dropped it early (RED, CoDel, PIE), before the queue was full.
    Aqm,
    /// The policer in front of the bottleneck (`police`) found too few tokens for it.
    Policer,
}

impl DropCause {
    pub const ALL: [DropCause; 6] = [
        DropCause::Data,
        DropCause::Ack,
        DropCause::Queue,
        DropCause::Staged,
        DropCause::Aqm,
        DropCause::Policer,
    ];

    /// The cause as the traces' CSV and the view's JSON write it.
    pub fn name(self) -> &'static str {
        match self {
            DropCause::Data => "data",
            DropCause::Ack => "ack",
            DropCause::Queue => "queue",
            DropCause::Staged => "staged",
            DropCause::Aqm => "aqm",
            DropCause::Policer => "policer",
        }
    }

    /// A small number for packed tables of numbers (a trace's rows, the page's step codec):
    /// the cause's place in [`DropCause::ALL`].
    pub fn code(self) -> u8 {
        self as u8
    }

    pub fn from_code(code: u64) -> Option<DropCause> {
        DropCause::ALL.get(usize::try_from(code).ok()?).copied()
    }
}
pub use delay_line::{DelayLine, Wires};
pub use loss::{LossModel, StagedDrops};
pub use path::{Direction, Fate, Path, PathShape};
