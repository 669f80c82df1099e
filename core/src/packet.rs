//! What travels over the simulated path. Sequence numbers are 64-bit byte offsets from the first
//! data byte of a connection: the lab never wraps, so no comparison needs RFC 1982 arithmetic.

/// A SACK block (RFC 2018): bytes `start..end` have been received.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SackBlock {
    pub start: u64,
    pub end: u64,
}

/// The most SACK blocks an ACK carries: four in the 40 bytes of TCP options, three beside the
/// timestamp option (RFC 2018 §3; Linux `tcp_established_options`).
pub const MAX_SACK_BLOCKS: usize = 4;

/// The SACK blocks an ACK has room for, with or without the timestamp option.
pub const fn sack_room(ts: bool) -> usize {
    if ts {
        3
    } else {
        MAX_SACK_BLOCKS
    }
}

/// TCP/IP header bytes without options: 20 of IPv4, 20 of TCP.
pub const BASE_HEADER_BYTES: u32 = 40;

/// The timestamp option (RFC 7323), 10 bytes padded to 12, on every segment once negotiated.
pub const TS_OPTION_BYTES: u32 = 12;

/// TCP/IP header bytes on every segment with Linux's default options: timestamps on.
pub const HEADER_BYTES: u32 = BASE_HEADER_BYTES + TS_OPTION_BYTES;

/// TCP/IP header bytes on every segment, with or without timestamps.
pub const fn header_bytes(ts: bool) -> u32 {
    if ts {
        HEADER_BYTES
    } else {
        BASE_HEADER_BYTES
    }
}

/// Extra option bytes of a SYN: MSS, SACK-permitted, window scale (timestamps are counted above).
pub const SYN_OPTION_BYTES: u32 = 8;

/// UDP/IP header bytes.
pub const UDP_HEADER_BYTES: u32 = 28;

/// The timestamp option of a segment (RFC 7323 §3): the sender's clock and the echo of the
/// peer's; both 0 on a connection without timestamps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TsOpt {
    pub val: u32,
    pub ecr: u32,
}

impl TsOpt {
    /// The option of a segment sent at `now` on a clock of `phase`, echoing `recent`; none when
    /// the connection has no timestamps.
    pub fn stamped(
        enabled: bool,
        now: crate::time::Instant,
        phase: crate::time::Duration,
        recent: u32,
    ) -> TsOpt {
        if enabled {
            TsOpt {
                val: ts_clock(now, phase),
                ecr: recent,
            }
        } else {
            TsOpt::default()
        }
    }
}

/// The timestamp clock (RFC 7323 §5.4) both ends stamp with: milliseconds, as Linux's
/// `tcp_time_stamp_ts`, offset by one so that no segment carries the 0 that means "no echo".
/// `phase` is where within a millisecond tick the connection began: a real connection starts
/// at no particular moment of its host's clock, and the rounding of every timestamp RTT sample
/// (31 or 32 ms for 31.5) depends on it.
pub fn ts_clock(now: crate::time::Instant, phase: crate::time::Duration) -> u32 {
    ((now.as_nanos() + phase.as_nanos()) / 1_000_000).wrapping_add(1) as u32
}

/// The IP header's ECN field (RFC 3168 §5): whether the transport can take a congestion mark
/// instead of a drop, and whether a queue has set one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Ecn {
    #[default]
    NotEct,
    /// ECN-capable transport, ECT(0): what Linux sets on new data (`INET_ECN_xmit`).
    Ect0,
    /// Congestion experienced: a queue marked it instead of dropping it.
    Ce,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Syn,
    /// The SYN-ACK, offering the receiver's window.
    SynAck {
        wnd: u64,
        ts: TsOpt,
    },
    /// The third segment of the handshake.
    HandshakeAck,
    /// Payload bytes `seq..seq + len`, with the timestamp option (RFC 7323): the sender's TSval
    /// ([`ts_clock`]) and the echo of the last ACK's (TSecr); both 0 without timestamps. `ecn`
    /// is its IP header's ECN field; `cwr`, the TCP flag that tells the receiver the sender
    /// reduced its window for an echoed mark (RFC 3168 §6.1.2).
    Data {
        seq: u64,
        len: u32,
        ts: TsOpt,
        ecn: Ecn,
        cwr: bool,
    },
    /// A cumulative ACK with the receive window, SACK blocks, and the timestamp option: the
    /// receiver's TSval, and TSecr, the echo of TS.Recent; both 0 without timestamps. `ece`
    /// echoes a congestion mark until the sender's CWR (RFC 3168 §6.1.3).
    Ack {
        ack: u64,
        wnd: u64,
        sack: [SackBlock; MAX_SACK_BLOCKS],
        sack_len: u8,
        ts: TsOpt,
        ece: bool,
    },
    /// A UDP datagram carrying message `id`.
    Datagram {
        id: u32,
    },
    /// The latency probe's ping `id`, through the bottleneck (`crate::workload::probe`).
    Probe {
        id: u32,
    },
    /// Its echo from the far host, on the way back.
    ProbeReply {
        id: u32,
    },
}

/// A packet on the path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Packet {
    pub flow: u16,
    pub kind: Kind,
    /// Bytes on the wire, headers included: what the bottleneck serialises.
    pub wire_bytes: u32,
}

impl Packet {
    pub fn is_data(&self) -> bool {
        matches!(self.kind, Kind::Data { .. } | Kind::Datagram { .. })
    }

    pub fn sack_blocks(&self) -> &[SackBlock] {
        match &self.kind {
            Kind::Ack { sack, sack_len, .. } => {
                &sack[..usize::from(*sack_len).min(MAX_SACK_BLOCKS)]
            }
            _ => &[],
        }
    }
}
