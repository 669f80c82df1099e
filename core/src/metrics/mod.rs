//! What a run measured: the summary of the spec and the bounded traces behind the charts.

pub mod fairness;
pub mod series;
pub mod stats;
pub mod summary;
pub mod trace;
