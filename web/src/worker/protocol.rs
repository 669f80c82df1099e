//! The messages between the page and its worker, and the worker's answer to one request.

use serde::{Deserialize, Serialize};
use tcplab::view::RunView;
use tcplab::{RunOptions, Scenario};

/// The page's event budget. The worker simulates about 4 million events a second in Chromium
/// (docs/performance.md), so a run stops after at most a few seconds; the runner's budget is
/// ten times larger, and a run that needs more says so and names the command that finishes it.
pub const PAGE_MAX_EVENTS: u64 = 20_000_000;

/// A request from the page: run the scenario of `query`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Request {
    pub id: u64,
    pub query: String,
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
    let reply = match serde_json::from_str::<Request>(request) {
        Err(e) => Reply::error(None, format!("not a request: {e}")),
        Ok(Request { id, query }) => match Scenario::parse(&query) {
            Err(e) => Reply::error(Some(id), e.to_string()),
            Ok(scenario) => {
                let options = RunOptions {
                    max_events: PAGE_MAX_EVENTS,
                    ..RunOptions::default()
                };
                let started = now();
                let result = tcplab::run(&scenario, &options);
                let took = now() - started;
                let mut view = RunView::new(&scenario, &result);
                view.summary.sim_wall_ms = took;
                Reply {
                    id: Some(id),
                    view: Some(view),
                    ..Reply::default()
                }
            }
        },
    };
    serde_json::to_string(&reply).unwrap_or_else(|e| {
        format!(
            "{{\"error\":{}}}",
            serde_json::Value::String(format!("the view could not be written: {e}"))
        )
    })
}
