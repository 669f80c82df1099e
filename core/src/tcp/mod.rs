//! The TCP endpoints: the sender with its loss recovery, the receiver, RTT estimation and the
//! SACK scoreboard.

pub mod pacer;
pub mod rack;
pub mod ranges;
pub mod rate;
pub mod receiver;
pub mod rtt;
pub mod scoreboard;
pub mod sender;
pub mod timer;
pub mod tlp;
pub mod undo;

pub use receiver::{Receiver, ReceiverConfig};
pub use sender::{CaState, Sender, SenderConfig};
