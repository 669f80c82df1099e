//! The player's record: a staged loss told step by step, as the classroom sees it.

use tcplab::player::{explain, CaLabel, Language, StepKind, StepWindow};
use tcplab::{run, RunOptions, Scenario};

fn record(q: &str) -> tcplab::player::Steps {
    let s = Scenario::parse(q).unwrap_or_else(|e| panic!("{q}: {e}"));
    run(
        &s,
        &RunOptions {
            record_steps: Some(StepWindow::WHOLE_RUN),
            ..RunOptions::default()
        },
    )
    .steps
    .unwrap_or_default()
}

#[test]
fn a_staged_loss_is_told_from_drop_to_recovery() {
    // Reno, no SACK: the classic three duplicate ACKs.
    let steps = record("cc=reno&sack=0&body=300000&drop=20");
    let kinds: Vec<&str> = steps.steps.iter().map(|s| s.kind.name()).collect();
    let lost = kinds
        .iter()
        .position(|k| *k == "data_lost")
        .expect("the staged loss");
    let third = steps
        .steps
        .iter()
        .position(|s| matches!(s.kind, StepKind::DuplicateAck { count: 3, .. }))
        .expect("a third duplicate ACK");
    let fr = kinds
        .iter()
        .position(|k| *k == "fast_retransmit")
        .expect("fast retransmit");
    let done = kinds
        .iter()
        .position(|k| *k == "recovery_done")
        .expect("recovery done");
    assert!(lost < third && third < fr && fr < done);
    // Fast retransmit follows the third duplicate ACK at once, and halves the window (Reno).
    assert_eq!(fr, third + 1);
    let step = &steps.steps[fr];
    let StepKind::FastRetransmit {
        seq,
        cwnd_before,
        cwnd_after,
        ..
    } = step.kind
    else {
        unreachable!("checked above")
    };
    assert_eq!(seq, 19 * 1460, "the 20th data packet's first byte");
    // PRR (RFC 6937): ssthresh is half the window at once; the window itself is what is in
    // flight plus the retransmission, and comes down to ssthresh by the end of recovery.
    let Some(ssthresh) = step.state.ssthresh else {
        unreachable!("Reno sets ssthresh")
    };
    assert_eq!(
        ssthresh,
        cwnd_before / 1460 / 2 * 1460,
        "half the window, in whole packets"
    );
    assert!(
        cwnd_after > ssthresh && cwnd_after < cwnd_before,
        "{cwnd_after}"
    );
    assert_eq!(step.state.cwnd, cwnd_after);
    assert_eq!(steps.steps[done].state.cwnd, ssthresh);
    let en = explain(step, &steps, Language::En);
    assert!(
        en.contains("fast retransmit of segment 20 (from byte 27,741)"),
        "{en}"
    );
    assert!(en.contains("cwnd × 0.5 (Reno)"), "{en}");
    let zh = explain(step, &steps, Language::Zh);
    assert!(
        zh.contains("快速重传第 20 个报文段（从字节 27,741 起）"),
        "{zh}"
    );
    // The retransmission itself is the next step.
    assert!(matches!(steps.steps[fr + 1].kind, StepKind::Retransmitted { seq: s, .. } if s == seq));
}

#[test]
fn slow_start_acks_say_how_the_window_grew() {
    let steps = record("preset=post-slow-start");
    let growth = steps
        .steps
        .iter()
        .find_map(|s| match s.kind {
            StepKind::AckArrived {
                acked,
                cwnd_before,
                cwnd_after,
                ..
            } if acked > 0 => Some((
                acked,
                cwnd_before,
                cwnd_after,
                explain(s, &steps, Language::En),
            )),
            _ => None,
        })
        .expect("an ACK");
    // Slow start adds what was acknowledged (RFC 3465 / Linux).
    assert_eq!(growth.2 - growth.1, growth.0);
    assert!(
        growth.3.contains("slow start, cwnd 10 -> 11 MSS"),
        "{}",
        growth.3
    );
}

#[test]
fn a_burst_release_names_its_messages() {
    let steps = record("preset=hol-blocking&loss=0&ackloss=0&count=150&drop=71");
    let release = steps
        .steps
        .iter()
        .find(|s| matches!(s.kind, StepKind::HolRelease { .. }))
        .expect("one release");
    let StepKind::HolRelease { messages, .. } = release.kind else {
        unreachable!("checked above")
    };
    assert!(messages >= 10);
    let en = explain(release, &steps, Language::En);
    assert!(en.contains(&format!(
        "{messages} held messages released to the application at once"
    )));
}

#[test]
fn the_cursor_finds_its_step() {
    let steps = record("");
    assert_eq!(steps.index_at(-1.0), None);
    assert_eq!(steps.index_at(0.0), Some(0));
    let i = steps.index_at(100.0).expect("a step before 100 ms");
    assert!(steps.steps[i].t_ms <= 100.0 && steps.steps[i + 1].t_ms > 100.0);
    assert!(!steps.truncated);
}

fn record_window(q: &str, window: StepWindow) -> tcplab::RunResult {
    let s = Scenario::parse(q).unwrap_or_else(|e| panic!("{q}: {e}"));
    run(
        &s,
        &RunOptions {
            record_steps: Some(window),
            ..RunOptions::default()
        },
    )
}

#[test]
fn a_record_that_starts_late_is_the_whole_record_from_there() {
    // A lossy run whose whole record fits: recovery states come and go, so a record starting
    // in the middle of one must not invent the change into it.
    let q = "cc=cubic&loss=1&bw=20&rtt=40&dur=10";
    let whole = record(q);
    assert!(!whole.truncated && whole.steps.len() > 5_000);
    let last = whole.steps.last().map_or(0.0, |s| s.t_ms);
    // An instant inside a recovery, the step that entered it earlier.
    let inside = whole
        .steps
        .windows(2)
        .find(|w| {
            w[0].t_ms > last / 3.0
                && w[1].t_ms > w[0].t_ms
                && w[0].state.ca == CaLabel::Recovery
                && w[1].state.ca == CaLabel::Recovery
        })
        .map(|w| w[1].t_ms)
        .expect("a recovery after the first third");
    for from in [0.0, last * 0.13, inside, last * 0.77] {
        let part = record_window(
            q,
            StepWindow {
                from_ms: from,
                stop_when_full: false,
            },
        );
        let part = part.steps.expect("recorded");
        let i = whole.steps.partition_point(|s| s.t_ms < from);
        assert_eq!(part.from_ms, from);
        assert_eq!(part.steps.len(), whole.steps.len() - i, "from {from} ms");
        assert!(
            part.steps == whole.steps[i..],
            "from {from} ms: the steps differ"
        );
    }
}

#[test]
fn a_long_run_records_the_part_asked_for_and_ends_there() {
    // 600 s at 1 Gbit/s is tens of millions of steps; the player asks for 100 000 of them.
    let q = "app=bulk&dur=600";
    let from = 30_000.0;
    let r = record_window(q, StepWindow::from(from));
    let steps = r.steps.expect("recorded");
    assert_eq!(steps.steps.len(), tcplab::player::MAX_STEPS);
    assert!(steps.truncated && steps.starts_late());
    let first = steps.steps.first().map_or(0.0, |s| s.t_ms);
    let last = steps.steps.last().map_or(0.0, |s| s.t_ms);
    assert!(
        (from..from + 1.0).contains(&first),
        "first step at {first} ms"
    );
    assert!(
        last > from + 100.0 && last < from + 5_000.0,
        "last step at {last} ms"
    );
    // The run stopped with its record, long before its 600 s.
    assert_eq!(r.summary.stopped_by, tcplab::sim::Stop::StepsKept);
    assert!(r.end.as_millis_f64() <= last + 1.0);
    // The first 100 000 steps from the start are what a record from 0 keeps.
    let head = record_window(q, StepWindow::from(0.0))
        .steps
        .expect("recorded");
    assert_eq!(head.steps.first().map(|s| s.t_ms), Some(0.0));
    assert!(head.truncated && !head.starts_late());
}

/// The trips the player's picture draws are the path's own: every send, arrival and loss of
/// the steps has its trip, at the same instant, and each trip spent the path's delays.
#[test]
fn every_packet_s_trip_is_recorded_as_the_path_decided_it() {
    use tcplab::player::DropCause;
    use tcplab::player::{Cargo, TripEnd};
    // A queue that overflows, a staged loss and random loss both ways.
    let q = "cc=reno&rtt=40&bw=5&queue=8&body=400000&drop=3&loss=1&ackloss=2&seed=4";
    let steps = record(q);
    let one_way = steps.one_way;
    assert_eq!((one_way.data_ms, one_way.ack_ms), (20.0, 20.0));
    let trips = &steps.trips;
    assert!(trips.windows(2).all(|w| w[0].sent_ms <= w[1].sent_ms));
    let count = |f: &dyn Fn(&tcplab::player::Trip) -> bool| trips.iter().filter(|t| f(t)).count();
    let sends = steps
        .steps
        .iter()
        .filter(|s| matches!(s.kind, StepKind::Sent { .. }))
        .count();
    let repairs = steps
        .steps
        .iter()
        .filter(|s| matches!(s.kind, StepKind::Retransmitted { .. }))
        .count();
    assert!(repairs > 0, "the losses are repaired");
    assert_eq!(count(&|t| t.cargo == Cargo::Data), sends);
    // A tail loss probe repeats the last segment, or sends new data (RFC 8985 §7.3).
    assert!(count(&|t| t.cargo == Cargo::Repair) >= repairs);
    for (cause, name) in [
        (DropCause::Staged, "staged"),
        (DropCause::Queue, "queue"),
        (DropCause::Data, "data"),
    ] {
        let lost = steps
            .steps
            .iter()
            .filter(|s| matches!(s.kind, StepKind::DataLost { cause: c, .. } if c == cause))
            .count();
        assert!(lost > 0, "{name}: the scenario loses a packet so");
        assert_eq!(
            count(
                &|t| matches!(t.end, TripEnd::Lost { cause: c, at_ms } if c == cause && at_ms == t.sent_ms)
            ),
            lost,
            "{name}"
        );
    }
    let acks_lost = steps
        .steps
        .iter()
        .filter(|s| matches!(s.kind, StepKind::AckLost { .. }))
        .count();
    assert_eq!(
        count(&|t| matches!(
            t.end,
            TripEnd::Lost {
                cause: DropCause::Ack,
                ..
            }
        )),
        acks_lost
    );
    // Each arrival is a trip's end, and each trip waited its turn at the queue (data) or
    // none (ACKs), then spent the one-way delay on the wire.
    let mut arrivals: Vec<f64> = trips
        .iter()
        .filter(|t| !t.cargo.is_ack_direction() && t.cargo != Cargo::HandshakeAck)
        .filter_map(|t| match t.end {
            TripEnd::Arrived { arrives_ms, .. } => Some(arrives_ms),
            TripEnd::Lost { .. } | TripEnd::Queued => None,
        })
        .collect();
    arrivals.sort_by(f64::total_cmp);
    let mut seen: Vec<f64> = steps
        .steps
        .iter()
        .filter(|s| matches!(s.kind, StepKind::DataArrived { .. } | StepKind::SynReceived))
        .map(|s| s.t_ms)
        .collect();
    seen.sort_by(f64::total_cmp);
    assert_eq!(arrivals, seen);
    let mut queued = 0;
    for t in trips {
        if let TripEnd::Arrived {
            departs_ms,
            arrives_ms,
        } = t.end
        {
            let (delay, waits) = if t.cargo.is_ack_direction() {
                (one_way.ack_ms, false)
            } else {
                (one_way.data_ms, true)
            };
            assert!((arrives_ms - departs_ms - delay).abs() < 1e-6, "{t:?}");
            assert!(departs_ms >= t.sent_ms, "{t:?}");
            if !waits {
                assert_eq!(departs_ms, t.sent_ms, "{t:?}");
            }
            // 1 500 bytes take 2.4 ms at 5 Mbit/s: a packet that queued left later than that.
            if departs_ms - t.sent_ms > 2.5 {
                queued += 1;
            }
        }
    }
    assert!(queued > 100, "the 8-packet queue fills: {queued}");
}

/// With a queue discipline, a packet's fate is decided as it waits and leaves: each drop's
/// step and trip agree on when and why, a CoDel drop comes after the packet waited longer than
/// the target, and no trip is left undecided when the record holds the whole run.
#[test]
fn a_managed_queue_s_decisions_are_the_steps_and_the_trips() {
    use tcplab::player::{DropCause, QueueWhy, TripEnd};
    for q in [
        "cc=cubic&rtt=40&bw=5&queue=60&aqm=codel&body=1500000&drop=3&seed=4",
        "cc=cubic&rtt=40&bw=5&queue=60&aqm=fq_codel&flows=3&body=600000&seed=4",
        "cc=reno&rtt=40&bw=5&queue=60&aqm=pie&body=1500000&seed=4",
        "cc=reno&rtt=40&bw=5&queue=60&aqm=red&body=1500000&seed=4",
    ] {
        let steps = record(q);
        let drops: Vec<(f64, QueueWhy)> = steps
            .steps
            .iter()
            .filter_map(|s| match s.kind {
                StepKind::DataLost {
                    cause: DropCause::Aqm,
                    why: Some(why),
                    ..
                } => Some((s.t_ms, why)),
                _ => None,
            })
            .collect();
        assert!(!drops.is_empty(), "{q}: the discipline drops");
        let mut trip_drops: Vec<f64> = steps
            .trips
            .iter()
            .filter_map(|t| match t.end {
                TripEnd::Lost {
                    at_ms,
                    cause: DropCause::Aqm,
                } => Some(at_ms),
                _ => None,
            })
            .collect();
        trip_drops.sort_by(f64::total_cmp);
        let step_drops: Vec<f64> = drops.iter().map(|d| d.0).collect();
        assert_eq!(trip_drops, step_drops, "{q}");
        assert!(
            steps.trips.iter().all(|t| t.end != TripEnd::Queued),
            "{q}: every packet's fate decided"
        );
        for (t, why) in drops {
            match why {
                QueueWhy::Codel {
                    sojourn_ms,
                    count,
                    next_in_ms,
                    target_ms,
                    interval_ms,
                } => {
                    assert!(sojourn_ms > target_ms, "{q} at {t}: {why:?}");
                    // The control law, interval/sqrt(count), counts from the drop's due time:
                    // never longer than an interval, exactly one on a dropping state's first
                    // (to CoDel's 1 024 ns clock and its 16-bit 1/sqrt). Linux's estimate of
                    // the root is codel.rs's to test.
                    let Some(next_in_ms) = next_in_ms else {
                        continue;
                    };
                    assert!(
                        next_in_ms > 0.0 && next_in_ms <= interval_ms + 0.002,
                        "{q} at {t}: {why:?}"
                    );
                    if count == 1 {
                        assert!(
                            (next_in_ms - interval_ms).abs() <= 0.005,
                            "{q} at {t}: {why:?}"
                        );
                    }
                }
                QueueWhy::Pie {
                    probability_pct, ..
                }
                | QueueWhy::Red {
                    probability_pct, ..
                } => assert!(probability_pct > 0.0, "{q} at {t}: {why:?}"),
                QueueWhy::Limit { .. } | QueueWhy::FattestFlow { .. } => {
                    panic!("{q} at {t}: a limit's drop is the queue's, not the discipline's")
                }
            }
        }
    }
}

/// The queue chart and the player read one queue: at every step's instant, the packets the
/// step says were waiting are the trace's count there (before that instant's changes, or after
/// one of them: a step falls between the changes of its own instant). The trace must show
/// the queue falling between arrivals, as each packet goes onto the link, not only its
/// heights when packets join it.
#[test]
fn the_queue_chart_reads_what_each_step_says() {
    for q in [
        "cc=reno&sack=0&body=300000&drop=20",
        "cc=cubic&bw=20&rtt=40&queue=30&dur=2",
        "cc=cubic&bw=20&rtt=40&queue=100&aqm=codel&dur=2",
        "cc=cubic&bw=20&rtt=40&queue=60&flows=2&dur=2",
    ] {
        let s = Scenario::parse(q).unwrap_or_else(|e| panic!("{q}: {e}"));
        let r = run(
            &s,
            &RunOptions {
                record_steps: Some(StepWindow::WHOLE_RUN),
                ..RunOptions::default()
            },
        );
        assert!(
            !r.traces.queue.is_thinned(),
            "{q}: a trace short enough to read whole"
        );
        let rows = r.traces.queue.rows();
        let steps = r.steps.unwrap_or_default().steps;
        assert!(steps.len() > 500, "{q}: {} steps", steps.len());
        let mut fell = false;
        for w in rows.windows(2) {
            fell |= w[1].1[0] < w[0].1[0] && w[1].0 > w[0].0;
        }
        assert!(fell, "{q}: the queue never fell between two instants");
        for st in &steps {
            let t = tcplab::time::Instant((st.t_ms * 1e6).round() as u64);
            let before = rows.partition_point(|r| r.0 < t);
            let after = rows.partition_point(|r| r.0 <= t);
            let mut seen: Vec<u32> = rows[before..after].iter().map(|r| r.1[0] as u32).collect();
            seen.push(before.checked_sub(1).map_or(0, |i| rows[i].1[0] as u32));
            assert!(
                seen.contains(&st.state.queue),
                "{q}: at {} ms the step says {} queued, the trace {seen:?}",
                st.t_ms,
                st.state.queue
            );
        }
    }
}

/// Each step shows what was in flight when it happened: a burst counts up from what the ACK
/// before it left, one segment a send, and a drop between two sends shows the count after the
/// first (the sender cannot know of the drop). The steps are noted after all a sender did at
/// one instant, so the state of that instant's end would be wrong for all but the last.
#[test]
fn each_step_shows_what_was_in_flight_then() {
    let steps = record("preset=lesson-fast-retransmit").steps;
    let mut checked = 0;
    for w in steps.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        if a.flow != b.flow || a.t_ms != b.t_ms {
            continue;
        }
        if let StepKind::Sent { len, .. } = b.kind {
            assert_eq!(
                a.state.in_flight + u64::from(len),
                b.state.in_flight,
                "{a:?} then {b:?}"
            );
            checked += 1;
        }
        if let StepKind::DataLost { .. } = b.kind {
            assert_eq!(a.state.in_flight, b.state.in_flight, "{a:?} then {b:?}");
        }
    }
    assert!(checked > 50, "{checked} sends checked");
    let established = steps
        .iter()
        .find(|s| matches!(s.kind, StepKind::Established { .. }))
        .map(|s| s.state.in_flight);
    assert_eq!(
        established,
        Some(0),
        "nothing is in flight as the handshake ends"
    );
}
