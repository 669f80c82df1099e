//! The few Linux calls the twin needs that std does not wrap: TUN devices, network namespaces,
//! `ppoll` with a nanosecond timeout, real-time scheduling and `TCP_INFO`. Every `unsafe` block of
//! the crate is here, each a single system call on memory this module owns.

use std::ffi::CString;
use std::fs::File;
use std::io;
use std::mem::{size_of, zeroed};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::time::Duration;

/// `_IOW('T', 202, int)` from `<linux/if_tun.h>`.
const TUNSETIFF: libc::c_ulong = 0x4004_54ca;
const IFF_TUN: libc::c_short = 0x0001;
const IFF_NO_PI: libc::c_short = 0x1000;

fn check(ret: libc::c_int) -> io::Result<libc::c_int> {
    if ret < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(ret)
    }
}

/// A layer-3 TUN device: each `read` returns one IP packet the kernel routed to it, each `write`
/// hands one IP packet to the kernel as if it had arrived on it. The device lives as long as this
/// descriptor (it is not made persistent), so it cannot outlive the process.
pub struct Tun {
    fd: OwnedFd,
}

impl Tun {
    /// Creates `name` in the calling thread's network namespace, non-blocking.
    pub fn create(name: &str) -> io::Result<Tun> {
        let path = CString::new("/dev/net/tun").map_err(io::Error::other)?;
        // SAFETY: a NUL-terminated path; the returned descriptor is owned below.
        let raw = check(unsafe {
            libc::open(
                path.as_ptr(),
                libc::O_RDWR | libc::O_NONBLOCK | libc::O_CLOEXEC,
            )
        })?;
        // SAFETY: `raw` is a descriptor we just opened and own.
        let fd = unsafe { OwnedFd::from_raw_fd(raw) };
        // SAFETY: ifreq is plain data; zeroed is a valid value.
        let mut req: libc::ifreq = unsafe { zeroed() };
        if name.len() >= req.ifr_name.len() || !name.is_ascii() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "device name too long",
            ));
        }
        for (dst, src) in req.ifr_name.iter_mut().zip(name.bytes()) {
            *dst = src as libc::c_char;
        }
        req.ifr_ifru.ifru_flags = IFF_TUN | IFF_NO_PI;
        // SAFETY: TUNSETIFF reads and writes one ifreq, which lives across the call.
        check(unsafe { libc::ioctl(fd.as_raw_fd(), TUNSETIFF, &mut req) })?;
        Ok(Tun { fd })
    }

    /// One packet, or `WouldBlock` when none is waiting.
    pub fn read(&self, buf: &mut [u8]) -> io::Result<usize> {
        // SAFETY: writes at most buf.len() bytes into buf.
        let n = unsafe { libc::read(self.fd.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) };
        if n < 0 {
            Err(io::Error::last_os_error())
        } else {
            Ok(n as usize)
        }
    }

    /// Hands one packet to the kernel.
    pub fn write(&self, packet: &[u8]) -> io::Result<usize> {
        // SAFETY: reads packet.len() bytes from packet.
        let n = unsafe { libc::write(self.fd.as_raw_fd(), packet.as_ptr().cast(), packet.len()) };
        if n < 0 {
            Err(io::Error::last_os_error())
        } else {
            Ok(n as usize)
        }
    }

    pub fn raw_fd(&self) -> RawFd {
        self.fd.as_raw_fd()
    }
}

/// Waits until one of `fds` is readable or `timeout` passes (`None`: no limit). Nanosecond
/// resolution, unlike `poll` and `epoll_wait`, whose timeouts are whole milliseconds.
pub fn wait_readable(fds: &[RawFd], timeout: Option<Duration>) -> io::Result<()> {
    let mut polls: Vec<libc::pollfd> = fds
        .iter()
        .map(|&fd| libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        })
        .collect();
    let ts = timeout.map(|d| libc::timespec {
        tv_sec: d.as_secs().min(i64::MAX as u64) as libc::time_t,
        tv_nsec: libc::c_long::from(d.subsec_nanos() as i32),
    });
    let ts_ptr = ts
        .as_ref()
        .map_or(std::ptr::null(), |t| t as *const libc::timespec);
    // SAFETY: `polls` and `ts` outlive the call; a null sigmask keeps the thread's own.
    let ret = unsafe {
        libc::ppoll(
            polls.as_mut_ptr(),
            polls.len() as libc::nfds_t,
            ts_ptr,
            std::ptr::null(),
        )
    };
    match check(ret) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::Interrupted => Ok(()),
        Err(e) => Err(e),
    }
}

/// Moves the calling thread into a new, unnamed network namespace. Nothing names it in the file
/// system: it lives while a thread, a socket, a device or a descriptor holds it, so the kernel
/// removes it, and every device in it, when the process ends however it ends.
pub fn unshare_net() -> io::Result<()> {
    // SAFETY: affects the calling thread's namespaces only.
    check(unsafe { libc::unshare(libc::CLONE_NEWNET) }).map(drop)
}

/// A descriptor of the calling thread's network namespace.
pub fn current_netns() -> io::Result<OwnedFd> {
    Ok(OwnedFd::from(File::open("/proc/thread-self/ns/net")?))
}

/// Moves the calling thread into the network namespace `fd` refers to.
pub fn setns_net(fd: RawFd) -> io::Result<()> {
    // SAFETY: `fd` refers to a namespace file; affects the calling thread only.
    check(unsafe { libc::setns(fd, libc::CLONE_NEWNET) }).map(drop)
}

/// Runs the calling thread at real-time priority (SCHED_FIFO), where allowed; false if not.
pub fn make_realtime(priority: i32) -> bool {
    let param = libc::sched_param {
        sched_priority: priority,
    };
    // SAFETY: pid 0 is the calling thread; `param` lives across the call.
    unsafe { libc::sched_setscheduler(0, libc::SCHED_FIFO, &param) == 0 }
}

/// The CPUs this process may run on.
pub fn cpu_count() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Keeps the calling thread on `cpu`; false if the kernel refused.
pub fn pin_to_cpu(cpu: usize) -> bool {
    // SAFETY: cpu_set_t is plain data; CPU_SET writes inside it; pid 0 is the calling thread.
    unsafe {
        let mut set: libc::cpu_set_t = zeroed();
        libc::CPU_SET(cpu, &mut set);
        libc::sched_setaffinity(0, size_of::<libc::cpu_set_t>(), &set) == 0
    }
}

/// Moves the calling thread (between fork and exec) into a mount namespace of its own, whose
/// mounts nobody else sees, so that it can mount a sysfs of its network namespace.
pub fn unshare_mounts() -> io::Result<()> {
    // SAFETY: affects the calling process only.
    check(unsafe { libc::unshare(libc::CLONE_NEWNS) }).map(drop)
}

/// Asks for timers as exact as the kernel can make them (the default slack is 50 us).
pub fn tighten_timer_slack() {
    // SAFETY: PR_SET_TIMERSLACK takes one integer argument.
    unsafe {
        libc::prctl(libc::PR_SET_TIMERSLACK, 1 as libc::c_ulong, 0, 0, 0);
    }
}

pub fn is_root() -> bool {
    // SAFETY: geteuid cannot fail.
    unsafe { libc::geteuid() == 0 }
}

/// `struct tcp_info` of `<linux/tcp.h>`, up to the fields this kernel generation has. The kernel
/// copies `min(its size, ours)` bytes, so fields it lacks stay zero; `len` says how many it gave.
#[repr(C)]
#[derive(Debug, Clone, Copy, Default)]
pub struct TcpInfo {
    pub state: u8,
    pub ca_state: u8,
    pub retransmits: u8,
    pub probes: u8,
    pub backoff: u8,
    pub options: u8,
    pub wscale: u8,
    pub app_limited: u8,
    pub rto_us: u32,
    pub ato_us: u32,
    pub snd_mss: u32,
    pub rcv_mss: u32,
    pub unacked: u32,
    pub sacked: u32,
    pub lost: u32,
    pub retrans: u32,
    pub fackets: u32,
    pub last_data_sent: u32,
    pub last_ack_sent: u32,
    pub last_data_recv: u32,
    pub last_ack_recv: u32,
    pub pmtu: u32,
    pub rcv_ssthresh: u32,
    pub rtt_us: u32,
    pub rttvar_us: u32,
    pub snd_ssthresh: u32,
    pub snd_cwnd: u32,
    pub advmss: u32,
    pub reordering: u32,
    pub rcv_rtt: u32,
    pub rcv_space: u32,
    pub total_retrans: u32,
    pub pacing_rate: u64,
    pub max_pacing_rate: u64,
    pub bytes_acked: u64,
    pub bytes_received: u64,
    pub segs_out: u32,
    pub segs_in: u32,
    pub notsent_bytes: u32,
    pub min_rtt_us: u32,
    pub data_segs_in: u32,
    pub data_segs_out: u32,
    pub delivery_rate: u64,
    pub busy_time: u64,
    pub rwnd_limited: u64,
    pub sndbuf_limited: u64,
    pub delivered: u32,
    pub delivered_ce: u32,
    pub bytes_sent: u64,
    pub bytes_retrans: u64,
    pub dsack_dups: u32,
    pub reord_seen: u32,
    pub rcv_ooopack: u32,
    pub snd_wnd: u32,
    pub rcv_wnd: u32,
    pub rehash: u32,
    pub total_rto: u16,
    pub total_rto_recoveries: u16,
    pub total_rto_time: u32,
}

/// The size of `TcpInfo` up to and including `snd_wnd`, `rcv_wnd` and the RTO counters: a kernel
/// that returns less cannot say what those fields say.
pub const TCP_INFO_WITH_WINDOWS: usize = size_of::<TcpInfo>() - 4 - 2 - 2 - 4;
pub const TCP_INFO_WITH_RTO_COUNTS: usize = size_of::<TcpInfo>();

/// `getsockopt(TCP_INFO)`: the snapshot and how many bytes of it the kernel filled.
pub fn tcp_info(fd: RawFd) -> io::Result<(TcpInfo, usize)> {
    let mut info = TcpInfo::default();
    let mut len = size_of::<TcpInfo>() as libc::socklen_t;
    // SAFETY: the kernel writes at most `len` bytes into `info`, a plain-data struct.
    check(unsafe {
        libc::getsockopt(
            fd,
            libc::IPPROTO_TCP,
            libc::TCP_INFO,
            (&mut info as *mut TcpInfo).cast(),
            &mut len,
        )
    })?;
    Ok((info, len as usize))
}

/// `setsockopt` of one `int`.
pub fn set_int_option(fd: RawFd, level: i32, name: i32, value: i32) -> io::Result<()> {
    // SAFETY: passes one int by pointer with its size.
    check(unsafe {
        libc::setsockopt(
            fd,
            level,
            name,
            (&value as *const i32).cast(),
            size_of::<i32>() as libc::socklen_t,
        )
    })
    .map(drop)
}

/// The bytes a TCP socket still holds to send: written and not yet acknowledged
/// (`SIOCOUTQ`, tcp(7)).
pub fn unacked_bytes(fd: RawFd) -> io::Result<u64> {
    let mut value: libc::c_int = 0;
    // SAFETY: SIOCOUTQ writes one int.
    check(unsafe { libc::ioctl(fd, libc::TIOCOUTQ, &mut value) })?;
    Ok(u64::try_from(value).unwrap_or(0))
}

/// Whether the kernel's TCP is under memory pressure (the "press" column of
/// `/proc/net/protocols`): past `tcp_mem`'s second threshold Linux shrinks every socket's
/// buffers, so a run then measures the pressure, not its path (`tcp_enter_memory_pressure`).
pub fn tcp_memory_pressure() -> bool {
    std::fs::read_to_string("/proc/net/protocols").is_ok_and(|t| tcp_pressure_in(&t))
}

fn tcp_pressure_in(protocols: &str) -> bool {
    protocols
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .find(|w| w.first() == Some(&"TCP"))
        .is_some_and(|w| w.get(4) == Some(&"yes"))
}

/// The kernel's orphaned TCP sockets (closed by their owner, still holding data) and the
/// pages all TCP sockets hold, from `/proc/net/sockstat`.
pub fn tcp_orphans_and_pages() -> Option<(u64, u64)> {
    tcp_orphans_and_pages_in(&std::fs::read_to_string("/proc/net/sockstat").ok()?)
}

fn tcp_orphans_and_pages_in(sockstat: &str) -> Option<(u64, u64)> {
    let line = sockstat.lines().find(|l| l.starts_with("TCP:"))?;
    let words: Vec<&str> = line.split_whitespace().collect();
    let after = |key: &str| {
        words
            .iter()
            .position(|w| *w == key)
            .and_then(|i| words.get(i + 1))
            .and_then(|v| v.parse().ok())
    };
    Some((after("orphan")?, after("mem")?))
}

/// `getsockopt` of one `int`.
pub fn get_int_option(fd: RawFd, level: i32, name: i32) -> io::Result<i32> {
    let mut value: i32 = 0;
    let mut len = size_of::<i32>() as libc::socklen_t;
    // SAFETY: the kernel writes at most one int.
    check(unsafe { libc::getsockopt(fd, level, name, (&mut value as *mut i32).cast(), &mut len) })?;
    Ok(value)
}

pub const SO_SNDBUFFORCE: i32 = libc::SO_SNDBUFFORCE;
pub const SO_RCVBUFFORCE: i32 = libc::SO_RCVBUFFORCE;
pub const TCP_WINDOW_CLAMP: i32 = libc::TCP_WINDOW_CLAMP;
pub const TCP_NODELAY: i32 = libc::TCP_NODELAY;

/// The kernel's release (`uname -r`).
pub fn kernel_release() -> String {
    std::fs::read_to_string("/proc/sys/kernel/osrelease")
        .map(|s| s.trim().to_string())
        .unwrap_or_else(|_| "unknown".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tcp_memory_pressure_is_read_from_the_protocols_press_column() {
        let head = "protocol  size sockets  memory press maxhdr  slab module     cl co\n";
        let tcp = |press: &str| {
            format!("{head}UDP        1152      0       0   NI       0   yes  kernel      y  y\nTCP       2304      1  468451   {press}     192   yes  kernel      y  y\n")
        };
        assert!(tcp_pressure_in(&tcp("yes")));
        assert!(!tcp_pressure_in(&tcp("no")));
        assert!(!tcp_pressure_in(head));
    }

    #[test]
    fn orphans_and_pages_are_read_from_sockstat() {
        let sockstat = "sockets: used 8\nTCP: inuse 1 orphan 81 tw 0 alloc 82 mem 468451\nUDP: inuse 0 mem 0\n";
        assert_eq!(tcp_orphans_and_pages_in(sockstat), Some((81, 468451)));
        assert_eq!(tcp_orphans_and_pages_in("TCP: inuse 1\n"), None);
    }
}
