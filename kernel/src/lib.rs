//! The kernel twin: a scenario of the lab run through this machine's own Linux TCP, between two
//! network namespaces joined by a user-space router that emulates the scenario's path with the
//! simulator's own path model. Its summary has the simulator's fields, so the two engines can be
//! set side by side (`tcplab-kernel validate`).
//!
//! Linux only; the simulator (`tcplab`) stays free of it.

#[cfg(target_os = "linux")]
pub mod apps;
pub mod hol;
#[cfg(target_os = "linux")]
pub mod host;
pub mod ip;
#[cfg(target_os = "linux")]
pub mod netns;
pub mod plan;
#[cfg(target_os = "linux")]
pub mod router;
#[cfg(target_os = "linux")]
pub mod summary;
#[cfg(target_os = "linux")]
pub mod sys;
#[cfg(target_os = "linux")]
pub mod trace;
#[cfg(target_os = "linux")]
pub mod twin;
#[cfg(target_os = "linux")]
pub mod validate;
pub mod window;
