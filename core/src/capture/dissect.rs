//! A captured frame as the TCP segment it carries: through Ethernet (with VLAN tags), Linux's
//! cooked headers (SLL and SLL2) or raw IP, IPv4 or IPv6, by `etherparse`. The payload's length
//! comes from the IP header, so a frame cut at the snap length still counts its bytes.

use std::net::IpAddr;

use etherparse::{EtherType, LaxNetSlice, LaxSlicedPacket, TcpOptionElement, TcpSlice};
use pcap_parser::data::{get_packetdata, PacketData};
use pcap_parser::Linktype;

use super::read::Frame;

/// One end of a connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Endpoint {
    pub ip: IpAddr,
    pub port: u16,
}

impl std::fmt::Display for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.ip {
            IpAddr::V4(ip) => write!(f, "{ip}:{}", self.port),
            IpAddr::V6(ip) => write!(f, "[{ip}]:{}", self.port),
        }
    }
}

/// The TCP flags the analysis reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Flags {
    pub syn: bool,
    pub fin: bool,
    pub rst: bool,
    pub ack: bool,
    pub ece: bool,
    pub cwr: bool,
}

/// A TCP segment as captured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Segment {
    pub ns: u64,
    pub src: Endpoint,
    pub dst: Endpoint,
    pub seq: u32,
    pub ack: u32,
    pub flags: Flags,
    /// The window field, unscaled.
    pub window: u16,
    /// Payload bytes on the wire.
    pub len: u32,
    pub mss: Option<u16>,
    pub wscale: Option<u8>,
    pub sack_permitted: bool,
    /// TSval and TSecr (RFC 7323).
    pub ts: Option<(u32, u32)>,
    pub sack: [(u32, u32); 4],
    pub sack_len: u8,
    /// The IP header's ECN field was CE.
    pub ce: bool,
}

impl Segment {
    pub fn sack_blocks(&self) -> &[(u32, u32)] {
        &self.sack[..usize::from(self.sack_len).min(4)]
    }
}

/// Why a frame holds no TCP segment the analysis can read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Skip {
    /// Not TCP: UDP, ICMP, ARP, another protocol.
    NotTcp,
    /// A link type the lab does not read.
    Link(i32),
    /// The frame was cut before the end of its TCP header (a short snap length).
    CutHeader,
    /// A fragment of an IP datagram after the first: no TCP header.
    Fragment,
}

/// The segment a frame carries.
pub fn dissect(frame: &Frame) -> Result<Segment, Skip> {
    let caplen = frame.data.len();
    let packet = match frame.linktype {
        Linktype::ETHERNET
        | Linktype::RAW
        | Linktype::IPV4
        | Linktype::IPV6
        | Linktype::LINUX_SLL
        | Linktype::LINUX_SLL2
        | Linktype::NULL => get_packetdata(frame.data, frame.linktype, caplen),
        // LINKTYPE_RAW's older number on some systems (DLT_RAW 12 or 14).
        Linktype(12) | Linktype(14) => get_packetdata(frame.data, Linktype::RAW, caplen),
        Linktype(other) => return Err(Skip::Link(other)),
    };
    let sliced = match packet {
        Some(PacketData::L2(eth)) => {
            LaxSlicedPacket::from_ethernet(eth).map_err(|_| Skip::CutHeader)?
        }
        Some(PacketData::L3(ether_type, ip)) => {
            LaxSlicedPacket::from_ether_type(EtherType(ether_type), ip)
        }
        Some(PacketData::L4(..)) | Some(PacketData::Unsupported(_)) => return Err(Skip::NotTcp),
        None => return Err(Skip::CutHeader),
    };
    let Some(net) = sliced.net.as_ref() else {
        return match sliced.stop_err {
            Some(_) => Err(Skip::CutHeader),
            None => Err(Skip::NotTcp),
        };
    };
    let (src, dst, payload, declared, ce) = match net {
        LaxNetSlice::Ipv4(ip) => {
            let h = ip.header();
            let declared = usize::from(h.total_len()).saturating_sub(h.slice().len());
            let ce = h.ecn().value() == 3;
            (
                IpAddr::V4(h.source_addr()),
                IpAddr::V4(h.destination_addr()),
                ip.payload(),
                declared,
                ce,
            )
        }
        LaxNetSlice::Ipv6(ip) => {
            let h = ip.header();
            let exts = ip.extensions().slice().len();
            let declared = usize::from(h.payload_length()).saturating_sub(exts);
            let ce = h.traffic_class() & 3 == 3;
            (
                IpAddr::V6(h.source_addr()),
                IpAddr::V6(h.destination_addr()),
                ip.payload(),
                declared,
                ce,
            )
        }
        _ => return Err(Skip::NotTcp),
    };
    if payload.ip_number != etherparse::IpNumber::TCP {
        return Err(Skip::NotTcp);
    }
    if payload.fragmented {
        return Err(Skip::Fragment);
    }
    let tcp = TcpSlice::from_slice(payload.payload).map_err(|_| Skip::CutHeader)?;
    let header_len = usize::from(tcp.data_offset()) * 4;
    // A zero total length is a segmentation offload's (TSO) frame: its length is the frame's.
    let declared = if declared == 0 {
        payload.payload.len()
    } else {
        declared
    };
    let len = declared.saturating_sub(header_len) as u32;
    let mut seg = Segment {
        ns: frame.ns,
        src: Endpoint {
            ip: src,
            port: tcp.source_port(),
        },
        dst: Endpoint {
            ip: dst,
            port: tcp.destination_port(),
        },
        seq: tcp.sequence_number(),
        ack: tcp.acknowledgment_number(),
        flags: Flags {
            syn: tcp.syn(),
            fin: tcp.fin(),
            rst: tcp.rst(),
            ack: tcp.ack(),
            ece: tcp.ece(),
            cwr: tcp.cwr(),
        },
        window: tcp.window_size(),
        len,
        mss: None,
        wscale: None,
        sack_permitted: false,
        ts: None,
        sack: [(0, 0); 4],
        sack_len: 0,
        ce,
    };
    for option in tcp.options_iterator() {
        // A malformed option ends the reading of the options, as in Wireshark.
        let Ok(option) = option else {
            break;
        };
        match option {
            TcpOptionElement::MaximumSegmentSize(m) => seg.mss = Some(m),
            TcpOptionElement::WindowScale(s) => seg.wscale = Some(s),
            TcpOptionElement::SelectiveAcknowledgementPermitted => seg.sack_permitted = true,
            TcpOptionElement::Timestamp(val, ecr) => seg.ts = Some((val, ecr)),
            TcpOptionElement::SelectiveAcknowledgement(first, rest) => {
                seg.sack[0] = first;
                let mut n = 1;
                for b in rest.into_iter().flatten() {
                    seg.sack[n] = b;
                    n += 1;
                }
                seg.sack_len = n as u8;
            }
            TcpOptionElement::Noop => {}
        }
    }
    Ok(seg)
}
