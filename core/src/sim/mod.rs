//! Runs a scenario: wires the engine, the link, the endpoints and the workload together, and
//! reports what happened.

mod invariants;
mod observe;
mod record;
mod report;
mod world;

pub use invariants::Invariants;
pub use report::{delay_stats, goodput_window, hol_stats, msg_stats, window_stats};
pub use world::Stop;

use crate::metrics::summary::Summary;
use crate::metrics::trace::{TraceKind, Traces, Tracing};
use crate::player::Steps;
use crate::scenario::Scenario;
use crate::workload::MessageLog;

/// Limits of one run.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunOptions {
    /// The hard event budget: a run that reaches it stops and says so in its summary.
    pub max_events: u64,
    /// Keep the steps, with their explanations' numbers, for the player: which ones.
    pub record_steps: Option<crate::player::StepWindow>,
    /// The most packets that may be on the path at once (queued or on a wire). Memory grows with
    /// them, so a scenario whose windows would hold more (a gigabyte window of 64-byte segments
    /// over a long path) stops here and says so, as at the event budget.
    pub max_in_flight: usize,
    /// Capture the run's packets at one of its hosts, as tcpdump there would.
    pub capture: Option<crate::capture::CaptureOptions>,
    /// Which traces to keep: those the charts draw, every one (`tcplab trace`), or none for a
    /// run wanted for its summary alone, which reads none of them.
    pub traces: Tracing,
}

impl RunOptions {
    /// The runner's budget: enough for a minute of a 1 Gbit/s flow, and a bound on the time and
    /// memory of the worst scenario the parser accepts.
    pub const RUNNER_MAX_EVENTS: u64 = 200_000_000;

    /// About 150 bytes of simulator state per packet on the path: 400 000 packets keep a run
    /// well under 256 MB.
    pub const MAX_IN_FLIGHT: usize = 400_000;

    /// The options of a run wanted for its summary (or its capture) alone: the same summary, no
    /// traces.
    pub fn summary_only() -> Self {
        RunOptions {
            traces: Tracing::Off,
            ..Self::default()
        }
    }
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            max_events: Self::RUNNER_MAX_EVENTS,
            record_steps: None,
            max_in_flight: Self::MAX_IN_FLIGHT,
            capture: None,
            traces: Tracing::Charts,
        }
    }
}

/// What a run produced.
#[derive(Debug, Clone)]
pub struct RunResult {
    pub summary: Summary,
    /// Empty, a series per flow with no rows, if the run kept none (`RunOptions::traces`).
    pub traces: Traces,
    pub stop: Stop,
    pub invariants: Invariants,
    /// Work the budget charged beside the events (`engine::Scheduler::charge`): segments walked
    /// by the senders' loss bookkeeping.
    pub work: u64,
    /// Bytes each flow's receiving application read.
    pub delivered: Vec<u64>,
    /// Every message and head-of-line event (app=msgs).
    pub messages: Option<MessageLog>,
    /// Every step, if recorded.
    pub steps: Option<Steps>,
    /// When the last event happened: the end of the run's time axis.
    pub end: crate::time::Instant,
    /// The run's packets as captured, if asked for.
    pub capture: Option<crate::capture::Capture>,
    /// A link of opportunities: the payload it could carry while the goodput was measured
    /// (`report::link_offered`), which the verdict holds the goodput to.
    pub link_offered: Option<crate::rate::MBytePerS>,
}

impl RunResult {
    /// One trace as CSV with a header line.
    pub fn trace_csv(&self, kind: TraceKind) -> String {
        match (kind, &self.messages, &self.steps) {
            (TraceKind::Msgs, Some(log), _) => log.csv(),
            (TraceKind::Steps, _, Some(steps)) => steps.csv(),
            _ => self.traces.csv(kind),
        }
    }
}

/// Simulates `scenario` and summarises it. Deterministic: the same scenario and options give the
/// same result on every platform. The summary's `sim_wall_ms` is left at zero: the library reads
/// no clock, and the caller may time the call.
pub fn run(scenario: &Scenario, options: &RunOptions) -> RunResult {
    let mut world = world::World::new(scenario, options);
    let stop = world.run();
    let summary = report::summarise(scenario, &world, stop);
    let link_offered = report::link_offered(scenario, &world);
    let mut end = world.last_event();
    // The run's numbers are the run's as it finished; its capture, its traces and its steps go
    // on to the ACKs of the last data (`World::run_until_acked`), as a real transfer's do: the
    // sequence chart's ACK line reaches the body's end.
    let drawn = world.traces.is_some() || world.steps.is_some();
    if stop == Stop::Finished && (drawn || world.capture.is_some()) {
        world.run_until_acked();
        if drawn {
            // The time axis the traces and steps are drawn on ends with them.
            end = world.last_event();
        }
    }
    let delivered = world.flows.iter().map(|f| f.delivered).collect();
    RunResult {
        delivered,
        messages: world.messages.take(),
        steps: world.steps.take(),
        end,
        capture: world.capture.take().map(crate::capture::Tap::finish),
        summary,
        link_offered,
        invariants: world.invariants,
        work: world.work(),
        traces: world
            .traces
            .unwrap_or_else(|| Traces::empty(world.flows.len())),
        stop,
    }
}
