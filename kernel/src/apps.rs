//! The applications at both ends: the simulator's workloads (`app=body`, `bulk`, `msgs` over TCP
//! or UDP) written against real sockets. Every time is read on one monotonic clock from the run's
//! epoch, so the sender's write and the receiver's read of a message compare directly.

use std::io::{self, Read, Write};
use std::net::{SocketAddr, SocketAddrV4, TcpListener, TcpStream, UdpSocket};
use std::os::fd::AsRawFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use socket2::{Domain, Protocol, Socket, Type};
use tcplab::time::{Duration as SimDuration, Instant as SimInstant};
use tcplab::CcAlgo;

use crate::ip::{RECEIVER_ADDR, SENDER_ADDR};
use crate::router::now;
use crate::sys;

/// The port the receiver listens on (TCP) or binds (UDP).
pub const PORT: u16 = 5001;

/// How often a blocked read or write wakes to look at the clock and the stop flag.
const POLL: Duration = Duration::from_millis(20);

/// One write or read call's worth of bytes for bulk transfers.
const CHUNK: usize = 1 << 20;

/// Socket settings taken from the scenario.
#[derive(Debug, Clone, Copy)]
pub struct SocketPlan {
    /// The largest window the receiver advertises (`rwnd`).
    pub rwnd: u64,
    /// The receiver's buffer grows by Linux's autotuning rather than being forced to `rwnd`.
    pub autotune: bool,
    /// `TCP_NODELAY`, for messages.
    pub nodelay: bool,
}

impl SocketPlan {
    pub fn of(plan: &crate::plan::Plan, nodelay: bool) -> SocketPlan {
        SocketPlan {
            rwnd: plan.rwnd,
            autotune: plan.autotune,
            nodelay,
        }
    }

    /// The sender's buffer: room for a whole window and what the application queued behind it,
    /// so that the send buffer never limits the window (`tcp_wmem` autotuning is off with it).
    fn buffer(&self) -> i32 {
        (self.rwnd.saturating_mul(4).max(4 << 20)).min(i32::MAX as u64 / 2) as i32
    }
}

/// The receiver's listening socket; call on a thread inside the receiver's namespace.
///
/// How the largest advertised window is made `rwnd`: the window clamp on the listener
/// (`TCP_WINDOW_CLAMP`) is what each connection's window scale is chosen from
/// (`tcp_openreq_init_rwin`, `tcp_select_initial_window`), so the scale is the smallest that
/// can say `rwnd`. Linux then overwrites the clamp with `tcp_win_from_space(sk_rcvbuf)` whenever
/// the first full-sized segment sets the socket's `scaling_ratio` (payload over the buffer
/// memory it costs, `tcp_measure_rcv_mss`), so the clamp alone does not hold: [`fit_window`]
/// then sizes the receive buffer from that ratio so that the buffer itself allows exactly
/// `rwnd`, as the simulator's receive buffer does, and sets the clamp again.
pub fn listen(plan: &SocketPlan, backlog: i32) -> io::Result<TcpListener> {
    let s = Socket::new(Domain::IPV4, Type::STREAM, Some(Protocol::TCP))?;
    s.set_reuse_address(true)?;
    let fd = s.as_raw_fd();
    if plan.autotune {
        s.bind(&SocketAddr::V4(SocketAddrV4::new(RECEIVER_ADDR, PORT)).into())?;
        s.listen(backlog)?;
        return Ok(s.into());
    }
    // Until a segment says otherwise Linux assumes half of the buffer holds payload
    // (TCP_DEFAULT_SCALING_RATIO): a buffer of twice the window, then.
    let start = i32::try_from(plan.rwnd)
        .unwrap_or(i32::MAX / 2)
        .min(i32::MAX / 2);
    sys::set_int_option(fd, libc::SOL_SOCKET, sys::SO_RCVBUFFORCE, start)?;
    let clamp = i32::try_from(plan.rwnd).unwrap_or(i32::MAX);
    sys::set_int_option(fd, libc::IPPROTO_TCP, sys::TCP_WINDOW_CLAMP, clamp)?;
    s.bind(&SocketAddr::V4(SocketAddrV4::new(RECEIVER_ADDR, PORT)).into())?;
    s.listen(backlog)?;
    Ok(s.into())
}

/// Makes the connection's largest window `rwnd` again whenever Linux has (re)measured its
/// scaling ratio (see [`listen`]), which shows as a clamp other than `rwnd`: the clamp it set is
/// `sk_rcvbuf * ratio / 256`, so a buffer of `rwnd * sk_rcvbuf / clamp` lets exactly `rwnd` be
/// advertised when it is empty. Called after every read: two `getsockopt`s when nothing changed.
pub fn fit_window(fd: std::os::fd::RawFd, rwnd: u64) -> io::Result<()> {
    let clamp = sys::get_int_option(fd, libc::IPPROTO_TCP, sys::TCP_WINDOW_CLAMP)?;
    if clamp <= 0 || i64::from(clamp) == i64::try_from(rwnd).unwrap_or(i64::MAX) {
        return Ok(());
    }
    let rcvbuf = sys::get_int_option(fd, libc::SOL_SOCKET, libc::SO_RCVBUF)?;
    if rcvbuf <= 0 {
        return Ok(());
    }
    let need = (u128::from(rwnd) * rcvbuf as u128).div_ceil(clamp as u128);
    // SO_RCVBUFFORCE doubles what it is given.
    let half = need.div_ceil(2).min(i32::MAX as u128 / 2) as i32;
    sys::set_int_option(fd, libc::SOL_SOCKET, sys::SO_RCVBUFFORCE, half)?;
    let clamp = i32::try_from(rwnd).unwrap_or(i32::MAX);
    sys::set_int_option(fd, libc::IPPROTO_TCP, sys::TCP_WINDOW_CLAMP, clamp)
}

/// A sender's socket running `cc`, connected; call on a thread inside the sender's namespace.
/// Returns the stream and the times the SYN went out and the handshake completed.
pub fn connect(
    plan: &SocketPlan,
    cc: CcAlgo,
    epoch: Instant,
) -> io::Result<(TcpStream, SimInstant, SimInstant)> {
    let s = Socket::new(Domain::IPV4, Type::STREAM, Some(Protocol::TCP))?;
    // The algorithm is the socket's own (tcp_set_congestion_control), so flows of one host
    // can differ, as the simulator's per-flow `cc` lets them.
    s.set_tcp_congestion(cc.name().as_bytes()).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!(
                "cc: the kernel refused TCP_CONGESTION {:?}: {e} (see /proc/sys/net/ipv4/tcp_available_congestion_control)",
                cc.name()
            ),
        )
    })?;
    // A sender dropped on any path (an error, the watchdog) is reset rather than left to drain
    // over a path that goes with the run ([`close`] lets one whose data all arrived close
    // with its FIN).
    s.set_linger(Some(Duration::ZERO))?;
    let fd = s.as_raw_fd();
    sys::set_int_option(fd, libc::SOL_SOCKET, sys::SO_SNDBUFFORCE, plan.buffer())?;
    if plan.nodelay {
        sys::set_int_option(fd, libc::IPPROTO_TCP, sys::TCP_NODELAY, 1)?;
    }
    s.bind(&SocketAddr::V4(SocketAddrV4::new(SENDER_ADDR, 0)).into())?;
    let syn = now(epoch);
    s.connect_timeout(
        &SocketAddr::V4(SocketAddrV4::new(RECEIVER_ADDR, PORT)).into(),
        Duration::from_secs(30),
    )?;
    let up = now(epoch);
    let stream: TcpStream = s.into();
    stream.set_write_timeout(Some(POLL))?;
    Ok((stream, syn, up))
}

/// What a receiving application saw on one connection.
#[derive(Debug, Clone, Default)]
pub struct Reception {
    pub bytes: u64,
    pub first_read: Option<SimInstant>,
    pub last_read: Option<SimInstant>,
    /// Bytes read in each goodput window (0.5 s, or 10 RTTs if longer) from `t0`, the first data
    /// write of the run, as the simulator counts them.
    pub window_bytes: Vec<u64>,
    /// The receiver's advertised window when it stopped reading (`tcpi_rcv_wnd`).
    pub rcv_wnd: Option<u32>,
}

impl Reception {
    fn record(&mut self, t: SimInstant, n: usize, t0: SimInstant, window: SimDuration) {
        self.bytes += n as u64;
        self.first_read.get_or_insert(t);
        self.last_read = Some(t);
        let i = (t.saturating_duration_since(t0).as_nanos() / window.as_nanos().max(1)) as usize;
        if self.window_bytes.len() <= i {
            self.window_bytes.resize(i + 1, 0);
        }
        self.window_bytes[i] += n as u64;
    }
}

/// How a receiving application reads: until `target` bytes (if any) have come, the deadline
/// passes or `stop` is set. Reads after the deadline are not counted: the run ends there.
pub struct ReadPlan<'a> {
    pub target: Option<u64>,
    /// `rwnd` when the buffer is fixed (`autotune=0`), kept so by [`fit_window`].
    pub fixed_window: Option<u64>,
    pub epoch: Instant,
    pub deadline: SimInstant,
    pub window: SimDuration,
    /// The first data write's time, set by the sender before any data can arrive.
    pub t0: &'a OnceLock<SimInstant>,
    pub stop: &'a AtomicBool,
}

pub fn receive(mut stream: TcpStream, plan: &ReadPlan) -> io::Result<Reception> {
    stream.set_read_timeout(Some(POLL))?;
    let mut got = Reception::default();
    let mut buf = vec![0u8; CHUNK];
    loop {
        if plan.target.is_some_and(|t| got.bytes >= t) || plan.stop.load(Ordering::Acquire) {
            break;
        }
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                let t = now(plan.epoch);
                if t > plan.deadline {
                    break;
                }
                if let Some(rwnd) = plan.fixed_window {
                    fit_window(stream.as_raw_fd(), rwnd)?;
                }
                let t0 = *plan.t0.get_or_init(|| t);
                got.record(t, n, t0, plan.window);
            }
            Err(e) if is_timeout(&e) => {
                if now(plan.epoch) > plan.deadline {
                    break;
                }
            }
            Err(e) => return Err(e),
        }
    }
    got.rcv_wnd = sys::tcp_info(stream.as_raw_fd())
        .ok()
        .filter(|(_, len)| *len >= sys::TCP_INFO_WITH_WINDOWS)
        .map(|(info, _)| info.rcv_wnd);
    Ok(got)
}

/// Closes a sender's socket as its run ends. One still holding data is reset (its SO_LINGER of
/// zero from [`connect`]: RFC 9293's ABORT, Linux `tcp_close` then `tcp_disconnect`), because
/// the path it would drain over goes with the run: a graceful close would leave the kernel an
/// orphan holding its send buffer, retransmitting into a removed device for minutes, and a
/// score of them put Linux's TCP under memory pressure (`tcp_mem`), which shrinks the windows
/// of every run after. A socket whose data has all been acknowledged closes with its FIN, as a
/// real host's does, and the path stays up for the FINs to be answered (`Twin::drive`).
pub fn close(stream: TcpStream) {
    if sys::unacked_bytes(stream.as_raw_fd()).is_ok_and(|b| b == 0) {
        let _ = socket2::SockRef::from(&stream).set_linger(None);
    }
    drop(stream);
}

fn is_timeout(e: &io::Error) -> bool {
    matches!(
        e.kind(),
        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut | io::ErrorKind::Interrupted
    )
}

/// Writes `total` bytes (`None`: without end) until done, the deadline or `stop`. Returns the
/// time of the first write, which also sets the run's `t0` if no flow has yet.
pub fn send(
    stream: &mut TcpStream,
    total: Option<u64>,
    epoch: Instant,
    deadline: SimInstant,
    t0: &OnceLock<SimInstant>,
    stop: &AtomicBool,
) -> io::Result<Option<SimInstant>> {
    let buf = vec![0u8; CHUNK];
    let mut left = total;
    let mut first = None;
    while left != Some(0) && !stop.load(Ordering::Acquire) && now(epoch) < deadline {
        let n = left.map_or(CHUNK, |l| l.min(CHUNK as u64) as usize);
        first.get_or_insert_with(|| {
            let t = now(epoch);
            t0.get_or_init(|| t);
            t
        });
        match stream.write(&buf[..n]) {
            Ok(w) => {
                if let Some(l) = left.as_mut() {
                    *l -= w as u64;
                }
            }
            Err(e) if is_timeout(&e) => {}
            // The receiver closed at the deadline: with data still unread its close is a reset
            // (RFC 9293 §3.6, Linux `tcp_close`), which a write still blocked then may see
            // first. Either way the run is over.
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::BrokenPipe | io::ErrorKind::ConnectionReset
                ) =>
            {
                break
            }
            Err(e) => return Err(e),
        }
    }
    Ok(first)
}

/// Sleeps until `at` on the run's clock, spinning the last stretch for a precise write time.
pub fn sleep_until(epoch: Instant, at: SimInstant) {
    loop {
        let t = now(epoch);
        if t >= at {
            return;
        }
        let left = Duration::from_nanos((at - t).as_nanos());
        if left > Duration::from_micros(300) {
            std::thread::sleep(left - Duration::from_micros(200));
        } else {
            std::hint::spin_loop();
        }
    }
}

/// Writes message `k` of `msg` bytes on a TCP stream: only the byte offset tells messages apart.
pub fn write_message(stream: &mut TcpStream, msg: &[u8]) -> io::Result<()> {
    let mut off = 0;
    while off < msg.len() {
        match stream.write(&msg[off..]) {
            Ok(n) => off += n,
            Err(e) if is_timeout(&e) => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// Reads messages of `msg` bytes from a TCP stream: the time each one's last byte was read.
pub fn read_messages(
    mut stream: TcpStream,
    fixed_window: Option<u64>,
    msg: u32,
    expected: usize,
    epoch: Instant,
    deadline: SimInstant,
    stop: &AtomicBool,
) -> io::Result<Vec<SimInstant>> {
    stream.set_read_timeout(Some(POLL))?;
    let msg = u64::from(msg.max(1));
    let mut reads = Vec::with_capacity(expected);
    let mut bytes = 0u64;
    let mut buf = vec![0u8; 1 << 16];
    while reads.len() < expected && !stop.load(Ordering::Acquire) {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                let t = now(epoch);
                if t > deadline {
                    break;
                }
                if let Some(rwnd) = fixed_window {
                    fit_window(stream.as_raw_fd(), rwnd)?;
                }
                bytes += n as u64;
                while (reads.len() as u64 + 1) * msg <= bytes {
                    reads.push(t);
                }
            }
            Err(e) if is_timeout(&e) => {
                if now(epoch) > deadline {
                    break;
                }
            }
            Err(e) => return Err(e),
        }
    }
    Ok(reads)
}

/// The UDP receiver's socket, in the receiver's namespace.
pub fn udp_receiver() -> io::Result<UdpSocket> {
    let s = UdpSocket::bind(SocketAddrV4::new(RECEIVER_ADDR, PORT))?;
    s.set_read_timeout(Some(POLL))?;
    Ok(s)
}

/// The UDP sender's socket, in the sender's namespace.
pub fn udp_sender() -> io::Result<UdpSocket> {
    let s = UdpSocket::bind(SocketAddrV4::new(SENDER_ADDR, 0))?;
    s.connect(SocketAddrV4::new(RECEIVER_ADDR, PORT))?;
    Ok(s)
}

/// A datagram carries its message number in its first bytes (little-endian, as many as fit):
/// the path is FIFO, so even one byte of it tells the receiver which message came, given the one
/// before (256 losses in a row would be needed to mistake one for another).
pub fn stamp(buf: &mut [u8], id: u32) {
    for (b, v) in buf.iter_mut().zip(id.to_le_bytes()) {
        *b = v;
    }
}

/// The message number of a datagram, given the number of the last one read (`None` before the
/// first).
pub fn unstamp(buf: &[u8], last: Option<u32>) -> u32 {
    let k = buf.len().min(4);
    let mut low = [0u8; 4];
    low[..k].copy_from_slice(&buf[..k]);
    let low = u32::from_le_bytes(low);
    if k >= 4 {
        return low;
    }
    let modulus = 1u64 << (8 * k);
    let next = last.map_or(0, |l| u64::from(l) + 1);
    let base = next - next % modulus;
    let mut id = base + u64::from(low);
    if id < next {
        id += modulus;
    }
    id.min(u64::from(u32::MAX)) as u32
}

/// Reads datagrams until `expected` have been seen, the deadline or `stop`: (message, read time).
pub fn read_datagrams(
    socket: &UdpSocket,
    expected: u32,
    epoch: Instant,
    deadline: SimInstant,
    stop: &AtomicBool,
) -> io::Result<Vec<(u32, SimInstant)>> {
    let mut got = Vec::new();
    let mut buf = vec![0u8; 65_536];
    let mut last = None;
    while !stop.load(Ordering::Acquire) && last.is_none_or(|l: u32| l + 1 < expected) {
        match socket.recv(&mut buf) {
            Ok(n) => {
                let t = now(epoch);
                if t > deadline {
                    break;
                }
                let id = unstamp(&buf[..n], last);
                last = Some(id);
                got.push((id, t));
            }
            Err(e) if is_timeout(&e) => {
                if now(epoch) > deadline {
                    break;
                }
            }
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_numbers_survive_short_datagrams() {
        for size in 1..=6usize {
            let mut last = None;
            // Message numbers with gaps (losses) of up to 200 in a row.
            for id in [0u32, 1, 2, 5, 200, 255, 256, 257, 400, 655, 656, 70_000] {
                let mut buf = vec![0u8; size];
                stamp(&mut buf, id);
                let modulus = if size >= 4 {
                    u64::MAX
                } else {
                    1u64 << (8 * size)
                };
                let prev_gap_ok = last.is_none_or(|l: u32| u64::from(id - l) <= modulus);
                let got = unstamp(&buf, last);
                if prev_gap_ok {
                    assert_eq!(got, id, "size {size}, last {last:?}");
                }
                last = Some(got);
            }
        }
    }
}
