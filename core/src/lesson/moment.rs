//! Where a lesson's part stands the player: a step found in the run's record by what happened
//! there, or an instant. Found in the run itself, so a changed scenario moves the moment with
//! it (`iw=4` puts the third duplicate ACK elsewhere, not nowhere).

use crate::player::{Step, StepKind, StepTag, Steps};

/// Which steps a moment looks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Find {
    /// Any step of this kind.
    Kind(StepTag),
    /// The duplicate ACK with this count (RFC 5681's DupThresh is the third).
    DuplicateAck(u32),
    /// An ACK of new data (not a duplicate, not only SACK).
    NewAck,
    /// Data that arrived out of order: held behind a hole.
    OutOfOrder,
}

impl Find {
    fn matches(self, step: &Step) -> bool {
        match (self, &step.kind) {
            (Find::Kind(tag), kind) => kind.tag() == tag,
            (Find::DuplicateAck(n), StepKind::DuplicateAck { count, .. }) => *count == n,
            (Find::NewAck, StepKind::AckArrived { acked, .. }) => *acked > 0,
            (Find::OutOfOrder, StepKind::DataArrived { in_order, .. }) => !*in_order,
            _ => false,
        }
    }
}

/// A part's moment.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Moment {
    /// The run's first step: the SYN.
    Start,
    /// The `nth` (1-based) step that [`Find`] matches, of the first flow.
    On(Find, u32),
    /// The last step before the instant of the `nth` (1-based) step [`Find`] matches: the class
    /// sees everything up to the event, not the event (a question about what the sender does
    /// on the third duplicate ACK stands before the instant it arrives).
    Before(Find, u32),
    /// The step at or before this instant (ms): for what a run shows over time.
    At(f64),
    /// The run's last step.
    End,
}

impl Moment {
    /// The first step of this kind: a preset's moment (`Preset::moment`).
    pub const fn first(tag: StepTag) -> Moment {
        Moment::On(Find::Kind(tag), 1)
    }

    /// Whether the record must hold the run from its start to find the moment.
    pub fn needs_start(self) -> bool {
        !matches!(self, Moment::At(_))
    }

    /// The instant to record around, for a moment of time.
    pub fn instant_ms(self) -> Option<f64> {
        match self {
            Moment::At(t) => Some(t),
            _ => None,
        }
    }

    /// The index of the moment's step in `steps`, if the record holds it.
    pub fn find(self, steps: &Steps) -> Option<usize> {
        let all = &steps.steps;
        match self {
            Moment::Start => (!all.is_empty()).then_some(0),
            Moment::End => all.len().checked_sub(1),
            // A record that starts after `t`, or stops before it, does not hold its step.
            Moment::At(t) if t < steps.from_ms => None,
            Moment::At(t) if steps.truncated && all.last().is_none_or(|l| l.t_ms < t) => None,
            Moment::At(t) => steps.index_at(t),
            Moment::On(find, nth) => all
                .iter()
                .enumerate()
                .filter(|(_, s)| s.flow == 0 && find.matches(s))
                .nth(usize::try_from(nth.max(1) - 1).ok()?)
                .map(|(i, _)| i),
            Moment::Before(find, nth) => {
                let i = Moment::On(find, nth).find(steps)?;
                let t = all[i].t_ms;
                let first_then = all[..i].partition_point(|s| s.t_ms < t);
                first_then.checked_sub(1)
            }
        }
    }
}

/// The first step at or after `from` that [`Find`] matches, of the first flow.
pub fn next(steps: &Steps, from: usize, find: Find) -> Option<usize> {
    steps
        .steps
        .iter()
        .enumerate()
        .skip(from)
        .find(|(_, s)| s.flow == 0 && find.matches(s))
        .map(|(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::{CaLabel, FlowState, OneWay};
    use crate::scenario::CcAlgo;

    fn step(t_ms: f64, kind: StepKind) -> Step {
        Step {
            t_ms,
            flow: 0,
            kind,
            state: FlowState {
                cwnd: 14600,
                ssthresh: None,
                in_flight: 0,
                srtt_ms: None,
                rto_ms: 1000.0,
                ca: CaLabel::Open,
                queue: 0,
            },
        }
    }

    #[test]
    fn before_stands_on_the_last_step_of_the_instant_before() {
        let mut steps = Steps::new(1460, CcAlgo::Cubic, OneWay::default(), 0.0);
        let dup = |count| StepKind::DuplicateAck { ack: 1460, count };
        for s in [
            step(1.0, StepKind::SynSent { retry: 0 }),
            step(2.0, dup(1)),
            step(3.0, dup(2)),
            step(
                4.0,
                StepKind::StateChange {
                    from: CaLabel::Disorder,
                    to: CaLabel::Recovery,
                },
            ),
            step(4.0, dup(3)),
        ] {
            steps.push(s);
        }
        assert_eq!(
            Moment::Before(Find::DuplicateAck(3), 1).find(&steps),
            Some(2)
        );
        assert_eq!(Moment::On(Find::DuplicateAck(3), 1).find(&steps), Some(4));
        assert_eq!(
            Moment::On(Find::Kind(StepTag::DuplicateAck), 2).find(&steps),
            Some(2)
        );
        assert_eq!(Moment::On(Find::DuplicateAck(4), 1).find(&steps), None);
        assert_eq!(Moment::At(3.5).find(&steps), Some(2));
        assert_eq!(
            (Moment::Start.find(&steps), Moment::End.find(&steps)),
            (Some(0), Some(4))
        );
        assert_eq!(
            Moment::Before(Find::Kind(StepTag::DuplicateAck), 2).find(&steps),
            Some(1)
        );
        assert_eq!(next(&steps, 3, Find::Kind(StepTag::DuplicateAck)), Some(4));
    }
}
