//! The receiver's out-of-order buffer and the sender's SACKed ranges live in a ring buffer of
//! ranges in order of start (`tcp::ranges::RangeSet`), so that their cost per segment is at most
//! a logarithm of the holes. These
//! properties hold them to the simplest model there is, one flag per byte, over random loss and
//! reordering patterns in a window far larger than any run keeps.

#![cfg(not(target_arch = "wasm32"))]

use proptest::prelude::*;
use tcplab::packet::{Ecn, Kind, Packet, SackBlock, TsOpt};
use tcplab::tcp::ranges::RangeSet;
use tcplab::tcp::{Receiver, ReceiverConfig};
use tcplab::time::{Duration, Instant};
use tcplab::Scenario;

/// The model: which bytes are held.
fn runs(held: &[bool], from: usize) -> Vec<(u64, u64)> {
    let mut out = Vec::new();
    let mut i = from;
    while i < held.len() {
        if held[i] {
            let start = i;
            while i < held.len() && held[i] {
                i += 1;
            }
            out.push((start as u64, i as u64));
        } else {
            i += 1;
        }
    }
    out
}

#[derive(Debug, Clone)]
enum Op {
    Insert(u64, u64),
    RemoveBelow(u64),
    PopFirst,
}

fn ops() -> impl Strategy<Value = Vec<Op>> {
    prop::collection::vec(
        prop_oneof![
            8 => (0u64..4000, 0u64..60).prop_map(|(s, l)| Op::Insert(s, s + l)),
            1 => (0u64..4000).prop_map(Op::RemoveBelow),
            1 => Just(Op::PopFirst),
        ],
        1..400,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn a_range_set_holds_exactly_the_bytes_put_in(ops in ops()) {
        let mut set = RangeSet::new();
        let mut held = vec![false; 4100];
        for op in &ops {
            match *op {
                Op::Insert(s, e) if s == e => {
                    // An empty block changes nothing and comes back as it was.
                    let before: Vec<SackBlock> = set.iter().collect();
                    prop_assert_eq!(set.insert(SackBlock { start: s, end: e }), SackBlock { start: s, end: e });
                    prop_assert_eq!(set.iter().collect::<Vec<_>>(), before);
                }
                Op::Insert(s, e) => {
                    let merged = set.insert(SackBlock { start: s, end: e });
                    for b in &mut held[s as usize..e as usize] {
                        *b = true;
                    }
                    // The merged range is the maximal run around the block.
                    let around = runs(&held, 0)
                        .into_iter()
                        .find(|&(a, b)| a <= s && e <= b);
                    prop_assert_eq!(Some((merged.start, merged.end)), around);
                }
                Op::RemoveBelow(x) => {
                    set.remove_below(x);
                    for b in &mut held[..x as usize] {
                        *b = false;
                    }
                }
                Op::PopFirst => {
                    let first = runs(&held, 0).first().copied();
                    prop_assert_eq!(set.pop_first().map(|r| (r.start, r.end)), first);
                    if let Some((a, b)) = first {
                        held[a as usize..b as usize].fill(false);
                    }
                }
            }
            let model = runs(&held, 0);
            let got: Vec<(u64, u64)> = set.iter().map(|r| (r.start, r.end)).collect();
            prop_assert_eq!(&got, &model);
            prop_assert_eq!(set.len(), model.len());
            prop_assert_eq!(set.bytes(), held.iter().filter(|&&b| b).count() as u64);
            let pair = |r: Option<SackBlock>| r.map(|r| (r.start, r.end));
            prop_assert_eq!((pair(set.first()), pair(set.last())), (model.first().copied(), model.last().copied()));
            // Every byte's range, and the range starting next, near every range's ends.
            let probes = model.iter().flat_map(|&(a, b)| [a.saturating_sub(1), a, b - 1, b]).chain([0, 4050]);
            for probe in probes {
                let inside = model.iter().copied().find(|&(a, b)| a <= probe && probe < b);
                prop_assert_eq!(pair(set.containing(probe)), inside);
                let next = model.iter().copied().find(|&(a, _)| a >= probe);
                prop_assert_eq!(pair(set.starting_from(probe)), next);
            }
        }
    }

    /// Segments of a huge window arrive in a random order, some twice, some never: the
    /// receiver's in-order point, held bytes and SACK blocks are what a byte map says.
    #[test]
    fn the_receiver_reassembles_like_a_byte_map(
        order in Just((0u64..600).collect::<Vec<u64>>()).prop_shuffle(),
        lost in prop::collection::vec(prop::bool::weighted(0.05), 600),
        repeats in prop::collection::vec(0usize..600, 0..60),
    ) {
        const MSS: u64 = 10;
        let mut rx = Receiver::new(ReceiverConfig {
            rwnd: 1 << 30,
            mss: MSS as u32,
            delack: Duration::ZERO,
            autotune: false,
            ..ReceiverConfig::of(&Scenario::default(), Duration::ZERO)
        });
        let mut held = vec![false; 600 * MSS as usize];
        let arrivals: Vec<u64> = order
            .iter()
            .copied()
            .filter(|&n| !lost[n as usize])
            .chain(repeats.iter().map(|&i| order[i]))
            .collect();
        for n in arrivals {
            let duplicate = held[(n * MSS) as usize];
            rx.on_data(Instant::ZERO, n * MSS, MSS as u32, TsOpt::default(), Ecn::NotEct, false);
            for b in &mut held[(n * MSS) as usize..((n + 1) * MSS) as usize] {
                *b = true;
            }
            let rcv_nxt = held.iter().position(|&b| !b).unwrap_or(held.len()) as u64;
            prop_assert_eq!(rx.rcv_nxt(), rcv_nxt);
            let above = runs(&held, rcv_nxt as usize);
            prop_assert_eq!(rx.ooo_bytes(), above.iter().map(|(a, b)| b - a).sum::<u64>());
            let p = Packet { flow: 0, kind: rx.make_ack(Instant::ZERO), wire_bytes: 0 };
            if let Kind::Ack { ack, .. } = p.kind {
                prop_assert_eq!(ack, rcv_nxt);
                let sack = p.sack_blocks();
                let mut blocks = &sack[..];
                if duplicate {
                    // RFC 2883: a duplicate is reported first, as the segment it repeated.
                    prop_assert_eq!(blocks.first().map(|b| (b.start, b.end)), Some((n * MSS, (n + 1) * MSS)));
                    blocks = &blocks[1..];
                }
                for blk in blocks {
                    // Every other block reported is one whole held run above the ACK.
                    prop_assert!(above.contains(&(blk.start, blk.end)), "{:?} not in {:?}", blk, above);
                }
            }
        }
    }
}

#[derive(Debug, Clone)]
enum BoardOp {
    Sack(u64, u64),
    Ack(u64),
    MarkLost(u64),
    HeadLost,
    AllLost,
    Retransmit,
}

fn board_ops() -> impl Strategy<Value = Vec<BoardOp>> {
    prop::collection::vec(
        prop_oneof![
            6 => (0u64..3000, 1u64..40).prop_map(|(s, l)| BoardOp::Sack(s, s + l)),
            1 => (0u64..3000).prop_map(BoardOp::Ack),
            5 => (0u64..3000).prop_map(BoardOp::MarkLost),
            1 => Just(BoardOp::HeadLost),
            1 => Just(BoardOp::AllLost),
            4 => Just(BoardOp::Retransmit),
        ],
        1..300,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// A window of 3000 segments under random SACKs, losses, retransmissions, timeouts and
    /// ACKs: every counter, range and queue of the scoreboard agrees with its segments after
    /// every step, and NextSeg only ever offers a segment that is lost and not yet resent.
    #[test]
    fn the_scoreboard_agrees_with_its_segments(ops in board_ops()) {
        use tcplab::tcp::scoreboard::{Scoreboard, Seg, TxSnapshot};
        let mut b = Scoreboard::new();
        for i in 0..3000u64 {
            b.push(Seg::sent(i, 1, Instant(i), TxSnapshot::default()));
        }
        for op in &ops {
            match *op {
                BoardOp::Sack(s, e) => {
                    b.sack(&[SackBlock { start: s, end: e }]);
                }
                BoardOp::Ack(a) => {
                    b.ack(a);
                }
                BoardOp::MarkLost(s) => {
                    b.mark_lost(s);
                }
                BoardOp::HeadLost => {
                    b.mark_head_lost();
                }
                BoardOp::AllLost => b.mark_all_lost(None),
                BoardOp::Retransmit => {
                    // RFC 6675 rule 1: the lowest such segment, and none only if none is.
                    let lowest = (0..3000u64).find(|&i| {
                        b.get(i).is_some_and(|s| s.seq == i && s.lost && !s.retrans && !s.sacked)
                    });
                    prop_assert_eq!(b.next_retransmit().map(|(seq, _)| seq), lowest);
                    if let Some((seq, _)) = b.next_retransmit() {
                        let seg = b.get(seq).copied();
                        prop_assert!(
                            seg.is_some_and(|s| s.lost && !s.retrans && !s.sacked),
                            "NextSeg offered {:?}", seg
                        );
                        b.on_retransmit(seq, Instant(9_999), TxSnapshot::default());
                    }
                }
            }
            if let Err(e) = b.audit() {
                prop_assert!(false, "after {:?}: {}", op, e);
            }
        }
    }
}
