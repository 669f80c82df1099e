//! The messages between the page and its workers, and the simulator's worker's answer to one
//! request.
//!
//! Between the page and the simulator's worker they are postcard bytes ([`encode_request`],
//! [`encode_reply`]), as the run's view and steps beside them already were: the page then needs
//! no JSON parser, which was about a tenth of its first screen's module (docs/performance.md,
//! "What the page downloads"). Postcard is not self-describing, so no field is ever left out
//! when empty (no `skip_serializing_if`): a reader takes every field in order. The capture
//! worker, which only the diagnosis starts, still speaks JSON ([`answer_file`], [`FileReply`]).

use serde::{Deserialize, Serialize};
use tcplab::capture::analyze::{Analysis, AnalyzeError, CaptureFile, Connection, Curves, Wording};
use tcplab::capture::{CaptureOptions, CapturePoint};
use tcplab::diagnose::{Explanation, Measured};
use tcplab::metrics::trace::TraceKind;
use tcplab::player::{Language, StepWindow, Steps};
use tcplab::view::RunView;
use tcplab::{RunOptions, Scenario, Summary, Tracing};

use super::sealed::Sealed;
use crate::charts::series::decimate;

pub use tcplab_wire::PAGE_MAX_EVENTS;

/// A request from the page: run the scenario of `query`, and answer with what `want` names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Request {
    pub id: u64,
    pub query: String,
    #[serde(default)]
    pub want: Want,
    /// The Mahimahi trace of a query whose link is one (`link=trace`), as the file's text.
    #[serde(default)]
    pub trace: Option<String>,
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
    /// as the cursor nears an edge. [`answer_packed`] sends them as bytes beside the reply
    /// ([`encode_steps`]).
    Steps(StepWindow),
    /// The `Summary` alone.
    Summary,
    /// One trace as CSV, by its name in `tcplab trace --what`.
    Trace(String),
    /// The run captured at one host, as `tcplab pcap` writes it: the file comes as bytes beside
    /// the reply, as steps do.
    Pcap(CapturePoint),
    /// "My number, explained" on the request's path.
    Explain(Measured),
    /// The capture file sent beside the request, analysed: its connections, the one named (or
    /// the largest), and the run of the scenario that fits it. The worker says how far it has
    /// read as it goes (`FileReply::progress`).
    Analyze { conn: Option<usize> },
}

/// What the worker posts. `ready` alone, once, when it can take requests; otherwise `id` with
/// either `view` or `error`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Reply {
    #[serde(default)]
    pub ready: bool,
    #[serde(default)]
    pub id: Option<u64>,
    /// Never in the reply itself: it crosses as bytes beside it (`packed`).
    #[serde(skip)]
    pub view: Option<RunView>,
    #[serde(default)]
    pub summary: Option<Summary>,
    /// The steps a [`Want::Steps`] asked for; as `view`, beside the reply.
    #[serde(skip)]
    pub steps: Option<Steps>,
    /// A trace, as `tcplab trace` prints it.
    #[serde(default)]
    pub csv: Option<String>,
    /// What a [`Want::Pcap`]'s file holds (the file comes as bytes beside the reply).
    #[serde(default)]
    pub pcap: Option<PcapInfo>,
    /// "My number, explained", read by the diagnosis alone ([`Sealed`]).
    #[serde(default)]
    pub explanation: Option<Sealed<Explanation>>,
    #[serde(default)]
    pub error: Option<String>,
    /// What the bytes beside the reply are, when it has some.
    #[serde(default)]
    pub packed: Option<Packed>,
}

/// The bytes a reply carries beside it: its view or its steps as postcard
/// (`tcplab-wire`), or a capture file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Packed {
    View,
    Steps,
    Pcap,
}

impl Reply {
    pub fn ready() -> Reply {
        Reply {
            ready: true,
            ..Reply::default()
        }
    }

    pub fn error(id: Option<u64>, error: String) -> Reply {
        Reply {
            id,
            error: Some(error),
            ..Reply::default()
        }
    }
}

/// What the capture worker posts, as JSON: `ready` alone, once, when it can take requests; how
/// far an analysis has read its file; then `id` with the analysis or an error. A type of its
/// own, so that the page's reader of the simulator's replies carries no capture's.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct FileReply {
    #[serde(default)]
    pub ready: bool,
    #[serde(default)]
    pub id: Option<u64>,
    #[serde(default)]
    pub capture: Option<Box<CaptureReply>>,
    /// How far an analysis has read its file, 0 to 1: a message of its own before the answer.
    #[serde(default)]
    pub progress: Option<f64>,
    #[serde(default)]
    pub error: Option<String>,
    /// The same, in Chinese, where the analysis says why it could not read the file.
    #[serde(default)]
    pub error_zh: Option<String>,
}

impl FileReply {
    pub fn ready() -> FileReply {
        FileReply {
            ready: true,
            ..FileReply::default()
        }
    }

    pub fn error(id: Option<u64>, error: String) -> FileReply {
        FileReply {
            id,
            error: Some(error),
            ..FileReply::default()
        }
    }

    /// The analysis refused the file: why, in both languages.
    pub fn refused(id: u64, e: &AnalyzeError) -> FileReply {
        FileReply {
            id: Some(id),
            error: Some(e.say(Language::En)),
            error_zh: Some(e.say(Language::Zh)),
            ..FileReply::default()
        }
    }

    /// The message as the worker posts it; one that cannot be written says so instead.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| {
            format!(
                "{{\"error\":{}}}",
                serde_json::Value::String(format!("the analysis could not be written: {e}"))
            )
        })
    }
}

/// What a capture file of a run holds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PcapInfo {
    pub packets: u64,
    /// When the packet limit cut the capture short, ms.
    pub full_at_ms: Option<f64>,
}

/// A capture analysed, as the page shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaptureReply {
    pub connections: Vec<Connection>,
    pub analysis: Analysis,
    /// The analysis's sentences in Chinese.
    pub zh: Wording,
    /// Thinned for the charts ([`CURVE_COLUMNS`]): a capture of a million packets has a
    /// million points a series, which would cost the page's thread seconds to read.
    pub curves: Curves,
}

/// The widest chart's columns, in device pixels, that a capture's curves are thinned to (each
/// column keeps its first, lowest, highest and last point, as the charts draw them).
pub const CURVE_COLUMNS: usize = 2048;

/// The most packets the page captures of a run: about 30 MB of file.
pub const PAGE_MAX_PACKETS: u64 = 200_000;

/// A request as the page posts it to the simulator's worker.
pub fn encode_request(request: &Request) -> Result<Vec<u8>, String> {
    postcard::to_allocvec(request).map_err(|e| format!("the request could not be written: {e}"))
}

/// A request as the simulator's worker reads it.
pub fn decode_request(bytes: &[u8]) -> Result<Request, String> {
    postcard::from_bytes(bytes).map_err(|e| format!("not a request: {e}"))
}

/// The simulator's worker's answer, or a part of it ([`Sealed`]), as postcard bytes.
pub(crate) fn write_answer<T: Serialize>(answer: &T) -> Result<Vec<u8>, String> {
    postcard::to_allocvec(answer).map_err(|e| format!("the answer could not be written: {e}"))
}

/// The simulator's worker's answer, or a part of it, read back.
pub(crate) fn read_answer<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, String> {
    postcard::from_bytes(bytes).map_err(|e| format!("the simulator's answer is unreadable: {e}"))
}

/// A reply as the simulator's worker posts it; one that cannot be written says so instead.
pub fn encode_reply(reply: &Reply) -> Vec<u8> {
    write_answer(reply)
        .or_else(|e| write_answer(&Reply::error(reply.id, e)))
        .unwrap_or_default()
}

/// A reply as the page reads it.
pub fn decode_reply(bytes: &[u8]) -> Result<Reply, String> {
    read_answer(bytes)
}

/// The worker's whole job, one request in and one reply out, as the page reads it: through the
/// wire both ways, the reply and the bytes beside it. `now` reads a clock in ms (the simulator
/// itself never does); the time the simulation took goes into the summary's `sim_wall_ms`, as
/// the runner reports it.
pub fn answer(request: &[u8], now: impl Fn() -> f64) -> Reply {
    let (head, bytes) = answer_packed(request, now);
    let mut reply = decode_reply(&head).unwrap_or_else(|e| Reply::error(None, e));
    let _file = unpack(&mut reply, bytes);
    reply
}

/// The worker's answer as it posts it: the reply, and a run's view, its steps or a capture file
/// as bytes beside it (the reply's `packed` says which, and leaves them out of itself). They
/// cross by transfer, and a view, a few hundred kilobytes, is read by `tcplab-wire`, built for
/// speed (docs/performance.md, "Input to charts drawn" and "The player's steps").
pub fn answer_packed(request: &[u8], now: impl Fn() -> f64) -> (Vec<u8>, Option<Vec<u8>>) {
    let (mut reply, file) = match decode_request(request) {
        Ok(request) => reply(request, now),
        Err(e) => (Reply::error(None, e), None),
    };
    let packed = if let Some(view) = reply.view.take() {
        Some((Packed::View, tcplab_wire::encode_view(&view)))
    } else if let Some(steps) = reply.steps.take() {
        Some((Packed::Steps, encode_steps(&steps)))
    } else {
        file.map(|f| (Packed::Pcap, Ok(f)))
    };
    let bytes = match packed {
        None => None,
        Some((what, Ok(bytes))) => {
            reply.packed = Some(what);
            Some(bytes)
        }
        Some((_, Err(e))) => {
            reply.error = Some(e);
            None
        }
    };
    (encode_reply(&reply), bytes)
}

/// Reads the bytes beside a reply back into it, as `packed` names them: a view or steps
/// into their fields; a capture file is handed back as it came.
pub fn unpack(reply: &mut Reply, bytes: Option<Vec<u8>>) -> Option<Vec<u8>> {
    let bytes = bytes?;
    match reply.packed {
        Some(Packed::View) => match decode_view(&bytes) {
            Ok(view) => reply.view = Some(view),
            Err(e) => reply.error = Some(e),
        },
        Some(Packed::Steps) => match decode_steps(&bytes) {
            Ok(steps) => reply.steps = Some(steps),
            Err(e) => reply.error = Some(e),
        },
        Some(Packed::Pcap) => return Some(bytes),
        None => reply.error = Some("the simulator sent bytes it did not name".into()),
    }
    None
}

/// The worker's answer to a request that came with a file: a capture to analyse. `post`
/// sends the page a progress message now and then, as the file is read, before the answer.
pub fn answer_file(request: &str, file: &[u8], post: &mut dyn FnMut(&str)) -> String {
    let reply = match serde_json::from_str::<Request>(request) {
        Err(e) => FileReply::error(None, format!("not a request: {e}")),
        Ok(Request {
            id,
            want: Want::Analyze { conn },
            ..
        }) => match analyze(file, conn, &mut |share| post(&progress_json(id, share))) {
            Ok(c) => FileReply {
                id: Some(id),
                capture: Some(Box::new(c)),
                ..FileReply::default()
            },
            Err(e) => FileReply::refused(id, &e),
        },
        Ok(Request { id, .. }) => FileReply::error(
            Some(id),
            "a file came with a request that wants none".into(),
        ),
    };
    reply.to_json()
}

/// A progress message for request `id`.
pub fn progress_json(id: u64, share: f64) -> String {
    FileReply {
        id: Some(id),
        progress: Some(share),
        ..FileReply::default()
    }
    .to_json()
}

fn analyze(
    file: &[u8],
    conn: Option<usize>,
    progress: &mut dyn FnMut(f64),
) -> Result<CaptureReply, AnalyzeError> {
    let len = file.len().max(1) as f64;
    let read = CaptureFile::read(file, &mut |bytes| progress(bytes as f64 / len))?;
    let n = conn.unwrap_or_else(|| read.largest());
    let tcplab::capture::analyze::Analyzed { analysis, zh } = read.analyze_in_both(n)?;
    progress(1.0);
    let c = &analysis.curves;
    let end = [&c.sent, &c.acked, &c.in_flight, &c.rwnd]
        .iter()
        .filter_map(|v| v.last().map(|p| p.0))
        .fold(0.0f64, f64::max);
    let thin = |v: &[(f64, f64)]| decimate(v, 0.0, end.max(1.0), CURVE_COLUMNS);
    let curves = Curves {
        sent: thin(&c.sent),
        retransmits: thin(&c.retransmits),
        acked: thin(&c.acked),
        in_flight: thin(&c.in_flight),
        rwnd: thin(&c.rwnd),
        rtt: thin(&c.rtt),
        goodput: thin(&c.goodput),
        goodput_window_ms: c.goodput_window_ms,
    };
    Ok(CaptureReply {
        connections: read.connections.clone(),
        curves,
        zh,
        analysis,
    })
}

/// The view the worker sends for `query`, through the wire both ways: the unit tests' run.
#[cfg(test)]
pub(crate) fn run_view(query: &str) -> RunView {
    let request = encode_request(&Request {
        id: 7,
        query: query.to_string(),
        want: Default::default(),
        trace: None,
    })
    .expect("a request");
    let reply = answer(&request, || 0.0);
    assert_eq!(reply.id, Some(7));
    reply.view.expect("a view")
}

/// The steps the worker records for `query` from `from_ms`, as the player asks for them: the
/// unit tests' record.
#[cfg(test)]
pub(crate) fn run_steps(query: &str, from_ms: f64) -> Steps {
    let request = encode_request(&Request {
        id: 8,
        query: query.to_string(),
        want: Want::Steps(StepWindow::from(from_ms)),
        trace: None,
    })
    .expect("a request");
    answer(&request, || 0.0).steps.expect("steps")
}

pub use tcplab_wire::{decode_steps, decode_view, encode_steps};

/// The request's scenario: its query, over the trace it brings for `link=trace`.
fn scenario_of(query: &str, trace: Option<&str>) -> Result<Scenario, String> {
    match trace {
        None => Scenario::parse(query).map_err(|e| e.to_string()),
        Some(text) => {
            let trace = tcplab::link::opportunity::LinkTrace::parse(text)
                .map_err(|e| format!("link: the trace: {e}"))?;
            Scenario::parse_with_trace(query, trace).map_err(|e| e.to_string())
        }
    }
}

/// The reply, and a file that goes beside it as bytes (a capture).
fn reply(request: Request, now: impl Fn() -> f64) -> (Reply, Option<Vec<u8>>) {
    let Request {
        id,
        query,
        want,
        trace,
    } = request;
    match scenario_of(&query, trace.as_deref()) {
        Err(e) => (Reply::error(Some(id), e), None),
        Ok(scenario) => match want {
            Want::Explain(measured) => (explain(id, &scenario, measured), None),
            Want::Pcap(at) => capture(id, &scenario, at),
            Want::Analyze { .. } => (
                Reply::error(Some(id), "an analysis needs its capture file".into()),
                None,
            ),
            want => (run(id, &scenario, &want, now), None),
        },
    }
}

fn explain(id: u64, scenario: &Scenario, measured: Measured) -> Reply {
    match tcplab::diagnose::explain(scenario, measured).map_err(|e| e.to_string()) {
        Ok(e) => match Sealed::seal(&e) {
            Ok(sealed) => Reply {
                id: Some(id),
                explanation: Some(sealed),
                ..Reply::default()
            },
            Err(e) => Reply::error(Some(id), e),
        },
        Err(e) => Reply::error(Some(id), e),
    }
}

fn capture(id: u64, scenario: &Scenario, at: CapturePoint) -> (Reply, Option<Vec<u8>>) {
    let options = RunOptions {
        max_events: PAGE_MAX_EVENTS,
        capture: Some(CaptureOptions {
            at,
            max_packets: PAGE_MAX_PACKETS,
            ..CaptureOptions::default()
        }),
        ..RunOptions::summary_only()
    };
    match tcplab::run(scenario, &options).capture {
        Some(c) => (
            Reply {
                id: Some(id),
                pcap: Some(PcapInfo {
                    packets: c.packets,
                    full_at_ms: c.full_at.map(|t| t.as_millis_f64()),
                }),
                ..Reply::default()
            },
            Some(c.bytes),
        ),
        None => (
            Reply::error(Some(id), "the run kept no capture".into()),
            None,
        ),
    }
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
        record_steps: match (want, trace) {
            (Want::Steps(window), _) => Some(StepWindow::from(window.from_ms)),
            (_, Some(TraceKind::Steps)) => Some(StepWindow::from(0.0)),
            _ => None,
        },
        // The charts' view reads the traces they draw, and a trace's download every flow's; a
        // summary and the player's steps read none, and run the faster without them.
        traces: match (want, trace) {
            (_, Some(_)) => Tracing::Full,
            (Want::View, _) => Tracing::Charts,
            _ => Tracing::Off,
        },
        ..tcplab_wire::page_options()
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
