//! The messages between the page and its worker, and the worker's answer to one request.

use serde::{Deserialize, Serialize};
use tcplab::metrics::trace::TraceKind;
use tcplab::player::{StepWindow, Steps};
use tcplab::view::RunView;
use tcplab::{RunOptions, Scenario, Summary};

/// The page's event budget. The worker simulates 6 to 9 million events a second on a long run
/// in Chromium (docs/performance.md), so a run stops after at most a few seconds; the runner's
/// budget is ten times larger, and a run that needs more says so and names the command that
/// finishes it.
pub const PAGE_MAX_EVENTS: u64 = 20_000_000;

/// A request from the page: run the scenario of `query`, and answer with what `want` names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Request {
    pub id: u64,
    pub query: String,
    #[serde(default, skip_serializing_if = "Want::is_view")]
    pub want: Want,
}

/// What a request wants back. A sweep's runs need only their summaries (a few hundred bytes
/// where a view is a few hundred kilobytes); an export wants a trace as `tcplab trace` prints it.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Want {
    /// The whole `RunView`, for the charts.
    #[default]
    View,
    /// The run's steps in a window, for the player; the run ends with the record. A long run
    /// has millions of steps: the player asks for the part around its cursor, and asks again
    /// as the cursor nears an edge. [`answer_packed`] sends them as bytes beside the JSON
    /// ([`encode_steps`]).
    Steps(StepWindow),
    /// The `Summary` alone.
    Summary,
    /// One trace as CSV, by its name in `tcplab trace --what`.
    Trace(String),
}

impl Want {
    pub fn is_view(&self) -> bool {
        *self == Want::View
    }
}

/// What the worker posts. `ready` alone, once, when it can take requests; otherwise `id` with
/// either `view` or `error`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Reply {
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ready: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub view: Option<RunView>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<Summary>,
    /// The steps a [`Want::Steps`] asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<Steps>,
    /// A trace, as `tcplab trace` prints it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub csv: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl Reply {
    pub fn ready() -> Reply {
        Reply {
            ready: true,
            ..Reply::default()
        }
    }

    fn error(id: Option<u64>, error: String) -> Reply {
        Reply {
            id,
            error: Some(error),
            ..Reply::default()
        }
    }
}

/// The worker's whole job: one request in, one reply out, as JSON. `now` reads a clock in ms
/// (the simulator itself never does); the time the simulation took goes into the summary's
/// `sim_wall_ms`, as the runner reports it.
pub fn answer(request: &str, now: impl Fn() -> f64) -> String {
    to_json(&reply(request, now))
}

/// The worker's answer as it posts it: the JSON, and a run's steps as bytes when it recorded
/// them (the JSON's `steps` is then left out). A lesson has a few thousand steps and a fast run
/// the cap of 100 000: as JSON those are tens of megabytes that the page would parse on its own
/// thread; as postcard they are a few bytes a field, cross by transfer, and are read without
/// parsing text (docs/performance.md, "The player's steps").
pub fn answer_packed(request: &str, now: impl Fn() -> f64) -> (String, Option<Vec<u8>>) {
    let mut reply = reply(request, now);
    let packed = match reply.steps.take().map(|s| encode_steps(&s)) {
        None => None,
        Some(Ok(bytes)) => Some(bytes),
        Some(Err(e)) => {
            reply.error = Some(e);
            None
        }
    };
    (to_json(&reply), packed)
}

/// The view the worker sends for `query`, through its JSON both ways: the unit tests' run.
#[cfg(test)]
pub(crate) fn run_view(query: &str) -> RunView {
    let request = serde_json::to_string(&Request {
        id: 7,
        query: query.to_string(),
        want: Default::default(),
    })
    .expect("a request");
    let reply: Reply = serde_json::from_str(&answer(&request, || 0.0)).expect("a reply");
    assert_eq!(reply.id, Some(7));
    reply.view.expect("a view")
}

pub use tcplab_wire::{decode_steps, encode_steps};

fn reply(request: &str, now: impl Fn() -> f64) -> Reply {
    match serde_json::from_str::<Request>(request) {
        Err(e) => Reply::error(None, format!("not a request: {e}")),
        Ok(Request { id, query, want }) => match Scenario::parse(&query) {
            Err(e) => Reply::error(Some(id), e.to_string()),
            Ok(scenario) => run(id, &scenario, &want, now),
        },
    }
}

fn to_json(reply: &Reply) -> String {
    serde_json::to_string(reply).unwrap_or_else(|e| {
        format!(
            "{{\"error\":{}}}",
            serde_json::Value::String(format!("the view could not be written: {e}"))
        )
    })
}

fn run(id: u64, scenario: &Scenario, want: &Want, now: impl Fn() -> f64) -> Reply {
    let trace = match want {
        Want::Trace(name) => match name.parse::<TraceKind>() {
            Ok(kind) => Some(kind),
            Err(e) => return Reply::error(Some(id), e),
        },
        _ => None,
    };
    let options = RunOptions {
        max_events: PAGE_MAX_EVENTS,
        record_steps: match (want, trace) {
            (Want::Steps(window), _) => Some(StepWindow::from(window.from_ms)),
            (_, Some(TraceKind::Steps)) => Some(StepWindow::from(0.0)),
            _ => None,
        },
        ..RunOptions::default()
    };
    let started = now();
    let result = tcplab::run(scenario, &options);
    let took = now() - started;
    let mut reply = Reply {
        id: Some(id),
        ..Reply::default()
    };
    match (want, trace) {
        (_, Some(kind)) => reply.csv = Some(result.trace_csv(kind)),
        (Want::Steps(_), _) => reply.steps = result.steps,
        (Want::Summary, _) => {
            let mut summary = result.summary;
            // As the runner writes them.
            summary.sim_wall_ms = took;
            summary.scenario = scenario.to_query();
            reply.summary = Some(summary);
        }
        _ => {
            let mut view = RunView::new(scenario, &result);
            view.summary.sim_wall_ms = took;
            reply.view = Some(view);
        }
    }
    reply
}
