//! A run's steps as a flat array of numbers, for the trip from the worker to the page.
//!
//! A lesson has a few thousand steps and a fast run the cap of 100 000; as JSON those are tens
//! of megabytes that the page would parse on its own thread. Packed as [`WIDTH`] numbers a step
//! into one `Float64Array`, they cross by transfer (no copy) and unpack in milliseconds.
//!
//! Every field is a number already: whole numbers travel exactly while they are below 2^53
//! (a step's byte counts are far below: a run keeps at most 100 000 steps), Linux's "infinite"
//! ssthresh (which BBR never lowers) travels as infinity, an absent value is NaN, and each enum
//! is its variant's position. [`pack`] refuses a step it could not carry exactly, and the worker
//! then sends that run's steps as JSON instead.

use tcplab::cc::INFINITE_SSTHRESH_BYTES;
use tcplab::player::{CaLabel, DropCause, FlowState, Growth, SlowStartEnd, Step, StepKind};

/// Numbers per step: time, flow, kind, six fields of the kind, seven of the state.
pub const WIDTH: usize = 16;

/// The largest whole number an `f64` holds exactly along with every smaller one.
const EXACT: u64 = 1 << 53;

fn whole(v: u64) -> Option<f64> {
    if v <= EXACT {
        Some(v as f64)
    } else if v == INFINITE_SSTHRESH_BYTES {
        Some(f64::INFINITY)
    } else {
        None
    }
}

fn opt(v: Option<f64>) -> f64 {
    v.unwrap_or(f64::NAN)
}

fn cause_code(c: DropCause) -> f64 {
    f64::from(c.code())
}

fn growth_code(g: Growth) -> f64 {
    match g {
        Growth::SlowStart => 0.0,
        Growth::CongestionAvoidance => 1.0,
        Growth::Model => 2.0,
        Growth::Held => 3.0,
    }
}

fn end_code(e: SlowStartEnd) -> f64 {
    match e {
        SlowStartEnd::Ssthresh => 0.0,
        SlowStartEnd::HyStartAckTrain => 1.0,
        SlowStartEnd::HyStartDelay => 2.0,
    }
}

fn end_of(code: u64) -> Option<SlowStartEnd> {
    match code {
        0 => Some(SlowStartEnd::Ssthresh),
        1 => Some(SlowStartEnd::HyStartAckTrain),
        2 => Some(SlowStartEnd::HyStartDelay),
        _ => None,
    }
}

fn ca_of(code: u64) -> Option<CaLabel> {
    match code {
        0 => Some(CaLabel::Open),
        1 => Some(CaLabel::Disorder),
        2 => Some(CaLabel::Recovery),
        3 => Some(CaLabel::Loss),
        _ => None,
    }
}

fn ca_code(c: CaLabel) -> f64 {
    match c {
        CaLabel::Open => 0.0,
        CaLabel::Disorder => 1.0,
        CaLabel::Recovery => 2.0,
        CaLabel::Loss => 3.0,
    }
}

/// The kind's code and its fields, or `None` if one would not travel exactly.
fn kind_fields(kind: &StepKind) -> Option<(f64, [f64; 6])> {
    let b = |v: bool| if v { 1.0 } else { 0.0 };
    let n = f64::NAN;
    Some(match *kind {
        StepKind::SynSent { retry } => (0.0, [f64::from(retry), n, n, n, n, n]),
        StepKind::SynReceived => (1.0, [n; 6]),
        StepKind::Established { rtt_ms } => (2.0, [opt(rtt_ms), n, n, n, n, n]),
        StepKind::Sent { seq, len } => (3.0, [whole(seq)?, f64::from(len), n, n, n, n]),
        StepKind::Retransmitted { seq, len } => (4.0, [whole(seq)?, f64::from(len), n, n, n, n]),
        StepKind::LossProbe { seq, len } => (5.0, [whole(seq)?, f64::from(len), n, n, n, n]),
        StepKind::DataLost { seq, len, cause } => (
            6.0,
            [whole(seq)?, cause_code(cause), f64::from(len), n, n, n],
        ),
        StepKind::DatagramLost { id, cause } => {
            (7.0, [f64::from(id), cause_code(cause), n, n, n, n])
        }
        StepKind::AckLost { ack } => (8.0, [whole(ack)?, n, n, n, n, n]),
        StepKind::DataArrived {
            seq,
            len,
            in_order,
            delivered,
            held,
        } => (
            9.0,
            [
                whole(seq)?,
                f64::from(len),
                b(in_order),
                whole(delivered)?,
                whole(held)?,
                n,
            ],
        ),
        StepKind::DatagramArrived { id } => (10.0, [f64::from(id), n, n, n, n, n]),
        StepKind::AckSent {
            ack,
            sack_blocks,
            delayed,
        } => (
            11.0,
            [whole(ack)?, f64::from(sack_blocks), b(delayed), n, n, n],
        ),
        StepKind::AckArrived {
            ack,
            acked,
            sacked,
            growth,
            cwnd_before,
            cwnd_after,
        } => (
            12.0,
            [
                whole(ack)?,
                whole(acked)?,
                whole(sacked)?,
                growth_code(growth),
                whole(cwnd_before)?,
                whole(cwnd_after)?,
            ],
        ),
        StepKind::DuplicateAck { ack, count } => {
            (13.0, [whole(ack)?, f64::from(count), n, n, n, n])
        }
        StepKind::FastRetransmit {
            seq,
            cwnd_before,
            cwnd_after,
            ssthresh,
        } => (
            14.0,
            [
                whole(seq)?,
                whole(cwnd_before)?,
                whole(cwnd_after)?,
                whole(ssthresh)?,
                n,
                n,
            ],
        ),
        StepKind::RecoveryDone { cwnd } => (15.0, [whole(cwnd)?, n, n, n, n, n]),
        StepKind::Timeout {
            rto_ms,
            backoff,
            cwnd_before,
            ssthresh,
        } => (
            16.0,
            [
                rto_ms,
                f64::from(backoff),
                whole(cwnd_before)?,
                whole(ssthresh)?,
                n,
                n,
            ],
        ),
        StepKind::MessageWritten { id } => (17.0, [f64::from(id), n, n, n, n, n]),
        StepKind::HolRelease {
            event,
            messages,
            worst_ms,
        } => (
            18.0,
            [f64::from(event), f64::from(messages), worst_ms, n, n, n],
        ),
        StepKind::SlowStartExit {
            reason,
            cwnd,
            ssthresh,
        } => (
            19.0,
            [end_code(reason), whole(cwnd)?, whole(ssthresh)?, n, n, n],
        ),
        StepKind::StateChange { from, to } => (20.0, [ca_code(from), ca_code(to), n, n, n, n]),
    })
}

/// The steps as [`WIDTH`] numbers each, or `None` if one of them would not travel exactly.
pub fn pack(steps: &[Step]) -> Option<Vec<f64>> {
    let mut out = Vec::with_capacity(steps.len() * WIDTH);
    for s in steps {
        let (code, fields) = kind_fields(&s.kind)?;
        let st = &s.state;
        out.push(s.t_ms);
        out.push(f64::from(s.flow));
        out.push(code);
        out.extend_from_slice(&fields);
        out.extend_from_slice(&[
            whole(st.cwnd)?,
            match st.ssthresh {
                Some(v) => whole(v)?,
                None => f64::NAN,
            },
            whole(st.in_flight)?,
            opt(st.srtt_ms),
            st.rto_ms,
            ca_code(st.ca),
            f64::from(st.queue),
        ]);
    }
    Some(out)
}

/// Reads one packed step's numbers back.
struct Reader<'a> {
    row: &'a [f64],
    at: usize,
}

impl Reader<'_> {
    fn err(&self, what: &str) -> String {
        format!("field {} is not {what}: {}", self.at, self.row[self.at])
    }

    fn f(&self, i: usize) -> f64 {
        self.row[i]
    }

    fn u64(&mut self, i: usize) -> Result<u64, String> {
        self.at = i;
        let v = self.row[i];
        if v == f64::INFINITY {
            Ok(INFINITE_SSTHRESH_BYTES)
        } else if v.is_finite() && v >= 0.0 && v.fract() == 0.0 && v <= EXACT as f64 {
            Ok(v as u64)
        } else {
            Err(self.err("a whole number"))
        }
    }

    fn u32(&mut self, i: usize) -> Result<u32, String> {
        let v = self.u64(i)?;
        u32::try_from(v).map_err(|_| self.err("a 32-bit number"))
    }

    fn u16(&mut self, i: usize) -> Result<u16, String> {
        let v = self.u64(i)?;
        u16::try_from(v).map_err(|_| self.err("a 16-bit number"))
    }

    fn u8(&mut self, i: usize) -> Result<u8, String> {
        let v = self.u64(i)?;
        u8::try_from(v).map_err(|_| self.err("an 8-bit number"))
    }

    fn flag(&mut self, i: usize) -> Result<bool, String> {
        match self.u64(i)? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(self.err("0 or 1")),
        }
    }

    fn opt(&self, i: usize) -> Option<f64> {
        let v = self.row[i];
        (!v.is_nan()).then_some(v)
    }

    fn cause(&mut self, i: usize) -> Result<DropCause, String> {
        let code = self.u64(i)?;
        DropCause::from_code(code).ok_or_else(|| self.err("a drop cause"))
    }

    fn growth(&mut self, i: usize) -> Result<Growth, String> {
        match self.u64(i)? {
            0 => Ok(Growth::SlowStart),
            1 => Ok(Growth::CongestionAvoidance),
            2 => Ok(Growth::Model),
            3 => Ok(Growth::Held),
            _ => Err(self.err("a kind of growth")),
        }
    }

    fn ca(&mut self, i: usize) -> Result<CaLabel, String> {
        let code = self.u64(i)?;
        ca_of(code).ok_or_else(|| self.err("a recovery state"))
    }

    fn kind(&mut self) -> Result<StepKind, String> {
        // The kind's fields start at 3.
        let k = 3;
        Ok(match self.u64(2)? {
            0 => StepKind::SynSent {
                retry: self.u32(k)?,
            },
            1 => StepKind::SynReceived,
            2 => StepKind::Established {
                rtt_ms: self.opt(k),
            },
            3 => StepKind::Sent {
                seq: self.u64(k)?,
                len: self.u32(k + 1)?,
            },
            4 => StepKind::Retransmitted {
                seq: self.u64(k)?,
                len: self.u32(k + 1)?,
            },
            5 => StepKind::LossProbe {
                seq: self.u64(k)?,
                len: self.u32(k + 1)?,
            },
            6 => StepKind::DataLost {
                seq: self.u64(k)?,
                cause: self.cause(k + 1)?,
                len: self.u32(k + 2)?,
            },
            7 => StepKind::DatagramLost {
                id: self.u32(k)?,
                cause: self.cause(k + 1)?,
            },
            8 => StepKind::AckLost { ack: self.u64(k)? },
            9 => StepKind::DataArrived {
                seq: self.u64(k)?,
                len: self.u32(k + 1)?,
                in_order: self.flag(k + 2)?,
                delivered: self.u64(k + 3)?,
                held: self.u64(k + 4)?,
            },
            10 => StepKind::DatagramArrived { id: self.u32(k)? },
            11 => StepKind::AckSent {
                ack: self.u64(k)?,
                sack_blocks: self.u8(k + 1)?,
                delayed: self.flag(k + 2)?,
            },
            12 => StepKind::AckArrived {
                ack: self.u64(k)?,
                acked: self.u64(k + 1)?,
                sacked: self.u64(k + 2)?,
                growth: self.growth(k + 3)?,
                cwnd_before: self.u64(k + 4)?,
                cwnd_after: self.u64(k + 5)?,
            },
            13 => StepKind::DuplicateAck {
                ack: self.u64(k)?,
                count: self.u32(k + 1)?,
            },
            14 => StepKind::FastRetransmit {
                seq: self.u64(k)?,
                cwnd_before: self.u64(k + 1)?,
                cwnd_after: self.u64(k + 2)?,
                ssthresh: self.u64(k + 3)?,
            },
            15 => StepKind::RecoveryDone { cwnd: self.u64(k)? },
            16 => StepKind::Timeout {
                rto_ms: self.f(k),
                backoff: self.u32(k + 1)?,
                cwnd_before: self.u64(k + 2)?,
                ssthresh: self.u64(k + 3)?,
            },
            17 => StepKind::MessageWritten { id: self.u32(k)? },
            18 => StepKind::HolRelease {
                event: self.u32(k)?,
                messages: self.u32(k + 1)?,
                worst_ms: self.f(k + 2),
            },
            19 => StepKind::SlowStartExit {
                reason: end_of(self.u64(k)?)
                    .ok_or_else(|| self.err("a reason slow start ended"))?,
                cwnd: self.u64(k + 1)?,
                ssthresh: self.u64(k + 2)?,
            },
            20 => StepKind::StateChange {
                from: self.ca(k)?,
                to: self.ca(k + 1)?,
            },
            _ => return Err(self.err("a kind of step")),
        })
    }

    fn step(&mut self) -> Result<Step, String> {
        let kind = self.kind()?;
        Ok(Step {
            t_ms: self.f(0),
            flow: self.u16(1)?,
            kind,
            state: FlowState {
                cwnd: self.u64(9)?,
                ssthresh: match self.opt(10) {
                    None => None,
                    Some(_) => Some(self.u64(10)?),
                },
                in_flight: self.u64(11)?,
                srtt_ms: self.opt(12),
                rto_ms: self.f(13),
                ca: self.ca(14)?,
                queue: self.u32(15)?,
            },
        })
    }
}

/// A whole number as [`pack`] writes it.
#[inline(always)]
fn count(v: f64) -> Option<u64> {
    if v == f64::INFINITY {
        Some(INFINITE_SSTHRESH_BYTES)
    } else if v >= 0.0 && v <= EXACT as f64 && v.fract() == 0.0 {
        Some(v as u64)
    } else {
        None
    }
}

#[inline(always)]
fn small<T: TryFrom<u64>>(v: f64) -> Option<T> {
    T::try_from(count(v)?).ok()
}

#[inline(always)]
fn maybe(v: f64) -> Option<f64> {
    (!v.is_nan()).then_some(v)
}

/// One step, on the quick path: `None` if anything is off, and [`Reader`] then says what.
fn quick(r: &[f64]) -> Option<Step> {
    let k = 3;
    let cause = |v: f64| DropCause::from_code(count(v)?);
    let flag = |v: f64| match count(v)? {
        0 => Some(false),
        1 => Some(true),
        _ => None,
    };
    let kind = match count(r[2])? {
        0 => StepKind::SynSent {
            retry: small(r[k])?,
        },
        1 => StepKind::SynReceived,
        2 => StepKind::Established {
            rtt_ms: maybe(r[k]),
        },
        3 => StepKind::Sent {
            seq: count(r[k])?,
            len: small(r[k + 1])?,
        },
        4 => StepKind::Retransmitted {
            seq: count(r[k])?,
            len: small(r[k + 1])?,
        },
        5 => StepKind::LossProbe {
            seq: count(r[k])?,
            len: small(r[k + 1])?,
        },
        6 => StepKind::DataLost {
            seq: count(r[k])?,
            cause: cause(r[k + 1])?,
            len: small(r[k + 2])?,
        },
        7 => StepKind::DatagramLost {
            id: small(r[k])?,
            cause: cause(r[k + 1])?,
        },
        8 => StepKind::AckLost { ack: count(r[k])? },
        9 => StepKind::DataArrived {
            seq: count(r[k])?,
            len: small(r[k + 1])?,
            in_order: flag(r[k + 2])?,
            delivered: count(r[k + 3])?,
            held: count(r[k + 4])?,
        },
        10 => StepKind::DatagramArrived { id: small(r[k])? },
        11 => StepKind::AckSent {
            ack: count(r[k])?,
            sack_blocks: small(r[k + 1])?,
            delayed: flag(r[k + 2])?,
        },
        12 => StepKind::AckArrived {
            ack: count(r[k])?,
            acked: count(r[k + 1])?,
            sacked: count(r[k + 2])?,
            growth: match count(r[k + 3])? {
                0 => Growth::SlowStart,
                1 => Growth::CongestionAvoidance,
                2 => Growth::Model,
                3 => Growth::Held,
                _ => return None,
            },
            cwnd_before: count(r[k + 4])?,
            cwnd_after: count(r[k + 5])?,
        },
        13 => StepKind::DuplicateAck {
            ack: count(r[k])?,
            count: small(r[k + 1])?,
        },
        14 => StepKind::FastRetransmit {
            seq: count(r[k])?,
            cwnd_before: count(r[k + 1])?,
            cwnd_after: count(r[k + 2])?,
            ssthresh: count(r[k + 3])?,
        },
        15 => StepKind::RecoveryDone { cwnd: count(r[k])? },
        16 => StepKind::Timeout {
            rto_ms: r[k],
            backoff: small(r[k + 1])?,
            cwnd_before: count(r[k + 2])?,
            ssthresh: count(r[k + 3])?,
        },
        17 => StepKind::MessageWritten { id: small(r[k])? },
        18 => StepKind::HolRelease {
            event: small(r[k])?,
            messages: small(r[k + 1])?,
            worst_ms: r[k + 2],
        },
        19 => StepKind::SlowStartExit {
            reason: end_of(count(r[k])?)?,
            cwnd: count(r[k + 1])?,
            ssthresh: count(r[k + 2])?,
        },
        20 => StepKind::StateChange {
            from: ca_of(count(r[k])?)?,
            to: ca_of(count(r[k + 1])?)?,
        },
        _ => return None,
    };
    Some(Step {
        t_ms: r[0],
        flow: small(r[1])?,
        kind,
        state: FlowState {
            cwnd: count(r[9])?,
            ssthresh: match maybe(r[10]) {
                None => None,
                Some(v) => Some(count(v)?),
            },
            in_flight: count(r[11])?,
            srtt_ms: maybe(r[12]),
            rto_ms: r[13],
            ca: ca_of(count(r[14])?)?,
            queue: small(r[15])?,
        },
    })
}

/// The steps [`pack`] packed, or what is wrong with the numbers.
pub fn unpack(data: &[f64]) -> Result<Vec<Step>, String> {
    if !data.len().is_multiple_of(WIDTH) {
        return Err(format!(
            "{} numbers do not make whole steps of {WIDTH}",
            data.len()
        ));
    }
    let mut steps = Vec::with_capacity(data.len() / WIDTH);
    for (i, row) in data.chunks_exact(WIDTH).enumerate() {
        match quick(row) {
            Some(step) => steps.push(step),
            None => {
                let why = Reader { row, at: 0 }
                    .step()
                    .err()
                    .unwrap_or_else(|| "a field is out of place".to_string());
                return Err(format!("step {i}: {why}"));
            }
        }
    }
    Ok(steps)
}
