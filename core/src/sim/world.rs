//! The world of one run: the path, the flows, the clock, and the dispatch of every event.

use crate::capture::{CapturePoint, Tap};
use crate::cc::{new_controller, CcOptions};
use crate::engine::{Halt, Pending, Scheduler};
use crate::link::aqm::Waiting;
use crate::link::managed::{Discipline, Managed, Outcome, Why};
use crate::link::{Direction, Fate, Path, Wires};
use crate::metrics::stats::DelayHistogram;
use crate::metrics::trace::{DropCause, FlowTrace, Traces, Tracing};
use crate::packet::{header_bytes, Ecn, Kind, Packet, TsOpt, UDP_HEADER_BYTES};
use crate::player::{QueueWhy, StepKind, Steps, TripEnd};
use crate::scenario::Scenario;
use crate::tcp::receiver::AckTiming;
use crate::tcp::sender::{ConnState, Note};
use crate::tcp::{Receiver, ReceiverConfig, Sender, SenderConfig};
use crate::time::{Duration, Instant};
use crate::workload::probe::{ProbeLog, PROBE_BYTES};
use crate::workload::{MessageLog, Workload};

use super::invariants::{Invariants, Watch};
use super::record::{one_way, trip_end, AckBefore};

use super::RunOptions;

/// Something that happens at an instant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Event {
    /// A flow opens its connection.
    Start(u16),
    /// A sender's timer (retransmission or pacing).
    SenderTimer(u16),
    /// A receiver's delayed-ACK timer.
    DelAck(u16),
    /// The message application writes its next message.
    AppWrite,
    /// A flow's application writes its first bytes, its think time after the handshake.
    Respond(u16),
    /// The latency probe sends its next ping.
    Probe,
    /// The scenario's time limit.
    End,
}

/// Where the next event comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    Heap,
    /// The packet at the head of the data direction's wire reaches the receiver.
    Data,
    /// The packet at the head of the ACK direction's wire reaches the sender.
    Ack,
    /// A managed bottleneck's link frees, or its discipline's timer is due
    /// ([`Managed::next_event`]): kept beside the heap, as the wires are, since it comes once
    /// a packet.
    Link,
}

/// The player's record through a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Recording {
    /// No steps asked for, or the record is full and the run goes on without it.
    Off,
    /// Steps are asked for from `from` on; the run has not reached it yet.
    Waiting { from: Instant, stop_when_full: bool },
    /// Every step is kept.
    On { stop_when_full: bool },
    /// The record is full and the run ends with it.
    Full,
}

impl Recording {
    pub(super) fn keeping(self) -> bool {
        matches!(self, Recording::On { .. })
    }
}

/// Why the run stopped: the summary's `stopped_by`, named as the spec names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stop {
    /// Every flow finished its work.
    Finished,
    /// The time limit `dur` was reached.
    TimeLimit,
    /// The event budget ran out.
    #[serde(rename = "event_budget")]
    Budget,
    /// More packets were on the path than the run may hold.
    PacketBudget,
    /// Nothing was left to happen.
    Idle,
    /// The player's record was full and the run was asked to end with it
    /// ([`crate::player::StepWindow::stop_when_full`]).
    StepsKept,
}

pub(crate) struct Flow {
    pub sender: Sender,
    pub receiver: Receiver,
    pub workload: Workload,
    sender_timer: Pending,
    delack_timer: Pending,
    /// Bytes the receiving application has read.
    pub delivered: u64,
    pub first_arrival: Option<Instant>,
    pub last_read: Option<Instant>,
    pub done_at: Option<Instant>,
    /// The highest byte sent, by the observer's own record: tells new data from repairs, and
    /// what may be delivered.
    pub(super) seen_sent: u64,
    /// What the invariant checks have seen of the sender (`invariants.rs`).
    pub(super) watch: Watch,
    pub(super) last_window: Option<super::observe::WindowState>,
    /// The algorithm's model key when its model was last recorded.
    pub(super) last_model: Option<crate::cc::ModelKey>,
}

/// A packet waiting at a managed bottleneck, with what the world needs of it when it leaves.
#[derive(Debug, Clone, Copy)]
pub(super) struct Held {
    packet: Packet,
    /// Its trip in the player's record, settled when the queue decides.
    trip: Option<u32>,
}

/// The bottleneck when `aqm` names a discipline: it decides each packet's fate as it waits and
/// leaves, so the link runs on its own event instead of the drop-tail queue's known departures.
pub(super) struct ManagedLink {
    pub(super) queue: Managed<Held>,
    pub(super) discipline: Discipline,
    /// When its event is next due, with the engine's sequence number for ties.
    due: Option<(Instant, u64)>,
    outcomes: Vec<Outcome<Held>>,
}

pub(crate) struct World {
    pub sched: Scheduler<Event>,
    /// TCP/IP header bytes of every segment: with or without the timestamp option.
    header: u32,
    /// The path's queue and losses (shared with the kernel twin's router).
    path: Path,
    data_wire: Wires,
    ack_wire: Wires,
    pub flows: Vec<Flow>,
    scratch: Vec<Packet>,
    /// `None` for a run asked for its summary alone (`RunOptions::traces`).
    pub traces: Option<Traces>,
    pub end: Instant,
    pub dropped_data: u64,
    pub dropped_acks: u64,
    pub acks_sent: u64,
    pub queue_drops: u64,
    /// Packets the queue discipline dropped early, before its hard limit.
    pub aqm_drops: u64,
    /// Packets the policer dropped (`police`).
    pub policer_drops: u64,
    /// Packets the queue discipline marked CE.
    pub ecn_marks: u64,
    /// The managed bottleneck, when `aqm` is not `fifo`.
    pub(super) managed: Option<ManagedLink>,
    /// How long each data packet of each connection waited at the bottleneck before going
    /// onto its link; the whole run's is their sum.
    pub sojourn: Vec<DelayHistogram>,
    /// UDP payload bytes read, and when the last arrived.
    pub udp_delivered: u64,
    pub udp_last_read: Option<Instant>,
    pub invariants: Invariants,
    /// Flows whose work is not done yet, when every flow has an end (app=body).
    unfinished: usize,
    every_flow_ends: bool,
    /// The message application (app=msgs), and the connections it waits for before writing.
    pub messages: Option<MessageLog>,
    /// The latency probe (`probe=MS`), when one runs.
    pub probe: Option<ProbeLog>,
    /// The player's record, when asked for.
    pub steps: Option<Steps>,
    /// The capture at one host, when asked for.
    pub(crate) capture: Option<Tap>,
    /// Where the player's record stands; only `On` costs the hot paths anything.
    pub(super) recording: Recording,
    /// Each flow's loss-recovery state as its latest step left it, to record its changes.
    pub(super) steps_ca: Vec<crate::player::CaLabel>,
    /// While a sender's notes are replayed as steps (`after_sender`): the flow, and what it
    /// had in flight as the packet being put on the path left, for the steps the path records
    /// (a drop) between its send and the next.
    pub(super) steps_in_flight: Option<(usize, u64)>,
    awaiting_handshakes: usize,
    /// The time of the latest event run.
    pub(super) last_event: Instant,
    /// Goodput windows for the summary's percentiles: bytes read per window since `t0`, the
    /// first data byte sent.
    pub window_len: Duration,
    max_in_flight: usize,
    pub window_bytes: Vec<u64>,
    /// The end of the last goodput window.
    pub(super) window_until: Instant,
    pub t0: Option<Instant>,
    /// The applications' think time (`think`).
    think: Duration,
}

/// The key of a source with nothing in it: later than any event's.
const NO_EVENT: (Instant, u64) = crate::link::delay_line::EMPTY;

/// Trace rows kept per series before thinning, shared out among the flows.
const TRACE_ROWS: usize = 32_768;

impl World {
    pub fn new(s: &Scenario, options: &RunOptions) -> World {
        let rtt = Duration::from_millis_f64(s.rtt_ms);
        let path = Path::new(s);
        let shape = path.shape();
        let lanes = path.lanes();
        let workload = Workload::from_scenario(s);
        let n = Workload::connections(s);
        let cap = (TRACE_ROWS / n.max(1)).clamp(512, 8192);
        let mut flows = Vec::with_capacity(n);
        let mut ts_phases = Vec::with_capacity(n);
        let specs = s.flow_specs();
        for (i, spec) in specs.iter().enumerate() {
            let cc = new_controller(
                spec.cc,
                CcOptions {
                    hystart: s.hystart,
                    seed: s.seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
                },
            );
            // Where in a millisecond tick of the host's clock the connection starts.
            let ts_phase = Duration(
                crate::rng::SimRng::new(s.seed ^ 0x7473_5f70_6861_7365 ^ i as u64).next_u64()
                    % 1_000_000,
            );
            ts_phases.push(ts_phase);
            let config = SenderConfig {
                iw: spec.iw,
                ..SenderConfig::of(s, ts_phase)
            };
            let mut sender = Sender::new(i as u16, config, cc);
            // With a think time the application writes once the connection is up and the
            // time has passed (`Event::Respond`).
            if s.think_ms <= 0.0 {
                sender.write(workload.initial_write());
            }
            let receiver = Receiver::new(ReceiverConfig::of(s, ts_phase));
            flows.push(Flow {
                sender,
                receiver,
                workload,
                sender_timer: Pending::default(),
                delack_timer: Pending::default(),
                delivered: 0,
                first_arrival: None,
                last_read: None,
                done_at: None,
                seen_sent: 0,
                watch: Watch::default(),
                last_window: None,
                last_model: None,
            });
        }
        let mut sched = Scheduler::new(options.max_events);
        // Each flow opens its connection at its `start`.
        for (i, spec) in specs.iter().enumerate() {
            sched.schedule(Instant::from_secs_f64(spec.start_s), Event::Start(i as u16));
        }
        let messages = (s.app == crate::scenario::App::Msgs).then(|| {
            MessageLog::new(
                s.msg,
                Duration::from_millis_f64(s.every_ms),
                s.count,
                s.conns,
            )
        });
        // UDP has no handshake to wait for: the first datagram leaves at once.
        let think = Duration::from_millis_f64(s.think_ms);
        if messages.is_some() && n == 0 {
            sched.schedule(Instant::ZERO + think, Event::AppWrite);
        }
        let end = Instant::from_secs_f64(s.dur_s);
        sched.schedule(end, Event::End);
        // The probe's packets are a flow of their own, one past the workload's (flow 0 is the
        // datagrams' when messages go over UDP).
        let probe = (s.probe_ms > 0.0)
            .then(|| ProbeLog::new(Duration::from_millis_f64(s.probe_ms), n.max(1) as u16));
        if probe.is_some() {
            sched.schedule(Instant::ZERO, Event::Probe);
        }
        let unfinished = flows
            .iter()
            .filter(|f| f.workload.target().is_some())
            .count();
        let every_flow_ends = unfinished == flows.len() && !flows.is_empty();
        let window_len = super::report::goodput_window(s);
        let managed = Discipline::of(s, shape.bits_per_s).map(|discipline| ManagedLink {
            // Its own seed, so that the path's random losses stay where they were.
            queue: Managed::with_rates(
                crate::link::schedule::Rates::of(s),
                shape.queue,
                discipline,
                s.seed ^ 0x6171_6d5f_7365_6564,
            ),
            discipline,
            due: None,
            outcomes: Vec::with_capacity(16),
        });
        World {
            sched,
            header: header_bytes(s.ts),
            path,
            aqm_drops: 0,
            policer_drops: 0,
            ecn_marks: 0,
            managed,
            sojourn: vec![DelayHistogram::default(); n.max(1)],
            data_wire: Wires::new(lanes.iter().map(|l| l.0)),
            ack_wire: Wires::new(lanes.iter().map(|l| l.1)),
            flows,
            scratch: Vec::with_capacity(64),
            traces: (options.traces != Tracing::Off).then(|| {
                Traces::new(
                    n.max(1),
                    cap,
                    (rtt / 4).max(Duration::from_micros(1)),
                    options.traces,
                )
            }),
            end,
            dropped_data: 0,
            dropped_acks: 0,
            acks_sent: 0,
            queue_drops: 0,
            udp_delivered: 0,
            udp_last_read: None,
            invariants: Invariants::default(),
            unfinished,
            every_flow_ends,
            messages,
            probe,
            steps: options.record_steps.map(|w| {
                let mut steps = Steps::new(s.mss, s.cc, one_way(shape), w.from_ms);
                if !s.each.cc.is_empty() {
                    steps.flow_cc = specs.iter().map(|f| f.cc).collect();
                }
                steps
            }),
            recording: match options.record_steps {
                None => Recording::Off,
                Some(w) => Recording::Waiting {
                    from: Instant::from_millis_f64(w.from_ms),
                    stop_when_full: w.stop_when_full,
                },
            },
            steps_ca: vec![crate::player::CaLabel::Open; n],
            steps_in_flight: None,
            capture: options.capture.map(|c| Tap::new(s, c, &ts_phases)),
            awaiting_handshakes: n,
            last_event: Instant::ZERO,
            window_len,
            max_in_flight: options.max_in_flight,
            window_bytes: Vec::new(),
            window_until: Instant::ZERO,
            t0: None,
            think,
        }
    }

    /// Runs until the work is done, the time limit, or the event budget.
    pub fn run(&mut self) -> Stop {
        let stop = self.run_events();
        // The packets that left the queue after the last arrival: the trace ends as it emptied.
        self.trace_departures(self.last_event);
        stop
    }

    /// Runs on from a finished run until every sender has its data acknowledged, or a limit
    /// stops it. A run finishes when the receiver has the last byte, with its ACKs still on
    /// their way; a capture at the sender would end on data never acknowledged, which no
    /// capture of a real transfer shows (Wireshark flags it).
    ///
    /// The run being finished, each pass of the event loop runs one event and stops: the loop
    /// every run takes is left as it was (a check of its own there cost the traced runs a
    /// tenth of their time, by how the compiler then laid the loop out).
    #[cold]
    #[inline(never)]
    pub fn run_until_acked(&mut self) -> Stop {
        let stop = loop {
            if self.flows.iter().all(|f| f.sender.all_acked()) {
                break Stop::Finished;
            }
            match self.run_events() {
                Stop::Finished => {}
                other => break other,
            }
        };
        self.trace_departures(self.last_event);
        stop
    }

    fn run_events(&mut self) -> Stop {
        loop {
            // The next event is the earliest of the heap's and the two wires' heads, ties going
            // to the one scheduled first. Sequence numbers are unique, so keys never tie; an
            // empty source's key is past every real one.
            let heap = self.sched.peek_key().unwrap_or(NO_EVENT);
            let data = self.data_wire.next_key();
            let ack = self.ack_wire.next_key();
            let (mut at, mut source) = if data < heap {
                if ack < data {
                    (ack, Source::Ack)
                } else {
                    (data, Source::Data)
                }
            } else if ack < heap {
                (ack, Source::Ack)
            } else {
                (heap, Source::Heap)
            };
            if let Some(link) = self.managed.as_ref().and_then(|m| m.due) {
                if link < at {
                    (at, source) = (link, Source::Link);
                }
            }
            if at == NO_EVENT {
                return Stop::Idle;
            }
            let at = at.0;
            match self.recording {
                Recording::Waiting { from, .. } if at >= from => self.begin_recording(),
                Recording::Full => return Stop::StepsKept,
                _ => {}
            }
            match source {
                Source::Heap => match self.sched.pop() {
                    Ok((now, event)) => {
                        self.clock_to(now);
                        match event {
                            Event::End => return Stop::TimeLimit,
                            Event::Start(f) => self.start(now, f),
                            Event::SenderTimer(f) => self.sender_timer(now, f),
                            Event::DelAck(f) => self.delack(now, f),
                            Event::AppWrite => self.app_write(now),
                            Event::Respond(f) => self.respond(now, f),
                            Event::Probe => self.send_probe(now),
                        }
                    }
                    Err(Halt::Budget) => return Stop::Budget,
                    Err(Halt::Idle) => return Stop::Idle,
                },
                Source::Data | Source::Ack | Source::Link => {
                    let Ok(now) = self.sched.advance(at) else {
                        return Stop::Budget;
                    };
                    self.clock_to(now);
                    match source {
                        Source::Data => self.data_arrives(now),
                        Source::Ack => self.ack_arrives(now),
                        _ => self.link_free(now),
                    }
                }
            }
            if self.finished() {
                return Stop::Finished;
            }
            if self.data_wire.len() + self.ack_wire.len() > self.max_in_flight {
                return Stop::PacketBudget;
            }
        }
    }

    /// The clock moves to the instant of the event about to run.
    fn clock_to(&mut self, now: Instant) {
        self.check_time_order(now);
        self.last_event = now;
    }

    /// Work charged to the budget beside the events.
    pub fn work(&self) -> u64 {
        self.sched.work()
    }

    /// The time of the latest event run.
    pub fn last_event(&self) -> Instant {
        self.last_event
    }

    fn finished(&self) -> bool {
        match &self.messages {
            Some(log) => log.all_written() && log.settled(),
            None => self.every_flow_ends && self.unfinished == 0,
        }
    }

    /// The message clock ticks: the next message goes on its connection, or as a datagram.
    fn app_write(&mut self, now: Instant) {
        let Some(log) = self.messages.as_mut() else {
            return;
        };
        let Some((id, conn)) = log.write_next(now) else {
            return;
        };
        let (msg, every, more) = (log.msg, log.every, !log.all_written());
        self.record(now, conn as usize, StepKind::MessageWritten { id });
        if more {
            self.sched.schedule(now + every, Event::AppWrite);
        }
        if self.flows.is_empty() {
            self.t0.get_or_insert(now);
            let p = Packet {
                flow: 0,
                kind: Kind::Datagram { id },
                wire_bytes: msg + UDP_HEADER_BYTES,
            };
            self.send_on_data_path(now, &p, false);
            return;
        }
        let fi = conn as usize;
        let mut out = std::mem::take(&mut self.scratch);
        self.flows[fi].sender.write(u64::from(msg));
        self.flows[fi].sender.try_send(now, &mut out);
        self.after_sender(now, conn as u16, &mut out);
        self.scratch = out;
    }

    /// The probe's next ping goes out, and the one after is scheduled.
    fn send_probe(&mut self, now: Instant) {
        let Some(probe) = self.probe.as_mut() else {
            return;
        };
        let id = probe.send(now);
        let (flow, every) = (probe.flow, probe.every);
        if now + every < self.end {
            self.sched.schedule(now + every, Event::Probe);
        }
        let p = Packet {
            flow,
            kind: Kind::Probe { id },
            wire_bytes: PROBE_BYTES,
        };
        self.send_on_data_path(now, &p, false);
    }

    fn datagram_lost(&mut self, p: &Packet) {
        match (p.kind, self.messages.as_mut(), self.probe.as_mut()) {
            (Kind::Datagram { id }, Some(log), _) => log.datagram_lost(id),
            (Kind::Probe { id } | Kind::ProbeReply { id }, _, Some(probe)) => probe.lost(id),
            _ => {}
        }
    }

    fn start(&mut self, now: Instant, f: u16) {
        let mut out = std::mem::take(&mut self.scratch);
        self.flows[usize::from(f)].sender.connect(now, &mut out);
        self.after_sender(now, f, &mut out);
        self.scratch = out;
    }

    /// Puts what a sender emitted on the path with the player's steps: each note that carries
    /// a packet is followed by that packet, so a drop's step comes right after the send's. Kept
    /// out of line: only a run that records steps takes it.
    #[inline(never)]
    fn emit_with_steps(&mut self, now: Instant, fi: usize, out: &mut Vec<Packet>) -> bool {
        let mut sent_new = false;
        let notes = self.flows[fi].sender.take_notes();
        let mut packets = out.drain(..);
        // What was in flight as each note was made: before the first send among them,
        // then after each (a probe's count is not noted: the state's own from there on).
        let mut then = notes.iter().find_map(|(_, n)| n.in_flight_before());
        for (at, note) in notes {
            let carried = self.record_note(at, fi, note, then);
            if let Some(after) = note.in_flight_after() {
                then = Some(after);
            } else if matches!(note, Note::LossProbe { .. }) {
                then = None;
            }
            if carried {
                self.steps_in_flight = then.map(|v| (fi, v));
                if let Some(p) = packets.next() {
                    let step = self
                        .steps
                        .as_ref()
                        .and_then(|s| s.steps.len().checked_sub(1));
                    sent_new |= self.emit(now, fi, &p);
                    self.queue_after_send(now, step);
                }
            }
        }
        self.steps_in_flight = None;
        for p in packets {
            sent_new |= self.emit(now, fi, &p);
        }
        sent_new
    }

    /// Puts what a sender emitted on the path, checks the sender's windows, and re-arms
    /// the sender's timer.
    fn after_sender(&mut self, now: Instant, f: u16, out: &mut Vec<Packet>) {
        let fi = usize::from(f);
        let work = self.flows[fi].sender.take_work();
        self.sched.charge(work);
        let mut sent_new = false;
        if self.recording.keeping() {
            sent_new = self.emit_with_steps(now, fi, out);
        } else {
            for p in out.iter() {
                sent_new |= self.emit(now, fi, p);
            }
            out.clear();
        }
        self.check_window_after_send(fi, sent_new);
        if self.traces.is_some() {
            self.record_window(now, fi);
        }
        let flow = &mut self.flows[fi];
        if let Some(d) = flow.sender.next_deadline() {
            if flow.sender_timer.arm(d) {
                self.sched.schedule(d, Event::SenderTimer(f));
            }
        }
    }

    /// Puts one packet a sender emitted on the path; returns whether it carried new data.
    fn emit(&mut self, now: Instant, fi: usize, p: &Packet) -> bool {
        let mut new = false;
        let mut repair = false;
        if let Kind::Data { seq, len, .. } = p.kind {
            let end = seq + u64::from(len);
            if end > self.flows[fi].seen_sent {
                new = true;
                self.t0.get_or_insert(now);
                self.flows[fi].seen_sent = end;
                self.check_receive_window(fi, end);
                if let Some(tr) = self.detailed_trace(fi) {
                    tr.sends.push(now, [end as f64]);
                }
            } else {
                repair = true;
                if let Some(tr) = self.detailed_trace(fi) {
                    tr.retransmits.push(now, [seq as f64]);
                }
            }
        }
        self.send_on_data_path(now, p, repair);
        new
    }

    /// Flow `fi`'s traces, if its segments, ACKs and RTT samples are kept ([`Tracing`]).
    #[inline(always)]
    fn detailed_trace(&mut self, fi: usize) -> Option<&mut FlowTrace> {
        self.traces
            .as_mut()
            .filter(|t| t.keeps_detail_of(fi))
            .and_then(|t| t.flows.get_mut(fi))
    }

    /// The drop-tail queue's departures by `now`, into the queue's trace: between two
    /// arrivals the queue falls one packet at a time as the link takes them, though no event
    /// marks it. (A managed bottleneck has an event for each.)
    #[inline]
    fn trace_departures(&mut self, now: Instant) {
        if let (Some(tr), None) = (&mut self.traces, &self.managed) {
            self.path.leave_until(now, |at, left| tr.queued(at, left));
        }
    }

    pub(super) fn bottleneck_waiting(&self, now: Instant) -> usize {
        match &self.managed {
            Some(m) => m.queue.len(),
            None => self.path.waiting_at(now),
        }
    }

    /// `repair`: the packet carries data sent before.
    fn send_on_data_path(&mut self, now: Instant, p: &Packet, repair: bool) {
        self.tap(now, CapturePoint::Sender, p);
        if self.managed.is_some() {
            self.send_through_managed(now, *p, repair);
            return;
        }
        self.trace_departures(now);
        let fate = self
            .path
            .offer(Direction::Data, p.flow, now, p.wire_bytes, p.is_data());
        self.record_trip(now, p, repair, || trip_end(now, fate));
        if matches!(
            fate,
            Fate::Delivered { .. } | Fate::Dropped(DropCause::Data)
        ) {
            // The link took the packet: the queue it joined is what the trace shows.
            if let Some(tr) = &mut self.traces {
                tr.queued(now, self.path.queued(now));
            }
        }
        match fate {
            Fate::Delivered {
                starts, arrives, ..
            } => {
                if p.is_data() {
                    self.waited(p.flow, starts, starts - now);
                }
                let seq = self.sched.next_seq();
                self.data_wire
                    .push_at(self.path.lane(p.flow), arrives, seq, *p);
            }
            Fate::Dropped(cause) => {
                match cause {
                    DropCause::Queue => self.queue_drops += 1,
                    DropCause::Policer => self.policer_drops += 1,
                    _ => self.dropped_data += 1,
                }
                self.lost_on_data_path(now, p, cause, None);
            }
        }
    }

    /// A data packet joins a managed bottleneck (after the lesson's staged drop, as on the
    /// drop-tail path); what the discipline decides, now or later, is settled as it comes.
    fn send_through_managed(&mut self, now: Instant, p: Packet, repair: bool) {
        self.path_changes(now);
        if self.path.staged_drop(p.is_data()) {
            let cause = DropCause::Staged;
            self.record_trip(now, &p, repair, || trip_end(now, Fate::Dropped(cause)));
            self.dropped_data += 1;
            self.lost_on_data_path(now, &p, cause, None);
            return;
        }
        if !self.path.policed(now, p.wire_bytes) {
            let cause = DropCause::Policer;
            self.record_trip(now, &p, repair, || trip_end(now, Fate::Dropped(cause)));
            self.policer_drops += 1;
            self.lost_on_data_path(now, &p, cause, None);
            return;
        }
        let trip = self.record_trip(now, &p, repair, || TripEnd::Queued);
        let Some(m) = self.managed.as_mut() else {
            return;
        };
        let w = Waiting {
            packet: Held { packet: p, trip },
            bytes: p.wire_bytes,
            enqueued: now,
            flow: p.flow,
            ect: matches!(p.kind, Kind::Data { ecn: Ecn::Ect0, .. }),
            ce: false,
        };
        let mut out = std::mem::take(&mut m.outcomes);
        m.queue.offer(now, w, &mut out);
        if let Some(tr) = &mut self.traces {
            tr.queued(now, m.queue.len());
        }
        self.settle(now, &mut out);
    }

    /// The path's scheduled changes due by `now`; a managed bottleneck takes a new limit
    /// itself (the drop-tail one inside the path does).
    fn path_changes(&mut self, now: Instant) {
        if let Some(limit) = self.path.changes_until(now) {
            if let Some(m) = self.managed.as_mut() {
                m.queue.set_limit(limit);
            }
        }
    }

    /// A data packet of `flow` went onto the bottleneck's link at `starts` after waiting
    /// `sojourn`.
    #[inline(always)]
    fn waited(&mut self, flow: u16, starts: Instant, sojourn: Duration) {
        if let Some(h) = self.sojourn.get_mut(usize::from(flow)) {
            h.add(sojourn);
        }
        if let Some(tr) = &mut self.traces {
            tr.sojourn.push(starts, [sojourn.as_millis_f64()]);
        }
    }

    /// `p` passes host `at`'s network interface at `now`: the capture there sees it.
    fn tap(&mut self, now: Instant, at: CapturePoint, p: &Packet) {
        if let Some(tap) = self.capture.as_mut() {
            if tap.point() == at {
                tap.see(now, p);
            }
        }
    }

    /// The managed bottleneck's own event: its link frees, or its timer is due.
    fn link_free(&mut self, now: Instant) {
        let Some(m) = self.managed.as_mut() else {
            return;
        };
        m.due = None;
        let mut out = std::mem::take(&mut m.outcomes);
        m.queue.run_until(now, &mut out);
        // A packet went onto the link, or the discipline dropped some on the way out.
        if let Some(tr) = &mut self.traces {
            tr.queued(now, m.queue.len());
        }
        self.settle(now, &mut out);
    }

    /// The discipline's reason for a decision at `at`, as the player's steps say it.
    fn queue_why(&self, at: Instant, why: Why) -> QueueWhy {
        let limit = u32::try_from(self.path.shape().queue).unwrap_or(u32::MAX);
        let ms = Duration::as_millis_f64;
        let discipline = self.managed.as_ref().map(|m| m.discipline);
        match why {
            Why::Limit => QueueWhy::Limit { limit },
            Why::FattestFlow => QueueWhy::FattestFlow { limit },
            Why::Codel(d) => {
                // A CoDel decision comes from a discipline that runs CoDel.
                let p = discipline.and_then(|d| d.codel()).unwrap_or_default();
                QueueWhy::Codel {
                    sojourn_ms: ms(d.sojourn),
                    count: d.count,
                    next_in_ms: d.next.map(|n| ms(n - at)),
                    target_ms: ms(p.target),
                    interval_ms: ms(p.interval),
                }
            }
            Why::Pie { probability } => QueueWhy::Pie {
                probability_pct: probability * 100.0,
                target_ms: discipline.and_then(|d| d.target()).map_or(0.0, ms),
            },
            Why::Red {
                average,
                probability,
            } => QueueWhy::Red {
                average,
                probability_pct: probability * 100.0,
            },
        }
    }

    /// Carries out what the managed bottleneck decided, in its order, and re-arms its event.
    fn settle(&mut self, now: Instant, out: &mut Vec<Outcome<Held>>) {
        for o in out.drain(..) {
            match o {
                Outcome::Sent { w, starts, departs } => {
                    let Held {
                        packet: mut p,
                        trip,
                    } = w.packet;
                    // The discipline marked it on its way: the receiver sees CE.
                    if let (true, Kind::Data { ecn, .. }) = (w.ce, &mut p.kind) {
                        *ecn = Ecn::Ce;
                    }
                    if p.is_data() {
                        self.waited(p.flow, starts, starts - w.enqueued);
                    }
                    // Random loss strikes on the wire, after the packet has used the link.
                    if self.path.lost_on_wire() {
                        self.settle_trip(trip, starts, Fate::Dropped(DropCause::Data));
                        self.dropped_data += 1;
                        self.lost_on_data_path(starts, &p, DropCause::Data, None);
                        continue;
                    }
                    let arrives = departs + self.path.data_delay(p.flow, departs);
                    let fate = Fate::Delivered {
                        starts,
                        departs,
                        arrives,
                    };
                    self.settle_trip(trip, starts, fate);
                    let seq = self.sched.next_seq();
                    self.data_wire
                        .push_at(self.path.lane(p.flow), arrives, seq, p);
                }
                Outcome::Dropped { w, at, why } => {
                    let Held {
                        packet: p, trip, ..
                    } = w.packet;
                    // The hard limit's overflow is the queue's; the rest the discipline's.
                    let cause = match why {
                        Why::Limit | Why::FattestFlow => {
                            self.queue_drops += 1;
                            DropCause::Queue
                        }
                        Why::Codel(_) | Why::Pie { .. } | Why::Red { .. } => {
                            self.aqm_drops += 1;
                            DropCause::Aqm
                        }
                    };
                    self.settle_trip(trip, at, Fate::Dropped(cause));
                    let why = self.queue_why(at, why);
                    self.lost_on_data_path(at, &p, cause, Some(why));
                }
                Outcome::Marked { w, at, why } => {
                    self.ecn_marks += 1;
                    if let Some(tr) = &mut self.traces {
                        tr.marks.push(at, [f64::from(w.flow)]);
                    }
                    if let Kind::Data { seq, len, .. } = w.packet.packet.kind {
                        let why = self.queue_why(at, why);
                        self.record(
                            at,
                            usize::from(w.flow),
                            StepKind::CeMarked { seq, len, why },
                        );
                    }
                }
            }
        }
        let Some(m) = self.managed.as_mut() else {
            return;
        };
        m.outcomes = std::mem::take(out);
        // One event pending at a time, as the heap would hold it: a changed due time is
        // scheduled afresh; the same one keeps its place among ties.
        let next = m.queue.next_event().map(|t| t.max(now));
        if next != m.due.map(|(t, _)| t) {
            m.due = next.map(|t| (t, self.sched.next_seq()));
        }
    }

    /// `why`: the queue discipline's reason, where it dropped the packet.
    fn lost_on_data_path(
        &mut self,
        now: Instant,
        p: &Packet,
        cause: DropCause,
        why: Option<QueueWhy>,
    ) {
        if let Some(tr) = &mut self.traces {
            tr.record_drop(now, p.flow, cause);
        }
        self.datagram_lost(p);
        let fi = usize::from(p.flow);
        match p.kind {
            Kind::Data { seq, len, .. } => self.record(
                now,
                fi,
                StepKind::DataLost {
                    seq,
                    len,
                    cause,
                    why,
                },
            ),
            Kind::Datagram { id } => {
                self.record(now, fi, StepKind::DatagramLost { id, cause, why })
            }
            _ => {}
        }
    }

    fn send_on_ack_path(&mut self, now: Instant, p: Packet) {
        self.tap(now, CapturePoint::Receiver, &p);
        self.path_changes(now);
        let fate = self
            .path
            .offer(Direction::Ack, p.flow, now, p.wire_bytes, false);
        self.record_trip(now, &p, false, || trip_end(now, fate));
        if let Fate::Dropped(_) = fate {
            self.dropped_acks += 1;
            self.datagram_lost(&p);
            if let Some(tr) = &mut self.traces {
                tr.record_drop(now, p.flow, DropCause::Ack);
            }
            if let Kind::Ack { ack, .. } = p.kind {
                self.record(now, usize::from(p.flow), StepKind::AckLost { ack });
            }
            return;
        }
        if let Fate::Delivered { arrives, .. } = fate {
            let seq = self.sched.next_seq();
            self.ack_wire
                .push_at(self.path.lane(p.flow), arrives, seq, p);
        }
    }

    fn data_arrives(&mut self, now: Instant) {
        let Some(&p) = self.data_wire.front() else {
            return;
        };
        self.data_wire.discard_front();
        self.tap(now, CapturePoint::Receiver, &p);
        let fi = usize::from(p.flow);
        match p.kind {
            Kind::Syn => {
                self.record(now, fi, StepKind::SynReceived);
                let synack = Packet {
                    flow: p.flow,
                    kind: self.flows[fi].receiver.on_syn(now),
                    wire_bytes: self.header + crate::packet::SYN_OPTION_BYTES,
                };
                self.send_on_ack_path(now, synack);
            }
            Kind::Data {
                seq,
                len,
                ts,
                ecn,
                cwr,
            } => self.receive_data(now, fi, seq, len, ts, ecn, cwr),
            Kind::Datagram { id } => {
                if let Some(log) = self.messages.as_mut() {
                    log.datagram_read(id, now);
                }
                self.record(now, 0, StepKind::DatagramArrived { id });
                let bytes = u64::from(p.wire_bytes - UDP_HEADER_BYTES);
                if let Some(tr) = &mut self.traces {
                    tr.flows[0].delivered.add(now, bytes);
                }
                self.record_goodput_window(now, bytes);
                self.udp_delivered += bytes;
                self.udp_last_read = Some(now);
            }
            Kind::HandshakeAck => self.flows[fi].receiver.on_handshake_ack(now),
            Kind::Probe { id } => {
                // The far host echoes it at once, as a ping's.
                if let Some(probe) = self.probe.as_mut() {
                    probe.arrived(id, now);
                }
                let reply = Packet {
                    kind: Kind::ProbeReply { id },
                    ..p
                };
                self.send_on_ack_path(now, reply);
            }
            Kind::SynAck { .. } | Kind::Ack { .. } | Kind::ProbeReply { .. } => {}
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn receive_data(
        &mut self,
        now: Instant,
        fi: usize,
        seq: u64,
        len: u32,
        ts: TsOpt,
        ecn: Ecn,
        cwr: bool,
    ) {
        let flow = &mut self.flows[fi];
        let in_order = seq <= flow.receiver.rcv_nxt();
        let arrival = flow.receiver.on_data(now, seq, len, ts, ecn, cwr);
        flow.first_arrival.get_or_insert(now);
        if arrival.delivered_to > arrival.delivered_from {
            let bytes = arrival.delivered_to - arrival.delivered_from;
            self.check_delivery(fi, arrival.delivered_from, arrival.delivered_to);
            let flow = &mut self.flows[fi];
            flow.delivered = arrival.delivered_to;
            flow.last_read = Some(now);
            if let Some(tr) = &mut self.traces {
                tr.flows[fi].delivered.add(now, bytes);
            }
            self.record_goodput_window(now, bytes);
            let flow = &mut self.flows[fi];
            if let Some(target) = flow.workload.target() {
                if flow.delivered >= target && flow.done_at.is_none() {
                    flow.done_at = Some(now);
                    self.unfinished -= 1;
                }
            }
        }
        if self.recording.keeping() {
            let held = self.flows[fi].receiver.ooo_bytes();
            let delivered = arrival.delivered_to - arrival.delivered_from;
            self.record(
                now,
                fi,
                StepKind::DataArrived {
                    seq,
                    len,
                    in_order,
                    delivered,
                    held,
                },
            );
        }
        if let Some(log) = self.messages.as_mut() {
            let rx = &self.flows[fi].receiver;
            let events = log.events.len();
            log.on_delivery(fi as u32, rx.rcv_nxt(), rx.ooo_bytes() > 0, now);
            if let Some(e) = log.events.get(events).copied() {
                self.record(
                    now,
                    fi,
                    StepKind::HolRelease {
                        event: e.id,
                        messages: e.held,
                        worst_ms: e.worst_delay.as_millis_f64(),
                    },
                );
            }
        }
        if let Some(kind) = self.flows[fi].receiver.take_early_ack() {
            self.send_ack(now, fi, kind, AckTiming::Compressed);
        }
        let flow = &mut self.flows[fi];
        if arrival.ack_now {
            let kind = flow.receiver.make_ack(now);
            self.send_ack(now, fi, kind, AckTiming::Now);
        } else if let Some(d) = flow.receiver.ack_deadline() {
            // One pending event at a time: a later deadline is picked up when it fires, so a
            // receiver that ACKs every second segment costs no event per segment.
            if flow.delack_timer.arm(d) {
                self.sched.schedule(d, Event::DelAck(fi as u16));
            }
        }
    }

    fn send_ack(&mut self, now: Instant, fi: usize, kind: Kind, timing: AckTiming) {
        self.acks_sent += 1;
        if let Kind::Ack { ack, sack_len, .. } = kind {
            self.record(
                now,
                fi,
                StepKind::AckSent {
                    ack,
                    sack_blocks: sack_len,
                    timing,
                },
            );
        }
        let sack_bytes = match kind {
            // Each SACK block is 8 bytes, plus 2 of option header padded to 4.
            Kind::Ack { sack_len, .. } if sack_len > 0 => 4 + 8 * u32::from(sack_len),
            _ => 0,
        };
        let p = Packet {
            flow: fi as u16,
            kind,
            wire_bytes: self.header + sack_bytes,
        };
        self.send_on_ack_path(now, p);
    }

    fn delack(&mut self, now: Instant, f: u16) {
        let fi = usize::from(f);
        let flow = &mut self.flows[fi];
        flow.delack_timer.fired(now);
        if let Some(timing) = flow.receiver.ack_due(now) {
            if timing == AckTiming::Delayed {
                flow.receiver.on_delack_timeout();
            }
            let kind = flow.receiver.make_ack(now);
            self.send_ack(now, fi, kind, timing);
        } else if let Some(d) = flow.receiver.ack_deadline() {
            if flow.delack_timer.arm(d) {
                self.sched.schedule(d, Event::DelAck(f));
            }
        }
    }

    fn ack_arrives(&mut self, now: Instant) {
        let Some(&p) = self.ack_wire.front() else {
            return;
        };
        self.ack_wire.discard_front();
        self.tap(now, CapturePoint::Sender, &p);
        if let Kind::ProbeReply { id } = p.kind {
            if let Some(rtt) = self
                .probe
                .as_mut()
                .and_then(|probe| probe.answered(id, now))
            {
                if let Some(tr) = &mut self.traces {
                    tr.probe.push(now, [rtt.as_millis_f64()]);
                }
            }
            return;
        }
        let fi = usize::from(p.flow);
        let mut out = std::mem::take(&mut self.scratch);
        match p.kind {
            Kind::SynAck { wnd, ts } => {
                self.watch_syn_ack(fi, wnd);
                let flow = &mut self.flows[fi];
                let was_up = flow.sender.conn_state() == ConnState::Established;
                let samples = flow.sender.rtt().samples();
                flow.sender.on_syn_ack(now, wnd, ts, &mut out);
                // The handshake's sample is the first the estimator takes (Linux's
                // `tcp_synack_rtt_meas`): the trace has it as the player's step says it.
                let rtt = flow.sender.rtt();
                if let (true, Some(r)) = (rtt.samples() != samples, rtt.latest()) {
                    if let Some(tr) = self.detailed_trace(fi) {
                        tr.rtt.push(now, [r.as_millis_f64()]);
                    }
                }
                // The message application starts once every connection is up, after its
                // think time; the others each write after theirs.
                if !was_up {
                    self.awaiting_handshakes -= 1;
                    if self.awaiting_handshakes == 0 && self.messages.is_some() {
                        self.sched.schedule(now + self.think, Event::AppWrite);
                    }
                    if self.think > Duration::ZERO && self.messages.is_none() {
                        self.sched
                            .schedule(now + self.think, Event::Respond(p.flow));
                    }
                }
            }
            Kind::Ack {
                ack, wnd, ts, ece, ..
            } => {
                let wnd = u64::from(wnd);
                let sack = p.sack_blocks();
                self.watch_ack(fi, ack, wnd);
                if let Some(tr) = self.detailed_trace(fi) {
                    tr.acks.push(now, [ack as f64]);
                    if let Some(high) = sack.iter().map(|b| b.end).max() {
                        tr.sacks.push(now, [high as f64]);
                    }
                    for b in sack.iter() {
                        tr.sack_blocks.push(now, [b.start as f64, b.end as f64]);
                    }
                }
                let flow = &mut self.flows[fi];
                // The player's step needs the window of before the ACK; only then is it kept.
                let before = self
                    .recording
                    .keeping()
                    .then(|| AckBefore::of(&flow.sender));
                let samples = flow.sender.rtt().samples();
                flow.sender.on_ack(now, ack, wnd, &sack, ts, ece, &mut out);
                let rtt = flow.sender.rtt();
                if let (true, Some(r)) = (rtt.samples() != samples, rtt.latest()) {
                    if let Some(tr) = self.detailed_trace(fi) {
                        tr.rtt.push(now, [r.as_millis_f64()]);
                    }
                }
                if let Some(before) = before {
                    self.record_ack(now, fi, ack, before);
                }
            }
            _ => {}
        }
        self.after_sender(now, p.flow, &mut out);
        self.scratch = out;
    }

    /// A flow's application, its think time over, writes what it has.
    fn respond(&mut self, now: Instant, f: u16) {
        let fi = usize::from(f);
        let mut out = std::mem::take(&mut self.scratch);
        let bytes = self.flows[fi].workload.initial_write();
        self.flows[fi].sender.write(bytes);
        self.flows[fi].sender.try_send(now, &mut out);
        self.after_sender(now, f, &mut out);
        self.scratch = out;
    }

    fn sender_timer(&mut self, now: Instant, f: u16) {
        let fi = usize::from(f);
        self.flows[fi].sender_timer.fired(now);
        let mut out = std::mem::take(&mut self.scratch);
        self.flows[fi].sender.on_timer(now, &mut out);
        self.after_sender(now, f, &mut out);
        self.scratch = out;
    }
}
