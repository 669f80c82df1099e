//! The step-through player: every event of a run, one at a time, each said in words with its
//! numbers, the sender's state beside it and the packets on the path at that instant.

pub mod codec;
