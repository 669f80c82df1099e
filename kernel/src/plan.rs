//! How each scenario key becomes a setting of the real kernel, in one place. A key the kernel
//! cannot honour as the simulator means it is refused with the reason, never ignored.
//!
//! | key | in the twin |
//! |---|---|
//! | `cc` | `TCP_CONGESTION` on each sender's socket, one per flow where the list gives one |
//! | `rtt`, `iw` lists | refused: one path and one route serve every connection |
//! | `start` | each sender connects at its flow's start (bodies and bulk transfers) |
//! | `rtt`, `bw`, `queue`, `loss`, `ackloss`, `burst`, `drop`, `seed` | the router (`tcplab::link::Path`) |
//! | `mss` | the TUN devices' MTU, `mss + 52` (IPv4, TCP and the timestamp option), `mss + 40` with `ts=0` |
//! | `iw` | the sender's route, `initcwnd` |
//! | `rwnd` | with `autotune=0`, the receiver's `TCP_WINDOW_CLAMP` and a forced receive buffer that holds exactly that window; with autotuning, `tcp_rmem`'s ceiling four times `rwnd` and the router's cap on the advertised window (window.rs) |
//! | `autotune` | whether the receiver's buffer is forced (`SO_RCVBUFFORCE`, which turns `tcp_moderate_rcvbuf` off for the socket) or left to Linux from its default `tcp_rmem[1]` of 131 072 bytes |
//! | `sack` | `net.ipv4.tcp_sack` in both namespaces |
//! | `ts` | `net.ipv4.tcp_timestamps` in both namespaces |
//! | `minrto` | the sender's route, `rto_min` |
//! | `delack` | 0: the receiver's route, `quickack 1`; 40: Linux's own delayed ACKs (40 ms minimum) |
//! | `hystart` | 1 only: CUBIC's HyStart switch is a global module parameter |
//! | `app`, `body`, `dur`, `flows`, `msg`, `every`, `count`, `conns` | the applications |
//! | `at` | nothing: it places the player's cursor |
//! | `aqm` | `fifo` only: the router's queue is drop-tail; the disciplines run in the simulator |
//! | `codel_*`, `fq_quantum`, `pie_*`, `red_*` | nothing: settings of a discipline the router does not run |
//! | `ecn` | 0 only: with nothing on the path to mark CE, the twin leaves `tcp_ecn` at Linux's default |
//! | `probe` | 0 only: the twin runs no latency probe beside the workload |

use tcplab::{App, Aqm, CcAlgo, Scenario};

/// Linux's delayed-ACK minimum, `TCP_DELACK_MIN` (HZ/25): the one delayed-ACK timeout the
/// kernel offers without BPF.
pub const LINUX_DELACK_MS: f64 = 40.0;

/// The kernel settings for one scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub mtu: u32,
    pub initcwnd: u32,
    pub rto_min_ms: u32,
    pub quickack: bool,
    pub sack: bool,
    pub ts: bool,
    /// Each connection's algorithm, in flow order.
    pub cc: Vec<CcAlgo>,
    /// When each connection opens, in flow order, on the run's clock.
    pub start_s: Vec<f64>,
    pub rwnd: u64,
    pub autotune: bool,
    /// The TUN devices' transmit rings: room for every packet a window can hold, so that the
    /// device never drops what the router has not read yet.
    pub txqueuelen: u32,
}

/// A key the kernel cannot honour, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{key}: {why}")]
pub struct Refusal {
    pub key: &'static str,
    pub why: String,
}

impl Plan {
    pub fn of(s: &Scenario) -> Result<Plan, Refusal> {
        if s.aqm != Aqm::Fifo {
            return Err(Refusal {
                key: "aqm",
                why: format!(
                    "the twin's router runs the drop-tail queue only; {} runs in the simulator \
                     alone (allowed fifo)",
                    s.aqm.name()
                ),
            });
        }
        if s.ecn {
            return Err(Refusal {
                key: "ecn",
                why: "the twin's router marks nothing CE, so the twin leaves Linux's tcp_ecn at \
                      its default (allowed 0)"
                    .into(),
            });
        }
        if !s.sched.is_empty() {
            return Err(Refusal {
                key: "sched",
                why: "the twin's router keeps the path as it starts; a schedule's changes run in \
                      the simulator alone (allowed none)"
                    .into(),
            });
        }
        if s.ackagg_ms != 0.0 {
            return Err(Refusal {
                key: "ackagg",
                why: "the twin's router hands each ACK on as it comes; aggregation runs in the \
                      simulator alone (allowed 0)"
                    .into(),
            });
        }
        if s.link != tcplab::scenario::LinkKind::Fixed {
            return Err(Refusal {
                key: "link",
                why: format!(
                    "the twin's router runs a fixed rate; link={} runs in the simulator alone \
                     (allowed fixed)",
                    s.link.name()
                ),
            });
        }
        // Per-flow RTTs need one path per flow, and per-flow initial windows one route per
        // connection: the router has one path and the sender one route.
        for (key, differs) in [
            ("rtt", !s.each.rtt_ms.is_empty()),
            ("iw", !s.each.iw.is_empty()),
        ] {
            if differs {
                return Err(Refusal {
                    key,
                    why: format!(
                        "the twin gives every connection the same {key}; one per flow runs in the \
                         simulator alone (allowed one value)"
                    ),
                });
            }
        }
        let specs = s.flow_specs();
        if s.app == App::Msgs && specs.iter().any(|f| f.start_s != 0.0) {
            return Err(Refusal {
                key: "start",
                why: "the twin's messages start once every connection is up; a later start runs \
                      in the simulator alone for app=msgs (allowed 0)"
                    .into(),
            });
        }
        if s.probe_ms != 0.0 {
            return Err(Refusal {
                key: "probe",
                why: "the twin runs no latency probe beside the workload (allowed 0)".into(),
            });
        }
        if !s.hystart && specs.iter().any(|f| f.cc == CcAlgo::Cubic) {
            return Err(Refusal {
                key: "hystart",
                why: "the kernel cannot turn HyStart off for one connection: it is the global \
                      module parameter /sys/module/tcp_cubic/parameters/hystart, which the twin \
                      leaves alone (allowed 1)"
                    .into(),
            });
        }
        let quickack = if s.delack_ms == 0.0 {
            true
        } else if s.delack_ms == LINUX_DELACK_MS {
            false
        } else {
            return Err(Refusal {
                key: "delack",
                why: format!(
                    "the kernel cannot delay ACKs by {} ms: it ACKs every segment (0, the route's \
                     quickack) or delays by its own timer of at least 40 ms (40)",
                    s.delack_ms
                ),
            });
        };
        let rto_min_ms = s.minrto_ms.round();
        if rto_min_ms != s.minrto_ms {
            return Err(Refusal {
                key: "minrto",
                why: format!(
                    "the route's rto_min is whole milliseconds; {} ms is not (allowed 1 to 5000)",
                    s.minrto_ms
                ),
            });
        }
        let segments = s.rwnd / u64::from(s.mss) + 1;
        let txqueuelen = (segments.saturating_mul(2) + 1000).clamp(10_000, 1_000_000) as u32;
        Ok(Plan {
            // A full segment's payload plus IPv4, TCP and the options every segment carries.
            mtu: s.mss + tcplab::packet::header_bytes(s.ts),
            initcwnd: s.iw,
            rto_min_ms: rto_min_ms as u32,
            quickack,
            sack: s.sack,
            ts: s.ts,
            cc: specs.iter().map(|f| f.cc).collect(),
            start_s: specs.iter().map(|f| f.start_s).collect(),
            rwnd: s.rwnd,
            autotune: s.autotune,
            txqueuelen,
        })
    }
}

impl Plan {
    /// `net.ipv4.tcp_rmem`: Linux's default initial buffer (`tcp_rmem[1]`), and a ceiling that
    /// lets autotuning pass `rwnd` whatever the scaling ratio (at least a quarter of the buffer
    /// is payload), the router capping the window itself. With a forced buffer the ceiling
    /// plays no part.
    pub fn tcp_rmem(&self) -> String {
        let max = self.rwnd.saturating_mul(4).clamp(131_072, i32::MAX as u64);
        format!("4096 131072 {max}")
    }
}

/// How many TCP connections a scenario opens (none for UDP messages).
pub fn connections(s: &Scenario) -> usize {
    match s.app {
        App::Msgs => s.conns as usize,
        App::Body | App::Bulk => s.flows as usize,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plan(q: &str) -> Result<Plan, Refusal> {
        Plan::of(&Scenario::parse(q).unwrap_or_else(|e| panic!("{q}: {e}")))
    }

    #[test]
    fn the_defaults_map_to_linux_defaults() {
        let p = plan("").expect("the defaults are honoured");
        assert_eq!(p.mtu, 1512);
        assert_eq!(p.initcwnd, 10);
        assert_eq!(p.rto_min_ms, 200);
        assert!(!p.quickack && p.sack && p.ts);
        assert_eq!(p.rwnd, 4_194_304);
        assert_eq!(plan("mss=1448").map(|p| p.mtu), Ok(1500));
        // Without timestamps a full segment is 12 bytes shorter on the wire.
        assert_eq!(
            plan("mss=1448&ts=0").map(|p| (p.mtu, p.ts)),
            Ok((1488, false))
        );
    }

    #[test]
    fn a_changing_path_is_refused_by_name() {
        assert_eq!(plan("sched=1:bw:10").map_err(|r| r.key), Err("sched"));
        assert_eq!(plan("ackagg=4").map_err(|r| r.key), Err("ackagg"));
        assert_eq!(plan("flows=2&rtt=20,80").map_err(|r| r.key), Err("rtt"));
        assert_eq!(plan("flows=2&iw=4,10").map_err(|r| r.key), Err("iw"));
        assert_eq!(
            plan("app=msgs&conns=2&start=0,5").map_err(|r| r.key),
            Err("start")
        );
        assert_eq!(plan("link=lte").map_err(|r| r.key), Err("link"));
        assert!(plan("flows=2&cc=bbr,bbr").is_ok());
    }

    #[test]
    fn each_connection_takes_its_own_algorithm_and_start() {
        let p = plan("flows=3&cc=bbr,cubic,reno&start=0,2.5,5&app=bulk&dur=10");
        assert_eq!(
            p.as_ref().map(|p| p.cc.clone()),
            Ok(vec![CcAlgo::Bbr, CcAlgo::Cubic, CcAlgo::Reno])
        );
        assert_eq!(p.map(|p| p.start_s), Ok(vec![0.0, 2.5, 5.0]));
        // One value is every connection's.
        let p = plan("flows=2&cc=reno&start=1&app=bulk&dur=5");
        assert_eq!(
            p.as_ref().map(|p| p.cc.clone()),
            Ok(vec![CcAlgo::Reno, CcAlgo::Reno])
        );
        assert_eq!(p.map(|p| p.start_s), Ok(vec![1.0, 1.0]));
        // HyStart's switch is global, whichever flow runs CUBIC.
        assert_eq!(
            plan("flows=2&cc=bbr,cubic&hystart=0").map_err(|r| r.key),
            Err("hystart")
        );
    }

    #[test]
    fn keys_the_kernel_cannot_honour_are_refused_by_name() {
        assert_eq!(plan("delack=0").map(|p| p.quickack), Ok(true));
        assert_eq!(plan("delack=25").map_err(|r| r.key), Err("delack"));
        assert_eq!(plan("hystart=0").map_err(|r| r.key), Err("hystart"));
        assert!(
            plan("hystart=0&cc=reno").is_ok(),
            "HyStart is CUBIC's alone"
        );
        assert_eq!(plan("minrto=1.5").map_err(|r| r.key), Err("minrto"));
        for q in ["aqm=codel", "aqm=fq_codel", "aqm=pie", "aqm=red"] {
            assert_eq!(plan(q).map_err(|r| r.key), Err("aqm"), "{q}");
        }
        assert_eq!(plan("ecn=1").map_err(|r| r.key), Err("ecn"));
        assert_eq!(plan("probe=10").map_err(|r| r.key), Err("probe"));
        // A discipline's settings with the FIFO change nothing, here or in the simulator.
        assert!(plan("codel_target=2&red_min=1").is_ok());
        let msg = plan("delack=25").map_err(|r| r.to_string());
        assert!(
            msg.as_ref().is_err_and(|m| m.starts_with("delack: ")),
            "{msg:?}"
        );
    }

    #[test]
    fn the_rings_hold_a_window() {
        assert_eq!(plan("").map(|p| p.txqueuelen), Ok(10_000));
        assert_eq!(
            plan("rwnd=1073741824&mss=64").map(|p| p.txqueuelen),
            Ok(1_000_000)
        );
    }
}
