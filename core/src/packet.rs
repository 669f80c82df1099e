//! What travels over the simulated path. Sequence numbers are 64-bit byte offsets from the first
//! data byte of a connection: the lab never wraps, so no comparison needs RFC 1982 arithmetic.
//! The one exception is the SACK option, which travels in TCP's own 32 bits (below) so that a
//! packet fits in 64 bytes: every hop copies it, and the WebAssembly build copies anything
//! larger with a call (docs/performance.md, "A packet in 64 bytes").

/// A SACK block (RFC 2018): bytes `start..end` have been received.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SackBlock {
    pub start: u64,
    pub end: u64,
}

/// A SACK block as the option carries it (RFC 2018 §3): its two edges in TCP's 32-bit sequence
/// space, that is modulo 2^32 (RFC 9293 §3.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct WireSack {
    left: u32,
    right: u32,
}

impl WireSack {
    /// The block as the receiver writes it into the option.
    pub fn of(b: SackBlock) -> Self {
        // Truncation is the point: the option holds the edges modulo 2^32.
        Self {
            left: b.start as u32,
            right: b.end as u32,
        }
    }

    /// The option's blocks as a packet carries them: `blocks` in order, the rest unused.
    pub fn option(blocks: &[SackBlock]) -> [WireSack; MAX_SACK_BLOCKS] {
        let mut sack = [WireSack::default(); MAX_SACK_BLOCKS];
        for (w, &b) in sack.iter_mut().zip(blocks) {
            *w = WireSack::of(b);
        }
        sack
    }

    /// The block the sender reads, each edge the 64-bit offset nearest the ACK it came with:
    /// Linux compares sequence numbers so too (`before()`, `after()`: within 2^31). Exact here,
    /// since every block lies within a window of the ACK and a window is at most 2^30 bytes
    /// (RFC 7323 §2.3; `rwnd`'s bound).
    pub fn near(self, ack: u64) -> SackBlock {
        let unwrap = |edge: u32| {
            let offset = edge.wrapping_sub(ack as u32) as i32;
            ack.saturating_add_signed(i64::from(offset))
        };
        SackBlock {
            start: unwrap(self.left),
            end: unwrap(self.right),
        }
    }
}

/// The SACK blocks of one ACK, read against its cumulative ACK ([`Packet::sack_blocks`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SackBlocks {
    blocks: [SackBlock; MAX_SACK_BLOCKS],
    len: u8,
}

impl std::ops::Deref for SackBlocks {
    type Target = [SackBlock];
    fn deref(&self) -> &[SackBlock] {
        &self.blocks[..usize::from(self.len).min(MAX_SACK_BLOCKS)]
    }
}

impl SackBlocks {
    /// `block` first, then the blocks there were that it does not overlap, as many as fit: a
    /// receiver's list once `block`, the range an arrival joined, changed (RFC 2018 §4: the
    /// most recently changed first; a range the arrival merged into it goes).
    pub fn put_first(&mut self, block: SackBlock) {
        let apart = |b: &SackBlock| b.end <= block.start || block.end <= b.start;
        // Nearly always the newest block grew, and alone: it stays first.
        if let [first, rest @ ..] = &**self {
            if !apart(first) && rest.iter().all(apart) {
                self.blocks[0] = block;
                return;
            }
        }
        let before = *self;
        self.blocks[0] = block;
        let mut n = 1;
        for &b in before.iter() {
            if n == MAX_SACK_BLOCKS {
                break;
            }
            if apart(&b) {
                self.blocks[n] = b;
                n += 1;
            }
        }
        self.len = n as u8;
    }

    /// Keeps the blocks `keep` accepts, in their order.
    pub fn retain(&mut self, keep: impl Fn(&SackBlock) -> bool) {
        let mut n = 0;
        for i in 0..self.len() {
            let b = self.blocks[i];
            if keep(&b) {
                self.blocks[n] = b;
                n += 1;
            }
        }
        self.len = n as u8;
    }
}

/// The window field of an ACK, in bytes after scaling: at most 2^30 (RFC 7323 §2.3, a 16-bit
/// field shifted by at most 14), so 32 bits hold it.
pub fn window_field(bytes: u64) -> u32 {
    debug_assert!(bytes <= 1 << 30, "a window of {bytes} bytes");
    u32::try_from(bytes).unwrap_or(u32::MAX)
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
        wnd: u32,
        sack: [WireSack; MAX_SACK_BLOCKS],
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

    /// The SACK blocks of an ACK, in the lab's 64-bit sequence space; none for other packets.
    #[inline]
    pub fn sack_blocks(&self) -> SackBlocks {
        let mut out = SackBlocks::default();
        if let Kind::Ack {
            ack,
            sack,
            sack_len,
            ..
        } = &self.kind
        {
            let n = usize::from(*sack_len).min(MAX_SACK_BLOCKS);
            for (o, w) in out.blocks.iter_mut().zip(&sack[..n]) {
                *o = w.near(*ack);
            }
            out.len = n as u8;
        }
        out
    }
}

// Every hop copies a packet by value; at 64 bytes or less the WebAssembly build copies it with
// eight loads and stores instead of a call to `memory.copy` (docs/performance.md).
const _: () = assert!(std::mem::size_of::<Packet>() <= 64);

#[cfg(test)]
mod tests {
    use super::*;

    fn blk(start: u64, end: u64) -> SackBlock {
        SackBlock { start, end }
    }

    #[test]
    fn a_changed_range_goes_first_and_the_ranges_it_swallowed_go() {
        let mut list = SackBlocks::default();
        for b in [blk(10, 20), blk(30, 40), blk(50, 60), blk(70, 80)] {
            list.put_first(b);
        }
        assert_eq!(
            &*list,
            &[blk(70, 80), blk(50, 60), blk(30, 40), blk(10, 20)]
        );
        // A fifth range pushes the oldest out.
        list.put_first(blk(90, 100));
        assert_eq!(
            &*list,
            &[blk(90, 100), blk(70, 80), blk(50, 60), blk(30, 40)]
        );
        // A hole filled between two ranges: the one range they became replaces both.
        list.put_first(blk(50, 80));
        assert_eq!(&*list, &[blk(50, 80), blk(90, 100), blk(30, 40)]);
        // The newest range grown: it stays first, the others keep their order.
        list.put_first(blk(90, 110));
        assert_eq!(&*list, &[blk(90, 110), blk(50, 80), blk(30, 40)]);
        list.retain(|b| b.start > 40);
        assert_eq!(&*list, &[blk(90, 110), blk(50, 80)]);
    }

    fn ack_with(ack: u64, blocks: &[SackBlock]) -> Packet {
        Packet {
            flow: 0,
            kind: Kind::Ack {
                ack,
                wnd: 0,
                sack: WireSack::option(blocks),
                sack_len: blocks.len() as u8,
                ts: TsOpt::default(),
                ece: false,
            },
            wire_bytes: 0,
        }
    }

    #[test]
    fn sack_blocks_come_back_as_sent_on_both_sides_of_the_ack_and_across_wraps() {
        let window = 1u64 << 30;
        for ack in [
            0u64,
            1_448,
            (1 << 32) - 3_000,
            1 << 32,
            5 << 32,
            (7 << 32) + 17,
        ] {
            let blocks = [
                // RFC 2883: a D-SACK block, below the cumulative ACK.
                SackBlock {
                    start: ack.saturating_sub(2_896),
                    end: ack.saturating_sub(1_448),
                },
                SackBlock {
                    start: ack + 1_448,
                    end: ack + 4_344,
                },
                SackBlock {
                    start: ack + window - 2_896,
                    end: ack + window,
                },
                SackBlock {
                    start: ack.saturating_sub(window),
                    end: ack.saturating_sub(window) + 1,
                },
            ];
            let p = ack_with(ack, &blocks);
            assert_eq!(&p.sack_blocks()[..], &blocks[..], "ack {ack}");
        }
    }

    #[test]
    fn only_an_ack_has_sack_blocks_and_no_more_than_it_carries() {
        let b = SackBlock { start: 10, end: 20 };
        assert_eq!(ack_with(5, &[b]).sack_blocks().len(), 1);
        assert!(ack_with(5, &[]).sack_blocks().is_empty());
        let data = Packet {
            flow: 0,
            kind: Kind::Datagram { id: 1 },
            wire_bytes: 0,
        };
        assert!(data.sack_blocks().is_empty());
    }

    #[test]
    fn the_window_field_holds_the_largest_window() {
        assert_eq!(window_field(1 << 30), 1 << 30);
        assert_eq!(window_field(65_535), 65_535);
    }
}
