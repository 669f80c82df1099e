//! One of the twin's two hosts: a network namespace of its own with a TUN device, one address
//! from 198.18.0.0/15, and one route, to the other host, through the device. No default route, so
//! nothing the host sends can go anywhere but the router.

use std::io;
use std::net::Ipv4Addr;

use crate::netns::Netns;
use crate::plan::Plan;
use crate::sys::{self, Tun};

/// The CPU the router keeps to: the last one, leaving the others to the kernel and the
/// applications. `None` on a single CPU, where there is nothing to share out.
pub fn router_cpu(cpus: usize) -> Option<usize> {
    (cpus > 1).then(|| cpus - 1)
}

/// The RPS mask (hex, as `rps_cpus` takes it) of every CPU but the router's.
fn steering_mask(cpus: usize) -> Option<String> {
    let router = router_cpu(cpus)?;
    let n = cpus.min(64);
    let all: u64 = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
    let mask = all & !(1u64 << router.min(63));
    Some(format!("{mask:x}"))
}

pub const DEVICE: &str = "tcplab0";

pub struct Host {
    pub ns: Netns,
    pub tun: Tun,
}

/// Which end a host is: the settings that matter differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Sender,
    Receiver,
}

impl Host {
    pub fn new(role: Role, addr: Ipv4Addr, peer: Ipv4Addr, plan: &Plan) -> io::Result<Host> {
        let label = match role {
            Role::Sender => "sender",
            Role::Receiver => "receiver",
        };
        let ns = Netns::new(label)?;
        // IPv6 off before the device exists, so that it never sends router solicitations.
        // A kernel without IPv6 has nothing to turn off, so a failure here is no failure.
        for key in [
            "net.ipv6.conf.all.disable_ipv6",
            "net.ipv6.conf.default.disable_ipv6",
        ] {
            let _ = ns.sysctl(key, "1");
        }
        // Per-route metrics cached from an earlier connection would change the next one's start
        // (tcp_init_metrics); the lab's connections start fresh.
        ns.sysctl("net.ipv4.tcp_no_metrics_save", "1")?;
        ns.sysctl("net.ipv4.tcp_sack", if plan.sack { "1" } else { "0" })?;
        ns.sysctl("net.ipv4.tcp_timestamps", if plan.ts { "1" } else { "0" })?;
        // The receive buffer's start and autotuning's ceiling (Plan::tcp_rmem); the send
        // buffer's ceiling above any window the lab allows, the sockets forcing their own
        // (apps::SocketPlan::buffer).
        ns.sysctl("net.ipv4.tcp_rmem", &plan.tcp_rmem())?;
        ns.sysctl("net.ipv4.tcp_wmem", "4096 16384 2147483647")?;
        let tun = ns.run(|| Tun::create(DEVICE))?;
        let mtu = plan.mtu.to_string();
        let qlen = plan.txqueuelen.to_string();
        ns.command("ip", &["link", "set", "dev", "lo", "up"])?;
        ns.command(
            "ip",
            &[
                "link",
                "set",
                "dev",
                DEVICE,
                "mtu",
                &mtu,
                "txqueuelen",
                &qlen,
                "up",
            ],
        )?;
        // Segmentation and receive offloads would hand the router (and the kernel) packets
        // larger than the MTU, which no real path carries.
        ns.command(
            "ethtool",
            &["-K", DEVICE, "tso", "off", "gso", "off", "gro", "off"],
        )?;
        // The kernel's work on a packet the router hands in (the whole TCP receive path, and the
        // replies it sends) would otherwise run inside the router's write, on the router's CPU,
        // and make the next releases late: receive packet steering moves it to the other CPUs.
        if let Some(mask) = steering_mask(sys::cpu_count()) {
            ns.write_sysfs(&format!("class/net/{DEVICE}/queues/rx-0/rps_cpus"), &mask)?;
        }
        let local = format!("{addr}/32");
        let remote = format!("{peer}/32");
        let src = addr.to_string();
        ns.command("ip", &["addr", "add", &local, "dev", DEVICE])?;
        let mut route = vec!["route", "add", &remote, "dev", DEVICE, "src", &src];
        let initcwnd = plan.initcwnd.to_string();
        let rto_min = format!("{}ms", plan.rto_min_ms);
        match role {
            Role::Sender => {
                route.extend(["initcwnd", &initcwnd, "rto_min", &rto_min]);
            }
            Role::Receiver => {
                if plan.quickack {
                    route.extend(["quickack", "1"]);
                }
            }
        }
        ns.command("ip", &route)?;
        Ok(Host { ns, tun })
    }

    /// The device's counters as this namespace's `/proc/net/dev` has them: (tx packets, tx
    /// drops). A drop here is a packet the device's ring had no room for.
    pub fn device_tx(&self) -> io::Result<(u64, u64)> {
        let text = self.ns.read("/proc/thread-self/net/dev")?;
        parse_dev_tx(&text, DEVICE)
            .ok_or_else(|| io::Error::other(format!("no {DEVICE} in /proc/net/dev")))
    }

    /// `TcpExt` counters of this namespace (`/proc/net/netstat`), by name.
    pub fn netstat(&self, name: &str) -> io::Result<u64> {
        let text = self.ns.read("/proc/thread-self/net/netstat")?;
        parse_netstat(&text, name)
            .ok_or_else(|| io::Error::other(format!("no TcpExt {name} in /proc/net/netstat")))
    }
}

fn parse_dev_tx(text: &str, dev: &str) -> Option<(u64, u64)> {
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("{dev}:")))?;
    let fields: Vec<u64> = line
        .split_once(':')?
        .1
        .split_whitespace()
        .filter_map(|f| f.parse().ok())
        .collect();
    // Receive: bytes packets errs drop fifo frame compressed multicast; then transmit.
    Some((*fields.get(9)?, *fields.get(11)?))
}

fn parse_netstat(text: &str, name: &str) -> Option<u64> {
    let mut lines = text.lines();
    while let Some(head) = lines.next() {
        let values = lines.next()?;
        if !head.starts_with("TcpExt:") {
            continue;
        }
        let i = head.split_whitespace().position(|h| h == name)?;
        return values.split_whitespace().nth(i)?.parse().ok();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steering_leaves_the_routers_cpu_alone() {
        assert_eq!(steering_mask(1), None);
        assert_eq!(steering_mask(2).as_deref(), Some("1"));
        assert_eq!(steering_mask(4).as_deref(), Some("7"));
        assert_eq!(router_cpu(2), Some(1));
    }

    #[test]
    fn device_counters_are_read_from_proc_net_dev() {
        let text = "Inter-|   Receive                                                |  Transmit\n \
face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n    \
lo:       0       0    0    0    0     0          0         0        0       0    0    0    0     0       0          0\n\
tcplab0: 1500 1 0 0 0 0 0 0 3000000 2000 0 7 0 0 0 0\n";
        assert_eq!(parse_dev_tx(text, "tcplab0"), Some((2000, 7)));
        assert_eq!(parse_dev_tx(text, "eth0"), None);
    }

    #[test]
    fn netstat_counters_are_found_by_name() {
        let text = "TcpExt: SyncookiesSent TCPSackRecovery TCPRenoRecovery\nTcpExt: 0 3 1\n\
IpExt: InNoRoutes\nIpExt: 0\n";
        assert_eq!(parse_netstat(text, "TCPSackRecovery"), Some(3));
        assert_eq!(parse_netstat(text, "TCPRenoRecovery"), Some(1));
        assert_eq!(parse_netstat(text, "Nope"), None);
    }
}
