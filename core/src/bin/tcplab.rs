//! `tcplab`: runs scenarios from the command line and prints what they measured.
//!
//! ```text
//! tcplab run   'QUERY'                                   one JSON object
//! tcplab sweep 'QUERY' --key K --values v1,v2 [--seeds N] [--table] [--jobs N] [--shard K/N]
//!                                                                       JSON lines, or a CSV table
//! tcplab trace 'QUERY' --what cwnd|throughput|seq|rtt|msgs|queue|steps   CSV
//! tcplab pcap  'QUERY' --out FILE [--at sender|receiver]    a capture file, and one JSON line
//! tcplab analyze FILE [--conn N|all] [--list]                JSON lines, one per connection
//! tcplab explain 'QUERY' --goodput MBps | --time MS          one JSON object
//! ```
//!
//! Exit status 0 on success, 2 on a bad scenario or bad arguments (the message names the key or
//! the option), 1 on an internal error. Everything is checked before the first run, so a typo
//! in the last value of a sweep costs no simulation.

use std::ffi::OsString;
use std::io::{self, Write};
use std::panic::{self, AssertUnwindSafe};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use tcplab::capture::analyze::{AnalyzeError, CaptureFile};
use tcplab::capture::{CaptureOptions, CapturePoint, Format};
use tcplab::diagnose::Measured;
use tcplab::metrics::trace::TraceKind;
use tcplab::player::StepWindow;
use tcplab::scenario::{decode_component, Key};
use tcplab::sweep;
use tcplab::{run, RunOptions, RunResult, Scenario, ScenarioError, Tracing};

/// The `--help` text; `{budget}` is the default event budget.
const HELP: &str = "\
tcplab: a deterministic TCP throughput lab

Usage:
  tcplab run   'QUERY' [--traces] [--max-events N]
  tcplab sweep 'QUERY' --key KEY --values V1,V2,... [--flow N] [--seeds N] [--table]
               [--jobs N] [--shard K/N] [--max-events N]
  tcplab trace 'QUERY' --what cwnd|throughput|seq|rtt|msgs|queue|steps [--max-events N]
  tcplab pcap  'QUERY' --out FILE [--at sender|receiver] [--format pcap|pcapng]
               [--snaplen N] [--max-packets N] [--max-events N]
  tcplab analyze FILE [--conn N|all] [--list]
  tcplab explain 'QUERY' --goodput MB/s | --time MS

run, sweep, trace and pcap take --link-trace FILE: a Mahimahi trace (a millisecond a line, one
delivery of 1504 bytes each, repeating) as the bottleneck's link (link=trace; bw becomes its
mean rate).

QUERY is the page's query string, e.g. 'preset=loss-sweep&loss=2' or 'rtt=28ms&body=20Mb';
quote it, as the shell reads & itself. An empty or missing QUERY is the defaults.

run     prints one JSON object: the summary of the run.
sweep   runs the scenario once for each value of KEY and each of N seeds (seed, seed+1, ...),
        one JSON object a line. Values take units as in a query (--values 1ms,10ms,100ms);
        write %2C for a comma inside one value (--key drop --values 5%2C9,7). With --flow N a
        key of one value per flow (cc, rtt, iw, start) takes each value for flow N alone
        (--key rtt --flow 2 --values 10,40,160: the second flow's RTT).
        --table prints instead one CSV row per value: the median, least and most goodput
        of its seeds, completion, p99 latency, retransmitted %, the theory for the point
        (Mathis under loss, else link or window limit; ideal completion for a body) and
        measured / theory, as the page's sweep table.
        --jobs N runs N simulations at once (default: every core); --shard K/N runs the
        K-th of N contiguous shares of the values, for spreading a large sweep over
        machines. The output is the same bytes whatever N: lines in the order of the
        values and seeds, sim_wall_ms null (a sweep's lines depend on its arguments alone),
        and the shards' outputs concatenated in order are the whole sweep's.
trace   prints one trace of the run as CSV.
pcap    writes the run's packets to FILE as tcpdump on one host would have captured them
        (--at sender, the default, or receiver): Ethernet, IPv4 and TCP headers with their
        options, payload as zeros cut at the snap length (default {snaplen} bytes), at most
        --max-packets packets (default {max_packets}); then prints one JSON line saying what
        the file holds.
analyze reads a pcap or pcapng capture (Ethernet, Linux cooked SLL or SLL2, raw IP; VLAN
        tags; IPv4 and IPv6) and prints, for its largest TCP connection (or --conn N, or
        every one with --conn all), one JSON object: its round trip, goodput,
        retransmissions and loss, the receiver's window, where the capture was taken, what
        limited the connection, and the scenario that fits it (docs/scenario.md lists the
        fields). --list prints the connections instead, one JSON object each.
explain takes a path as known (QUERY: its rtt, bw, body...) and a number measured on it, a
        goodput in MB/s or the time one body took in ms, and finds by simulation each single
        cause that would give that number there: random loss, a fixed receive window, a
        slower bottleneck, a server's think time (--time only), or the path alone; and says
        why each of the others cannot. One JSON object.

Options:
  --max-events N   the run's event budget (default {budget})
  --traces         (run) keep every trace the page's charts draw, as the page's worker does
                   for them; the summary is the same, the run slower: for timing and
                   profiling the run the charts draw
  -h, --help       this text

Keys of QUERY (docs/scenario.md has them with their units and defaults):
{keys}
Exit status: 0 on success, 2 on a bad scenario or arguments, 1 on an internal error.
";

/// Most seeds one sweep value may run.
const MAX_SEEDS: u64 = 1_000_000;

/// Most simulations a sweep runs at once.
const MAX_JOBS: u64 = 4096;

/// What the command line asks for.
#[derive(Debug, Clone, PartialEq)]
enum Request {
    Help,
    Job(Box<Job>),
}

/// One invocation, checked: the scenario parses and every sweep value is valid.
#[derive(Debug, Clone, PartialEq)]
struct Job {
    work: Work,
    options: RunOptions,
}

#[derive(Debug, Clone, PartialEq)]
enum Work {
    Run(Scenario),
    /// One scenario per value, each run with `seeds` consecutive seeds from its own.
    Sweep {
        points: Vec<Scenario>,
        seeds: u64,
        key: Key,
        /// `--flow N` less one: the flow each value is set for alone, whose value the table's
        /// `value` and whose share its `share_median` give.
        flow: Option<usize>,
        /// `--table`: one CSV row per value (medians over its seeds) instead of a JSON line per
        /// run.
        table: bool,
        /// Simulations run at once (`--jobs`).
        jobs: usize,
        /// The share of the points this invocation runs (`--shard K/N`).
        shard: Option<sweep::Shard>,
    },
    Trace(Scenario, TraceKind),
    Pcap {
        scenario: Scenario,
        out: PathBuf,
    },
    Analyze {
        file: PathBuf,
        conn: Conn,
        list: bool,
    },
    Explain {
        scenario: Scenario,
        measured: Measured,
    },
}

/// Which connections `analyze` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Conn {
    Largest,
    One(usize),
    All,
}

/// Why the runner stops early, and with which exit status.
#[derive(Debug)]
enum Failure {
    /// Bad arguments (status 2); the message names the option.
    Usage(String),
    /// Bad scenario (status 2); the message names the key.
    Scenario(ScenarioError),
    /// A file that cannot be read or is no capture, a question that cannot be asked (status 2);
    /// the message names the file or the option, and the usage would not help.
    Input(String),
    /// The reader of stdout went away: nothing left to do (status 0).
    Closed,
    /// A bug or the environment (status 1).
    Internal(String),
}

impl Failure {
    fn usage(message: impl Into<String>) -> Self {
        Failure::Usage(message.into())
    }

    fn io(e: io::Error) -> Self {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Failure::Closed
        } else {
            Failure::Internal(format!("writing the output: {e}"))
        }
    }
}

impl From<ScenarioError> for Failure {
    fn from(e: ScenarioError) -> Self {
        Failure::Scenario(e)
    }
}

fn main() -> ExitCode {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let outcome = parse_args(args)
        .and_then(|request| match request {
            Request::Help => out.write_all(help().as_bytes()).map_err(Failure::io),
            Request::Job(job) => execute(&job, &mut out),
        })
        .and_then(|()| out.flush().map_err(Failure::io));
    let (status, message) = match outcome {
        Ok(()) | Err(Failure::Closed) => return ExitCode::SUCCESS,
        Err(Failure::Usage(m)) => (
            2,
            format!(
                "{}\nRun 'tcplab --help' for usage.",
                tcplab::scenario::escaped(&m)
            ),
        ),
        Err(Failure::Scenario(e)) => (2, e.to_string()),
        Err(Failure::Input(m)) => (2, tcplab::scenario::escaped(&m)),
        Err(Failure::Internal(m)) => (1, format!("internal error: {m}")),
    };
    // Nowhere is left to report a failure to write to stderr.
    let _ = writeln!(io::stderr(), "tcplab: {message}");
    ExitCode::from(status)
}

fn help() -> String {
    HELP.replace("{budget}", &RunOptions::default().max_events.to_string())
        .replace("{snaplen}", &CaptureOptions::DEFAULT_SNAPLEN.to_string())
        .replace(
            "{max_packets}",
            &CaptureOptions::DEFAULT_MAX_PACKETS.to_string(),
        )
        .replace("{keys}", &tcplab::scenario::table_text())
}

/// Reads the arguments after the program name into a checked request.
fn parse_args(args: Vec<OsString>) -> Result<Request, Failure> {
    let args = args
        .into_iter()
        .map(|a| {
            a.into_string()
                .map_err(|a| Failure::usage(format!("{}: not valid UTF-8", a.to_string_lossy())))
        })
        .collect::<Result<Vec<String>, Failure>>()?;
    if args.iter().any(|a| a == "--help" || a == "-h") {
        return Ok(Request::Help);
    }
    let Some((command, rest)) = args.split_first() else {
        return Err(Failure::usage(
            "missing command (run, sweep, trace, pcap, analyze or explain)",
        ));
    };
    let command = match command.as_str() {
        "help" => return Ok(Request::Help),
        "run" => Command::Run,
        "sweep" => Command::Sweep,
        "trace" => Command::Trace,
        "pcap" => Command::Pcap,
        "analyze" => Command::Analyze,
        "explain" => Command::Explain,
        other => {
            return Err(Failure::usage(format!(
                "unknown command \"{other}\" (commands: run, sweep, trace, pcap, analyze, explain)"
            )))
        }
    };
    let flags = Flags::read(command, rest)?;
    if command == Command::Analyze {
        let file = flags
            .query
            .as_deref()
            .ok_or_else(|| Failure::usage("analyze: which capture file? (tcplab analyze FILE)"))?;
        let conn = match flags.conn.as_deref() {
            None => Conn::Largest,
            Some("all") => Conn::All,
            Some(n) => Conn::One(whole("--conn", n, 1, u64::from(u32::MAX))? as usize),
        };
        return Ok(Request::Job(Box::new(Job {
            work: Work::Analyze {
                file: PathBuf::from(file),
                conn,
                list: flags.list,
            },
            options: RunOptions::default(),
        })));
    }
    let query = flags.query.as_deref().unwrap_or("");
    let scenario = match &flags.link_trace {
        None => Scenario::parse(query)?,
        Some(file) => {
            let why = |e: &dyn std::fmt::Display| {
                Failure::usage(format!(
                    "--link-trace: {}: {}",
                    tcplab::scenario::escaped(file),
                    e
                ))
            };
            let text = std::fs::read_to_string(file).map_err(|e| why(&e))?;
            let trace = tcplab::link::opportunity::LinkTrace::parse(&text).map_err(|e| why(&e))?;
            Scenario::parse_with_trace(query, trace)?
        }
    };
    let mut options = RunOptions {
        max_events: match &flags.max_events {
            Some(n) => whole("--max-events", n, 1, u64::MAX)?,
            None => RunOptions::default().max_events,
        },
        ..RunOptions::default()
    };
    let work = match command {
        Command::Run => {
            // A summary reads no trace; `--traces` keeps them, to time the run the charts draw.
            options.traces = if flags.traces {
                Tracing::Charts
            } else {
                Tracing::Off
            };
            Work::Run(scenario)
        }
        Command::Explain => {
            let measured = match (&flags.goodput, &flags.time) {
                (Some(g), None) => Measured::Goodput(positive("--goodput", g)?),
                (None, Some(t)) => Measured::Time(positive("--time", t)?),
                (Some(_), Some(_)) => {
                    return Err(Failure::usage(
                        "--goodput, --time: give one of them, not both",
                    ))
                }
                (None, None) => {
                    return Err(Failure::usage(
                        "explain: what was measured? (--goodput MB/s or --time MS)",
                    ))
                }
            };
            Work::Explain { scenario, measured }
        }
        Command::Analyze => return Err(Failure::Internal("analyze takes no scenario".into())),
        Command::Pcap => {
            let out = flags
                .out
                .as_deref()
                .ok_or_else(|| Failure::usage("--out: required by pcap (the file to write)"))?;
            options.capture = Some(capture_options(&flags)?);
            Work::Pcap {
                scenario,
                out: PathBuf::from(out),
            }
        }
        Command::Trace => {
            let what = flags.what.as_deref().ok_or_else(|| {
                Failure::usage(format!(
                    "--what: required by trace ({})",
                    TraceKind::names(", ")
                ))
            })?;
            let what: TraceKind = what.parse().map_err(Failure::Usage)?;
            // Only the message workload writes messages: an empty table would say nothing.
            if what == TraceKind::Msgs && scenario.app != tcplab::App::Msgs {
                return Err(Failure::Usage(format!(
                    "--what: msgs applies to app=msgs only (this scenario has app={})",
                    scenario.app.name()
                )));
            }
            Work::Trace(scenario, what)
        }
        Command::Sweep => {
            let key = flags
                .key
                .as_deref()
                .ok_or_else(|| Failure::usage("--key: required by sweep"))?;
            let values = flags
                .values
                .as_deref()
                .ok_or_else(|| Failure::usage("--values: required by sweep"))?;
            let seeds = match &flags.seeds {
                Some(n) => whole("--seeds", n, 1, MAX_SEEDS)?,
                None => 1,
            };
            let key = sweep_key(key)?;
            let flow = match &flags.flow {
                Some(n) => {
                    Some(whole("--flow", n, 1, scenario.connections().max(1) as u64)? as usize - 1)
                }
                None => None,
            };
            let points = sweep_points(&scenario, key, flow, values, seeds)?;
            let jobs = match &flags.jobs {
                Some(n) => whole("--jobs", n, 1, MAX_JOBS)? as usize,
                None => std::thread::available_parallelism().map_or(1, std::num::NonZero::get),
            };
            let shard = match &flags.shard {
                Some(text) => Some(sweep::Shard::parse(text).ok_or_else(|| {
                    Failure::usage(format!(
                        "--shard: \"{text}\" is not K/N with 1 <= K <= N <= {}",
                        sweep::MAX_SHARDS
                    ))
                })?),
                None => None,
            };
            Work::Sweep {
                points,
                seeds,
                key,
                flow,
                table: flags.table,
                jobs,
                shard,
            }
        }
    };
    Ok(Request::Job(Box::new(Job { work, options })))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Command {
    Run,
    Sweep,
    Trace,
    Pcap,
    Analyze,
    Explain,
}

impl Command {
    fn name(self) -> &'static str {
        match self {
            Command::Run => "run",
            Command::Sweep => "sweep",
            Command::Trace => "trace",
            Command::Pcap => "pcap",
            Command::Analyze => "analyze",
            Command::Explain => "explain",
        }
    }
}

/// The capture `pcap`'s options ask for.
fn capture_options(flags: &Flags) -> Result<CaptureOptions, Failure> {
    let mut c = CaptureOptions::default();
    if let Some(at) = &flags.at {
        c.at = CapturePoint::parse(at).ok_or_else(|| {
            Failure::usage(format!(
                "--at: \"{at}\" is not a capture point (sender or receiver)"
            ))
        })?;
    }
    if let Some(format) = &flags.format {
        c.format = Format::parse(format).ok_or_else(|| {
            Failure::usage(format!(
                "--format: \"{format}\" is not a format (pcap or pcapng)"
            ))
        })?;
    }
    if let Some(n) = &flags.snaplen {
        c.snaplen = whole(
            "--snaplen",
            n,
            u64::from(CaptureOptions::MIN_SNAPLEN),
            u64::from(CaptureOptions::MAX_SNAPLEN),
        )? as u32;
    }
    if let Some(n) = &flags.max_packets {
        c.max_packets = whole("--max-packets", n, 1, 100_000_000)?;
    }
    Ok(c)
}

/// The options of one command, as written: checked for presence and repetition here, for
/// meaning by `parse_args`.
#[derive(Debug, Default)]
struct Flags {
    query: Option<String>,
    max_events: Option<String>,
    key: Option<String>,
    values: Option<String>,
    seeds: Option<String>,
    what: Option<String>,
    table: bool,
    out: Option<String>,
    at: Option<String>,
    format: Option<String>,
    snaplen: Option<String>,
    max_packets: Option<String>,
    conn: Option<String>,
    list: bool,
    traces: bool,
    goodput: Option<String>,
    time: Option<String>,
    link_trace: Option<String>,
    flow: Option<String>,
    jobs: Option<String>,
    shard: Option<String>,
}

impl Flags {
    fn read(command: Command, args: &[String]) -> Result<Flags, Failure> {
        let mut flags = Flags::default();
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            if !arg.starts_with('-') {
                if flags.query.is_some() {
                    return Err(Failure::usage(format!(
                        "unexpected argument \"{arg}\" (one QUERY only; quote it: 'rtt=20&loss=1')"
                    )));
                }
                flags.query = Some(arg.clone());
                continue;
            }
            // The switches: each of one command, given at most once.
            let switch = match arg.as_str() {
                "--list" => Some((&mut flags.list, Command::Analyze)),
                "--table" => Some((&mut flags.table, Command::Sweep)),
                "--traces" => Some((&mut flags.traces, Command::Run)),
                _ => None,
            };
            if let Some((on, of)) = switch {
                if command != of {
                    return Err(Failure::usage(format!(
                        "{arg}: an option of {} only",
                        of.name()
                    )));
                }
                if std::mem::replace(on, true) {
                    return Err(Failure::usage(format!("{arg}: given twice")));
                }
                continue;
            }
            let (name, inline) = match arg.split_once('=') {
                Some((name, value)) => (name, Some(value.to_owned())),
                None => (arg.as_str(), None),
            };
            let slot = match (name, command) {
                ("--max-events", _) => &mut flags.max_events,
                (
                    "--link-trace",
                    Command::Run | Command::Sweep | Command::Trace | Command::Pcap,
                ) => &mut flags.link_trace,
                ("--key", Command::Sweep) => &mut flags.key,
                ("--values", Command::Sweep) => &mut flags.values,
                ("--seeds", Command::Sweep) => &mut flags.seeds,
                ("--flow", Command::Sweep) => &mut flags.flow,
                ("--jobs", Command::Sweep) => &mut flags.jobs,
                ("--shard", Command::Sweep) => &mut flags.shard,
                ("--what", Command::Trace) => &mut flags.what,
                ("--out", Command::Pcap) => &mut flags.out,
                ("--at", Command::Pcap) => &mut flags.at,
                ("--format", Command::Pcap) => &mut flags.format,
                ("--snaplen", Command::Pcap) => &mut flags.snaplen,
                ("--max-packets", Command::Pcap) => &mut flags.max_packets,
                ("--conn", Command::Analyze) => &mut flags.conn,
                ("--goodput", Command::Explain) => &mut flags.goodput,
                ("--time", Command::Explain) => &mut flags.time,
                (
                    "--key" | "--values" | "--seeds" | "--what" | "--out" | "--at" | "--format"
                    | "--snaplen" | "--max-packets" | "--conn" | "--goodput" | "--time"
                    | "--link-trace" | "--flow" | "--jobs" | "--shard",
                    _,
                ) => {
                    return Err(Failure::usage(format!(
                        "{name}: not an option of {}",
                        command.name()
                    )));
                }
                _ => return Err(Failure::usage(format!("{name}: unknown option"))),
            };
            if slot.is_some() {
                return Err(Failure::usage(format!("{name}: given twice")));
            }
            let value = match inline {
                Some(value) => value,
                None => args
                    .next()
                    .cloned()
                    .ok_or_else(|| Failure::usage(format!("{name}: missing value")))?,
            };
            *slot = Some(value);
        }
        Ok(flags)
    }
}

/// A number above zero.
fn positive(flag: &str, text: &str) -> Result<f64, Failure> {
    match text.parse::<f64>() {
        Ok(x) if x > 0.0 && x.is_finite() => Ok(x),
        _ => Err(Failure::usage(format!(
            "{flag}: \"{text}\" is not a number above 0"
        ))),
    }
}

/// A whole-number option in `min..=max`.
fn whole(flag: &str, text: &str, min: u64, max: u64) -> Result<u64, Failure> {
    match text.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(Failure::usage(format!(
            "{flag}: \"{text}\" is not a whole number from {min} to {max}"
        ))),
    }
}

fn sweep_key(name: &str) -> Result<Key, Failure> {
    match Key::from_name(name) {
        Some(Key::Preset) => Err(Failure::usage(
            "--key: preset cannot be swept, as it resets every other key",
        )),
        Some(key) => Ok(key),
        None => {
            let known: Vec<&str> = Key::ALL[1..].iter().map(|k| k.name()).collect();
            Err(Failure::usage(format!(
                "--key: unknown key \"{name}\" (known keys: {})",
                known.join(", ")
            )))
        }
    }
}

/// One scenario per value of `key`, each set through [`Scenario::set`] so units work and a bad
/// value names the key; and a check that `seeds` more seeds exist after each one's own.
/// The sweep's scenarios: `base` with `key` set to each of `values`, or with `flow` (0-based)
/// given, that flow's value alone.
fn sweep_points(
    base: &Scenario,
    key: Key,
    flow: Option<usize>,
    values: &str,
    seeds: u64,
) -> Result<Vec<Scenario>, Failure> {
    let mut points = Vec::new();
    for (i, value) in values.split(',').enumerate() {
        if value.is_empty() {
            return Err(Failure::usage(format!(
                "--values: value {} is empty",
                i + 1
            )));
        }
        let mut point = base.clone();
        point.set_for(key, flow, &decode_component(value))?;
        if point.seed.checked_add(seeds - 1).is_none() {
            return Err(Failure::usage(format!(
                "--seeds: {seeds} seeds from seed {} pass the largest seed",
                point.seed
            )));
        }
        points.push(point);
    }
    Ok(points)
}

/// The job's options for a run whose output (a summary, a capture) reads no trace.
fn without_traces(job: &Job) -> RunOptions {
    RunOptions {
        traces: Tracing::Off,
        ..job.options
    }
}

/// Runs the job, writing its output to `out` as it goes.
fn execute(job: &Job, out: &mut impl Write) -> Result<(), Failure> {
    match &job.work {
        Work::Run(scenario) => {
            let result = simulate(scenario, &job.options)?;
            writeln!(out, "{}", json_line(&result.summary)?).map_err(Failure::io)
        }
        Work::Sweep {
            points,
            seeds,
            key,
            flow,
            table,
            jobs,
            shard,
        } => {
            let mine = match shard {
                Some(s) => &points[s.range(points.len())],
                None => &points[..],
            };
            if *table && shard.is_none_or(|s| s.writes_header()) {
                out.write_all(sweep::TABLE_HEADER.as_bytes())
                    .map_err(Failure::io)?;
            }
            // Run i is value i / seeds with its (i % seeds)-th seed, made when it is taken: a
            // sweep of a million seeds holds no list of them.
            let per_point = usize::try_from(*seeds).unwrap_or(usize::MAX);
            let count = mine.len().saturating_mul(per_point);
            let make = |i: usize| {
                let point = &mine[i / per_point];
                let mut scenario = point.clone();
                scenario.seed = point.seed.saturating_add((i % per_point) as u64);
                scenario
            };
            // Each line goes out as soon as it and every one before it are known (a run's JSON,
            // or a value's row once its seeds are done), so a long sweep shows progress in the
            // same order whatever the jobs. A table keeps a value's few figures until its row.
            let mut figures = Vec::new();
            run_in_order(
                count,
                make,
                &without_traces(job),
                *jobs,
                |i, mut summary| {
                    if *table {
                        figures.push(sweep::RunFigures::of(&summary, sweep::share_flow(*flow)));
                        if figures.len() == per_point {
                            let point = &mine[i / per_point];
                            let row = sweep::SweepRow::of_figures(*key, point, &figures, *flow);
                            out.write_all(sweep::table_row(*key, &row).as_bytes())
                                .map_err(Failure::io)?;
                            out.flush().map_err(Failure::io)?;
                            figures.clear();
                        }
                        return Ok(());
                    }
                    // The wall clock would make the same sweep print other bytes on each run, on
                    // more cores or in shards; serde_json writes a non-finite float as null.
                    summary.sim_wall_ms = f64::NAN;
                    writeln!(out, "{}", json_line(&summary)?).map_err(Failure::io)?;
                    out.flush().map_err(Failure::io)
                },
            )
        }
        Work::Trace(scenario, what) => {
            let options = RunOptions {
                record_steps: (*what == TraceKind::Steps).then(|| StepWindow::from(0.0)),
                // Every flow's: the sequence trace is each flow's, not the charts' first.
                traces: Tracing::Full,
                ..job.options
            };
            let result = simulate(scenario, &options)?;
            out.write_all(result.trace_csv(*what).as_bytes())
                .map_err(Failure::io)
        }
        Work::Pcap {
            scenario,
            out: path,
        } => {
            let result = simulate(scenario, &without_traces(job))?;
            let capture = result
                .capture
                .ok_or_else(|| Failure::Internal("the run kept no capture".into()))?;
            std::fs::write(path, &capture.bytes).map_err(|e| {
                Failure::Input(format!("--out: cannot write {}: {e}", path.display()))
            })?;
            let line = serde_json::json!({
                "file": path.display().to_string(),
                "format": capture.format.name(),
                "at": capture.at.name(),
                "packets": capture.packets,
                "bytes": capture.bytes.len(),
                "full_at_ms": capture.full_at.map(|t| t.as_millis_f64()),
                "left_out_bytes": capture.too_long,
                "summary": result.summary,
            });
            writeln!(out, "{line}").map_err(Failure::io)
        }
        Work::Analyze { file, conn, list } => analyze(file, *conn, *list, out),
        Work::Explain { scenario, measured } => {
            let e = tcplab::diagnose::explain(scenario, *measured)
                .map_err(|e| Failure::Input(e.to_string()))?;
            writeln!(out, "{}", json_line(&e)?).map_err(Failure::io)
        }
    }
}

/// `tcplab analyze`: a capture's connections, or the analysis of some of them.
fn analyze(
    file: &std::path::Path,
    conn: Conn,
    list: bool,
    out: &mut impl Write,
) -> Result<(), Failure> {
    let bytes = std::fs::read(file)
        .map_err(|e| Failure::Input(format!("{}: cannot read it: {e}", file.display())))?;
    let capture = CaptureFile::read(&bytes, &mut |_| {})
        .map_err(|e| Failure::Input(format!("{}: {e}", file.display())))?;
    if list {
        for c in &capture.connections {
            writeln!(out, "{}", json_line(c)?).map_err(Failure::io)?;
        }
        return Ok(());
    }
    let conns: Vec<usize> = match conn {
        Conn::Largest => vec![capture.largest()],
        Conn::One(n) => vec![n],
        Conn::All => capture.connections.iter().map(|c| c.conn).collect(),
    };
    let several = conns.len() > 1;
    let mut analysed = 0;
    for n in conns {
        let a = match capture.analyze(n) {
            Ok(a) => a,
            // `--conn all` leaves out a connection with no transfer (a lone handshake, a
            // probe) and says so; asked for by number, it is the answer.
            Err(e @ AnalyzeError::NoDelivery { .. }) if several => {
                eprintln!("tcplab: {}: {e}: left out", file.display());
                continue;
            }
            Err(e @ AnalyzeError::NoSuchConnection { .. }) => {
                return Err(Failure::Input(format!("--{e}")))
            }
            Err(e) => return Err(Failure::Input(format!("{}: {e}", file.display()))),
        };
        analysed += 1;
        writeln!(out, "{}", json_line(&a)?).map_err(Failure::io)?;
    }
    if several && analysed == 0 {
        return Err(Failure::Input(format!(
            "{}: no connection delivered any data",
            file.display()
        )));
    }
    Ok(())
}

/// How far past the first unwritten run the threads may go: what waits to be written stays a
/// few summaries, however slow one run is.
const AHEAD_PER_JOB: usize = 16;

/// Runs the `count` scenarios `make` gives on up to `jobs` threads and hands each summary to
/// `emit`, with its index, in index order, as soon as it and every one before it are done: what
/// `emit` writes is the same whatever `jobs` is. The first failure stops the threads taking more.
fn run_in_order(
    count: usize,
    make: impl Fn(usize) -> Scenario + Sync,
    options: &RunOptions,
    jobs: usize,
    mut emit: impl FnMut(usize, tcplab::Summary) -> Result<(), Failure>,
) -> Result<(), Failure> {
    if jobs <= 1 || count <= 1 {
        for i in 0..count {
            emit(i, simulate(&make(i), options)?.summary)?;
        }
        return Ok(());
    }
    let next = AtomicUsize::new(0);
    let written = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let ahead = jobs.saturating_mul(AHEAD_PER_JOB);
    let (done, results) = mpsc::channel::<(usize, Result<tcplab::Summary, Failure>)>();
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(count) {
            let done = done.clone();
            let (next, written, stop, make) = (&next, &written, &stop, &make);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= count {
                        break;
                    }
                    while i >= written.load(Ordering::Relaxed).saturating_add(ahead) {
                        if stop.load(Ordering::Relaxed) {
                            return;
                        }
                        std::thread::sleep(std::time::Duration::from_millis(1));
                    }
                    let summary = simulate(&make(i), options).map(|r| r.summary);
                    if done.send((i, summary)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(done);
        // Finished runs wait here until those before them are written.
        let mut waiting = std::collections::BTreeMap::new();
        let mut due = 0;
        let mut outcome = Ok(());
        for (i, summary) in results.iter() {
            match summary {
                Ok(summary) => {
                    waiting.insert(i, summary);
                }
                Err(e) => {
                    outcome = Err(e);
                    break;
                }
            }
            while let Some(summary) = waiting.remove(&due) {
                if let Err(e) = emit(due, summary) {
                    outcome = Err(e);
                    break;
                }
                due += 1;
                written.store(due, Ordering::Relaxed);
            }
            if outcome.is_err() {
                break;
            }
        }
        if outcome.is_err() {
            stop.store(true, Ordering::Relaxed);
        }
        // The threads' next sends fail once the receiver is gone: they stop.
        drop(results);
        outcome
    })
}

/// Runs one scenario, timing the simulation alone: the library never reads a clock.
fn simulate(scenario: &Scenario, options: &RunOptions) -> Result<RunResult, Failure> {
    let start = Instant::now();
    let result = panic::catch_unwind(AssertUnwindSafe(|| run(scenario, options)));
    let wall = start.elapsed();
    let mut result = result.map_err(|_| {
        Failure::Internal(format!(
            "the simulation of '{}' panicked",
            scenario.to_query()
        ))
    })?;
    result.summary.sim_wall_ms = wall.as_secs_f64() * 1e3;
    result.summary.scenario = scenario.to_query();
    Ok(result)
}

/// A summary (or anything the runner prints) as one line of JSON, without the newline.
fn json_line(value: &impl serde::Serialize) -> Result<String, Failure> {
    serde_json::to_string(value).map_err(|e| Failure::Internal(format!("encoding JSON: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tcplab::metrics::summary::WindowStats;
    use tcplab::Summary;

    fn args(list: &[&str]) -> Vec<OsString> {
        list.iter().map(OsString::from).collect()
    }

    fn job(list: &[&str]) -> Job {
        match parse_args(args(list)) {
            Ok(Request::Job(job)) => *job,
            other => panic!("{list:?}: {other:?}"),
        }
    }

    /// The message of a usage or scenario failure.
    fn refused(list: &[&str]) -> String {
        match parse_args(args(list)) {
            Err(Failure::Usage(m)) => m,
            Err(Failure::Scenario(e)) => e.to_string(),
            other => panic!("{list:?} was not refused: {other:?}"),
        }
    }

    #[test]
    fn run_reads_the_query() {
        let j = job(&["run", "rtt=20ms&cc=reno"]);
        let Work::Run(s) = j.work else {
            panic!("a run")
        };
        assert_eq!(s.to_query(), "cc=reno&rtt=20");
        assert_eq!(
            j.options,
            RunOptions {
                traces: Tracing::Off,
                ..RunOptions::default()
            }
        );
        assert_eq!(
            job(&["run", "--traces", "rtt=20"]).options.traces,
            Tracing::Charts
        );
        assert_eq!(job(&["run"]).work, Work::Run(Scenario::default()));
        assert_eq!(job(&["run", ""]).work, Work::Run(Scenario::default()));
    }

    #[test]
    fn max_events_on_every_command() {
        for list in [
            &["run", "--max-events", "1000"][..],
            &["run", "--max-events=1000", "rtt=5"],
            &[
                "sweep",
                "--key",
                "loss",
                "--values",
                "1",
                "--max-events",
                "1000",
            ],
            &["trace", "--what", "cwnd", "--max-events", "1000"],
        ] {
            assert_eq!(job(list).options.max_events, 1000, "{list:?}");
        }
        for bad in ["0", "-1", "1e6", "x", ""] {
            let m = refused(&["run", "--max-events", bad]);
            assert!(m.starts_with("--max-events: "), "{m}");
        }
    }

    #[test]
    fn sweep_expands_values_through_set() {
        let j = job(&[
            "sweep",
            "preset=loss-sweep",
            "--key",
            "loss",
            "--values",
            "0.1,1%,5",
        ]);
        let Work::Sweep { points, seeds, .. } = j.work else {
            panic!("a sweep")
        };
        assert_eq!(seeds, 1);
        let queries: Vec<String> = points.iter().map(Scenario::to_query).collect();
        assert_eq!(
            queries,
            [
                "preset=loss-sweep&loss=0.1",
                "preset=loss-sweep",
                "preset=loss-sweep&loss=5"
            ]
        );
    }

    #[test]
    fn a_sweep_can_vary_one_flow_s_value() {
        let j = job(&[
            "sweep",
            "flows=2&cc=bbr,cubic&rtt=20",
            "--key",
            "rtt",
            "--flow",
            "2",
            "--values",
            "10,40ms",
        ]);
        let Work::Sweep { points, .. } = j.work else {
            panic!("a sweep")
        };
        let queries: Vec<String> = points.iter().map(Scenario::to_query).collect();
        assert_eq!(
            queries,
            [
                "cc=bbr,cubic&rtt=20,10&flows=2",
                "cc=bbr,cubic&rtt=20,40&flows=2"
            ]
        );
        let m = refused(&[
            "sweep", "flows=2", "--key", "rtt", "--flow", "3", "--values", "1",
        ]);
        assert!(
            m.starts_with("--flow: \"3\" is not a whole number from 1 to 2"),
            "{m}"
        );
        let m = refused(&["run", "--flow", "1"]);
        assert!(m.starts_with("--flow: not an option of run"), "{m}");
    }

    #[test]
    fn sweep_values_take_units_and_encoded_commas() {
        let j = job(&["sweep", "--key=rtt", "--values=1ms,0.1s", "--seeds=3"]);
        let Work::Sweep { points, seeds, .. } = j.work else {
            panic!("a sweep")
        };
        assert_eq!(seeds, 3);
        assert_eq!(
            points.iter().map(|p| p.rtt_ms).collect::<Vec<_>>(),
            [1.0, 100.0]
        );
        let j = job(&["sweep", "--key", "drop", "--values", "5%2C9,7"]);
        let Work::Sweep { points, .. } = j.work else {
            panic!("a sweep")
        };
        assert_eq!(points[0].drop, [5, 9]);
        assert_eq!(points[1].drop, [7]);
    }

    #[test]
    fn sweep_refusals_name_the_key_or_option() {
        assert_eq!(
            refused(&["sweep", "--key", "loss", "--values", "1,70"]),
            "loss: 70 is out of range (allowed 0 to 50%)"
        );
        assert_eq!(
            refused(&["sweep", "--key", "loss", "--values", "1,,2"]),
            "--values: value 2 is empty"
        );
        assert!(refused(&["sweep", "--key", "los", "--values", "1"])
            .starts_with("--key: unknown key \"los\" (known keys: cc, rtt, "));
        assert!(
            refused(&["sweep", "--key", "preset", "--values", "bufferbloat"])
                .starts_with("--key: preset cannot be swept")
        );
        assert_eq!(
            refused(&["sweep", "--values", "1"]),
            "--key: required by sweep"
        );
        assert_eq!(
            refused(&["sweep", "--key", "iw"]),
            "--values: required by sweep"
        );
        assert!(
            refused(&["sweep", "--key", "iw", "--values", "1", "--seeds", "0"])
                .starts_with("--seeds: ")
        );
        assert!(refused(&[
            "sweep",
            "seed=18446744073709551615",
            "--key",
            "iw",
            "--values",
            "1",
            "--seeds",
            "2"
        ])
        .starts_with("--seeds: 2 seeds from seed 18446744073709551615"));
        let j = job(&[
            "sweep",
            "seed=18446744073709551614",
            "--key",
            "iw",
            "--values",
            "1",
            "--seeds",
            "2",
        ]);
        assert!(matches!(j.work, Work::Sweep { seeds: 2, .. }));
    }

    #[test]
    fn trace_needs_a_known_trace() {
        for kind in TraceKind::ALL {
            let query = if kind == TraceKind::Msgs {
                "app=msgs"
            } else {
                ""
            };
            let j = job(&["trace", query, "--what", kind.name()]);
            let scenario = Scenario::parse(query).unwrap_or_default();
            assert_eq!(j.work, Work::Trace(scenario, kind));
        }
        assert_eq!(
            refused(&["trace", "app=bulk", "--what", "msgs"]),
            "--what: msgs applies to app=msgs only (this scenario has app=bulk)"
        );
        assert_eq!(
            refused(&["trace", "--what", "rtts"]),
            "--what: unknown trace \"rtts\" (allowed cwnd, throughput, seq, rtt, msgs, queue, steps)"
        );
        // The help names them all, in the same order.
        assert!(help().contains(&format!("--what {} ", TraceKind::names("|"))));
        assert!(refused(&["trace"]).starts_with("--what: required by trace"));
    }

    #[test]
    fn argument_refusals() {
        assert_eq!(
            refused(&[]),
            "missing command (run, sweep, trace, pcap, analyze or explain)"
        );
        assert!(refused(&["walk"]).starts_with("unknown command \"walk\""));
        assert_eq!(
            refused(&["run", "--what", "cwnd"]),
            "--what: not an option of run"
        );
        assert_eq!(
            refused(&["trace", "--key", "rtt"]),
            "--key: not an option of trace"
        );
        assert_eq!(refused(&["run", "--fast"]), "--fast: unknown option");
        assert_eq!(refused(&["run", "-v"]), "-v: unknown option");
        assert_eq!(
            refused(&["run", "--max-events"]),
            "--max-events: missing value"
        );
        assert_eq!(
            refused(&["run", "--max-events", "5", "--max-events", "6"]),
            "--max-events: given twice"
        );
        assert!(refused(&["run", "rtt=20", "loss=1"]).starts_with("unexpected argument \"loss=1\""));
        assert_eq!(
            refused(&["run", "rtt=5000"]),
            "rtt: 5000 is out of range (allowed 0.1 to 2000 ms)"
        );
        assert!(refused(&["run", "foo=1"]).starts_with("foo: unknown key"));
    }

    #[test]
    fn capture_commands_read_their_options() {
        let j = job(&[
            "pcap",
            "rtt=30",
            "--out",
            "x.pcap",
            "--at",
            "receiver",
            "--snaplen=96",
        ]);
        assert_eq!(
            j.options.capture,
            Some(CaptureOptions {
                at: CapturePoint::Receiver,
                snaplen: 96,
                ..CaptureOptions::default()
            })
        );
        assert!(matches!(j.work, Work::Pcap { ref out, .. } if out == &PathBuf::from("x.pcap")));
        assert_eq!(
            refused(&["pcap", "rtt=30"]),
            "--out: required by pcap (the file to write)"
        );
        assert_eq!(
            refused(&["pcap", "--out", "x", "--at", "router"]),
            "--at: \"router\" is not a capture point (sender or receiver)"
        );
        assert_eq!(
            refused(&["pcap", "--out", "x", "--format", "erf"]),
            "--format: \"erf\" is not a format (pcap or pcapng)"
        );
        assert_eq!(
            refused(&["pcap", "--out", "x", "--snaplen", "20"]),
            "--snaplen: \"20\" is not a whole number from 34 to 262144"
        );
        assert_eq!(
            refused(&["run", "--out", "x"]),
            "--out: not an option of run"
        );
        let j = job(&["analyze", "cap.pcap", "--conn", "2"]);
        assert_eq!(
            j.work,
            Work::Analyze {
                file: PathBuf::from("cap.pcap"),
                conn: Conn::One(2),
                list: false
            }
        );
        let j = job(&["analyze", "cap.pcap", "--conn", "all", "--list"]);
        assert!(matches!(
            j.work,
            Work::Analyze {
                conn: Conn::All,
                list: true,
                ..
            }
        ));
        assert_eq!(
            refused(&["analyze"]),
            "analyze: which capture file? (tcplab analyze FILE)"
        );
        assert_eq!(
            refused(&["analyze", "f", "--conn", "0"]),
            "--conn: \"0\" is not a whole number from 1 to 4294967295"
        );
        assert_eq!(
            refused(&["run", "--list"]),
            "--list: an option of analyze only"
        );
    }

    #[test]
    fn traces_are_kept_for_a_run_that_asks_and_for_no_other_command() {
        assert_eq!(job(&["run", "rtt=20"]).options.traces, Tracing::Off);
        assert_eq!(
            job(&["run", "rtt=20", "--traces"]).options.traces,
            Tracing::Charts
        );
        assert_eq!(
            refused(&["run", "--traces", "--traces"]),
            "--traces: given twice"
        );
        assert_eq!(
            refused(&["sweep", "--key", "rtt", "--values", "10", "--traces"]),
            "--traces: an option of run only"
        );
    }

    #[test]
    fn help_wins_anywhere() {
        for list in [
            &["--help"][..],
            &["-h"],
            &["help"],
            &["run", "rtt=5000", "--help"],
            &["walk", "-h"],
        ] {
            assert!(
                matches!(parse_args(args(list)), Ok(Request::Help)),
                "{list:?}"
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn arguments_must_be_utf8() {
        use std::os::unix::ffi::OsStringExt;
        let bad = vec![OsString::from("run"), OsString::from_vec(vec![b'r', 0xff])];
        assert!(
            matches!(parse_args(bad), Err(Failure::Usage(m)) if m.ends_with("not valid UTF-8"))
        );
    }

    fn summary() -> Summary {
        Summary {
            scenario: "preset=loss-sweep".into(),
            goodput_MBps: Some(31.5),
            completion_ms: None,
            transfer_ms: None,
            completion_rtts: None,
            transfer_rtts: None,
            handshake_ms: Some(20.0),
            data_segments_sent: 1000,
            retransmitted_segments: 10,
            retrans_bytes_pct: Some(1.0),
            dropped_data: 10,
            dropped_acks: 9,
            queue_drops: 0,
            queue_delay_ms: None,
            per_flow_queue_delay_ms: Vec::new(),
            aqm_drops: 0,
            policer_drops: 0,
            ecn_marks: 0,
            fast_retransmits: 8,
            duplicate_acks: 24,
            timeouts: 2,
            msgs: None,
            hol: None,
            probe: None,
            throughput_windows_MBps: Some(WindowStats {
                p50: 30.0,
                p95: 40.0,
                p99: 41.0,
            }),
            jain_fairness: None,
            per_flow_goodput_MBps: vec![31.5],
            flow_names: Vec::new(),
            acks_sent: 0,
            mathis_MBps: Some(31.6),
            bdp_bytes: 25_000_000.0,
            window_limit_MBps: 209.7152,
            budget_exhausted: false,
            stopped_by: tcplab::sim::Stop::Finished,
            time_limit_reached: false,
            events: 123_456,
            sim_wall_ms: 12.5,
        }
    }

    #[test]
    fn a_summary_is_one_json_line_with_nulls() {
        let line = json_line(&summary()).unwrap_or_default();
        assert!(!line.contains('\n'));
        let Ok(v) = serde_json::from_str::<serde_json::Value>(&line) else {
            panic!("not JSON: {line}")
        };
        assert_eq!(v["scenario"], "preset=loss-sweep");
        assert_eq!(v["goodput_MBps"], 31.5);
        assert!(v["completion_ms"].is_null());
        assert!(v["msgs"].is_null());
        assert_eq!(v["throughput_windows_MBps"]["p95"], 40.0);
        assert_eq!(v["events"], 123_456);
        for &field in tcplab::metrics::summary::SPEC_FIELDS {
            assert!(
                v.get(field).is_some(),
                "the spec's field {field} is missing"
            );
        }
    }

    /// A writer that fails every write with `kind`.
    struct Broken(io::ErrorKind);

    impl Write for Broken {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::Error::new(self.0, "refused"))
        }
        fn flush(&mut self) -> io::Result<()> {
            Err(io::Error::new(self.0, "refused"))
        }
    }

    #[test]
    fn write_errors_map_to_exit_statuses() {
        let broken = Broken(io::ErrorKind::BrokenPipe)
            .write_all(b"x")
            .map_err(Failure::io);
        assert!(matches!(broken, Err(Failure::Closed)));
        let full = Broken(io::ErrorKind::StorageFull)
            .write_all(b"x")
            .map_err(Failure::io);
        assert!(matches!(full, Err(Failure::Internal(m)) if m.starts_with("writing the output")));
    }

    #[test]
    fn an_empty_sweep_runs_nothing() {
        let j = Job {
            work: Work::Sweep {
                points: Vec::new(),
                seeds: 3,
                key: Key::Loss,
                flow: None,
                table: false,
                jobs: 4,
                shard: None,
            },
            options: RunOptions::default(),
        };
        let mut out = Vec::new();
        assert!(execute(&j, &mut out).is_ok());
        assert!(out.is_empty());
    }

    #[test]
    fn a_trace_has_every_flows_segments_not_the_charts_first_alone() {
        let j = job(&[
            "trace",
            "rtt=20&bw=20&app=bulk&dur=0.5&flows=2",
            "--what",
            "seq",
        ]);
        let mut out = Vec::new();
        assert!(execute(&j, &mut out).is_ok());
        let csv = String::from_utf8_lossy(&out);
        for flow in 0..2 {
            for kind in ["send", "ack"] {
                let row = format!(",{flow},{kind},");
                assert!(csv.contains(&row), "no {row} in the seq trace");
            }
        }
    }

    #[test]
    fn jobs_and_shards_are_read_and_refused_by_name() {
        let j = job(&[
            "sweep", "--key", "loss", "--values", "1,2", "--jobs", "3", "--shard", "2/5",
        ]);
        assert!(matches!(
            j.work,
            Work::Sweep {
                jobs: 3,
                shard: Some(sweep::Shard { index: 2, of: 5 }),
                ..
            }
        ));
        let m = refused(&["sweep", "--key", "loss", "--values", "1", "--shard", "3/2"]);
        assert!(
            m.starts_with("--shard: \"3/2\" is not K/N with 1 <= K <= N"),
            "{m}"
        );
        let m = refused(&["sweep", "--key", "loss", "--values", "1", "--jobs", "0"]);
        assert!(
            m.starts_with("--jobs: \"0\" is not a whole number from 1 to 4096"),
            "{m}"
        );
        let m = refused(&["run", "--jobs", "2"]);
        assert!(m.starts_with("--jobs: not an option of run"), "{m}");
    }
}
