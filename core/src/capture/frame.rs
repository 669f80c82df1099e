//! A simulated packet as the frame a capture would hold: Ethernet, IPv4 and TCP (or UDP, or an
//! ICMP echo for the latency probe) with the headers Linux would put on the wire for it.
//!
//! The lab's packets carry byte offsets from the first data byte; on the wire a connection's
//! sequence numbers start at its initial sequence number (RFC 9293 §3.4.1), the SYN taking
//! one, and wrap at 2^32. The window the receiver offers is in bytes in the lab and scaled on
//! the wire by the shift its SYN-ACK announced (RFC 7323 §2.3), chosen as Linux's
//! `tcp_select_initial_window` does: the smallest that lets the largest buffer fit 16 bits. The
//! options are laid out as Linux's `tcp_options_write` lays them: MSS, SACK-permitted with the
//! timestamp (or two NOPs before it), NOP and window scale on a SYN; two NOPs and the timestamp,
//! then two NOPs and the SACK blocks, on every later segment.

use etherparse::{
    EtherType, Ethernet2Header, IcmpEchoHeader, Icmpv4Header, Icmpv4Type, IpEcn, IpNumber,
    Ipv4Header, TcpHeader, TcpOptionElement, UdpHeader,
};

use crate::packet::{ts_clock, Ecn, Kind, Packet, TsOpt};
use crate::rng::SplitMix64;
use crate::scenario::Scenario;
use crate::time::{Duration, Instant};

/// The sending host and the receiving host, on documentation prefixes (RFC 5737) and
/// locally administered MACs, so that no capture of the lab names a real machine.
pub const SENDER_IP: [u8; 4] = [192, 0, 2, 1];
pub const RECEIVER_IP: [u8; 4] = [198, 51, 100, 1];
pub const SENDER_MAC: [u8; 6] = [0x02, 0x00, 0x00, 0x00, 0x00, 0x01];
pub const RECEIVER_MAC: [u8; 6] = [0x02, 0x00, 0x00, 0x00, 0x00, 0x02];

/// Connection `i` leaves from port `FIRST_SENDER_PORT + i` for the receiver's `RECEIVER_PORT`
/// (iperf3's); UDP datagrams take the same pair.
pub const FIRST_SENDER_PORT: u16 = 40_000;
pub const RECEIVER_PORT: u16 = 5201;

/// The echo identifier of the latency probe's pings.
pub const PING_ID: u16 = 0x7463;

/// Linux's default time to live (`sysctl_ip_default_ttl`).
const TTL: u8 = 64;

/// The sender's own receive window, which the lab does not model (nothing flows back to it but
/// ACKs): Linux's first offer for a 1 460-byte MSS, 64 240 bytes, and 502 units of 128 bytes
/// after the handshake (window scale 7, from the default `tcp_rmem[2]` of 6 MB).
const SENDER_SYN_WINDOW: u16 = 64_240;
const SENDER_WINDOW: u16 = 502;
const SENDER_WSCALE: u8 = 7;

/// RFC 7323 §2.3: a shift above 14 is taken as 14.
const MAX_WSCALE: u8 = 14;

/// The largest window field of a SYN, unscaled (RFC 7323 §2.2).
const MAX_FIELD: u64 = 65_535;

/// Bytes of Ethernet header before the IP header.
pub const ETHERNET_BYTES: usize = 14;

/// Which way a packet goes: from the sending host or from the receiving host.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Way {
    ToReceiver,
    ToSender,
}

impl Way {
    pub fn of(kind: &Kind) -> Way {
        match kind {
            Kind::Syn
            | Kind::HandshakeAck
            | Kind::Data { .. }
            | Kind::Datagram { .. }
            | Kind::Probe { .. } => Way::ToReceiver,
            Kind::SynAck { .. } | Kind::Ack { .. } | Kind::ProbeReply { .. } => Way::ToSender,
        }
    }
}

/// The window scale Linux's `tcp_select_initial_window` announces for a receive buffer that
/// may grow to `space` bytes.
pub fn window_scale(space: u64) -> u8 {
    let mut space = space;
    let mut shift = 0;
    while space > MAX_FIELD && shift < MAX_WSCALE {
        space >>= 1;
        shift += 1;
    }
    shift
}

/// One connection's numbers on the wire.
#[derive(Debug, Clone, Copy)]
struct Conn {
    /// The initial sequence numbers of the sender and of the receiver.
    isn: u32,
    peer_isn: u32,
    /// The connection's timestamp clock phase (`packet::ts_clock`), for the SYN and the
    /// handshake's ACK, which the lab's packets carry no timestamp for.
    ts_phase: Duration,
    /// The SYN-ACK's TSval, which the handshake's ACK echoes.
    synack_tsval: u32,
}

/// What the two ends negotiated, the same for every connection of a run.
#[derive(Debug, Clone, Copy)]
struct Options {
    /// The MSS option: the largest segment payload without options (RFC 9293 §3.7.1), which
    /// is the lab's `mss` plus the timestamp option's 12 bytes when timestamps are on.
    mss: u16,
    sack: bool,
    ts: bool,
    ecn: bool,
    /// The receiver's window scale.
    wscale: u8,
}

/// Writes frames for the packets of one run.
#[derive(Debug, Clone)]
pub struct Framer {
    conns: Vec<Conn>,
    opts: Options,
    /// The IP identification counter of each host (the sender's, the receiver's).
    ip_id: [u16; 2],
    zeros: Vec<u8>,
}

/// A frame that could not be written: the packet does not fit an IPv4 datagram.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooLong {
    pub bytes: usize,
}

impl Framer {
    /// The frames of `s`'s connections, whose timestamp clocks run at `ts_phases`.
    pub fn new(s: &Scenario, ts_phases: &[Duration]) -> Framer {
        let conns = ts_phases
            .iter()
            .enumerate()
            .map(|(i, &ts_phase)| {
                // Linux picks each ISN from a keyed hash of the addresses and a clock
                // (RFC 6528); the lab from its seed, so that a run's capture is reproducible.
                let mut rng = SplitMix64::new(s.seed ^ 0x6973_6e5f ^ ((i as u64) << 32));
                Conn {
                    isn: rng.next_u64() as u32,
                    peer_isn: rng.next_u64() as u32,
                    ts_phase,
                    synack_tsval: 0,
                }
            })
            .collect();
        let ts_bytes = if s.ts { 12 } else { 0 };
        Framer {
            conns,
            opts: Options {
                mss: u16::try_from(s.mss + ts_bytes).unwrap_or(u16::MAX),
                sack: s.sack,
                ts: s.ts,
                ecn: s.ecn,
                wscale: window_scale(s.rwnd),
            },
            ip_id: [0, 0],
            zeros: Vec::new(),
        }
    }

    /// The receiver's window scale.
    pub fn window_scale(&self) -> u8 {
        self.opts.wscale
    }

    /// The initial sequence numbers of connection `flow`: the sender's and the receiver's.
    pub fn isns(&self, flow: u16) -> Option<(u32, u32)> {
        self.conns
            .get(usize::from(flow))
            .map(|c| (c.isn, c.peer_isn))
    }

    /// Appends `p`'s frame as sent at `now` to `out`, at most `snap` bytes of it; returns the
    /// frame's whole length on the wire.
    pub fn write(
        &mut self,
        now: Instant,
        p: &Packet,
        snap: usize,
        out: &mut Vec<u8>,
    ) -> Result<usize, TooLong> {
        let way = Way::of(&p.kind);
        let (src, dst, src_mac, dst_mac, host) = match way {
            Way::ToReceiver => (SENDER_IP, RECEIVER_IP, SENDER_MAC, RECEIVER_MAC, 0),
            Way::ToSender => (RECEIVER_IP, SENDER_IP, RECEIVER_MAC, SENDER_MAC, 1),
        };
        let start = out.len();
        let eth = Ethernet2Header {
            source: src_mac,
            destination: dst_mac,
            ether_type: EtherType::IPV4,
        };
        out.extend_from_slice(&eth.to_bytes());
        let id = self.ip_id[host];
        self.ip_id[host] = id.wrapping_add(1);
        let (transport, payload, ecn) = match p.kind {
            Kind::Datagram { .. } => {
                let payload = (p.wire_bytes as usize).saturating_sub(28);
                (Transport::Udp, payload, IpEcn::NotEct)
            }
            Kind::Probe { id } => (Transport::Echo { id, reply: false }, 56, IpEcn::NotEct),
            Kind::ProbeReply { id } => (Transport::Echo { id, reply: true }, 56, IpEcn::NotEct),
            Kind::Data { len, ecn, .. } => {
                let ecn = match ecn {
                    Ecn::NotEct => IpEcn::NotEct,
                    // RFC 3168 §5: ECT(0) is the codepoint 0b10, CE 0b11.
                    Ecn::Ect0 => IpEcn::TWO,
                    Ecn::Ce => IpEcn::THREE,
                };
                (Transport::Tcp(self.tcp(now, p)), len as usize, ecn)
            }
            _ => (Transport::Tcp(self.tcp(now, p)), 0, IpEcn::NotEct),
        };
        if self.zeros.len() < payload {
            self.zeros.resize(payload, 0);
        }
        let body = &self.zeros[..payload];
        let (proto, (header, header_len)) = match transport {
            Transport::Tcp(mut tcp) => {
                tcp.checksum = tcp
                    .calc_checksum_ipv4_raw(src, dst, body)
                    .map_err(|_| TooLong {
                        bytes: payload + tcp.header_len(),
                    })?;
                (IpNumber::TCP, fixed(&tcp.to_bytes()))
            }
            Transport::Udp => {
                let udp = UdpHeader::with_ipv4_checksum(
                    FIRST_SENDER_PORT,
                    RECEIVER_PORT,
                    &ip_stub(src, dst),
                    body,
                )
                .map_err(|_| TooLong { bytes: payload + 8 })?;
                (IpNumber::UDP, fixed(&udp.to_bytes()))
            }
            Transport::Echo { id, reply } => {
                let echo = IcmpEchoHeader {
                    id: PING_ID,
                    seq: id as u16,
                };
                let kind = if reply {
                    Icmpv4Type::EchoReply(echo)
                } else {
                    Icmpv4Type::EchoRequest(echo)
                };
                let icmp = Icmpv4Header::with_checksum(kind, body);
                (IpNumber::ICMP, fixed(&icmp.to_bytes()))
            }
        };
        let header = &header[..header_len];
        let ip_payload = header.len() + payload;
        let mut ip = Ipv4Header::new(
            u16::try_from(ip_payload).map_err(|_| TooLong {
                bytes: ip_payload + 20,
            })?,
            TTL,
            proto,
            src,
            dst,
        )
        .map_err(|_| TooLong {
            bytes: ip_payload + 20,
        })?;
        ip.identification = id;
        ip.ecn = ecn;
        ip.header_checksum = ip.calc_header_checksum();
        out.extend_from_slice(&ip.to_bytes());
        out.extend_from_slice(header);
        let whole = ETHERNET_BYTES + 20 + ip_payload;
        let room = (start + snap).saturating_sub(out.len());
        if out.len() - start > snap {
            out.truncate(start + snap);
        } else {
            out.extend_from_slice(&body[..payload.min(room)]);
        }
        Ok(whole)
    }

    /// The TCP header of `p`, checksum not yet set.
    fn tcp(&mut self, now: Instant, p: &Packet) -> TcpHeader {
        let opts = self.opts;
        let port = FIRST_SENDER_PORT.wrapping_add(p.flow);
        let Some(conn) = self.conns.get_mut(usize::from(p.flow)) else {
            return TcpHeader::new(port, RECEIVER_PORT, 0, 0);
        };
        let una = conn.isn.wrapping_add(1);
        let peer_una = conn.peer_isn.wrapping_add(1);
        let wire_seq = |offset: u64| una.wrapping_add(offset as u32);
        let ts_of = |ts: TsOpt| TcpOptionElement::Timestamp(ts.val, ts.ecr);
        let mut elems: Vec<TcpOptionElement> = Vec::with_capacity(8);
        let mut h = match p.kind {
            Kind::Syn => {
                let mut h = TcpHeader::new(port, RECEIVER_PORT, conn.isn, SENDER_SYN_WINDOW);
                h.syn = true;
                // RFC 3168 §6.1.1: an ECN-setup SYN carries ECE and CWR.
                h.ece = opts.ecn;
                h.cwr = opts.ecn;
                let ts = TsOpt {
                    val: ts_clock(now, conn.ts_phase),
                    ecr: 0,
                };
                syn_options(&mut elems, opts, ts, SENDER_WSCALE);
                h
            }
            Kind::SynAck { wnd, ts } => {
                conn.synack_tsval = ts.val;
                let mut h = TcpHeader::new(
                    RECEIVER_PORT,
                    port,
                    conn.peer_isn,
                    wnd.min(MAX_FIELD) as u16,
                );
                h.syn = true;
                h.ack = true;
                h.acknowledgment_number = una;
                // RFC 3168 §6.1.1: an ECN-setup SYN-ACK carries ECE alone.
                h.ece = opts.ecn;
                syn_options(&mut elems, opts, ts, opts.wscale);
                h
            }
            Kind::HandshakeAck => {
                let mut h = TcpHeader::new(port, RECEIVER_PORT, una, SENDER_WINDOW);
                h.ack = true;
                h.acknowledgment_number = peer_una;
                if opts.ts {
                    let ts = TsOpt {
                        val: ts_clock(now, conn.ts_phase),
                        ecr: conn.synack_tsval,
                    };
                    elems.extend([TcpOptionElement::Noop, TcpOptionElement::Noop, ts_of(ts)]);
                }
                h
            }
            Kind::Data { seq, ts, cwr, .. } => {
                let mut h = TcpHeader::new(port, RECEIVER_PORT, wire_seq(seq), SENDER_WINDOW);
                h.ack = true;
                h.acknowledgment_number = peer_una;
                h.cwr = cwr;
                if opts.ts {
                    elems.extend([TcpOptionElement::Noop, TcpOptionElement::Noop, ts_of(ts)]);
                }
                h
            }
            Kind::Ack {
                ack, wnd, ts, ece, ..
            } => {
                let field = (u64::from(wnd) >> opts.wscale).min(MAX_FIELD) as u16;
                let mut h = TcpHeader::new(RECEIVER_PORT, port, peer_una, field);
                h.ack = true;
                h.acknowledgment_number = wire_seq(ack);
                h.ece = ece;
                if opts.ts {
                    elems.extend([TcpOptionElement::Noop, TcpOptionElement::Noop, ts_of(ts)]);
                }
                let blocks = p.sack_blocks();
                if let Some((first, rest)) = blocks.split_first() {
                    let mut more = [None; 3];
                    for (slot, b) in more.iter_mut().zip(rest) {
                        *slot = Some((wire_seq(b.start), wire_seq(b.end)));
                    }
                    elems.extend([
                        TcpOptionElement::Noop,
                        TcpOptionElement::Noop,
                        TcpOptionElement::SelectiveAcknowledgement(
                            (wire_seq(first.start), wire_seq(first.end)),
                            more,
                        ),
                    ]);
                }
                h
            }
            Kind::Datagram { .. } | Kind::Probe { .. } | Kind::ProbeReply { .. } => {
                TcpHeader::new(port, RECEIVER_PORT, 0, 0)
            }
        };
        // The options above are at most 40 bytes: a SYN's 20, or 12 and 4 SACK blocks' 36
        // only without timestamps (`packet::sack_room`).
        let _ = h.set_options(&elems);
        h
    }
}

enum Transport {
    Tcp(TcpHeader),
    Udp,
    Echo { id: u32, reply: bool },
}

/// A transport header in a buffer on the stack: at most TCP's 60 bytes, so that a frame
/// allocates nothing but its bytes in the file.
fn fixed(bytes: &[u8]) -> ([u8; 60], usize) {
    let mut buf = [0u8; 60];
    let n = bytes.len().min(60);
    buf[..n].copy_from_slice(&bytes[..n]);
    (buf, n)
}

/// An IPv4 header for a checksum's pseudo-header: only its addresses are read.
fn ip_stub(src: [u8; 4], dst: [u8; 4]) -> Ipv4Header {
    Ipv4Header {
        source: src,
        destination: dst,
        ..Default::default()
    }
}

/// A SYN's options in Linux's order (`tcp_options_write`).
fn syn_options(elems: &mut Vec<TcpOptionElement>, opts: Options, ts: TsOpt, wscale: u8) {
    elems.push(TcpOptionElement::MaximumSegmentSize(opts.mss));
    match (opts.sack, opts.ts) {
        (true, true) => elems.extend([
            TcpOptionElement::SelectiveAcknowledgementPermitted,
            TcpOptionElement::Timestamp(ts.val, ts.ecr),
        ]),
        (false, true) => elems.extend([
            TcpOptionElement::Noop,
            TcpOptionElement::Noop,
            TcpOptionElement::Timestamp(ts.val, ts.ecr),
        ]),
        _ => {}
    }
    elems.extend([
        TcpOptionElement::Noop,
        TcpOptionElement::WindowScale(wscale),
    ]);
    if opts.sack && !opts.ts {
        elems.extend([
            TcpOptionElement::Noop,
            TcpOptionElement::Noop,
            TcpOptionElement::SelectiveAcknowledgementPermitted,
        ]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::packet::{SackBlock, WireSack, HEADER_BYTES};

    fn framer(q: &str) -> Framer {
        let s = Scenario::parse(q).expect("scenario");
        Framer::new(&s, &[Duration::ZERO])
    }

    fn ack(blocks: &[SackBlock]) -> Packet {
        Packet {
            flow: 0,
            kind: Kind::Ack {
                ack: 2920,
                wnd: 65_536,
                sack: WireSack::option(blocks),
                sack_len: blocks.len() as u8,
                ts: TsOpt { val: 7, ecr: 9 },
                ece: false,
            },
            wire_bytes: HEADER_BYTES
                + if blocks.is_empty() {
                    0
                } else {
                    4 + 8 * blocks.len() as u32
                },
        }
    }

    #[test]
    fn linux_s_window_scale_fits_the_largest_buffer_in_16_bits() {
        assert_eq!(window_scale(65_535), 0);
        assert_eq!(window_scale(65_536), 1);
        assert_eq!(window_scale(4_194_304), 7);
        // tcp_rmem[2]'s 6 MB default: 7, as Linux announces.
        assert_eq!(window_scale(6_291_456), 7);
        assert_eq!(window_scale(1 << 40), MAX_WSCALE);
    }

    #[test]
    fn a_frame_is_as_long_as_the_lab_s_packet_and_its_ethernet_header() {
        let mut f = framer("rtt=20");
        let data = Packet {
            flow: 0,
            kind: Kind::Data {
                seq: 0,
                len: 1460,
                ts: TsOpt { val: 3, ecr: 4 },
                ecn: Ecn::NotEct,
                cwr: false,
            },
            wire_bytes: 1460 + HEADER_BYTES,
        };
        let blocks = [
            SackBlock {
                start: 4380,
                end: 5840,
            },
            SackBlock {
                start: 7300,
                end: 8760,
            },
            SackBlock {
                start: 10_220,
                end: 11_680,
            },
        ];
        for p in [data, ack(&[]), ack(&blocks[..1]), ack(&blocks)] {
            let mut out = Vec::new();
            let whole = f.write(Instant::ZERO, &p, 4096, &mut out).expect("fits");
            assert_eq!(whole, ETHERNET_BYTES + p.wire_bytes as usize, "{p:?}");
            assert_eq!(out.len(), whole);
            // Cut at a snap length, the frame keeps its whole length.
            let mut cut = Vec::new();
            assert_eq!(f.write(Instant::ZERO, &p, 60, &mut cut), Ok(whole));
            assert_eq!(cut.len(), 60.min(whole));
        }
    }

    #[test]
    fn sequence_numbers_start_at_the_isn_and_wrap() {
        let mut f = framer("rtt=20&seed=3");
        let (isn, peer) = f.isns(0).expect("a connection");
        let seg = |seq: u64| Packet {
            flow: 0,
            kind: Kind::Data {
                seq,
                len: 100,
                ts: TsOpt::default(),
                ecn: Ecn::Ect0,
                cwr: true,
            },
            wire_bytes: 100 + HEADER_BYTES,
        };
        for offset in [0u64, 1 << 32, (1 << 33) + 5] {
            let mut out = Vec::new();
            f.write(Instant::ZERO, &seg(offset), 200, &mut out)
                .expect("fits");
            let tcp = &out[ETHERNET_BYTES + 20..];
            let seq = u32::from_be_bytes([tcp[4], tcp[5], tcp[6], tcp[7]]);
            let ack = u32::from_be_bytes([tcp[8], tcp[9], tcp[10], tcp[11]]);
            assert_eq!(seq, isn.wrapping_add(1).wrapping_add(offset as u32));
            assert_eq!(ack, peer.wrapping_add(1));
            // ECT(0) in the IP header, CWR in TCP's flags.
            assert_eq!(out[ETHERNET_BYTES + 1] & 3, 0b10);
            assert_eq!(tcp[13] & 0x80, 0x80);
        }
    }
}
