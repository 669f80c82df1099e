//! The figures a lesson's sentences name, read from the run at the part's moment: `{cwnd}` is
//! the window the player's readout shows there, `{goodput}` the headline's. Each is written as
//! the page writes it (the readouts' MSS and ms, the headline's three digits), so the class
//! finds the same number on screen.

use super::Evidence;
use crate::player::explain::{group_digits, ms, mss, number, segment_name};
use crate::player::{Language, Step, StepKind};
use crate::scenario::Key;

/// Every slot a sentence may name.
pub const NAMES: &[&str] = &[
    // The moment's step: the player's readouts.
    "t",
    "cwnd",
    "ssthresh",
    "inflight",
    "queue",
    "srtt",
    "rto",
    // What happened at it.
    "segment",
    "dup",
    "before",
    "held",
    "messages",
    "worst",
    "backoff",
    // The run, whole: the headline.
    "goodput",
    "mathis",
    "vs_mathis",
    "rtts",
    "completion",
    "ping",
    "retrans",
    "timeouts",
    // The scenario: the controls.
    "iw",
    "rtt",
    "bw",
    "loss",
    "queue_limit",
    "cc",
    "body_kb",
    "mss",
    "every",
    "probe",
];

/// The value of slot `name` at step `at` of `evidence`'s run, as the page shows it; `None` when
/// the run does not have it (yet).
pub fn value(name: &str, evidence: &Evidence, at: Option<usize>, lang: Language) -> Option<String> {
    let s = evidence.scenario;
    let step = || -> Option<&Step> { evidence.steps?.steps.get(at?) };
    let m = evidence.steps.map_or(s.mss, |st| st.mss);
    let summary = || evidence.summary;
    let mbit = |mbyte: f64| number(mbyte * 8.0, 3);
    Some(match name {
        "t" => ms(step()?.t_ms),
        "cwnd" => mss(step()?.state.cwnd, m),
        "ssthresh" => match step()?.state.ssthresh {
            Some(v) => mss(v, m),
            None => "∞".to_string(),
        },
        "inflight" => mss(step()?.state.in_flight, m),
        "queue" => step()?.state.queue.to_string(),
        "srtt" => ms(step()?.state.srtt_ms?),
        "rto" => ms(step()?.state.rto_ms),
        "segment" => {
            let (seq, len) = match step()?.kind {
                StepKind::Sent { seq, len }
                | StepKind::Retransmitted { seq, len }
                | StepKind::LossProbe { seq, len }
                | StepKind::DataLost { seq, len, .. }
                | StepKind::DataArrived { seq, len, .. } => (seq, Some(len)),
                StepKind::FastRetransmit { seq, .. } => (seq, None),
                StepKind::DuplicateAck { ack, .. } => (ack, None),
                _ => return None,
            };
            segment_name(seq, len, m, lang)
        }
        "dup" => match step()?.kind {
            StepKind::DuplicateAck { count, .. } => count.to_string(),
            _ => return None,
        },
        "before" => match step()?.kind {
            StepKind::AckArrived { cwnd_before, .. }
            | StepKind::FastRetransmit { cwnd_before, .. }
            | StepKind::Timeout { cwnd_before, .. }
            | StepKind::EcnEcho { cwnd_before, .. } => mss(cwnd_before, m),
            _ => return None,
        },
        "held" => match step()?.kind {
            StepKind::DataArrived { held, .. } => group_digits(&held.to_string()),
            _ => return None,
        },
        "messages" => match step()?.kind {
            StepKind::HolRelease { messages, .. } => messages.to_string(),
            _ => return None,
        },
        "worst" => match step()?.kind {
            StepKind::HolRelease { worst_ms, .. } => ms(worst_ms),
            _ => return None,
        },
        "backoff" => match step()?.kind {
            StepKind::Timeout { backoff, .. } => backoff.to_string(),
            _ => return None,
        },
        "goodput" => mbit(summary()?.goodput_MBps?),
        "mathis" => mbit(summary()?.mathis_MBps?),
        "vs_mathis" => {
            let s = summary()?;
            number(s.goodput_MBps? / s.mathis_MBps?, 2)
        }
        "rtts" => number(summary()?.completion_rtts?, 3),
        "completion" => ms(summary()?.completion_ms?),
        "ping" => ms(summary()?.probe.as_ref()?.p50_ms?),
        "retrans" => group_digits(&summary()?.retransmitted_segments.to_string()),
        "timeouts" => summary()?.timeouts.to_string(),
        "iw" => s.value_text(Key::Iw),
        "rtt" => s.value_text(Key::Rtt),
        "bw" => s.value_text(Key::Bw),
        "loss" => s.value_text(Key::Loss),
        "queue_limit" => s.value_text(Key::Queue),
        "mss" => s.value_text(Key::Mss),
        "every" => s.value_text(Key::Every),
        "probe" => s.value_text(Key::Probe),
        "body_kb" => number(s.body as f64 / 1000.0, 4),
        "cc" => s.cc.label().to_string(),
        _ => return None,
    })
}

/// The slots `template` names, in order.
pub fn named(template: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else { break };
        out.push(&after[..close]);
        rest = &after[close + 1..];
    }
    out
}

/// A piece of a filled sentence: plain words, or a figure from slot `slot` (which the page
/// marks, so that a test can hold it against the readout it names).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    pub text: String,
    pub slot: Option<&'static str>,
}

/// `template` in pieces, its slots filled from the run and `extra` (a question's `{answer}`)
/// before them; `None` while a figure it names is not in.
pub fn pieces(
    template: &str,
    evidence: &Evidence,
    at: Option<usize>,
    lang: Language,
    extra: &[(&'static str, String)],
) -> Option<Vec<Piece>> {
    let mut out = Vec::new();
    let mut rest = template;
    let plain = |text: &str| Piece {
        text: text.to_string(),
        slot: None,
    };
    while let Some(open) = rest.find('{') {
        if open > 0 {
            out.push(plain(&rest[..open]));
        }
        let after = &rest[open + 1..];
        let close = after.find('}')?;
        let name = &after[..close];
        let piece = match extra.iter().find(|(k, _)| *k == name) {
            Some((k, v)) => Piece {
                text: v.clone(),
                slot: Some(*k),
            },
            None => Piece {
                text: value(name, evidence, at, lang)?,
                slot: NAMES.iter().find(|n| **n == name).copied(),
            },
        };
        out.push(piece);
        rest = &after[close + 1..];
    }
    if !rest.is_empty() {
        out.push(plain(rest));
    }
    Some(out)
}

/// Pieces as one sentence.
pub fn joined(pieces: &[Piece]) -> String {
    pieces.iter().map(|p| p.text.as_str()).collect()
}

/// `template` with its slots filled from the run, and `extra` before them.
pub fn fill_with(
    template: &str,
    evidence: &Evidence,
    at: Option<usize>,
    lang: Language,
    extra: &[(&'static str, String)],
) -> Option<String> {
    pieces(template, evidence, at, lang, extra).map(|p| joined(&p))
}

/// `template` with its slots filled from the run.
pub fn fill(
    template: &str,
    evidence: &Evidence,
    at: Option<usize>,
    lang: Language,
) -> Option<String> {
    fill_with(template, evidence, at, lang, &[])
}
