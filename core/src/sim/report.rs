//! The summary of a run, field for field as the spec defines it.

use crate::metrics::stats::{jain, quantile, DelayHistogram};
use crate::metrics::summary::{DelayStats, HolStats, MsgStats, ProbeStats, Summary, WindowStats};
use crate::rate::{MBytePerS, MbitPerS};
use crate::scenario::Scenario;
use crate::theory::path::{bdp_bytes, mathis, window_limit};
use crate::time::{Duration, Instant};
use crate::workload::probe::{Jitter, ProbeLog};
use crate::workload::MessageLog;

use super::world::{Stop, World};

/// When the first data left: the start of the span the goodput is measured on. UDP datagrams
/// have no sender state: the first one's time is the run's t0.
fn first_data(w: &World) -> Option<Instant> {
    w.flows
        .iter()
        .filter_map(|f| f.sender.stats().first_data_at)
        .min()
        .or(if w.flows.is_empty() { w.t0 } else { None })
}

/// When the application read its last byte: the end of the goodput's span.
fn last_read(w: &World) -> Option<Instant> {
    w.flows
        .iter()
        .filter_map(|f| f.last_read)
        .chain(w.udp_last_read)
        .max()
}

/// A link of opportunities (`link=lte`, `wifi`, a trace): the payload it could carry over the
/// span the goodput is measured on, which the verdict holds the goodput to (a walk or a trace's
/// stretch may be well above or below the link's long-run mean).
pub(crate) fn link_offered(s: &Scenario, w: &World) -> Option<MBytePerS> {
    let model = s.link_model()?;
    let (a, b) = (first_data(w)?, last_read(w)?);
    let wire = s.mss + crate::packet::header_bytes(s.ts);
    (b > a).then(|| crate::link::opportunity::payload_between(&model, a, b, (s.mss, wire)))
}

pub(crate) fn summarise(s: &Scenario, w: &World, stop: Stop) -> Summary {
    let rtt_ms = s.rtt_ms;
    let ms = |d: Duration| d.as_millis_f64();
    let flows = &w.flows;
    let syn_at = flows
        .iter()
        .filter_map(|f| f.sender.stats().syn_sent_at)
        .min();
    let (first_data, last_read) = (first_data(w), last_read(w));
    let first_arrival = flows.iter().filter_map(|f| f.first_arrival).min();
    let all_done = !flows.is_empty()
        && flows
            .iter()
            .all(|f| f.done_at.is_some() && f.workload.target().is_some());
    let done_at = flows
        .iter()
        .filter_map(|f| f.done_at)
        .max()
        .filter(|_| all_done);

    let delivered: u64 = flows.iter().map(|f| f.delivered).sum::<u64>() + w.udp_delivered;
    let span = match (first_data, last_read) {
        (Some(a), Some(b)) if b > a => Some(b - a),
        _ => None,
    };
    let goodput = |bytes: u64| span.map(|d| bytes as f64 / d.as_secs_f64() / 1e6);
    let per_flow: Vec<f64> = flows
        .iter()
        .map(|f| goodput(f.delivered).unwrap_or(0.0))
        .collect();

    let completion = done_at.zip(syn_at).map(|(d, s0)| ms(d - s0));
    let transfer = done_at.zip(first_arrival).map(|(d, a)| ms(d - a));
    let handshake = flows
        .iter()
        .filter_map(|f| {
            let st = f.sender.stats();
            st.handshake_ack_at
                .zip(st.syn_sent_at)
                .map(|(h, s0)| h - s0)
        })
        .max()
        .map(ms);

    let sum = |g: fn(&crate::tcp::sender::SenderStats) -> u64| -> u64 {
        flows.iter().map(|f| g(f.sender.stats())).sum()
    };
    let data_bytes = sum(|st| st.data_bytes);
    let retx_bytes = sum(|st| st.retransmitted_bytes);

    let end = match stop {
        Stop::TimeLimit => Some(w.end),
        _ => last_read,
    };
    let windows = match (w.t0, end) {
        (Some(t0), Some(end)) => window_stats(&w.window_bytes, end - t0, w.window_len),
        _ => None,
    };

    Summary {
        scenario: s.to_query(),
        goodput_MBps: goodput(delivered),
        completion_ms: completion,
        transfer_ms: transfer,
        completion_rtts: completion.map(|c| c / rtt_ms),
        transfer_rtts: transfer.map(|t| t / rtt_ms),
        handshake_ms: handshake,
        data_segments_sent: sum(|st| st.data_segments),
        retransmitted_segments: sum(|st| st.retransmitted_segments),
        retrans_bytes_pct: (data_bytes > 0).then(|| retx_bytes as f64 * 100.0 / data_bytes as f64),
        dropped_data: w.dropped_data,
        dropped_acks: w.dropped_acks,
        queue_drops: w.queue_drops,
        queue_delay_ms: delay_stats(&DelayHistogram::sum(&w.sojourn)),
        // One connection's figures are the run's: listed only where there are several.
        per_flow_queue_delay_ms: match &w.sojourn[..] {
            [_, _, ..] => w.sojourn.iter().map(delay_stats).collect(),
            _ => Vec::new(),
        },
        aqm_drops: w.aqm_drops,
        ecn_marks: w.ecn_marks,
        policer_drops: w.policer_drops,
        fast_retransmits: sum(|st| st.fast_retransmits),
        duplicate_acks: sum(|st| st.duplicate_acks),
        timeouts: sum(|st| st.timeouts),
        msgs: w.messages.as_ref().map(msg_stats),
        hol: w.messages.as_ref().filter(|m| m.conns > 0).map(hol_stats),
        probe: w.probe.as_ref().map(probe_stats),
        throughput_windows_MBps: windows,
        jain_fairness: if flows.len() > 1 {
            jain(&per_flow)
        } else {
            None
        },
        per_flow_goodput_MBps: per_flow,
        flow_names: s.flow_names(),
        acks_sent: w.acks_sent,
        mathis_MBps: mathis(s.mss, rtt_ms, s.loss_pct / 100.0).map(|m| m.0),
        bdp_bytes: bdp_bytes(MbitPerS(s.bw_mbps), rtt_ms),
        window_limit_MBps: window_limit(s.rwnd as f64, rtt_ms).0,
        budget_exhausted: matches!(stop, Stop::Budget | Stop::PacketBudget),
        stopped_by: stop,
        time_limit_reached: stop == Stop::TimeLimit
            && flows
                .iter()
                .any(|f| f.workload.target().is_some() && f.done_at.is_none()),
        events: w.sched.executed(),
        sim_wall_ms: 0.0,
    }
}

/// The p50, p95 and p99 of a histogram of delays, in ms.
pub fn delay_stats(h: &DelayHistogram) -> Option<DelayStats> {
    let q = |q: f64| h.quantile(q).map(Duration::as_millis_f64);
    Some(DelayStats {
        p50: q(0.5)?,
        p95: q(0.95)?,
        p99: q(0.99)?,
    })
}

/// The length of the spec's goodput windows: 0.5 s, or 10 RTTs if longer.
pub fn goodput_window(s: &Scenario) -> Duration {
    Duration::from_millis(500).max(Duration::from_millis_f64(s.rtt_ms).saturating_mul(10))
}

/// The spec's goodput windows: the whole windows of `window_len` in `span` (a partial last
/// window would understate the rate), from the bytes read in each.
pub fn window_stats(
    window_bytes: &[u64],
    span: Duration,
    window_len: Duration,
) -> Option<WindowStats> {
    let whole = (span.as_nanos() / window_len.as_nanos().max(1)) as usize;
    let secs = window_len.as_secs_f64();
    let mut rates: Vec<f64> = (0..whole)
        .map(|i| window_bytes.get(i).copied().unwrap_or(0) as f64 / secs / 1e6)
        .collect();
    rates.sort_by(f64::total_cmp);
    match (
        quantile(&rates, 0.5),
        quantile(&rates, 0.95),
        quantile(&rates, 0.99),
    ) {
        (Some(p50), Some(p95), Some(p99)) => Some(WindowStats { p50, p95, p99 }),
        _ => None,
    }
}

/// Latency statistics over the messages read; `over_80ms_pct` counts against every message
/// written, as seed 001 does.
pub fn msg_stats(log: &MessageLog) -> MsgStats {
    let mut lat: Vec<f64> = log
        .records
        .iter()
        .filter_map(|r| r.read.map(|t| (t - r.write).as_millis_f64()))
        .collect();
    lat.sort_by(f64::total_cmp);
    let sent = log.records.len() as u64;
    let received = lat.len() as u64;
    // Records are in order of writing: consecutive messages that were read.
    let mut jitter = Jitter::default();
    for r in &log.records {
        if let Some(read) = r.read {
            jitter.add(read - r.write);
        }
    }
    let over = lat.iter().filter(|&&l| l > 80.0).count() as f64;
    MsgStats {
        sent,
        received,
        lost: sent - received,
        p50_ms: quantile(&lat, 0.5),
        p90_ms: quantile(&lat, 0.9),
        p99_ms: quantile(&lat, 0.99),
        max_ms: lat.last().copied(),
        over_80ms_pct: (sent > 0).then(|| over * 100.0 / sent as f64),
        jitter_ms: jitter.mean_ms(),
        rfc3550_jitter_ms: jitter.rfc3550_ms(),
    }
}

/// The latency probe's round trips and jitter.
pub fn probe_stats(p: &ProbeLog) -> ProbeStats {
    let q = |q: f64| p.rtt.quantile(q).map(Duration::as_millis_f64);
    ProbeStats {
        sent: p.sent,
        received: p.received,
        lost: p.lost,
        p50_ms: q(0.5),
        p99_ms: q(0.99),
        jitter_ms: p.jitter.mean_ms(),
        rfc3550_jitter_ms: p.jitter.rfc3550_ms(),
    }
}

pub fn hol_stats(log: &MessageLog) -> HolStats {
    let mut held: Vec<f64> = log.events.iter().map(|e| f64::from(e.held)).collect();
    held.sort_by(f64::total_cmp);
    let mut worst: Vec<f64> = log
        .events
        .iter()
        .map(|e| e.worst_delay.as_millis_f64())
        .collect();
    worst.sort_by(f64::total_cmp);
    HolStats {
        events: log.events.len() as u64,
        held_median: quantile(&held, 0.5),
        held_max: log.events.iter().map(|e| u64::from(e.held)).max(),
        worst_delay_median_ms: quantile(&worst, 0.5),
    }
}
