//! The step-through player's record: every event of a run, in order, with the sender's state
//! after it and a sentence that explains it in English and Chinese.
//!
//! Recording is off unless asked for (`RunOptions::record_steps`), so ordinary runs pay one
//! branch per event; a recorded run keeps at most [`MAX_STEPS`] steps from the instant it was
//! asked to start at ([`StepWindow`]) and says if it stopped short. The run is deterministic, so the recorded state at any step is exactly what stepping
//! forward showed, and stepping back is reading the record backwards.

pub mod explain;
pub mod step;
pub mod trip;

pub use explain::{explain, Language};
pub use step::{
    CaLabel, DropCause, FlowState, Growth, QueueWhy, SlowStartEnd, Step, StepKind, StepTag,
    StepWindow, Steps, MAX_STEPS,
};
pub use trip::{Cargo, OneWay, Trip, TripEnd};

/// The columns of `tcplab trace --what steps`.
pub const STEPS_CSV_HEADER: &str =
    "t_ms,flow,kind,cwnd_mss,ssthresh_mss,in_flight_mss,state,queue,explanation\n";

impl Steps {
    /// The steps as CSV, with the English explanation quoted.
    pub fn csv(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::from(STEPS_CSV_HEADER);
        let m = f64::from(self.mss.max(1));
        for s in &self.steps {
            let st = &s.state;
            let ssthresh = st
                .ssthresh
                .map(|v| format!("{}", v as f64 / m))
                .unwrap_or_default();
            let text = explain(s, self, Language::En).replace('"', "\"\"");
            let ca = serde_json::to_value(st.ca)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "{},{},{},{},{ssthresh},{},{ca},{},\"{text}\"",
                s.t_ms,
                s.flow,
                s.kind.name(),
                st.cwnd as f64 / m,
                st.in_flight as f64 / m,
                st.queue
            );
        }
        if self.truncated {
            let _ = writeln!(out, "# truncated after {} steps", MAX_STEPS);
        }
        out
    }
}
