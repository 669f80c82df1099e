//! The path: a bottleneck with a rate and a drop-tail queue, then propagation delay, in the data
//! direction; propagation delay alone in the ACK direction; random loss on either.

pub mod bottleneck;
pub mod delay_line;
pub mod loss;
pub mod path;

pub use bottleneck::{Bottleneck, Enqueued};
pub use delay_line::DelayLine;
pub use loss::{LossModel, StagedDrops};
pub use path::{Direction, Fate, Path, PathShape};
