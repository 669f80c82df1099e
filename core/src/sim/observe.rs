//! What the world observes of a run for its traces and its summary, apart from the events
//! themselves: each sender's window row when it changes, the algorithm's model for the charts'
//! overlays, and the goodput windows the summary's percentiles come from. The player's steps
//! are `record.rs`'s.

use crate::cc::CcModel;
#[cfg(doc)]
use crate::metrics::trace::Tracing;
use crate::metrics::trace::{window_col, MAX_CUBIC_EPOCHS};
use crate::time::{Duration, Instant};

use super::world::World;

/// What the window trace shows of a sender, as last recorded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct WindowState {
    pub cwnd: u64,
    /// Capped at "infinite", which the trace shows as no value.
    pub ssthresh: u64,
    pub in_flight: u64,
    pub peer_window: u64,
    pub srtt: Option<Duration>,
    pub rto: Duration,
}

impl WindowState {
    /// The trace's row.
    fn row(&self) -> [f64; 6] {
        let mut row = [0.0; 6];
        row[window_col::CWND] = self.cwnd as f64;
        row[window_col::SSTHRESH] = if self.ssthresh >= crate::cc::INFINITE_SSTHRESH_BYTES {
            f64::NAN
        } else {
            self.ssthresh as f64
        };
        row[window_col::IN_FLIGHT] = self.in_flight as f64;
        row[window_col::RWND] = self.peer_window as f64;
        row[window_col::SRTT_MS] = self.srtt.map_or(f64::NAN, Duration::as_millis_f64);
        row[window_col::RTO_MS] = self.rto.as_millis_f64();
        row
    }
}

impl World {
    pub(super) fn record_window(&mut self, now: Instant, fi: usize) {
        let s = &self.flows[fi].sender;
        let w = s.window();
        // A flow whose details the charts do not draw ([`Tracing::Charts`]' flows after the
        // first) shows its cwnd alone: its row is written when cwnd changes, not at every
        // packet its in-flight count moves by, and its state is not even read until then.
        let whole = self.traces.as_ref().is_some_and(|t| t.keeps_detail_of(fi));
        let last = &self.flows[fi].last_window;
        if whole || last.is_none_or(|l| l.cwnd != w.cwnd_bytes()) {
            let state = WindowState {
                cwnd: w.cwnd_bytes(),
                ssthresh: w
                    .ssthresh_bytes()
                    .unwrap_or(crate::cc::INFINITE_SSTHRESH_BYTES),
                in_flight: s.in_flight(),
                peer_window: s.peer_window(),
                srtt: s.rtt().srtt(),
                rto: s.rtt().rto(),
            };
            // Most ACKs change something, but not all; an unchanged row is not worth a row.
            if self.flows[fi].last_window != Some(state) {
                self.flows[fi].last_window = Some(state);
                if let Some(tr) = &mut self.traces {
                    tr.flows[fi].window.push(now, state.row());
                }
            }
        }
        self.record_model(now, fi);
    }

    /// The algorithm's model for the overlays: a new CUBIC epoch, or a change in BBR's.
    fn record_model(&mut self, now: Instant, fi: usize) {
        let flow = &mut self.flows[fi];
        if !flow.sender.cc().model_changed(&mut flow.last_model) {
            return;
        }
        let Some(tr) = self.traces.as_mut().map(|t| &mut t.flows[fi]) else {
            return;
        };
        match self.flows[fi].sender.cc().model() {
            CcModel::None | CcModel::Cubic(None) => {}
            CcModel::Cubic(Some(curve)) => {
                if tr.cubic_epochs.last() != Some(&curve) {
                    if tr.cubic_epochs.len() >= MAX_CUBIC_EPOCHS {
                        tr.cubic_epochs.remove(0);
                    }
                    tr.cubic_epochs.push(curve);
                }
            }
            CcModel::Bbr {
                mode,
                bw,
                min_rtt,
                pacing_gain,
                cwnd_gain,
                pacing_rate,
                phase,
                target_cwnd,
                extra_acked,
            } => {
                let row = [
                    f64::from(mode.code()),
                    bw.map_or(f64::NAN, |b| b / 1e6),
                    min_rtt.map_or(f64::NAN, Duration::as_millis_f64),
                    pacing_gain,
                    pacing_rate.map_or(f64::NAN, |r| r / 1e6),
                    phase.map_or(f64::NAN, f64::from),
                    cwnd_gain,
                    target_cwnd.map_or(f64::NAN, f64::from),
                    f64::from(extra_acked),
                ];
                let changed = tr.bbr.last().is_none_or(|(_, last)| {
                    last.iter()
                        .zip(row.iter())
                        .any(|(a, b)| a != b && !(a.is_nan() && b.is_nan()))
                });
                if changed {
                    tr.bbr.push(now, row);
                }
            }
        }
    }

    #[inline(always)]
    pub(super) fn record_goodput_window(&mut self, now: Instant, bytes: u64) {
        // Reads come in time order, so most land in the window of the one before.
        if now < self.window_until {
            if let Some(b) = self.window_bytes.last_mut() {
                *b += bytes;
                return;
            }
        }
        let t0 = *self.t0.get_or_insert(now);
        let len = self.window_len.as_nanos().max(1);
        let i = ((now - t0).as_nanos() / len) as usize;
        // At most dur / window_len = 1200 windows.
        if self.window_bytes.len() <= i {
            self.window_bytes.resize(i + 1, 0);
        }
        self.window_bytes[i] += bytes;
        self.window_until = if i + 1 == self.window_bytes.len() {
            t0 + Duration(len).saturating_mul(i as u64 + 1)
        } else {
            Instant::ZERO
        };
    }
}
