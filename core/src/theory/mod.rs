//! Closed-form predictions laid over the simulation: what an ideal or modelled TCP would do.

pub mod path;
pub mod slow_start;
pub mod verdict;
