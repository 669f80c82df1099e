//! The player's record: turns what the world sees and what the sender notes into steps.
//! Everything here runs only when `RunOptions::record_steps` is set.

use crate::link::{Fate, PathShape};
use crate::packet::{Kind, Packet};
use crate::player::{
    CaLabel, Cargo, FlowState, Growth, OneWay, SlowStartEnd, Step, StepKind, Trip, TripEnd,
};
use crate::tcp::sender::{CaState, Note};
use crate::time::{Duration, Instant};

use super::world::{Recording, World};

/// How a trip ends, for a fate decided at `at`.
pub(super) fn trip_end(at: Instant, fate: Fate) -> TripEnd {
    match fate {
        Fate::Delivered {
            departs, arrives, ..
        } => TripEnd::Arrived {
            departs_ms: departs.as_millis_f64(),
            arrives_ms: arrives.as_millis_f64(),
        },
        Fate::Dropped(cause) => TripEnd::Lost {
            at_ms: at.as_millis_f64(),
            cause,
        },
    }
}

impl World {
    /// The state of flow `fi` now, for a step.
    pub(super) fn flow_state(&self, now: Instant, fi: usize) -> FlowState {
        let queue = self.bottleneck_waiting(now) as u32;
        let Some(flow) = self.flows.get(fi) else {
            return FlowState {
                cwnd: 0,
                ssthresh: None,
                in_flight: 0,
                srtt_ms: None,
                rto_ms: 0.0,
                ca: CaLabel::Open,
                queue,
            };
        };
        let s = &flow.sender;
        let w = s.window();
        FlowState {
            cwnd: w.cwnd_bytes(),
            ssthresh: w.ssthresh_bytes(),
            in_flight: s.in_flight(),
            srtt_ms: s.rtt().srtt().map(Duration::as_millis_f64),
            rto_ms: s.rtt().rto().as_millis_f64(),
            ca: ca_label(s),
            queue,
        }
    }

    /// Records a step of flow `fi` at `now`, if steps are being kept.
    pub(super) fn record(&mut self, now: Instant, fi: usize, kind: StepKind) {
        let then = self
            .steps_in_flight
            .and_then(|(f, v)| (f == fi).then_some(v));
        self.record_in_flight(now, fi, kind, then);
    }

    /// Records a step, with the data in flight as it was when the step happened where that
    /// differs from now (a burst's sends each left with less in flight than after the burst).
    fn record_in_flight(
        &mut self,
        now: Instant,
        fi: usize,
        kind: StepKind,
        in_flight: Option<u64>,
    ) {
        if !self.recording.keeping() {
            return;
        }
        let mut state = self.flow_state(now, fi);
        if let Some(in_flight) = in_flight {
            state.in_flight = in_flight;
        }
        let t_ms = now.as_millis_f64();
        let Some(steps) = self.steps.as_mut() else {
            return;
        };
        // The state the step left differs from the one before it: the change is a step of its
        // own, just before, so that a class sees Open -> Disorder -> Recovery named.
        if let Some(seen) = self.steps_ca.get_mut(fi) {
            if *seen != state.ca {
                let from = std::mem::replace(seen, state.ca);
                steps.push(Step {
                    t_ms,
                    flow: fi as u16,
                    kind: StepKind::StateChange { from, to: state.ca },
                    state,
                });
            }
        }
        let kept = steps.push(Step {
            t_ms,
            flow: fi as u16,
            kind,
            state,
        });
        if !kept {
            self.end_recording();
        }
    }

    /// The queue a send's step left is the one with its packet in it (or not, if the queue
    /// was full): the step is noted before the packet is offered to the path.
    pub(super) fn queue_after_send(&mut self, now: Instant, step: Option<usize>) {
        let queue = self.bottleneck_waiting(now) as u32;
        if let Some(s) = step.and_then(|i| self.steps.as_mut()?.steps.get_mut(i)) {
            s.state.queue = queue;
        }
    }

    /// Keeps the trip of packet `p`, offered to the path at `now` and ending as `end` says, if
    /// steps are being kept; its place in the record, to settle it later if it is queued at a
    /// managed bottleneck. `repair`: it carries data sent before. The end is made only for a
    /// trip kept: every packet passes here, and most runs keep no steps.
    pub(super) fn record_trip(
        &mut self,
        now: Instant,
        p: &Packet,
        repair: bool,
        end: impl FnOnce() -> TripEnd,
    ) -> Option<u32> {
        if !self.recording.keeping() {
            return None;
        }
        let steps = self.steps.as_mut()?;
        let cargo = match p.kind {
            Kind::Syn => Cargo::Syn,
            Kind::SynAck { .. } => Cargo::SynAck,
            Kind::HandshakeAck => Cargo::HandshakeAck,
            Kind::Data { .. } if repair => Cargo::Repair,
            Kind::Data { .. } => Cargo::Data,
            Kind::Datagram { .. } => Cargo::Datagram,
            Kind::Probe { .. } => Cargo::Probe,
            Kind::ProbeReply { .. } => Cargo::ProbeReply,
            Kind::Ack { .. } => Cargo::Ack,
        };
        steps.trips.push(Trip {
            flow: p.flow,
            cargo,
            sent_ms: now.as_millis_f64(),
            end: end(),
        });
        u32::try_from(steps.trips.len() - 1).ok()
    }

    /// A trip recorded as queued ends, as its managed bottleneck decided at `at`.
    pub(super) fn settle_trip(&mut self, trip: Option<u32>, at: Instant, fate: Fate) {
        let Some(steps) = self.steps.as_mut() else {
            return;
        };
        if let Some(t) = trip.and_then(|i| steps.trips.get_mut(i as usize)) {
            t.end = trip_end(at, fate);
        }
    }

    /// The record's first instant has come: the senders start noting what they do, and each
    /// flow's recovery state is taken as it is, so that a record starting in the middle of a
    /// recovery does not name a change that happened before it.
    pub(super) fn begin_recording(&mut self) {
        let Recording::Waiting { stop_when_full, .. } = self.recording else {
            return;
        };
        self.recording = Recording::On { stop_when_full };
        for fi in 0..self.flows.len() {
            self.flows[fi].sender.record_notes(true);
            let ca = ca_label(&self.flows[fi].sender);
            if let Some(seen) = self.steps_ca.get_mut(fi) {
                *seen = ca;
            }
        }
    }

    /// The record is full: the rest of the run costs no more than an unrecorded one.
    fn end_recording(&mut self) {
        let Recording::On { stop_when_full } = self.recording else {
            return;
        };
        self.recording = if stop_when_full {
            Recording::Full
        } else {
            Recording::Off
        };
        for f in &mut self.flows {
            f.sender.record_notes(false);
        }
    }

    /// The step for one of the sender's notes, with `then` the data in flight when it was
    /// made where the note does not carry it (the sender's notes are replayed after all it sent
    /// at once, which `now` would count). Returns whether a packet went out with it.
    pub(super) fn record_note(
        &mut self,
        at: Instant,
        fi: usize,
        note: Note,
        then: Option<u64>,
    ) -> bool {
        let (kind, carries_packet) = match note {
            Note::SynSent { retry } => (StepKind::SynSent { retry }, true),
            Note::Established { rtt } => (
                StepKind::Established {
                    rtt_ms: rtt.map(Duration::as_millis_f64),
                },
                true,
            ),
            Note::FastRetransmit {
                seq,
                cwnd_before,
                cwnd_after,
                ssthresh,
            } => (
                StepKind::FastRetransmit {
                    seq,
                    cwnd_before,
                    cwnd_after,
                    ssthresh,
                },
                false,
            ),
            Note::EcnEcho {
                cwnd_before,
                ssthresh,
            } => (
                StepKind::EcnEcho {
                    cwnd_before,
                    ssthresh,
                },
                false,
            ),
            Note::RecoveryDone { cwnd } => (StepKind::RecoveryDone { cwnd }, false),
            Note::Timeout {
                rto,
                backoff,
                cwnd_before,
                ssthresh,
            } => (
                StepKind::Timeout {
                    rto_ms: rto.as_millis_f64(),
                    backoff,
                    cwnd_before,
                    ssthresh,
                },
                false,
            ),
            Note::LossProbe { seq, len } => (StepKind::LossProbe { seq, len }, true),
            Note::Send { seq, len, .. } => (StepKind::Sent { seq, len }, true),
            Note::Retransmit { seq, len, .. } => (StepKind::Retransmitted { seq, len }, true),
        };
        self.record_in_flight(at, fi, kind, note.in_flight_after().or(then));
        carries_packet
    }

    /// The step of an ACK's arrival, from the window before and after the sender took it.
    pub(super) fn record_ack(&mut self, now: Instant, fi: usize, ack: u64, before: AckBefore) {
        let s = &self.flows[fi].sender;
        // The sender took the ACK and sent what it then allowed before this step is noted (its
        // notes wait, in order, for `after_sender`): the step shows what was in flight once
        // the ACK was taken, before those sends.
        let in_flight = s.notes().iter().find_map(|(_, n)| n.in_flight_before());
        let sacked = s.last_sacked();
        let after = s.window().cwnd_bytes();
        let kind = if ack > before.una {
            let growth = if after == before.cwnd {
                Growth::Held
            } else if s.cc().model_based() {
                Growth::Model
            } else if before.cwnd < before.ssthresh {
                Growth::SlowStart
            } else {
                Growth::CongestionAvoidance
            };
            StepKind::AckArrived {
                ack,
                acked: ack - before.una,
                sacked,
                growth,
                cwnd_before: before.cwnd,
                cwnd_after: after,
            }
        } else if s.dupacks() > before.dupacks {
            StepKind::DuplicateAck {
                ack,
                count: s.dupacks(),
            }
        } else {
            StepKind::AckArrived {
                ack,
                acked: 0,
                sacked,
                growth: Growth::Held,
                cwnd_before: before.cwnd,
                cwnd_after: after,
            }
        };
        self.record_in_flight(now, fi, kind, in_flight);
        if let Some(exit) = slow_start_exit(&self.flows[fi].sender, &before) {
            self.record_in_flight(now, fi, exit, in_flight);
        }
    }
}

/// The end of slow start on an ACK, if it ended there without a loss: the window reached
/// ssthresh, or HyStart set ssthresh to the window (`hystart_update`). An algorithm that keeps
/// no ssthresh (BBR) has no such moment.
fn slow_start_exit(s: &crate::tcp::Sender, before: &AckBefore) -> Option<StepKind> {
    let w = s.window();
    let ssthresh = w.ssthresh_bytes()?;
    let cwnd = w.cwnd_bytes();
    let was_in_slow_start = before.cwnd < before.ssthresh;
    // In fast recovery and CWR PRR sets the window, and its end is a step of its own; after a
    // timeout (the Loss state) slow start runs up to ssthresh as ever.
    let in_recovery = matches!(s.ca_state(), CaState::Recovery { .. } | CaState::Cwr { .. });
    if !was_in_slow_start || w.in_slow_start() || in_recovery || s.cc().model_based() {
        return None;
    }
    let reason = if before.ssthresh >= crate::cc::INFINITE_SSTHRESH_BYTES {
        match s.cc().hystart_exit() {
            Some(crate::cc::hystart::HyStartExit::DelayIncrease) => SlowStartEnd::HyStartDelay,
            _ => SlowStartEnd::HyStartAckTrain,
        }
    } else {
        SlowStartEnd::Ssthresh
    };
    Some(StepKind::SlowStartExit {
        reason,
        cwnd,
        ssthresh,
    })
}

/// The sender's loss-recovery state as a step names it.
fn ca_label(s: &crate::tcp::Sender) -> CaLabel {
    match s.ca_state() {
        CaState::Open => CaLabel::Open,
        CaState::Disorder => CaLabel::Disorder,
        CaState::Cwr { .. } => CaLabel::Cwr,
        CaState::Recovery { .. } => CaLabel::Recovery,
        CaState::Loss { .. } => CaLabel::Loss,
    }
}

/// The sender's state before an ACK, to tell what the ACK changed.
#[derive(Debug, Clone, Copy)]
pub(super) struct AckBefore {
    pub una: u64,
    pub cwnd: u64,
    pub ssthresh: u64,
    pub dupacks: u32,
}

impl AckBefore {
    pub fn of(s: &crate::tcp::Sender) -> AckBefore {
        let w = s.window();
        AckBefore {
            una: s.snd_una(),
            cwnd: w.cwnd_bytes(),
            ssthresh: w
                .ssthresh_bytes()
                .unwrap_or(crate::cc::INFINITE_SSTHRESH_BYTES),
            dupacks: s.dupacks(),
        }
    }
}

/// The path's delays each way, as the player's picture labels them.
pub(super) fn one_way(shape: PathShape) -> OneWay {
    OneWay {
        data_ms: shape.data_delay.as_millis_f64(),
        ack_ms: shape.ack_delay.as_millis_f64(),
    }
}
