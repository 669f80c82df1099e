//! tcplab: a deterministic discrete-event simulator of TCP over a bottleneck link.
//!
//! One module per idea: [`scenario`] describes an experiment; [`sim`] runs it on the [`engine`]
//! over the [`link`] between the [`tcp`] endpoints, with a congestion controller from [`cc`]
//! and an application from [`workload`]; [`metrics`] says what happened and [`theory`] what
//! should have.

pub mod capture;
pub mod cc;
pub mod diagnose;
pub mod engine;
pub mod lesson;
pub mod link;
mod memo;
pub mod metrics;
pub mod packet;
pub mod player;
pub mod rate;
pub mod rng;
pub mod scenario;
pub mod sim;
pub mod sweep;
pub mod tcp;
pub mod theory;
pub mod time;
pub mod view;
pub mod workload;

pub use metrics::summary::Summary;
pub use metrics::trace::Tracing;
pub use scenario::{App, Aqm, CcAlgo, Scenario, ScenarioError};
pub use sim::{run, RunOptions, RunResult};
