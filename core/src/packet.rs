//! What travels over the simulated path. Sequence numbers are 64-bit byte offsets from the first
//! data byte of a connection: the lab never wraps, so no comparison needs RFC 1982 arithmetic.

/// A SACK block (RFC 2018): bytes `start..end` have been received.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SackBlock {
    pub start: u64,
    pub end: u64,
}

/// The most SACK blocks an ACK carries here: three, as with timestamps on (RFC 2018 §3).
pub const MAX_SACK_BLOCKS: usize = 3;

/// TCP/IP header bytes on every segment: 20 of IPv4, 20 of TCP, 12 of the timestamp option that
/// Linux sends by default (RFC 7323).
pub const HEADER_BYTES: u32 = 52;

/// Extra option bytes of a SYN: MSS, SACK-permitted, window scale (timestamps are counted above).
pub const SYN_OPTION_BYTES: u32 = 8;

/// UDP/IP header bytes.
pub const UDP_HEADER_BYTES: u32 = 28;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Syn,
    /// The SYN-ACK, offering the receiver's window.
    SynAck {
        wnd: u64,
    },
    /// The third segment of the handshake.
    HandshakeAck,
    /// Payload bytes `seq..seq + len`.
    Data {
        seq: u64,
        len: u32,
    },
    /// A cumulative ACK with the receive window and up to three SACK blocks.
    Ack {
        ack: u64,
        wnd: u64,
        sack: [SackBlock; MAX_SACK_BLOCKS],
        sack_len: u8,
    },
    /// A UDP datagram carrying message `id`.
    Datagram {
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
