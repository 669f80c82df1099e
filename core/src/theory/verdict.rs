//! What limited a run, told from its summary and the theory: the one-line answer to "why is it
//! this slow?" that the page puts above its charts.

use serde::{Deserialize, Serialize};

use crate::rate::MBytePerS;
use crate::scenario::{App, CcAlgo, Scenario};
use crate::sim::RunResult;

use super::path::{link_payload, Limits};
use super::slow_start::ideal_completion_ms;
use crate::rate::MbitPerS;

/// The limit a run ran into.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Limit {
    /// The bottleneck link was kept busy.
    LinkRate,
    /// The receiver's window over the RTT was the cap.
    ReceiveWindow,
    /// The transfer ended while the window was still doubling.
    SlowStart,
    /// Losses kept the window small.
    Loss,
    /// A policer (`police`) dropped what exceeded its token bucket: losses no queue
    /// absorbed, where a shaper at the same rate would have queued the bursts.
    Policer,
    /// Messages waited behind lost segments.
    HeadOfLine,
    /// The congestion window had not grown to the path yet.
    WindowGrowth,
    /// The run was cut short by its time limit or event budget.
    Unfinished,
    /// The application gave the path less than it could carry: a message stream's writes
    /// (app=msgs), or in a capture a sender that paused with nothing in flight.
    Application,
}

/// The verdict with the numbers that support it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Verdict {
    pub limit: Limit,
    pub goodput_mbps: MBytePerS,
    /// The link's payload rate.
    pub link_mbps: MBytePerS,
    /// The receive window's limit on all the connections together: conns × rwnd/RTT.
    pub window_limit_mbps: MBytePerS,
    /// The connections whose windows make that limit.
    pub connections: u32,
    pub mathis_mbps: Option<MBytePerS>,
    /// app=body: what the body would take on an ideal path (no loss, ideal slow start).
    pub ideal_completion_ms: Option<f64>,
    /// The run stopped before its workload was done (its time limit or event budget). A run
    /// plainly held by the link or the window keeps that verdict, with this as a note; otherwise
    /// the verdict is [`Limit::Unfinished`].
    #[serde(default)]
    pub unfinished: bool,
    /// The median sojourn at the bottleneck where it stands above CoDel's acceptable 5 ms
    /// (RFC 8289 §4.3): whatever limited the rate, every packet waited this long (bufferbloat).
    #[serde(default)]
    pub standing_queue_ms: Option<f64>,
    /// The policer's payload rate, where one stands in front of the bottleneck below its rate.
    #[serde(default)]
    pub police_mbps: Option<MBytePerS>,
    /// app=msgs: the rate its application writes at, a message of `msg` bytes every `every`
    /// ms, which no path makes faster.
    #[serde(default)]
    pub app_mbps: Option<MBytePerS>,
}

/// RFC 8289 §4.3's acceptable standing queue: a median sojourn above it is a standing queue.
pub const STANDING_QUEUE_MS: f64 = 5.0;

/// A run whose goodput reaches this share of a limit is held by that limit.
const NEAR: f64 = 0.7;

/// A run held by the link whose goodput reaches this share of its payload rate kept it full;
/// below it, the link was the limit but its window fell short of the path for part of the
/// run (its start, or the cut after a loss), and the verdict says so.
pub const FULL: f64 = 0.9;

/// What held the run `r` of `s`.
pub fn verdict(s: &Scenario, r: &RunResult) -> Verdict {
    let summary = &r.summary;
    let limits = Limits::of(s);
    // A link of opportunities is held to what it could carry while the goodput was measured.
    let link = r.link_offered.unwrap_or(limits.link);
    // The goodput is all the connections' together, so it meets all their windows together.
    let wl = limits.window_all();
    let g = MBytePerS(summary.goodput_MBps.unwrap_or(0.0));
    let ideal = (s.app == App::Body)
        .then(|| ideal_completion_ms(s.iw, s.mss, s.body, s.rtt_ms, limits.share(), s.rwnd as f64));
    let lossy = summary.retransmitted_segments > 0 || summary.dropped_data > 0;
    // BBR sets its window from its model of the path, not from losses (Linux's tcp_bbr.c:
    // `bbr_set_cwnd` takes no cut on loss, only a round of packet conservation in recovery),
    // so Mathis's law, a window halved at every loss, holds a run only if a flow of it is
    // Reno or CUBIC.
    let cut_by_loss = lossy && (0..s.connections().max(1)).any(|i| s.flow(i).cc != CcAlgo::Bbr);
    let hol_share = summary
        .msgs
        .as_ref()
        .and_then(|m| m.over_80ms_pct)
        .unwrap_or(0.0);
    let unfinished = summary.budget_exhausted || summary.time_limit_reached;
    // A policer slower than the link is the path's rate; when most of the run's drops are its
    // own, it set the pace (Flach et al., SIGCOMM 2016: policed flows lose far more than
    // shaped ones at the same rate).
    let police = (s.police_mbps > 0.0 && s.police_mbps < s.bw_mbps)
        .then(|| link_payload(MbitPerS(s.police_mbps), s.mss, s.ts));
    let drops =
        summary.policer_drops + summary.queue_drops + summary.aqm_drops + summary.dropped_data;
    let policed =
        police.is_some() && summary.policer_drops > 0 && 2 * summary.policer_drops >= drops;
    // A message stream carries what its application writes, no more: where the path carried
    // near all of it and could carry more, the application set the rate.
    let app = (s.app == App::Msgs).then(|| app_rate(s));
    let app_held = app.is_some_and(|a| a < link.min(wl) && g >= a * NEAR);
    let limit = if s.app == App::Msgs
        && s.conns > 0
        && summary.hol.as_ref().is_some_and(|h| h.events > 0)
        && hol_share > 1.0
    {
        Limit::HeadOfLine
    } else if policed {
        Limit::Policer
    } else if app_held {
        Limit::Application
    } else if s.app == App::Body && !cut_by_loss && g < link.min(wl) * NEAR {
        Limit::SlowStart
    } else if cut_by_loss && g < link.min(wl) * NEAR {
        Limit::Loss
    } else if wl < link && g >= wl * NEAR {
        Limit::ReceiveWindow
    } else if g >= link * NEAR {
        Limit::LinkRate
    } else {
        Limit::WindowGrowth
    };
    // What a partial run shows plainly (the link or the window full) it shows whole; anything
    // else it cannot tell yet.
    let limit = match limit {
        Limit::LinkRate | Limit::ReceiveWindow => limit,
        _ if unfinished => Limit::Unfinished,
        _ => limit,
    };
    Verdict {
        limit,
        goodput_mbps: g,
        link_mbps: link,
        window_limit_mbps: wl,
        connections: limits.conns as u32,
        mathis_mbps: summary.mathis_MBps.map(MBytePerS),
        ideal_completion_ms: ideal,
        unfinished,
        standing_queue_ms: summary
            .queue_delay_ms
            .as_ref()
            .map(|d| d.p50)
            .filter(|&p50| p50 > STANDING_QUEUE_MS),
        police_mbps: police,
        app_mbps: app,
    }
}

/// The payload rate app=msgs writes at: a message of `msg` bytes every `every` ms.
pub fn app_rate(s: &Scenario) -> MBytePerS {
    MBytePerS(f64::from(s.msg) / (s.every_ms * 1e3))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{run, RunOptions};

    fn limit_of(q: &str) -> Limit {
        let s = Scenario::parse(q).unwrap_or_default();
        verdict(&s, &run(&s, &RunOptions::default())).limit
    }

    /// The ideal path is a bound: on a clean path no body finishes before it, whatever the RTT,
    /// the link and the receive window (and a window far above the last round leaves the bound
    /// within a millisecond of the run, as the verdict's sentence puts them side by side).
    #[test]
    fn no_body_on_a_clean_path_beats_the_ideal_one() {
        for rtt in ["5", "31.5", "100", "466"] {
            for bw in ["10", "100", "1000"] {
                for rwnd in ["65536", "4194304"] {
                    let q = format!("rtt={rtt}&bw={bw}&rwnd={rwnd}&autotune=0&dur=60");
                    let s = Scenario::parse(&q).unwrap_or_else(|e| panic!("{q}: {e}"));
                    let r = run(&s, &RunOptions::summary_only());
                    let done = r
                        .summary
                        .completion_ms
                        .unwrap_or_else(|| panic!("{q}: unfinished"));
                    let ideal = verdict(&s, &r)
                        .ideal_completion_ms
                        .unwrap_or_else(|| panic!("{q}: no ideal"));
                    assert!(
                        done >= ideal - 0.5,
                        "{q}: done in {done} ms, ideal {ideal} ms"
                    );
                }
            }
        }
        let s = Scenario::parse("rtt=466").unwrap_or_default();
        let r = run(&s, &RunOptions::summary_only());
        let ideal = verdict(&s, &r).ideal_completion_ms.unwrap_or(f64::NAN);
        let done = r.summary.completion_ms.unwrap_or(f64::NAN);
        assert!(
            (done - ideal).abs() < 1.0,
            "rtt=466: done in {done} ms, ideal {ideal} ms"
        );
    }

    #[test]
    fn each_seed_post_gets_its_own_answer() {
        assert_eq!(limit_of("preset=post-slow-start"), Limit::SlowStart);
        assert_eq!(limit_of("preset=loss-sweep"), Limit::Loss);
        assert_eq!(
            limit_of("preset=loss-sweep&loss=0&ackloss=0"),
            Limit::ReceiveWindow
        );
        assert_eq!(limit_of("preset=hol-blocking"), Limit::HeadOfLine);
        assert_eq!(limit_of("app=bulk&bw=100&rtt=20"), Limit::LinkRate);
        assert_eq!(limit_of("body=1GB&dur=0.5"), Limit::Unfinished);
    }

    /// A message stream carries what its application writes: held by that, unless the link
    /// is slower than the writes or lost segments held its messages.
    #[test]
    fn a_message_stream_is_held_by_its_writes() {
        let s = Scenario::parse("app=msgs").unwrap_or_default();
        let v = verdict(&s, &run(&s, &RunOptions::default()));
        assert_eq!(v.limit, Limit::Application);
        // 100 bytes every 10 ms.
        assert_eq!(v.app_mbps, Some(MBytePerS(0.01)));
        assert_eq!(
            limit_of("app=msgs&msg=1000&every=2&rtt=80&conns=4"),
            Limit::Application
        );
        // 20 kB a millisecond is 20 MB/s, above a 100 Mbit/s link's 12.1.
        assert_eq!(
            limit_of("app=msgs&msg=20000&every=1&bw=100"),
            Limit::LinkRate
        );
        assert_eq!(limit_of("preset=hol-blocking"), Limit::HeadOfLine);
        // A bulk flow or a body has no writes' rate.
        let s = Scenario::parse("app=bulk&dur=1").unwrap_or_default();
        assert_eq!(verdict(&s, &run(&s, &RunOptions::default())).app_mbps, None);
    }

    #[test]
    fn loss_holds_reno_and_cubic_but_not_bbr() {
        // A 2.5 MB body over 80 ms with 1 % loss: CUBIC's window is cut at every loss, BBR's
        // is not (its Startup still has the body done within a few round trips of ideal).
        assert_eq!(limit_of("cc=cubic&loss=1&rtt=80&dur=60"), Limit::Loss);
        assert_eq!(limit_of("cc=bbr&loss=1&rtt=80"), Limit::SlowStart);
        // Flows of both: the CUBIC one is held by its losses.
        assert_eq!(
            limit_of("flows=2&cc=bbr,cubic&loss=1&rtt=80&app=bulk&dur=5&bw=1000"),
            Limit::Loss
        );
        assert_eq!(limit_of("preset=random-loss-bbr"), Limit::LinkRate);
    }

    #[test]
    fn a_policer_is_told_from_a_shaper_at_its_rate() {
        let policed = "cc=cubic&rtt=40&bw=100&police=10&queue=500&app=bulk&dur=20";
        assert_eq!(limit_of(policed), Limit::Policer);
        assert_eq!(
            limit_of("cc=bbr&rtt=40&bw=100&police=10&queue=500&app=bulk&dur=20"),
            Limit::Policer
        );
        // The same rate as a shaper: a 10 Mbit/s link whose queue takes the bursts.
        assert_eq!(
            limit_of("cc=cubic&rtt=40&bw=10&queue=50&app=bulk&dur=20"),
            Limit::LinkRate
        );
        // A policer faster than the link never drops: the link is the limit.
        assert_eq!(
            limit_of("cc=cubic&rtt=40&bw=10&police=100&queue=50&app=bulk&dur=20"),
            Limit::LinkRate
        );
    }

    #[test]
    fn a_standing_queue_is_named_whatever_the_limit() {
        let standing = |q: &str| {
            let s = Scenario::parse(q).unwrap_or_default();
            verdict(&s, &run(&s, &RunOptions::default())).standing_queue_ms
        };
        // 2.4 s of FIFO under one upload: the link is full, and so is the queue.
        let bloat = standing("preset=bufferbloat&dur=10");
        assert!(bloat.is_some_and(|ms| ms > 200.0), "{bloat:?}");
        assert_eq!(standing("preset=bufferbloat-fq-codel&dur=10"), None);
        assert_eq!(standing("preset=post-slow-start"), None);
    }

    #[test]
    fn a_partial_run_held_by_the_link_keeps_that_verdict() {
        // 1 Gbit/s for 30 s is far over the page's budget; the part run fills the link.
        let s = Scenario::parse("app=bulk&bw=1000&rtt=20&dur=30").unwrap_or_default();
        let options = RunOptions {
            max_events: 200_000,
            ..RunOptions::default()
        };
        let r = run(&s, &options);
        assert!(r.summary.budget_exhausted);
        let v = verdict(&s, &r);
        assert_eq!(v.limit, Limit::LinkRate);
        assert!(v.unfinished);
        // Still in slow start when the budget ran out: nothing can be said yet.
        let s = Scenario::parse("app=bulk&bw=1000&rtt=200&dur=30").unwrap_or_default();
        let options = RunOptions {
            max_events: 2_000,
            ..RunOptions::default()
        };
        let v = verdict(&s, &run(&s, &options));
        assert_eq!((v.limit, v.unfinished), (Limit::Unfinished, true));
    }

    #[test]
    fn many_windows_together_can_fill_the_link() {
        // 1 MiB over 20 ms is 52 MB/s a flow: one flow is held by its window, four of them
        // fill the 1 Gbit/s link (121 MB/s of payload).
        assert_eq!(
            limit_of("app=bulk&rtt=20&rwnd=1048576&dur=5"),
            Limit::ReceiveWindow
        );
        assert_eq!(
            limit_of("app=bulk&rtt=20&rwnd=1048576&dur=5&flows=4"),
            Limit::LinkRate
        );
    }
}
