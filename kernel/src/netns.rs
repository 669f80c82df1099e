//! Network namespaces without names.
//!
//! `ip netns add` pins a namespace to a file under /run/netns, which outlives a killed process.
//! Here a short-lived thread calls `unshare(CLONE_NEWNET)` and hands back a descriptor of its new
//! namespace: the namespace then lives exactly as long as that descriptor and whatever was made
//! inside it (sockets, the TUN device), so the kernel tears it down when the twin exits, also on
//! Ctrl-C, SIGKILL or a panic. Threads enter it with `setns`, which changes only the calling
//! thread; sockets and devices belong to the namespace their creating thread was in.

use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::fs::MetadataExt;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Command;
use std::thread;

use crate::sys;

pub struct Netns {
    fd: OwnedFd,
    /// The namespace's inode number: what `/proc/PID/ns/net` links to (`net:[INODE]`).
    inode: u64,
    label: &'static str,
}

impl Netns {
    /// A new, empty namespace (only `lo`, down).
    pub fn new(label: &'static str) -> io::Result<Netns> {
        let fd = thread::scope(|s| {
            s.spawn(|| {
                sys::unshare_net()?;
                sys::current_netns()
            })
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("namespace thread panicked")))
        })?;
        let inode = std::fs::metadata(format!("/proc/self/fd/{}", fd.as_raw_fd()))?.ino();
        Ok(Netns { fd, inode, label })
    }

    pub fn inode(&self) -> u64 {
        self.inode
    }

    pub fn label(&self) -> &'static str {
        self.label
    }

    /// Moves the calling thread into this namespace, for good.
    pub fn enter(&self) -> io::Result<()> {
        sys::setns_net(self.fd.as_raw_fd())
    }

    /// Runs `f` on a thread inside the namespace and returns what it returned.
    pub fn run<T: Send>(&self, f: impl FnOnce() -> io::Result<T> + Send) -> io::Result<T> {
        thread::scope(|s| {
            s.spawn(|| {
                self.enter()?;
                f()
            })
            .join()
            .unwrap_or_else(|_| Err(io::Error::other("namespace thread panicked")))
        })
    }

    /// Runs a configuration command (`ip`, `ethtool`) inside the namespace and waits for it; its
    /// standard error becomes the error's message when it fails.
    pub fn command(&self, program: &str, args: &[&str]) -> io::Result<()> {
        let fd = self.fd.as_raw_fd();
        let mut cmd = Command::new(find_program(program));
        cmd.args(args);
        // SAFETY: setns is async-signal-safe: a single system call between fork and exec.
        unsafe {
            cmd.pre_exec(move || sys::setns_net(fd));
        }
        let out = cmd.output().map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("{program}: {e} (is the Debian package installed?)"),
            )
        })?;
        if out.status.success() {
            Ok(())
        } else {
            Err(io::Error::other(format!(
                "{program} {}: {}",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr).trim()
            )))
        }
    }

    /// Starts a long-running program inside the namespace (tcpdump, for a capture) and hands
    /// back the child, its standard error piped, for the caller to wait for and stop.
    pub fn spawn(&self, program: &str, args: &[&str]) -> io::Result<std::process::Child> {
        let fd = self.fd.as_raw_fd();
        let mut cmd = Command::new(find_program(program));
        cmd.args(args)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped());
        // SAFETY: setns is async-signal-safe: a single system call between fork and exec.
        unsafe {
            cmd.pre_exec(move || sys::setns_net(fd));
        }
        cmd.spawn().map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("{program}: {e} (is the Debian package installed?)"),
            )
        })
    }

    /// Writes `value` to `/sys/PATH` as this namespace's sysfs has it. The sysfs a process sees
    /// belongs to the namespace it was mounted in, so a child enters the namespace and a private
    /// mount namespace, mounts a fresh sysfs there and writes; its mounts vanish with it.
    pub fn write_sysfs(&self, path: &str, value: &str) -> io::Result<()> {
        let fd = self.fd.as_raw_fd();
        let script = "mount --make-rprivate / && mount -t sysfs sysfs /sys && printf %s \"$1\" > \"/sys/$2\"";
        let mut cmd = Command::new(find_program("sh"));
        cmd.args(["-c", script, "sh", value, path]);
        // SAFETY: two system calls between fork and exec.
        unsafe {
            cmd.pre_exec(move || {
                sys::setns_net(fd)?;
                sys::unshare_mounts()
            });
        }
        let out = cmd.output()?;
        if out.status.success() {
            Ok(())
        } else {
            Err(io::Error::other(format!(
                "writing /sys/{path}: {}",
                String::from_utf8_lossy(&out.stderr).trim()
            )))
        }
    }

    /// Sets `net.x.y` inside the namespace (the `/proc/sys/net` a thread sees is its namespace's).
    pub fn sysctl(&self, key: &str, value: &str) -> io::Result<()> {
        let path = format!("/proc/sys/{}", key.replace('.', "/"));
        self.run(|| {
            std::fs::write(&path, value)
                .map_err(|e| io::Error::new(e.kind(), format!("sysctl {key}={value}: {e}")))
        })
    }

    /// Reads a file under `/proc/thread-self/net` or `/proc/sys/net` as this namespace has it.
    pub fn read(&self, path: &str) -> io::Result<String> {
        self.run(|| std::fs::read_to_string(path))
    }
}

/// Configuration tools live in /usr/sbin, which a non-login root shell may lack on its PATH.
fn find_program(name: &str) -> String {
    for dir in ["/usr/sbin", "/sbin", "/usr/bin", "/bin"] {
        let p = format!("{dir}/{name}");
        if Path::new(&p).exists() {
            return p;
        }
    }
    name.to_string()
}

/// The inodes of every network namespace some process on this machine is in or holds open: a
/// namespace of the twin's that is not here is gone.
pub fn namespaces_in_use() -> Vec<u64> {
    let mut found = Vec::new();
    let Ok(procs) = std::fs::read_dir("/proc") else {
        return found;
    };
    for p in procs.flatten() {
        let name = p.file_name();
        if !name.to_string_lossy().bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let base = p.path();
        let mut links = vec![base.join("ns/net")];
        if let Ok(fds) = std::fs::read_dir(base.join("fd")) {
            links.extend(fds.flatten().map(|f| f.path()));
        }
        if let Ok(tasks) = std::fs::read_dir(base.join("task")) {
            links.extend(tasks.flatten().map(|t| t.path().join("ns/net")));
        }
        for l in links {
            if let Ok(target) = std::fs::read_link(&l) {
                let t = target.to_string_lossy();
                if let Some(ino) = t
                    .strip_prefix("net:[")
                    .and_then(|r| r.strip_suffix(']'))
                    .and_then(|n| n.parse().ok())
                {
                    found.push(ino);
                }
            }
        }
    }
    found.sort_unstable();
    found.dedup();
    found
}
