//! One scenario through the real kernel: two namespaces, the router between them, the
//! applications at both ends, and the summary in the simulator's terms.

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::os::fd::{AsRawFd, RawFd};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

use tcplab::link::Path;
use tcplab::metrics::stats::jain;
use tcplab::rate::MbitPerS;
use tcplab::theory::path::{bdp_bytes, mathis, window_limit};
use tcplab::time::{Duration as SimDuration, Instant as SimInstant};
use tcplab::workload::{MessageLog, MsgRecord};
use tcplab::{App, CcAlgo, Scenario};

use crate::apps::{self, ReadPlan, Reception, SocketPlan};
use crate::host::{Host, Role, DEVICE};
use crate::ip::{RECEIVER_ADDR, SENDER_ADDR};
use crate::plan::{self, Plan, Refusal};
use crate::router::{self, RouterOptions, RouterReport, Schedule};
use crate::summary::{KernelSide, KernelSummary};
use crate::sys::{self, TcpInfo};
use crate::window::WindowCap;

/// Why a kernel run could not be made.
#[derive(Debug, thiserror::Error)]
pub enum TwinError {
    /// This machine cannot host the twin (not root, no TUN, a tool missing).
    #[error("{0}")]
    Unavailable(String),
    #[error(transparent)]
    Refused(#[from] Refusal),
    #[error(transparent)]
    Scenario(#[from] tcplab::ScenarioError),
    #[error("{context}: {source}")]
    Io {
        context: &'static str,
        source: io::Error,
    },
}

fn io_err(context: &'static str) -> impl FnOnce(io::Error) -> TwinError {
    move |source| TwinError::Io { context, source }
}

/// Checks that this machine can host the twin, before anything is made.
pub fn preflight() -> Result<(), TwinError> {
    if !sys::is_root() {
        return Err(TwinError::Unavailable(
            "the kernel twin needs root: it makes network namespaces and TUN devices (run it as root)"
                .into(),
        ));
    }
    if !std::path::Path::new("/dev/net/tun").exists() {
        return Err(TwinError::Unavailable(
            "/dev/net/tun is missing: this kernel or container offers no TUN devices".into(),
        ));
    }
    if sys::tcp_memory_pressure() {
        let (orphans, pages) = sys::tcp_orphans_and_pages().unwrap_or((0, 0));
        return Err(TwinError::Unavailable(format!(
            "this kernel's TCP is under memory pressure ({pages} pages held, {orphans} of its \
             sockets orphaned): Linux shrinks every window while it lasts, so a run would \
             measure that, not its path; wait for the orphans to time out (a few minutes) and \
             run again"
        )));
    }
    for tool in ["ip", "ethtool"] {
        let found = ["/usr/sbin", "/sbin", "/usr/bin", "/bin"]
            .iter()
            .any(|d| std::path::Path::new(&format!("{d}/{tool}")).exists());
        if !found {
            return Err(TwinError::Unavailable(format!(
                "{tool} is missing: install Debian's {} package (scripts/test.sh does)",
                if tool == "ip" { "iproute2" } else { "ethtool" }
            )));
        }
    }
    Ok(())
}

const AVAILABLE_CC: &str = "/proc/sys/net/ipv4/tcp_available_congestion_control";

/// Makes sure the kernel has `cc`, loading its module (`tcp_bbr`, say) if it is one; refuses the
/// scenario's `cc` with what the kernel offers when it cannot.
fn congestion_control_available(cc: tcplab::CcAlgo) -> Result<(), TwinError> {
    let has = || {
        std::fs::read_to_string(AVAILABLE_CC)
            .map(|a| a.split_whitespace().any(|n| n == cc.name()))
            .unwrap_or(false)
    };
    if has() {
        return Ok(());
    }
    let module = format!("tcp_{}", cc.name());
    let loaded = std::process::Command::new("modprobe")
        .arg(&module)
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if loaded && has() {
        return Ok(());
    }
    let offered = std::fs::read_to_string(AVAILABLE_CC).unwrap_or_default();
    Err(TwinError::Refused(Refusal {
        key: "cc",
        why: format!(
            "this kernel has no {} (it offers: {}; modprobe {module} {})",
            cc.name(),
            offered.trim(),
            if loaded {
                "loaded nothing new"
            } else {
                "failed"
            }
        ),
    }))
}

/// What to record beside the summary.
#[derive(Debug, Clone)]
pub struct Options {
    /// How often the sender's `TCP_INFO` is read for the window trace.
    pub sample_every: Duration,
    /// A capture of the run by tcpdump on one host's TUN device.
    pub capture: Option<Capture>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            sample_every: Duration::from_millis(10),
            capture: None,
        }
    }
}

/// tcpdump on one of the hosts, as an engineer would run it there.
#[derive(Debug, Clone)]
pub struct Capture {
    pub at: Role,
    pub file: std::path::PathBuf,
    pub snaplen: u32,
}

/// tcpdump running in a host's namespace until the run is over.
struct Tcpdump(std::process::Child);

impl Tcpdump {
    /// Starts tcpdump on `host`'s TUN device and waits until it is capturing, so that the
    /// handshake is in the file.
    fn start(host: &Host, c: &Capture) -> io::Result<Tcpdump> {
        let file = c.file.to_string_lossy().into_owned();
        let snap = c.snaplen.to_string();
        // -U and --immediate-mode: each packet reaches the file as it comes, so that stopping
        // tcpdump loses none; -Z root: the file is written where root asked.
        let mut child = host.ns.spawn(
            "tcpdump",
            &[
                "-i",
                DEVICE,
                "-n",
                "-s",
                &snap,
                "-U",
                "--immediate-mode",
                "-Z",
                "root",
                "-w",
                &file,
            ],
        )?;
        let mut said = String::new();
        if let Some(err) = child.stderr.take() {
            use std::io::BufRead;
            let mut lines = io::BufReader::new(err);
            lines.read_line(&mut said)?;
            // Its later words (the packets counted) go nowhere once it is stopped.
            thread::spawn(move || {
                let mut rest = String::new();
                while lines.read_line(&mut rest).is_ok_and(|n| n > 0) {
                    rest.clear();
                }
            });
        }
        if !said.contains("listening on") {
            let _ = child.kill();
            let _ = child.wait();
            return Err(io::Error::other(format!("tcpdump: {}", said.trim())));
        }
        Ok(Tcpdump(child))
    }

    /// Stops tcpdump as Ctrl-C would, so that it writes out what it holds.
    fn stop(mut self) -> io::Result<()> {
        let pid = libc::pid_t::try_from(self.0.id()).map_err(io::Error::other)?;
        // SAFETY: kill(2) on our own child's pid, which it still is until waited for.
        if unsafe { libc::kill(pid, libc::SIGINT) } != 0 {
            return Err(io::Error::last_os_error());
        }
        self.0.wait().map(|_| ())
    }
}

/// One `TCP_INFO` reading of a sender's socket.
#[derive(Debug, Clone, Copy)]
pub struct Sample {
    pub t: SimInstant,
    pub flow: usize,
    pub info: TcpInfo,
}

pub struct KernelRun {
    pub summary: KernelSummary,
    /// Every change the sampler saw, in time order per flow.
    pub samples: Vec<Sample>,
}

/// How long past `dur` a run may go (a last read, the teardown) before the watchdog stops its
/// applications, and how long after that before it ends the process.
const GRACE: Duration = Duration::from_secs(5);
const HARD_STOP: Duration = Duration::from_secs(10);

/// The two hosts and the path between them, for one scenario.
struct Twin<'s> {
    s: &'s Scenario,
    plan: Plan,
    tx: Host,
    rx: Host,
}

impl<'s> Twin<'s> {
    fn new(s: &'s Scenario) -> Result<Twin<'s>, TwinError> {
        preflight()?;
        let plan = Plan::of(s)?;
        let mut algorithms = plan.cc.clone();
        algorithms.dedup();
        for cc in algorithms {
            congestion_control_available(cc)?;
        }
        let tx = Host::new(Role::Sender, SENDER_ADDR, RECEIVER_ADDR, &plan)
            .map_err(io_err("setting up the sender's namespace"))?;
        let rx = Host::new(Role::Receiver, RECEIVER_ADDR, SENDER_ADDR, &plan)
            .map_err(io_err("setting up the receiver's namespace"))?;
        Ok(Twin { s, plan, tx, rx })
    }

    /// Runs `work` with the router moving packets, under the watchdog; returns what `work`
    /// returned, the router's report and the wall time.
    /// The longest round trip of the run's flows, in seconds.
    fn longest_rtt_s(&self) -> f64 {
        self.s
            .each
            .rtt_ms
            .iter()
            .copied()
            .fold(self.s.rtt_ms, f64::max)
            / 1e3
    }

    fn drive<T: Send>(
        &self,
        work: impl FnOnce(Instant, &AtomicBool) -> io::Result<T> + Send,
    ) -> Result<(T, RouterReport, f64), TwinError> {
        let router_stop = AtomicBool::new(false);
        let apps_stop = AtomicBool::new(false);
        let (done, watch) = mpsc::channel::<()>();
        let epoch = Instant::now();
        let dur = Duration::from_secs_f64(self.s.dur_s);
        let (outcome, report, worked) = thread::scope(|sc| {
            let router = sc.spawn(|| {
                let r = router::run(
                    &self.tx.tun,
                    &self.rx.tun,
                    Schedule::new(Path::new(self.s)),
                    RouterOptions {
                        cap: WindowCap::new(self.s.rwnd),
                        log_deliveries: self.s.app == App::Msgs && self.s.conns > 0,
                    },
                    epoch,
                    &router_stop,
                );
                if r.is_err() {
                    apps_stop.store(true, Ordering::Release);
                }
                r
            });
            let stop = &apps_stop;
            sc.spawn(move || {
                if watch.recv_timeout(dur + GRACE).is_err() {
                    stop.store(true, Ordering::Release);
                    if watch.recv_timeout(HARD_STOP).is_err() {
                        // Every namespace and device goes with the process (netns.rs).
                        eprintln!(
                            "tcplab-kernel: the run did not stop after its time limit; exiting"
                        );
                        std::process::exit(1);
                    }
                }
            });
            let outcome = work(epoch, &apps_stop);
            let worked = epoch.elapsed();
            let _ = done.send(());
            // The path stays up two of its round trips more, so that the sockets' closes
            // (FINs, resets) and their answers cross it: a close left unanswered keeps its
            // socket an orphan in the kernel for minutes, retransmitting into a removed
            // device. A capture sees them too, as it would on a real host.
            thread::sleep(Duration::from_secs_f64(self.longest_rtt_s() * 2.0 + 0.05));
            router_stop.store(true, Ordering::Release);
            let report = joined(router, "the router");
            (outcome, report, worked)
        });
        let wall_ms = worked.as_secs_f64() * 1e3;
        let outcome = outcome.map_err(io_err("running the applications"))?;
        let report = report.map_err(io_err("routing"))?;
        Ok((outcome, report, wall_ms))
    }
}

pub fn run(s: &Scenario, options: &Options) -> Result<KernelRun, TwinError> {
    let twin = Twin::new(s)?;
    let tcpdump = match &options.capture {
        Some(c) => Some(
            Tcpdump::start(
                match c.at {
                    Role::Sender => &twin.tx,
                    Role::Receiver => &twin.rx,
                },
                c,
            )
            .map_err(io_err("starting tcpdump"))?,
        ),
        None => None,
    };
    let deadline = SimInstant::from_secs_f64(s.dur_s);
    let sampler = Sampler::new(options.sample_every);
    let (outcome, report, wall_ms) = twin.drive(|epoch, stop| {
        thread::scope(|sc| {
            let sampling = sc.spawn(|| sampler.run(epoch));
            let sockets = SocketPlan::of(&twin.plan, s.app == App::Msgs);
            let outcome = workload(&Run {
                s,
                plan: &twin.plan,
                sockets: &sockets,
                tx: &twin.tx,
                rx: &twin.rx,
                epoch,
                deadline,
                stop,
                sampler: &sampler,
            });
            sampler.stop();
            let _ = sampling.join();
            outcome
        })
    })?;
    if let Some(t) = tcpdump {
        t.stop().map_err(io_err("stopping tcpdump"))?;
    }
    let (tx, rx) = (&twin.tx, &twin.rx);
    let device_drops = [tx, rx]
        .iter()
        .filter_map(|h| h.device_tx().ok())
        .map(|(_, drops)| drops)
        .sum();
    let recoveries = ["TCPSackRecovery", "TCPRenoRecovery"]
        .iter()
        .map(|n| tx.netstat(n))
        .sum::<io::Result<u64>>()
        .ok();
    let probes = tx.netstat("TCPLossProbes").ok();
    let summary = summarise(
        s,
        &outcome,
        report,
        KernelCounters {
            device_drops,
            recoveries,
            probes,
            namespaces: [tx.ns.inode(), rx.ns.inode()],
        },
        wall_ms,
    );
    let mut samples = sampler.into_samples();
    samples.sort_by_key(|x| (x.flow, x.t));
    Ok(KernelRun { summary, samples })
}

/// `rounds` one-byte exchanges on one connection of the scenario's path, each timed by the
/// application from its write to the echo's read: the path's round-trip time as a program sees
/// it, for calibrating the router. The echo goes back at once (`TCP_NODELAY` both ways, and the
/// reply carries the ACK).
pub fn ping_pong(s: &Scenario, rounds: usize) -> Result<Vec<SimDuration>, TwinError> {
    let twin = Twin::new(s)?;
    let sockets = SocketPlan::of(&twin.plan, true);
    let cc = twin.plan.cc.first().copied().unwrap_or(s.cc);
    let (rtts, _, _) = twin.drive(|epoch, stop| {
        let (mut ours, mut theirs) =
            open_connection(&sockets, cc, &twin.tx, &twin.rx, epoch, stop)?;
        theirs.set_nodelay(true)?;
        ours.set_read_timeout(Some(Duration::from_secs(5)))?;
        theirs.set_read_timeout(Some(Duration::from_secs(5)))?;
        thread::scope(|sc| {
            let echo = sc.spawn(move || {
                let mut b = [0u8; 1];
                for _ in 0..rounds {
                    if stop.load(Ordering::Acquire) {
                        break;
                    }
                    theirs.read_exact(&mut b)?;
                    theirs.write_all(&b)?;
                }
                Ok::<_, io::Error>(())
            });
            let mut rtts = Vec::with_capacity(rounds);
            let mut b = [0u8; 1];
            for _ in 0..rounds {
                let t = router::now(epoch);
                ours.write_all(&b)?;
                ours.read_exact(&mut b)?;
                rtts.push(router::now(epoch) - t);
            }
            joined(echo, "the echo")?;
            Ok(rtts)
        })
    })?;
    Ok(rtts)
}

/// What one TCP connection did, seen from both ends.
#[derive(Debug, Clone, Default)]
struct Connection {
    syn: SimInstant,
    up: SimInstant,
    first_write: Option<SimInstant>,
    reception: Reception,
    /// The sender's last `TCP_INFO`, and how many bytes of it the kernel gave.
    info: Option<(TcpInfo, usize)>,
}

#[derive(Debug, Default)]
struct Outcome {
    connections: Vec<Connection>,
    /// app=msgs: every message's write and read.
    messages: Option<MessageLog>,
    /// app=msgs over UDP: the first datagram's time (there is no handshake).
    udp_start: Option<SimInstant>,
    udp_bytes: u64,
    udp_last_read: Option<SimInstant>,
    /// app=msgs over TCP: each connection's sender port, in connection order.
    ports: Vec<u16>,
}

/// Everything the applications of one run share.
#[derive(Clone, Copy)]
struct Run<'a> {
    s: &'a Scenario,
    /// Each connection's algorithm and start.
    plan: &'a Plan,
    sockets: &'a SocketPlan,
    tx: &'a Host,
    rx: &'a Host,
    epoch: Instant,
    /// `dur` on the run's clock: nothing is counted after it.
    deadline: SimInstant,
    stop: &'a AtomicBool,
    sampler: &'a Sampler,
}

/// Waits for a thread of the run and hands back its result; a panic in it is an error naming
/// `who`.
fn joined<T>(h: thread::ScopedJoinHandle<'_, io::Result<T>>, who: &str) -> io::Result<T> {
    h.join()
        .unwrap_or_else(|_| Err(io::Error::other(format!("{who} panicked"))))
}

fn workload(run: &Run) -> io::Result<Outcome> {
    let s = run.s;
    match (s.app, plan::connections(s)) {
        (App::Msgs, 0) => datagrams(run),
        (App::Msgs, _) => messages(run),
        (App::Body | App::Bulk, _) => transfers(run),
    }
}

/// Connects one socket of `sockets` running `cc` from the sender's namespace (on the calling
/// thread, which stays in it): the stream, when its SYN left and when its handshake completed.
fn connect_from(
    tx: &Host,
    sockets: &SocketPlan,
    cc: CcAlgo,
    epoch: Instant,
) -> io::Result<(TcpStream, SimInstant, SimInstant)> {
    tx.ns.enter()?;
    apps::connect(sockets, cc, epoch)
}

/// Takes the item of the connection whose sender used `port`.
fn take_port<T>(items: &mut Vec<(u16, T)>, port: u16) -> io::Result<T> {
    let at = items
        .iter()
        .position(|(p, _)| *p == port)
        .ok_or_else(|| io::Error::other(format!("no connection from port {port}")))?;
    Ok(items.swap_remove(at).1)
}

/// Opens one connection and hands back both ends: (sender's stream, receiver's stream).
fn open_connection(
    sockets: &SocketPlan,
    cc: CcAlgo,
    tx: &Host,
    rx: &Host,
    epoch: Instant,
    stop: &AtomicBool,
) -> io::Result<(TcpStream, TcpStream)> {
    let listener = rx.ns.run(|| apps::listen(sockets, 1))?;
    thread::scope(|sc| {
        let acceptor = sc.spawn(|| accept_each(&listener, 1, stop, |stream, _| Ok(stream)));
        let opened = joined(
            sc.spawn(|| connect_from(tx, sockets, cc, epoch)),
            "the sender",
        );
        let (ours, _, _) = match opened {
            Ok(o) => o,
            Err(e) => {
                stop.store(true, Ordering::Release);
                return Err(e);
            }
        };
        let mut accepted = joined(acceptor, "the acceptor")?;
        let theirs = take_port(&mut accepted, ours.local_addr()?.port())?;
        Ok((ours, theirs))
    })
}

/// Accepts `n` connections on `listener` and hands each, as it comes, to `serve` on a thread of
/// its own (with the peer's port); returns what each returned, in the order accepted.
/// Gives up when `stop` is set (a sender failed, or the watchdog fired).
fn accept_each<T: Send>(
    listener: &std::net::TcpListener,
    n: usize,
    stop: &AtomicBool,
    serve: impl Fn(TcpStream, u16) -> io::Result<T> + Sync,
) -> io::Result<Vec<(u16, T)>> {
    listener.set_nonblocking(true)?;
    thread::scope(|sc| {
        let mut served = Vec::with_capacity(n);
        while served.len() < n {
            let (stream, peer) = match listener.accept() {
                Ok(a) => a,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    if stop.load(Ordering::Acquire) {
                        return Err(io::Error::other("stopped before every connection came"));
                    }
                    sys::wait_readable(&[listener.as_raw_fd()], Some(Duration::from_millis(20)))?;
                    continue;
                }
                Err(e) => return Err(e),
            };
            stream.set_nonblocking(false)?;
            let serve = &serve;
            served.push((peer.port(), sc.spawn(move || serve(stream, peer.port()))));
        }
        served
            .into_iter()
            .map(|(port, h)| {
                let r = joined(h, "a receiver")?;
                Ok((port, r))
            })
            .collect()
    })
}

/// What a sending thread of a transfer ends with.
struct Sent {
    port: u16,
    syn: SimInstant,
    up: SimInstant,
    first_write: Option<SimInstant>,
    info: Option<(TcpInfo, usize)>,
    /// Kept open until the sampler has stopped reading it.
    stream: TcpStream,
}

fn transfers(run: &Run) -> io::Result<Outcome> {
    let Run {
        s,
        plan,
        sockets,
        tx,
        rx,
        epoch,
        deadline,
        stop,
        sampler,
    } = *run;
    let n = s.flows as usize;
    let think = SimDuration::from_millis_f64(s.think_ms);
    let listener = rx.ns.run(|| apps::listen(sockets, 128))?;
    let t0 = OnceLock::new();
    let read = ReadPlan {
        target: (s.app == App::Body).then_some(s.body),
        fixed_window: (!s.autotune).then_some(s.rwnd),
        epoch,
        deadline,
        window: tcplab::sim::goodput_window(s),
        t0: &t0,
        stop,
    };
    let senders_done = AtomicBool::new(false);
    let (received, sent) = thread::scope(|sc| {
        let receivers =
            sc.spawn(|| accept_each(&listener, n, stop, |stream, _| apps::receive(stream, &read)));
        // Each sender writes as soon as its handshake is done (the SYN-ACK is in), as the
        // simulator's does, not when the receiver has accepted.
        let senders: Vec<_> = (0..n)
            .map(|i| {
                let (t0, senders_done, read) = (&t0, &senders_done, &read);
                let cc = plan.cc.get(i).copied().unwrap_or(s.cc);
                let start = plan.start_s.get(i).copied().unwrap_or(0.0);
                sc.spawn(move || {
                    // A flow with a later start opens its connection then, as the simulator's
                    // Event::Start does; the bytes it reads count from the run's first write.
                    apps::sleep_until(epoch, SimInstant::from_secs_f64(start));
                    let (mut stream, syn, up) = connect_from(tx, sockets, cc, epoch)?;
                    let port = stream.local_addr()?.port();
                    sampler.register(i, stream.as_raw_fd());
                    // The application's think time, from the connection's being up.
                    apps::sleep_until(epoch, up + think);
                    let first_write =
                        apps::send(&mut stream, read.target, epoch, deadline, t0, stop)?;
                    // The socket stays open (and its TCP_INFO readable) until every reader is done.
                    while !senders_done.load(Ordering::Acquire) && !stop.load(Ordering::Acquire) {
                        thread::sleep(Duration::from_millis(2));
                    }
                    let info = sys::tcp_info(stream.as_raw_fd()).ok();
                    Ok::<_, io::Error>(Sent {
                        port,
                        syn,
                        up,
                        first_write,
                        info,
                        stream,
                    })
                })
            })
            .collect();
        let received = joined(receivers, "the receivers");
        senders_done.store(true, Ordering::Release);
        sampler.stop();
        let sent: Vec<io::Result<Sent>> =
            senders.into_iter().map(|h| joined(h, "a sender")).collect();
        (received, sent)
    });
    let mut received = received?;
    let mut connections = Vec::with_capacity(n);
    let mut streams = Vec::with_capacity(n);
    for sent in sent {
        let sent = sent?;
        let reception = take_port(&mut received, sent.port)?;
        connections.push(Connection {
            syn: sent.syn,
            up: sent.up,
            first_write: sent.first_write,
            reception,
            info: sent.info,
        });
        streams.push(sent.stream);
    }
    sampler.forget();
    streams.into_iter().for_each(apps::close);
    Ok(Outcome {
        connections,
        ..Outcome::default()
    })
}

/// The message ids of connection `c` of `conns`, in its stream's order (round-robin).
fn ids_on(c: usize, conns: usize, count: usize) -> impl Iterator<Item = usize> {
    (c..count).step_by(conns.max(1))
}

fn messages(run: &Run) -> io::Result<Outcome> {
    let Run {
        s,
        plan,
        sockets,
        tx,
        rx,
        epoch,
        deadline,
        stop,
        sampler,
    } = *run;
    let conns = s.conns as usize;
    let count = s.count as usize;
    let every = SimDuration::from_millis_f64(s.every_ms);
    let listener = rx.ns.run(|| apps::listen(sockets, 128))?;
    // The senders' ports in connection order, for the receivers to know which stream is which;
    // set once every connect has returned (failed ones too), so no receiver waits for ever.
    let ports: OnceLock<Vec<u16>> = OnceLock::new();
    let mut writes: Vec<SimInstant> = Vec::with_capacity(count);
    let payload = vec![0x6du8; s.msg as usize];
    let (reads, opened) = thread::scope(|sc| {
        let receivers = sc.spawn(|| {
            accept_each(&listener, conns, stop, |stream, port| {
                let c = ports
                    .wait()
                    .iter()
                    .position(|&q| q == port)
                    .ok_or_else(|| io::Error::other("an accepted connection has no sender"))?;
                let expected = ids_on(c, conns, count).count();
                let got = apps::read_messages(
                    stream,
                    (!s.autotune).then_some(s.rwnd),
                    s.msg,
                    expected,
                    epoch,
                    deadline,
                    stop,
                )?;
                Ok((c, got))
            })
        });
        let connecting: Vec<_> = (0..conns)
            .map(|c| {
                let cc = plan.cc.get(c).copied().unwrap_or(s.cc);
                sc.spawn(move || connect_from(tx, sockets, cc, epoch))
            })
            .collect();
        let mut opened = Vec::with_capacity(conns);
        let mut failed = None;
        for h in connecting {
            match joined(h, "a sender") {
                Ok(c) => opened.push(c),
                Err(e) => failed = Some(e),
            }
        }
        let listed: Vec<u16> = opened
            .iter()
            .filter_map(|(st, _, _)| st.local_addr().ok().map(|a| a.port()))
            .collect();
        let _ = ports.set(listed);
        if let Some(e) = failed {
            stop.store(true, Ordering::Release);
            return (Err(e), opened);
        }
        for (i, (st, _, _)) in opened.iter().enumerate() {
            sampler.register(i, st.as_raw_fd());
        }
        // The application starts once every connection is up and its think time has passed,
        // as in the simulator.
        let start = opened
            .iter()
            .map(|(_, _, up)| *up)
            .max()
            .unwrap_or(SimInstant::ZERO)
            .max(router::now(epoch))
            + SimDuration::from_millis_f64(s.think_ms);
        for k in 0..count {
            let at = start + every.saturating_mul(k as u64);
            if at > deadline || stop.load(Ordering::Acquire) {
                break;
            }
            apps::sleep_until(epoch, at);
            let w = router::now(epoch);
            let c = k % conns.max(1);
            if apps::write_message(&mut opened[c].0, &payload).is_err() {
                break;
            }
            writes.push(w);
        }
        let reads = joined(receivers, "the receivers");
        sampler.stop();
        (reads, opened)
    });
    let reads = reads?;
    let start = opened
        .iter()
        .map(|(_, _, up)| *up)
        .max()
        .unwrap_or(SimInstant::ZERO);
    let mut log = MessageLog::new(s.msg, every, s.count, s.conns);
    log.records = writes
        .iter()
        .map(|&w| MsgRecord {
            write: w,
            read: None,
            held_by: None,
            lost: false,
        })
        .collect();
    let mut by_conn: Vec<Vec<SimInstant>> = vec![Vec::new(); conns];
    for (_, (c, got)) in reads {
        by_conn[c] = got;
    }
    let mut connections = Vec::with_capacity(conns);
    for (c, got) in by_conn.iter().enumerate() {
        let mut reception = Reception::default();
        for (id, &t) in ids_on(c, conns, count).zip(got) {
            log.records[id].read = Some(t);
            reception.bytes += u64::from(s.msg);
            reception.first_read.get_or_insert(t);
            reception.last_read = Some(t);
        }
        let (stream, syn, up) = &opened[c];
        connections.push(Connection {
            syn: *syn,
            up: *up,
            first_write: Some(start),
            reception,
            info: sys::tcp_info(stream.as_raw_fd()).ok(),
        });
    }
    sampler.forget();
    opened
        .into_iter()
        .for_each(|(stream, _, _)| apps::close(stream));
    Ok(Outcome {
        connections,
        messages: Some(log),
        ports: ports.get().cloned().unwrap_or_default(),
        ..Outcome::default()
    })
}

fn datagrams(run: &Run) -> io::Result<Outcome> {
    let Run {
        s,
        tx,
        rx,
        epoch,
        deadline,
        stop,
        ..
    } = *run;
    let receiver = rx.ns.run(apps::udp_receiver)?;
    let sender = tx.ns.run(apps::udp_sender)?;
    let count = s.count as usize;
    let every = SimDuration::from_millis_f64(s.every_ms);
    let mut writes: Vec<SimInstant> = Vec::with_capacity(count);
    let mut buf = vec![0x6du8; s.msg as usize];
    let start = router::now(epoch) + SimDuration::from_millis_f64(s.think_ms);
    let got = thread::scope(|sc| {
        let reader = sc.spawn(|| apps::read_datagrams(&receiver, s.count, epoch, deadline, stop));
        for k in 0..count {
            let at = start + every.saturating_mul(k as u64);
            if at > deadline || stop.load(Ordering::Acquire) {
                break;
            }
            apps::sleep_until(epoch, at);
            apps::stamp(&mut buf, k as u32);
            let w = router::now(epoch);
            if sender.send(&buf).is_err() {
                break;
            }
            writes.push(w);
        }
        joined(reader, "the reader")
    })?;
    let mut log = MessageLog::new(s.msg, every, s.count, 0);
    log.records = writes
        .iter()
        .map(|&w| MsgRecord {
            write: w,
            read: None,
            held_by: None,
            lost: true,
        })
        .collect();
    let mut bytes = 0;
    let mut last = None;
    for (id, t) in got {
        if let Some(r) = log.records.get_mut(id as usize) {
            r.read = Some(t);
            r.lost = false;
            bytes += u64::from(s.msg);
            last = Some(t);
        }
    }
    Ok(Outcome {
        connections: Vec::new(),
        messages: Some(log),
        udp_start: Some(start),
        udp_bytes: bytes,
        udp_last_read: last,
        ports: Vec::new(),
    })
}

/// Reads the senders' `TCP_INFO` on a period, keeping a row whenever something in it changed.
struct Sampler {
    every: Duration,
    fds: Mutex<Vec<(usize, RawFd)>>,
    samples: Mutex<Vec<Sample>>,
    stopped: AtomicBool,
}

impl Sampler {
    fn new(every: Duration) -> Sampler {
        Sampler {
            every,
            fds: Mutex::new(Vec::new()),
            samples: Mutex::new(Vec::new()),
            stopped: AtomicBool::new(false),
        }
    }

    fn register(&self, flow: usize, fd: RawFd) {
        if let Ok(mut fds) = self.fds.lock() {
            fds.push((flow, fd));
        }
    }

    /// Stops reading: called before the sockets close, so no descriptor is read once reused.
    fn stop(&self) {
        self.stopped.store(true, Ordering::Release);
        // Waits for a reading in progress to end.
        drop(self.fds.lock());
    }

    fn forget(&self) {
        if let Ok(mut fds) = self.fds.lock() {
            fds.clear();
        }
    }

    fn run(&self, epoch: Instant) {
        let mut last: Vec<Option<TcpInfo>> = Vec::new();
        while !self.stopped.load(Ordering::Acquire) {
            if let Ok(fds) = self.fds.lock() {
                if self.stopped.load(Ordering::Acquire) {
                    break;
                }
                for &(flow, fd) in fds.iter() {
                    let Ok((info, _)) = sys::tcp_info(fd) else {
                        continue;
                    };
                    if last.len() <= flow {
                        last.resize(flow + 1, None);
                    }
                    if last[flow].is_none_or(|l| changed(&l, &info)) {
                        last[flow] = Some(info);
                        if let Ok(mut s) = self.samples.lock() {
                            s.push(Sample {
                                t: router::now(epoch),
                                flow,
                                info,
                            });
                        }
                    }
                }
            }
            thread::sleep(self.every);
        }
    }

    fn into_samples(self) -> Vec<Sample> {
        self.samples.into_inner().unwrap_or_default()
    }
}

/// Whether a reading differs from the last in anything the trace shows.
fn changed(a: &TcpInfo, b: &TcpInfo) -> bool {
    (
        a.snd_cwnd,
        a.snd_ssthresh,
        a.unacked,
        a.sacked,
        a.lost,
        a.retrans,
        a.snd_wnd,
        a.rtt_us,
        a.rto_us,
        a.total_retrans,
    ) != (
        b.snd_cwnd,
        b.snd_ssthresh,
        b.unacked,
        b.sacked,
        b.lost,
        b.retrans,
        b.snd_wnd,
        b.rtt_us,
        b.rto_us,
        b.total_retrans,
    )
}

/// Counters read from the kernel after the run.
struct KernelCounters {
    device_drops: u64,
    recoveries: Option<u64>,
    probes: Option<u64>,
    namespaces: [u64; 2],
}

fn summarise(
    s: &Scenario,
    o: &Outcome,
    router: RouterReport,
    k: KernelCounters,
    wall_ms: f64,
) -> KernelSummary {
    let ms = |d: SimDuration| d.as_millis_f64();
    let conns = &o.connections;
    let syn_at = conns.iter().map(|c| c.syn).min();
    let first_data = conns
        .iter()
        .filter_map(|c| c.first_write)
        .min()
        .or(o.udp_start);
    let first_arrival = conns.iter().filter_map(|c| c.reception.first_read).min();
    let last_read = conns
        .iter()
        .filter_map(|c| c.reception.last_read)
        .chain(o.udp_last_read)
        .max();
    let delivered: u64 = conns.iter().map(|c| c.reception.bytes).sum::<u64>() + o.udp_bytes;
    let span = match (first_data, last_read) {
        (Some(a), Some(b)) if b > a => Some(b - a),
        _ => None,
    };
    let goodput = |bytes: u64| span.map(|d| bytes as f64 / d.as_secs_f64() / 1e6);
    let per_flow: Vec<f64> = conns
        .iter()
        .map(|c| goodput(c.reception.bytes).unwrap_or(0.0))
        .collect();
    let finished = match s.app {
        App::Body => !conns.is_empty() && conns.iter().all(|c| c.reception.bytes >= s.body),
        App::Bulk => false,
        App::Msgs => o.messages.as_ref().is_some_and(|m| {
            m.records.len() == s.count as usize && m.records.iter().all(|r| r.read.is_some())
        }),
    };
    let done_at = last_read.filter(|_| finished && s.app == App::Body);
    let completion = done_at.zip(syn_at).map(|(d, s0)| ms(d - s0));
    let transfer = done_at.zip(first_arrival).map(|(d, a)| ms(d - a));
    let handshake = conns.iter().map(|c| c.up - c.syn).max().map(ms);
    let infos: Vec<(TcpInfo, usize)> = conns.iter().filter_map(|c| c.info).collect();
    let tcp = !conns.is_empty() && infos.len() == conns.len();
    let sum = |f: fn(&TcpInfo) -> u64| -> Option<u64> {
        tcp.then(|| infos.iter().map(|(i, _)| f(i)).sum())
    };
    let bytes_sent = sum(|i| i.bytes_sent);
    let bytes_retrans = sum(|i| i.bytes_retrans);
    let rto_counted = tcp
        && infos
            .iter()
            .all(|(_, len)| *len >= sys::TCP_INFO_WITH_RTO_COUNTS);
    let udp = conns.is_empty();
    let windows = match (first_data, s.app) {
        (Some(t0), App::Body | App::Bulk) => {
            let end = if finished {
                last_read
            } else {
                Some(SimInstant::from_secs_f64(s.dur_s))
            };
            let len = tcplab::sim::goodput_window(s);
            let mut bins: Vec<u64> = Vec::new();
            for c in conns {
                for (i, &b) in c.reception.window_bytes.iter().enumerate() {
                    if bins.len() <= i {
                        bins.resize(i + 1, 0);
                    }
                    bins[i] += b;
                }
            }
            end.and_then(|e| tcplab::sim::window_stats(&bins, e.saturating_duration_since(t0), len))
        }
        _ => None,
    };
    let time_limited = !finished && s.app != App::Bulk;
    let rwnd_seen = router.largest_window;
    KernelSummary {
        scenario: s.to_query(),
        goodput_MBps: goodput(delivered),
        completion_ms: completion,
        transfer_ms: transfer,
        completion_rtts: completion.map(|c| c / s.rtt_ms),
        transfer_rtts: transfer.map(|t| t / s.rtt_ms),
        handshake_ms: handshake,
        data_segments_sent: if udp {
            Some(0)
        } else {
            sum(|i| u64::from(i.data_segs_out))
        },
        retransmitted_segments: if udp {
            Some(0)
        } else {
            sum(|i| u64::from(i.total_retrans))
        },
        retrans_bytes_pct: bytes_sent
            .zip(bytes_retrans)
            .filter(|(sent, _)| *sent > 0)
            .map(|(sent, re)| re as f64 * 100.0 / sent as f64),
        dropped_data: Some(router.data.dropped_random + router.data.dropped_staged),
        dropped_acks: Some(router.ack.dropped_random),
        queue_drops: Some(router.data.dropped_queue),
        // The router's own schedule: how long the kernel's data waited at its bottleneck.
        queue_delay_ms: tcplab::sim::delay_stats(&router.sojourn),
        per_flow_queue_delay_ms: Vec::new(),
        // Its drop-tail queue drops nothing early and marks nothing (the plan refuses `aqm`
        // and `ecn` until it does).
        aqm_drops: Some(0),
        policer_drops: Some(router.data.dropped_policer),
        ecn_marks: Some(0),
        fast_retransmits: if udp { Some(0) } else { k.recoveries },
        duplicate_acks: None,
        timeouts: if udp {
            Some(0)
        } else if rto_counted {
            sum(|i| u64::from(i.total_rto))
        } else {
            None
        },
        msgs: o.messages.as_ref().map(tcplab::sim::msg_stats),
        hol: o
            .messages
            .as_ref()
            .filter(|_| !o.ports.is_empty())
            .map(|m| {
                let writes: Vec<SimInstant> = m.records.iter().map(|r| r.write).collect();
                tcplab::sim::hol_stats(&crate::hol::replay(
                    s,
                    &o.ports,
                    &writes,
                    &router.deliveries,
                ))
            }),
        probe: None,
        throughput_windows_MBps: windows,
        jain_fairness: if conns.len() > 1 && s.app != App::Msgs {
            jain(&per_flow)
        } else {
            None
        },
        per_flow_goodput_MBps: if s.app == App::Msgs {
            Vec::new()
        } else {
            per_flow
        },
        flow_names: if s.app == App::Msgs {
            Vec::new()
        } else {
            s.flow_names()
        },
        // Segments without payload the receiver sent, less each connection's SYN-ACK: its ACKs,
        // and the few that close the connection.
        acks_sent: (!udp).then(|| {
            (router.ack.received - router.ack.data_packets)
                .saturating_sub(plan::connections(s) as u64)
        }),
        mathis_MBps: mathis(s.mss, s.rtt_ms, s.loss_pct / 100.0).map(|m| m.0),
        bdp_bytes: bdp_bytes(MbitPerS(s.bw_mbps), s.rtt_ms),
        window_limit_MBps: window_limit(s.rwnd as f64, s.rtt_ms).0,
        budget_exhausted: None,
        // As the simulator says it: bulk runs end at their time limit by design.
        stopped_by: if finished {
            tcplab::sim::Stop::Finished
        } else {
            tcplab::sim::Stop::TimeLimit
        },
        time_limit_reached: time_limited,
        events: None,
        sim_wall_ms: None,
        engine: format!("linux {}", sys::kernel_release()),
        wall_ms,
        router,
        kernel: KernelSide {
            cc: s
                .flow_specs()
                .iter()
                .map(|f| f.cc.name())
                .collect::<Vec<_>>()
                .join(","),
            snd_mss: infos.first().map(|(i, _)| i.snd_mss),
            rwnd_seen_bytes: rwnd_seen,
            rwnd_advertised_bytes: conns
                .iter()
                .filter_map(|c| c.reception.rcv_wnd)
                .max()
                .map(u64::from),
            device_drops: k.device_drops,
            loss_probes: if udp { None } else { k.probes },
            rto_recoveries: tcp
                .then(|| {
                    infos
                        .iter()
                        .map(|(i, _)| u64::from(i.total_rto_recoveries))
                        .sum()
                })
                .filter(|_| rto_counted),
            namespaces: k.namespaces,
        },
    }
}
