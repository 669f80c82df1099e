//! `tcplab-kernel`: a scenario through this machine's own Linux TCP. Usage in `USAGE`.

#[cfg(not(target_os = "linux"))]
fn main() {
    eprintln!("tcplab-kernel: the kernel twin runs on Linux only");
    std::process::exit(1);
}

#[cfg(target_os = "linux")]
fn main() {
    std::process::exit(cli::main());
}

#[cfg(target_os = "linux")]
mod cli {
    use std::io::Write;

    use tcplab::Scenario;
    use tcplab_kernel::trace::cwnd_csv;
    use tcplab_kernel::twin::{self, Options, TwinError};
    use tcplab_kernel::validate::{self, Grid};

    const USAGE: &str = "\
tcplab-kernel: a scenario of the lab through this machine's own Linux TCP

Usage:
  tcplab-kernel run   'QUERY' [--pcap FILE [--at sender|receiver] [--snaplen N]]
                                                one JSON summary, the simulator's fields;
                                                --pcap: tcpdump on that host's TUN device
                                                writes the run's packets to FILE (raw IP)
  tcplab-kernel trace 'QUERY' --what cwnd [--every-ms X]
                                                the sender's TCP_INFO as CSV (every X ms, default 1)
  tcplab-kernel validate [--grid loss|slowstart|hol|all] [--seeds N] [--tolerance T] [--only TEXT]
                                                both engines cell by cell; exit 1 if a cell is
                                                outside its target (docs/validation.md;
                                                --tolerance T: a factor of 1 + T for every ratio;
                                                --only TEXT: the cells whose query contains TEXT)
  tcplab-kernel --help

Needs root and /dev/net/tun. Two unnamed network namespaces (198.18.0.1 and 198.18.0.2) and a
user-space router between their TUN devices emulate the path; the kernel removes them when the
process ends, however it ends.
";

    enum Failure {
        /// Bad arguments or scenario: status 2.
        Usage(String),
        /// Could not run: status 1.
        Run(String),
        /// Validation found cells outside the tolerance: status 1, nothing more to say.
        Outside,
    }

    impl From<TwinError> for Failure {
        fn from(e: TwinError) -> Failure {
            match e {
                TwinError::Refused(r) => Failure::Usage(r.to_string()),
                TwinError::Scenario(e) => Failure::Usage(e.to_string()),
                other => Failure::Run(other.to_string()),
            }
        }
    }

    pub fn main() -> i32 {
        let args: Vec<String> = std::env::args().skip(1).collect();
        match dispatch(&args) {
            Ok(()) => 0,
            Err(Failure::Usage(m)) => {
                eprintln!("tcplab-kernel: {}", tcplab::scenario::escaped(&m));
                2
            }
            Err(Failure::Run(m)) => {
                eprintln!("tcplab-kernel: {}", tcplab::scenario::escaped(&m));
                1
            }
            Err(Failure::Outside) => 1,
        }
    }

    /// `--name value` or `--name=value` options after the command, and at most one positional.
    struct Args {
        positional: Option<String>,
        options: Vec<(String, String)>,
    }

    fn parse_args(rest: &[String], known: &[&str]) -> Result<Args, Failure> {
        let mut positional = None;
        let mut options: Vec<(String, String)> = Vec::new();
        let mut it = rest.iter();
        while let Some(a) = it.next() {
            if let Some(opt) = a.strip_prefix("--") {
                let (name, value) = match opt.split_once('=') {
                    Some((n, v)) => (n.to_string(), v.to_string()),
                    None => {
                        let v = it
                            .next()
                            .ok_or_else(|| Failure::Usage(format!("--{opt}: missing value")))?;
                        (opt.to_string(), v.clone())
                    }
                };
                if !known.contains(&name.as_str()) {
                    return Err(Failure::Usage(format!("--{name}: unknown option")));
                }
                if options.iter().any(|(n, _)| *n == name) {
                    return Err(Failure::Usage(format!("--{name}: given twice")));
                }
                options.push((name, value));
            } else if positional.is_some() {
                return Err(Failure::Usage(format!(
                    "unexpected argument \"{a}\" (one QUERY only; quote it: 'rtt=20&loss=1')"
                )));
            } else {
                positional = Some(a.clone());
            }
        }
        Ok(Args {
            positional,
            options,
        })
    }

    impl Args {
        fn get(&self, name: &str) -> Option<&str> {
            self.options
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        }

        fn scenario(&self) -> Result<Scenario, Failure> {
            Scenario::parse(self.positional.as_deref().unwrap_or(""))
                .map_err(|e| Failure::Usage(e.to_string()))
        }
    }

    fn number<T: std::str::FromStr + PartialOrd + Copy + std::fmt::Display>(
        args: &Args,
        name: &str,
        default: T,
        lo: T,
        hi: T,
    ) -> Result<T, Failure> {
        let Some(v) = args.get(name) else {
            return Ok(default);
        };
        match v.parse::<T>() {
            Ok(x) if x >= lo && x <= hi => Ok(x),
            _ => Err(Failure::Usage(format!(
                "--{name}: \"{v}\" is not a number from {lo} to {hi}"
            ))),
        }
    }

    fn print(text: &str) -> Result<(), Failure> {
        let mut out = std::io::stdout().lock();
        match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            Err(e) => Err(Failure::Run(format!("writing the output: {e}"))),
        }
    }

    fn dispatch(args: &[String]) -> Result<(), Failure> {
        if args.iter().any(|a| a == "-h" || a == "--help")
            || args.first().is_some_and(|a| a == "help")
        {
            return print(USAGE);
        }
        let Some((command, rest)) = args.split_first() else {
            return Err(Failure::Usage(
                "missing command (run, trace or validate); see --help".into(),
            ));
        };
        match command.as_str() {
            "run" => {
                let a = parse_args(rest, &["pcap", "at", "snaplen"])?;
                let s = a.scenario()?;
                let capture = match a.get("pcap") {
                    Some(file) => Some(twin::Capture {
                        at: match a.get("at") {
                            None | Some("sender") => tcplab_kernel::host::Role::Sender,
                            Some("receiver") => tcplab_kernel::host::Role::Receiver,
                            Some(other) => {
                                return Err(Failure::Usage(format!(
                                    "--at: \"{other}\" is not a host (sender or receiver)"
                                )))
                            }
                        },
                        file: file.into(),
                        snaplen: number(&a, "snaplen", 128, 34, 262_144)?,
                    }),
                    None if a.get("at").is_some() || a.get("snaplen").is_some() => {
                        return Err(Failure::Usage("--at, --snaplen: options of --pcap".into()))
                    }
                    None => None,
                };
                let k = twin::run(
                    &s,
                    &Options {
                        capture,
                        ..Options::default()
                    },
                )?;
                let json = serde_json::to_string(&k.summary)
                    .map_err(|e| Failure::Run(format!("writing the summary: {e}")))?;
                print(&format!("{json}\n"))
            }
            "trace" => {
                let a = parse_args(rest, &["what", "every-ms"])?;
                match a.get("what") {
                    Some("cwnd") => {}
                    Some(other) => {
                        return Err(Failure::Usage(format!(
                            "--what: the kernel twin traces cwnd only, not \"{other}\""
                        )))
                    }
                    None => return Err(Failure::Usage("--what: required by trace (cwnd)".into())),
                }
                let every: f64 = number(&a, "every-ms", 1.0, 0.05, 1000.0)?;
                let s = a.scenario()?;
                let options = Options {
                    sample_every: std::time::Duration::from_secs_f64(every / 1e3),
                    ..Options::default()
                };
                let k = twin::run(&s, &options)?;
                print(&cwnd_csv(&k.samples))
            }
            "validate" => {
                let a = parse_args(rest, &["grid", "seeds", "tolerance", "only"])?;
                if let Some(p) = &a.positional {
                    return Err(Failure::Usage(format!(
                        "unexpected argument \"{p}\" (validate takes no query)"
                    )));
                }
                let grids: Vec<Grid> = match a.get("grid").unwrap_or("all") {
                    "all" => Grid::ALL.to_vec(),
                    g => vec![Grid::from_name(g).ok_or_else(|| {
                        Failure::Usage(format!(
                            "--grid: unknown grid \"{g}\" (allowed loss, slowstart, hol, all)"
                        ))
                    })?],
                };
                let seeds: u64 = number(&a, "seeds", 3, 1, 100)?;
                // Each cell carries its own target; --tolerance replaces every ratio target.
                let tolerance: Option<f64> = match a.get("tolerance") {
                    Some(_) => Some(number(&a, "tolerance", 0.25, 0.0, 100.0)?),
                    None => None,
                };
                twin::preflight()?;
                eprintln!(
                    "tcplab-kernel: linux {}, {} seeds a cell, {}",
                    tcplab_kernel::sys::kernel_release(),
                    seeds,
                    match tolerance {
                        Some(t) => format!("every ratio within a factor of {}", 1.0 + t),
                        None => "each metric within its own target".to_string(),
                    }
                );
                print(validate::TABLE_HEADER)?;
                let mut outside = 0;
                // --only: the cells whose query contains this text (a noisy cell run again).
                let only = a.get("only").map(str::to_string);
                for g in grids {
                    let cells = g.cells();
                    for (i, cell) in cells.into_iter().enumerate() {
                        if only
                            .as_ref()
                            .is_some_and(|o| !cell.query.contains(o.as_str()))
                        {
                            continue;
                        }
                        let cell = match tolerance {
                            Some(t) => cell.with_factor(t),
                            None => cell,
                        };
                        eprintln!(
                            "tcplab-kernel: {} {}/{}: {}",
                            g.name(),
                            i + 1,
                            g.cells().len(),
                            cell.query
                        );
                        for row in validate::run_cell(&cell, seeds)? {
                            if !row.within() {
                                outside += 1;
                            }
                            print(&validate::table_row(&row))?;
                        }
                    }
                }
                if outside > 0 {
                    eprintln!("tcplab-kernel: {outside} metrics outside their targets");
                    return Err(Failure::Outside);
                }
                Ok(())
            }
            other => Err(Failure::Usage(format!(
                "unknown command \"{other}\" (commands: run, trace, validate)"
            ))),
        }
    }
}
