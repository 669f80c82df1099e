//! Where the player stands and how it moves, over a run's recorded steps. The run is
//! deterministic and every step keeps the state it left, so any step can be stood on directly:
//! stepping back is reading the record backwards, and lands exactly where stepping forward was.
//!
//! A place is written as the page's address writes it: a time (`at=`, ms) and the step's rank
//! among the steps at exactly that time (`step=`, from 0), since a burst of sends, or a third
//! duplicate ACK and the retransmission it triggers, share one instant.

use tcplab::player::Step;

/// Forward or back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dir {
    Back,
    Forward,
}

/// A move of the player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// One step.
    Step(Dir),
    /// One smoothed round trip of the step's flow (the path's RTT before the first sample).
    RoundTrip(Dir),
    /// The next or previous loss, fast retransmit, end of recovery, timeout or head-of-line
    /// release.
    Landmark(Dir),
    Start,
    End,
}

/// The first step at or after `t_ms` (the count of steps when there is none).
fn first_from(steps: &[Step], t_ms: f64) -> usize {
    steps.partition_point(|s| s.t_ms < t_ms)
}

/// The last step at or before `t_ms`, or the first step when all come later.
pub fn at_time(steps: &[Step], t_ms: f64) -> usize {
    steps.partition_point(|s| s.t_ms <= t_ms).saturating_sub(1)
}

/// The step an address names: the `within`-th step at exactly `at_ms` (the last one there if
/// there are fewer), else the last step before `at_ms`; the first step without `at`. `None`
/// only when there are no steps.
pub fn resolve(steps: &[Step], at_ms: Option<f64>, within: u32) -> Option<usize> {
    if steps.is_empty() {
        return None;
    }
    let Some(at) = at_ms.filter(|t| t.is_finite()) else {
        return Some(0);
    };
    let first = first_from(steps, at);
    match steps.get(first) {
        Some(s) if s.t_ms == at => {
            let end = steps.partition_point(|s| s.t_ms <= at);
            let k = usize::try_from(within).unwrap_or(usize::MAX);
            Some(first.saturating_add(k).min(end - 1))
        }
        _ => Some(first.saturating_sub(1)),
    }
}

/// Where step `i` is, as the address writes it: its time and its rank at that time.
pub fn place(steps: &[Step], i: usize) -> Option<(f64, u32)> {
    let t = steps.get(i)?.t_ms;
    let first = first_from(steps, t);
    Some((t, u32::try_from(i - first).unwrap_or(u32::MAX)))
}

/// How many steps share step `i`'s instant, and its rank among them (from 0).
pub fn instant(steps: &[Step], i: usize) -> (usize, usize) {
    let Some(s) = steps.get(i) else {
        return (0, 0);
    };
    let first = first_from(steps, s.t_ms);
    let end = steps.partition_point(|x| x.t_ms <= s.t_ms);
    (end - first, i - first)
}

/// The round trip a [`Move::RoundTrip`] from step `i` spans: the smoothed RTT of its flow,
/// else `rtt_ms`.
pub fn round_trip(steps: &[Step], i: usize, rtt_ms: f64) -> f64 {
    steps
        .get(i)
        .and_then(|s| s.state.srtt_ms)
        .filter(|v| v.is_finite() && *v > 0.0)
        .unwrap_or(rtt_ms)
}

/// Where a move from step `from` lands; `from` itself when it cannot go that way.
pub fn go(steps: &[Step], from: usize, mv: Move, rtt_ms: f64) -> usize {
    let n = steps.len();
    if n == 0 {
        return 0;
    }
    let from = from.min(n - 1);
    let t = steps[from].t_ms;
    match mv {
        Move::Step(Dir::Forward) => (from + 1).min(n - 1),
        Move::Step(Dir::Back) => from.saturating_sub(1),
        Move::Start => 0,
        Move::End => n - 1,
        // The first step at or after now + SRTT: what one round trip later looks like.
        Move::RoundTrip(Dir::Forward) => {
            let to = first_from(steps, t + round_trip(steps, from, rtt_ms));
            to.max(from + 1).min(n - 1)
        }
        // The first step at or after now - SRTT, so that forward and back retrace each other.
        Move::RoundTrip(Dir::Back) => {
            let to = first_from(steps, t - round_trip(steps, from, rtt_ms));
            to.min(from.saturating_sub(1))
        }
        Move::Landmark(Dir::Forward) => steps[from + 1..]
            .iter()
            .position(|s| s.kind.is_landmark())
            .map_or(from, |p| from + 1 + p),
        Move::Landmark(Dir::Back) => steps[..from]
            .iter()
            .rposition(|s| s.kind.is_landmark())
            .unwrap_or(from),
    }
}

/// Whether a move from step `from` goes anywhere.
pub fn can(steps: &[Step], from: usize, mv: Move, rtt_ms: f64) -> bool {
    !steps.is_empty() && go(steps, from, mv, rtt_ms) != from.min(steps.len() - 1)
}
