//! The `tcplab` binary as a shell sees it: arguments, stdout, stderr and exit status, as in the
//! spec's "command-line runner" section.

#![cfg(not(target_arch = "wasm32"))]

use std::process::{Command, Output, Stdio};

fn tcplab(args: &[&str]) -> Output {
    match Command::new(env!("CARGO_BIN_EXE_tcplab"))
        .args(args)
        .output()
    {
        Ok(out) => out,
        Err(e) => panic!("cannot start tcplab: {e}"),
    }
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts status 2, nothing on stdout, and `message` as the first line of stderr.
fn refused(args: &[&str], message: &str) {
    let out = tcplab(args);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    assert_eq!(stdout(&out), "", "{args:?}");
    let err = stderr(&out);
    assert_eq!(err.lines().next(), Some(message), "{args:?}: {err}");
}

#[test]
fn help_goes_to_stdout_with_status_0() {
    for args in [&["--help"][..], &["-h"], &["help"], &["sweep", "--help"]] {
        let out = tcplab(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(stdout(&out).contains("tcplab sweep 'QUERY' --key KEY --values"));
        assert_eq!(stderr(&out), "");
    }
}

#[test]
fn bad_scenarios_exit_2_naming_the_key() {
    refused(
        &["run", "rtt=5000"],
        "tcplab: rtt: 5000 is out of range (allowed 0.1 to 2000 ms)",
    );
    refused(
        &["run", "iw=ten"],
        r#"tcplab: iw: "ten" is not a whole number (allowed 1 to 1000 segments)"#,
    );
    refused(&["run", "loss=1&loss=2"], "tcplab: loss: repeated key");
    refused(
        &["trace", "cc=vegas", "--what", "cwnd"],
        r#"tcplab: cc: unknown value "vegas" (allowed reno, cubic, bbr)"#,
    );
    refused(
        &["run", "rwnd=1000"],
        "tcplab: rwnd: 1000 is out of range (allowed 2*mss = 2920 to 1073741824 bytes)",
    );
    let out = tcplab(&["run", "foo=1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).starts_with("tcplab: foo: unknown key (known keys: preset, cc, rtt,"));
    let out = tcplab(&["run", "preset=nope"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).starts_with(r#"tcplab: preset: unknown preset "nope" (known: "#));
}

#[test]
fn bad_sweeps_exit_2_before_any_run() {
    refused(
        &[
            "sweep",
            "preset=loss-sweep",
            "--key",
            "loss",
            "--values",
            "0.1,1,70",
        ],
        "tcplab: loss: 70 is out of range (allowed 0 to 50%)",
    );
    refused(
        &["sweep", "--key", "body", "--values", "1MB,1.5"],
        r#"tcplab: body: "1.5" is not a whole number (allowed 1 to 10000000000 bytes)"#,
    );
    refused(
        &["sweep", "--values", "1"],
        "tcplab: --key: required by sweep",
    );
    refused(
        &["sweep", "--key", "iw"],
        "tcplab: --values: required by sweep",
    );
    refused(
        &["sweep", "--key", "iw", "--values", "1", "--seeds", "0"],
        r#"tcplab: --seeds: "0" is not a whole number from 1 to 1000000"#,
    );
    let out = tcplab(&["sweep", "--key", "los", "--values", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).starts_with(r#"tcplab: --key: unknown key "los""#));
}

#[test]
fn bad_arguments_exit_2_naming_the_option() {
    refused(
        &[],
        "tcplab: missing command (run, sweep, trace, pcap, analyze or explain)",
    );
    refused(
        &["walk"],
        r#"tcplab: unknown command "walk" (commands: run, sweep, trace, pcap, analyze, explain)"#,
    );
    refused(&["run", "--fast"], "tcplab: --fast: unknown option");
    refused(
        &["run", "--what", "cwnd"],
        "tcplab: --what: not an option of run",
    );
    refused(
        &["run", "--max-events"],
        "tcplab: --max-events: missing value",
    );
    refused(
        &["run", "--max-events", "0"],
        r#"tcplab: --max-events: "0" is not a whole number from 1 to 18446744073709551615"#,
    );
    refused(
        &["trace"],
        "tcplab: --what: required by trace (cwnd, throughput, seq, rtt, msgs, queue, steps)",
    );
    let out = tcplab(&["trace", "--what", "rtts"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).starts_with("tcplab: --what: unknown trace"));
    // An unquoted `&` splits the query in the shell; the runner then sees two queries.
    let out = tcplab(&["run", "rtt=20", "loss=1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).starts_with(r#"tcplab: unexpected argument "loss=1""#));
    assert!(stderr(&out).contains("Run 'tcplab --help' for usage."));
}

#[cfg(target_os = "linux")]
#[test]
fn a_failed_write_is_an_internal_error() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return;
    };
    let out = Command::new(env!("CARGO_BIN_EXE_tcplab"))
        .arg("--help")
        .stdout(Stdio::from(full))
        .output();
    let Ok(out) = out else {
        panic!("cannot start tcplab")
    };
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).starts_with("tcplab: internal error: writing the output"));
}

// The tests below run the simulator.

#[test]
fn run_prints_one_json_object_with_the_spec_fields() {
    let out = tcplab(&["run", "preset=post-slow-start&seed=3"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1);
    let v: serde_json::Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => panic!("not JSON ({e}): {text}"),
    };
    assert_eq!(v["scenario"], "preset=post-slow-start&seed=3");
    for &field in tcplab::metrics::summary::SPEC_FIELDS {
        assert!(v.get(field).is_some(), "missing {field}");
    }
    assert!(v["sim_wall_ms"].as_f64().is_some_and(|ms| ms >= 0.0));
}

#[test]
fn sweep_prints_a_line_per_value_and_seed() {
    let out = tcplab(&[
        "sweep",
        "preset=loss-sweep&dur=0.5&seed=10",
        "--key",
        "loss",
        "--values",
        "1,2%",
        "--seeds",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let scenarios: Vec<String> = stdout(&out)
        .lines()
        .map(
            |line| match serde_json::from_str::<serde_json::Value>(line) {
                Ok(v) => v["scenario"].as_str().unwrap_or_default().to_owned(),
                Err(e) => panic!("not JSON ({e}): {line}"),
            },
        )
        .collect();
    assert_eq!(
        scenarios,
        [
            "preset=loss-sweep&dur=0.5&seed=10",
            "preset=loss-sweep&dur=0.5&seed=11",
            "preset=loss-sweep&loss=2&dur=0.5&seed=10",
            "preset=loss-sweep&loss=2&dur=0.5&seed=11",
        ]
    );
}

#[test]
fn runs_are_deterministic_apart_from_the_wall_clock() {
    let strip = |out: Output| {
        let mut v: serde_json::Value =
            serde_json::from_slice(&out.stdout).unwrap_or(serde_json::Value::Null);
        v["sim_wall_ms"] = serde_json::Value::Null;
        v
    };
    let q = "preset=random-loss-bbr&dur=1";
    assert_eq!(strip(tcplab(&["run", q])), strip(tcplab(&["run", q])));
}

#[test]
fn trace_prints_csv_with_a_header() {
    for what in ["cwnd", "throughput", "seq", "rtt", "msgs", "queue"] {
        let out = tcplab(&["trace", "app=msgs&count=20&dur=1", "--what", what]);
        assert_eq!(out.status.code(), Some(0), "{what}: {}", stderr(&out));
        let text = stdout(&out);
        let header = text.lines().next().unwrap_or_default();
        assert!(header.contains(','), "{what}: {header}");
    }
}

#[test]
fn the_event_budget_stops_a_run() {
    let out = tcplab(&["run", "app=bulk&dur=60", "--max-events", "1000"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap_or_default();
    assert_eq!(v["budget_exhausted"], true);
    assert!(v["events"].as_u64().is_some_and(|n| n <= 1000));
}

#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_a_sweep_quietly() {
    use std::io::{BufRead, BufReader};
    let child = Command::new(env!("CARGO_BIN_EXE_tcplab"))
        .args([
            "sweep", "dur=0.2", "--key", "seed", "--values", "1", "--seeds", "1000",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let Ok(mut child) = child else {
        panic!("cannot start tcplab")
    };
    if let Some(pipe) = child.stdout.take() {
        let mut first = String::new();
        let _ = BufReader::new(pipe).read_line(&mut first);
        assert!(first.starts_with('{'));
        // Dropping the reader closes the pipe under the running sweep.
    }
    let out = child.wait_with_output();
    let Ok(out) = out else {
        panic!("tcplab did not finish")
    };
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stderr(&out), "");
}

#[test]
fn a_sweep_table_has_one_row_per_value_with_medians_and_theory() {
    let out = tcplab(&[
        "sweep",
        "preset=loss-sweep&dur=2",
        "--key",
        "loss",
        "--values",
        "0.5,2",
        "--seeds",
        "3",
        "--table",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with("key,value,runs,goodput_median_MBps"));
    let row: Vec<&str> = lines[1].split(',').collect();
    assert_eq!(&row[..3], ["loss", "0.5", "3"]);
    let (min, median, max): (f64, f64, f64) = (
        row[4].parse().unwrap_or(f64::NAN),
        row[3].parse().unwrap_or(f64::NAN),
        row[5].parse().unwrap_or(f64::NAN),
    );
    assert!(min <= median && median <= max, "{}", lines[1]);
    // Mathis for MSS 16332 at 20 ms and 0.5 %: 14.14 MB/s.
    let theory: f64 = row[9].parse().unwrap_or(f64::NAN);
    assert!((theory - 14.14).abs() < 0.05, "{theory}");
    assert_eq!(row[10], "MBps");
    let ratio: f64 = row[11].parse().unwrap_or(f64::NAN);
    assert!((ratio - median / theory).abs() < 1e-9);
    // The medians are those of the JSON lines the same sweep prints without --table.
    let json = tcplab(&[
        "sweep",
        "preset=loss-sweep&dur=2",
        "--key",
        "loss",
        "--values",
        "0.5",
        "--seeds",
        "3",
    ]);
    let mut goodputs: Vec<f64> = stdout(&json)
        .lines()
        .filter_map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).ok()?;
            v["goodput_MBps"].as_f64()
        })
        .collect();
    goodputs.sort_by(f64::total_cmp);
    assert_eq!(goodputs.len(), 3);
    assert_eq!(goodputs[1], median);
    assert!(refused_first(&["run", "--table"]).contains("--table: an option of sweep only"));
}

fn refused_first(args: &[&str]) -> String {
    let out = tcplab(args);
    assert_eq!(out.status.code(), Some(2));
    stderr(&out)
}

/// The peak resident memory of a runner process (`VmHWM`, a high-water mark), read from
/// /proc while it runs: the last reading before it exits is its peak to within those moments.
#[cfg(target_os = "linux")]
fn peak_kib_of_sweep(args: &[&str]) -> u64 {
    use std::io::Read;
    let mut child = match Command::new(env!("CARGO_BIN_EXE_tcplab"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
    {
        Ok(c) => c,
        Err(e) => panic!("cannot start tcplab: {e}"),
    };
    let status_path = format!("/proc/{}/status", child.id());
    let mut out = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut buf = [0u8; 1 << 16];
        let mut lines = 0usize;
        while let Ok(n) = out.read(&mut buf) {
            if n == 0 {
                break;
            }
            lines += buf[..n].iter().filter(|&&b| b == b'\n').count();
        }
        lines
    });
    let mut peak = 0;
    loop {
        if let Ok(text) = std::fs::read_to_string(&status_path) {
            if let Some(kib) = text
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            {
                peak = peak.max(kib);
            }
        }
        if let Ok(Some(_)) = child.try_wait() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let lines = reader.join().unwrap_or(0);
    assert!(lines > 0, "the sweep printed nothing");
    peak
}

#[cfg(target_os = "linux")]
#[test]
fn a_long_sweep_keeps_its_memory_flat() {
    // 100 000 seeds: JSON lines keep nothing of a run, a table a few numbers per run.
    for extra in [&["--table"][..], &[]] {
        let mut args = vec![
            "sweep",
            "body=1&flows=64",
            "--key",
            "loss",
            "--values",
            "0",
            "--seeds",
            "100000",
        ];
        args.extend_from_slice(extra);
        let kib = peak_kib_of_sweep(&args);
        assert!(kib < 50 * 1024, "{args:?}: peak {kib} KiB");
    }
}

#[test]
fn bidi_overrides_in_arguments_and_values_are_escaped() {
    refused(
        &["run", "cc=%E2%80%AEmoc.elpmaxe"],
        "tcplab: cc: unknown value \"\\u{202e}moc.elpmaxe\" (allowed reno, cubic, bbr)",
    );
    let out = tcplab(&["walk\u{202E}"]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("\\u{202e}") && !err.contains('\u{202E}'),
        "{err}"
    );
}

#[test]
fn captures_are_written_read_and_refused_by_name() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("runner-captures");
    std::fs::create_dir_all(&dir).expect("a directory");
    let file = dir.join("run.pcap");
    let file = file.to_string_lossy().into_owned();
    let out = tcplab(&["pcap", "rtt=30&loss=1&app=bulk&dur=1", "--out", &file]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let line: serde_json::Value = serde_json::from_str(stdout(&out).trim()).expect("one JSON line");
    assert_eq!(line["at"], "sender");
    assert!(line["packets"].as_u64().is_some_and(|n| n > 100), "{line}");
    let out = tcplab(&["analyze", &file]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let a: serde_json::Value = serde_json::from_str(stdout(&out).trim()).expect("one JSON line");
    for field in [
        "rtt_ms",
        "srtt_ms",
        "goodput_MBps",
        "data_segments_sent",
        "retransmitted_segments",
        "loss_pct",
        "rwnd_max_bytes",
        "zero_window_ms",
        "capture_point",
        "verdict",
        "scenario",
    ] {
        assert!(a.get(field).is_some(), "{field} in {a}");
    }
    assert_eq!(
        a["retransmitted_segments"],
        line["summary"]["retransmitted_segments"]
    );
    // A file that is no capture: exit 2, the file and what is wrong named, no usage line.
    let junk = dir.join("junk.pcap");
    std::fs::write(&junk, "hello, world").expect("written");
    let junk = junk.to_string_lossy().into_owned();
    let out = tcplab(&["analyze", &junk]);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.starts_with(&format!(
            "tcplab: {junk}: not a capture file: it begins with 68 65 6c 6c"
        )),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    refused(
        &["analyze", &file, "--conn", "2"],
        "tcplab: --conn: no connection 2: the capture has 1 (1 to 1)",
    );
    refused(
        &["explain", "app=bulk", "--time", "100"],
        "tcplab: --time: the time one body took applies to app=body only (this path has app=bulk)",
    );
}

#[test]
fn a_sweep_prints_the_same_bytes_on_one_core_on_many_and_in_shards() {
    let grid = [
        "sweep",
        "preset=loss-sweep&dur=0.3",
        "--key",
        "loss",
        "--values",
        "0.5,1,2,4,8",
        "--seeds",
        "2",
    ];
    for table in [false, true] {
        let with = |extra: &[&str]| {
            let mut args = grid.to_vec();
            if table {
                args.push("--table");
            }
            args.extend_from_slice(extra);
            let out = tcplab(&args);
            assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
            stdout(&out)
        };
        let one = with(&["--jobs", "1"]);
        let lines = one.lines().count();
        assert_eq!(lines, if table { 1 + 5 } else { 5 * 2 }, "{one}");
        // No wall clock in a sweep's lines: they depend on its arguments alone.
        assert!(table || one.contains("\"sim_wall_ms\":null"), "{one}");
        assert_eq!(with(&["--jobs", "3"]), one, "three jobs");
        assert_eq!(with(&[]), one, "every core");
        // Shards, one of them empty, concatenated in order.
        for of in [2, 3, 7] {
            let merged: String = (1..=of)
                .map(|k| with(&["--jobs", "2", "--shard", &format!("{k}/{of}")]))
                .collect();
            assert_eq!(merged, one, "{of} shards");
        }
    }
}
