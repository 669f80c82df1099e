//! The player's part of the page's state: whether it is open, the recorded steps of the run on
//! show, the rank of the cursor's step within its instant (the page's `step=`), and playback.
//! The cursor's time is the scenario's `at`, so that a link opens at that exact step. Every
//! change goes through the page's reducer ([`crate::model::page::Page`]).

use std::rc::Rc;

use tcplab::lesson::Moment;
use tcplab::player::{StepWindow, Steps};
use tcplab::view::RunView;
use tcplab::Scenario;

use super::nav::{self, Move};
use crate::model::address::{BadLink, Entry};
use crate::model::page::Page;

/// The page's own key for the cursor's rank among the steps at its instant.
pub const STEP_KEY: &str = "step";

/// The page's own key that keeps a lesson's player closed (`player=0`): a lesson opens with the
/// player, and a reader who closed it should find it closed on reload.
pub const PLAYER_KEY: &str = "player";

/// Reads `player=`: `Ok(true)` when the link keeps the player closed.
pub fn read_closed(pairs: &[(String, String)]) -> Result<bool, BadLink> {
    let mut values = pairs
        .iter()
        .filter(|(k, _)| k == PLAYER_KEY)
        .map(|(_, v)| v);
    let Some(value) = values.next() else {
        return Ok(false);
    };
    if values.next().is_some() {
        return Err(BadLink::new(
            PLAYER_KEY,
            "repeated key".to_string(),
            "键重复".to_string(),
        ));
    }
    if value == "0" {
        return Ok(true);
    }
    Err(BadLink::new(
        PLAYER_KEY,
        format!(
            "unknown value {} (allowed 0: a lesson opens with its player closed)",
            crate::model::address::quoted(value)
        ),
        format!(
            "未知的值 {}（允许 0：课程打开时播放器关闭）",
            crate::model::address::quoted(value)
        ),
    ))
}

/// Playback speeds, in simulated time per real second: slow motion to real time.
pub const SPEEDS: [(f64, &str); 7] = [
    (0.001, "×1/1000"),
    (1.0 / 300.0, "×1/300"),
    (0.01, "×1/100"),
    (1.0 / 30.0, "×1/30"),
    (0.1, "×1/10"),
    (1.0 / 3.0, "×1/3"),
    (1.0, "×1"),
];

/// One round trip of a 28 ms path in about three seconds.
pub const DEFAULT_SPEED: usize = 2;

/// A run's steps, for the query it was recorded for; compared by identity (a new recording is
/// a new `Rc`, and comparing 100 000 steps on every render would cost more than drawing).
#[derive(Debug, Clone)]
pub struct Recorded {
    pub query: String,
    pub steps: Rc<Steps>,
}

impl PartialEq for Recorded {
    fn eq(&self, other: &Self) -> bool {
        self.query == other.query && Rc::ptr_eq(&self.steps, &other.steps)
    }
}

/// Round trips kept before the cursor when the player first asks for a part of a run whose
/// view is not in yet (a link with `at=` asks for both at once).
const LEAD_RTTS: f64 = 4.0;

/// The share of a record kept before the cursor.
const LEAD: f64 = 0.3;

/// The share of a record, at either edge, in which the player asks for the part beyond it, so
/// that the next record is in before the cursor reaches the edge.
const EDGE: f64 = 0.1;

impl Recorded {
    /// The time of the record's last step.
    fn last_ms(&self) -> f64 {
        self.steps
            .steps
            .last()
            .map_or(self.steps.from_ms, |s| s.t_ms)
    }

    /// Whether the record holds every step at `t`: from its start on, up to its last step when
    /// later ones were left out.
    fn covers(&self, t: f64) -> bool {
        t >= self.steps.from_ms && (!self.steps.truncated || t <= self.last_ms())
    }

    /// The part of the run to record next for a cursor at `t`, if this record will not do:
    /// around `t` when it is outside, the part before or after the record when `t` nears an
    /// edge with more beyond it. Worked out from the record's bounds, not the moving cursor, so
    /// playback asks once.
    fn next_window(&self, t: f64) -> Option<StepWindow> {
        let (from, last) = (self.steps.from_ms, self.last_ms());
        let w = (last - from).max(0.0);
        if !self.covers(t) {
            return Some(StepWindow::from(t - LEAD * w));
        }
        if self.steps.starts_late() && t < from + EDGE * w {
            return Some(StepWindow::from(from - 0.6 * w));
        }
        if self.steps.truncated && t > last - EDGE * w {
            return Some(StepWindow::from(last - 0.4 * w));
        }
        None
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct State {
    pub open: bool,
    /// The cursor's rank among the steps at its instant (`step=`).
    pub within: u32,
    pub playing: bool,
    /// An index into [`SPEEDS`].
    pub speed: usize,
    /// While playing, the playhead: it glides between steps, which the cursor's step follows.
    pub play_ms: Option<f64>,
    /// The newest recording, which may be for an older scenario while a run is going.
    pub recorded: Option<Recorded>,
    /// A lesson opened without a cursor: the step to stand on once the steps are in (its
    /// preset's `moment`, or the lesson part's).
    pub seek: Option<Moment>,
    /// The charts follow the player over this many round trips around its time; `None`: they
    /// show the whole run. An index into [`FOLLOW`], chosen in the player.
    pub follow: usize,
    /// The worker could not record the steps of the run of this query: why (the charts stand).
    pub trouble: Option<(String, String)>,
}

/// What the charts show while the player is open: the whole run, or a window of so many round
/// trips that follows the player. Automatic: the whole run unless it is longer than
/// [`FOLLOW_PAST_RTTS`] round trips, then ten.
pub const FOLLOW: [(Option<u32>, &str, &str); 5] = [
    (None, "auto", "自动"),
    (Some(0), "whole run", "整个运行"),
    (Some(4), "4 RTTs", "4 个 RTT"),
    (Some(10), "10 RTTs", "10 个 RTT"),
    (Some(40), "40 RTTs", "40 个 RTT"),
];

/// A run longer than this many round trips is followed ten at a time by default.
pub const FOLLOW_PAST_RTTS: f64 = 40.0;

/// Where a veiled run's time axis and scrubber end, from the player's time alone: that time and
/// as much again (four round trips at least), rounded up to 1, 2, 2.5 or 5 times a power of
/// ten, so that the span stands still over a part's steps and grows by steps as the player goes
/// on, and says nothing of when the run ends.
pub fn veiled_horizon(until_ms: f64, rtt_ms: f64) -> f64 {
    let raw = until_ms + until_ms.max(4.0 * rtt_ms);
    if !(raw.is_finite() && raw > 0.0) {
        return 1.0;
    }
    let decade = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .into_iter()
        .map(|m| m * decade)
        .find(|v| *v >= raw * (1.0 - 1e-12))
        .unwrap_or(10.0 * decade)
}

impl Default for State {
    fn default() -> State {
        State {
            open: false,
            within: 0,
            playing: false,
            speed: DEFAULT_SPEED,
            play_ms: None,
            recorded: None,
            seek: None,
            follow: 0,
            trouble: None,
        }
    }
}

/// A change of the player.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Action {
    Open,
    Close,
    Play,
    Pause,
    Toggle,
    Go(Move),
    /// To step `i` (a line of the log).
    To(usize),
    /// To the step at or before this time (the scrubber).
    Seek(f64),
    /// The playhead moved on to this time.
    Tick(f64),
    /// An index into [`SPEEDS`].
    Speed(usize),
    /// An index into [`FOLLOW`].
    Follow(usize),
}

/// A lesson opens with the player paused at its first step: a preset that is one
/// (`Preset::lesson`), and any scenario that stages a loss (a guided lesson's part opens it
/// too: `Page::lesson`).
pub fn is_lesson(s: &Scenario) -> bool {
    s.preset
        .and_then(tcplab::scenario::Preset::find)
        .is_some_and(|p| p.lesson)
        || !s.drop.is_empty()
}

/// The step a lesson preset opens on.
fn moment(s: &Scenario) -> Option<Moment> {
    s.preset
        .and_then(tcplab::scenario::Preset::find)
        .and_then(|p| p.moment)
        .map(Moment::first)
}

/// The largest rank `step=` takes: a run keeps at most this many steps.
pub const MAX_WITHIN: u32 = tcplab::player::MAX_STEPS as u32 - 1;

/// Reads `step=` from the page's own keys. It counts the steps at the instant of `at=`, so it
/// needs one.
pub fn read_within(pairs: &[(String, String)], at_ms: Option<f64>) -> Result<u32, BadLink> {
    let mut values = pairs.iter().filter(|(k, _)| k == STEP_KEY).map(|(_, v)| v);
    let Some(value) = values.next() else {
        return Ok(0);
    };
    if values.next().is_some() {
        return Err(BadLink::new(
            STEP_KEY,
            "repeated key".to_string(),
            "键重复".to_string(),
        ));
    }
    let range = format!("(allowed 0 to {MAX_WITHIN}, the rank among the steps at the time of at=)");
    let range_zh = format!("（允许 0 至 {MAX_WITHIN}，即 at= 那一刻各步中的序号）");
    if value.is_empty() {
        return Err(BadLink::new(
            STEP_KEY,
            format!("empty value {range}"),
            format!("值为空{range_zh}"),
        ));
    }
    if !value.bytes().all(|b| b.is_ascii_digit()) {
        let quoted = crate::model::address::quoted(value);
        return Err(BadLink::new(
            STEP_KEY,
            format!("{quoted} is not a whole number {range}"),
            format!("{quoted} 不是整数{range_zh}"),
        ));
    }
    let within = value
        .parse::<u64>()
        .ok()
        .filter(|v| *v <= u64::from(MAX_WITHIN))
        .and_then(|v| u32::try_from(v).ok());
    let Some(within) = within else {
        let shown = tcplab::scenario::shown(value);
        return Err(BadLink::new(
            STEP_KEY,
            format!("{shown} is out of range {range}"),
            format!("{shown} 超出范围{range_zh}"),
        ));
    };
    if at_ms.is_none() {
        return Err(BadLink::new(
            STEP_KEY,
            "needs at= (it counts the steps at that time)".to_string(),
            "需要 at=（它数的是那一刻的各步）".to_string(),
        ));
    }
    Ok(within)
}

impl Page {
    /// Why the steps of the run on show could not be recorded, if they could not.
    pub fn steps_trouble(&self) -> Option<String> {
        let query = self.run_query();
        self.player
            .trouble
            .as_ref()
            .filter(|(q, _)| *q == query)
            .map(|(_, why)| why.clone())
    }

    /// The newest record of the run on show.
    fn recorded(&self) -> Option<&Recorded> {
        let query = self.run_query();
        self.player.recorded.as_ref().filter(|r| r.query == query)
    }

    /// The recorded steps of the run on show around the cursor, once they are in.
    pub fn steps(&self) -> Option<&Rc<Steps>> {
        let t = self.cursor_t();
        self.recorded().filter(|r| r.covers(t)).map(|r| &r.steps)
    }

    /// Where the player stands: the playhead, or the cursor, or the run's start; never past
    /// the end of the run on show, so that a link's `at=` beyond it stands on the last step
    /// (a record asked for after the end would hold none).
    fn cursor_t(&self) -> f64 {
        let t = self
            .player
            .play_ms
            .or(self.scenario.at_ms)
            .filter(|t| t.is_finite())
            .unwrap_or(0.0);
        self.shown_view().map_or(t, |v| t.min(v.end_ms))
    }

    /// The step the player stands on, while it is open: the charts' readouts at its instant
    /// show the state after it, as the player does, rather than after the instant's last event.
    pub fn cursor_step(&self) -> Option<tcplab::player::Step> {
        if !self.player.open {
            return None;
        }
        let i = self.step_index()?;
        self.steps()?.steps.get(i).copied()
    }

    /// The index of the player's step in [`Page::steps`].
    pub fn step_index(&self) -> Option<usize> {
        let steps = self.steps()?;
        nav::resolve(&steps.steps, self.scenario.at_ms, self.player.within)
    }

    /// The player's time: the playhead while playing, else its step's time (the first step's,
    /// 0, before any step is chosen). `None` while the player is closed.
    pub fn player_ms(&self) -> Option<f64> {
        if !self.player.open {
            return None;
        }
        let first = || {
            self.steps()
                .and_then(|s| s.steps.first())
                .map_or(0.0, |s| s.t_ms)
        };
        Some(
            self.player
                .play_ms
                .or(self.scenario.at_ms)
                .unwrap_or_else(first),
        )
    }

    /// The width of the time window the charts follow the player with (ms), if they follow it:
    /// the round trips chosen, or by default ten of them on a run longer than
    /// [`FOLLOW_PAST_RTTS`].
    pub fn follow_ms(&self) -> Option<f64> {
        if !self.player.open {
            return None;
        }
        let rtt = self.rtt_ms();
        let end = self.shown_end_ms();
        let rtts = match FOLLOW.get(self.player.follow).and_then(|f| f.0) {
            None if end > FOLLOW_PAST_RTTS * rtt => 10,
            None | Some(0) => return None,
            Some(n) => n,
        };
        let w = f64::from(rtts) * rtt;
        (w.is_finite() && w > 0.0 && w < end).then_some(w)
    }

    /// The view of the run on show, once it is in (the view held may be an older run's).
    pub(crate) fn shown_view(&self) -> Option<&tcplab::view::RunView> {
        let query = self.run_query();
        self.view.as_deref().filter(|v| v.query == query)
    }

    /// The end of the run on show, ms, once its view is in (0 before).
    pub fn shown_end_ms(&self) -> f64 {
        self.shown_view().map_or(0.0, |v| v.end_ms)
    }

    /// How far the charts' time axis and the player's scrubber run while a lesson's question
    /// waits for its answer and the player stands before the run's end ([`veiled_horizon`]):
    /// the run's end would give away how long the transfer takes. `None`: to the run's end.
    pub fn horizon_ms(&self) -> Option<f64> {
        if !self.lesson_pending() {
            return None;
        }
        let t = self.player_ms()?;
        (t < self.shown_end_ms()).then(|| veiled_horizon(t, self.rtt_ms()))
    }

    /// The connections of the scenario on show: its flows, or the connections its messages go
    /// over (one for UDP).
    pub fn flows(&self) -> usize {
        let s = &self.scenario;
        let n = if s.app == tcplab::App::Msgs {
            s.conns.max(1)
        } else {
            s.flows
        };
        usize::try_from(n).unwrap_or(1)
    }

    /// The part of the run the worker must record for the player, if it lacks one: the player
    /// is open and has no record of the run on show around its cursor, or the cursor nears the
    /// edge of the one it has. A lesson's moment is looked for from the start.
    pub fn wants_steps(&self) -> Option<StepWindow> {
        if !self.player.open {
            return None;
        }
        let t = self.cursor_t();
        match self.recorded() {
            Some(r) => r.next_window(t),
            None if self.player.seek.is_some() => Some(StepWindow::from(0.0)),
            None => {
                let lead = self
                    .record_span_ms()
                    .map_or(LEAD_RTTS * self.rtt_ms(), |w| LEAD * w);
                Some(StepWindow::from(t - lead))
            }
        }
    }

    /// About how long a full record of the run on show lasts, from its view: a step for each
    /// data segment sent and each that arrived, and one for each ACK.
    fn record_span_ms(&self) -> Option<f64> {
        let view = self.shown_view()?;
        let s = &view.summary;
        let steps = 2.0 * s.data_segments_sent as f64 + s.acks_sent as f64;
        let per_ms = steps / view.end_ms;
        (per_ms.is_finite() && per_ms > 0.0).then(|| tcplab::player::MAX_STEPS as f64 / per_ms)
    }

    /// The page's own keys the player writes: `step=` when the cursor is not the first step at
    /// its instant.
    pub fn player_keys(&self) -> Vec<(&'static str, String)> {
        if !self.player.open && (is_lesson(&self.scenario) || self.lesson.is_some()) {
            return vec![(PLAYER_KEY, "0".to_string())];
        }
        match (self.scenario.at_ms, self.player.within) {
            (Some(_), k) if k > 0 => vec![(STEP_KEY, k.to_string())],
            _ => Vec::new(),
        }
    }

    /// An address arrived: the player opens where it names a step, or on a lesson, paused (on
    /// the lesson's moment, where it has one and the link names no step).
    pub(crate) fn player_arrive(&mut self, mut within: u32, closed: bool) {
        let lesson = self.lesson_moment();
        // A lesson's question waits whenever its part is opened (a link does not carry the
        // reveal), so the player stands on the part's moment, not on a cursor the link names:
        // past the moment the run would give the answer (a reload after a reveal showed the
        // answer's step with the question open again).
        if self.lesson.is_some_and(|l| l.pending()) {
            self.scenario.at_ms = None;
            within = 0;
        }
        let p = &mut self.player;
        p.open = self.scenario.at_ms.is_some()
            || ((is_lesson(&self.scenario) || lesson.is_some()) && !closed);
        p.within = within;
        p.playing = false;
        p.play_ms = None;
        p.seek = None;
        if self.scenario.at_ms.is_none() && p.open {
            match lesson.or_else(|| moment(&self.scenario)) {
                // A moment of time is a cursor at once; its part of the run is recorded.
                Some(m) if m.instant_ms().is_some() => self.scenario.at_ms = m.instant_ms(),
                m => self.player.seek = m,
            }
        }
    }

    /// Opens the player on the lesson part's moment, paused, as its link would.
    pub(crate) fn player_to_moment(&mut self) {
        self.scenario.at_ms = None;
        self.player_arrive(0, false);
    }

    /// Stands the cursor on step `i` of the record on show.
    pub(crate) fn put_step(self, i: usize, entry: Entry) -> Page {
        self.put(i, entry)
    }

    /// A whole new scenario (a preset): a lesson opens the player at its start; otherwise the
    /// player stays as it was, at the start.
    pub(crate) fn player_loaded(mut self) -> Page {
        let p = &mut self.player;
        p.open |= is_lesson(&self.scenario);
        p.within = 0;
        p.playing = false;
        p.play_ms = None;
        p.seek = moment(&self.scenario);
        self
    }

    /// A run came back for the charts.
    pub(crate) fn with_view(mut self, view: Rc<RunView>) -> Page {
        self.view = Some(view);
        self.view_shipped = false;
        self.failure = None;
        self
    }

    /// A record of steps came back: the player stands on the step its address names, or on
    /// the lesson's moment.
    pub(crate) fn with_steps(mut self, query: String, steps: Rc<Steps>) -> Page {
        self.player.trouble = None;
        self.player.recorded = Some(Recorded { query, steps });
        self.seek_now(Entry::Replace)
    }

    /// Stands the cursor on the moment the player seeks, if the record on show holds it; a
    /// cursor at an instant (a lesson's moment of time, `Moment::At`) stands on its step there
    /// as one arriving with the record does, so that a part entered by Next reads the step's
    /// time (2,991.378 ms) as the part's link does, not the instant (3,000 ms).
    pub(crate) fn seek_now(mut self, entry: Entry) -> Page {
        if let (Some(moment), Some(steps)) = (self.player.seek, self.steps()) {
            let first = moment.find(steps);
            self.player.seek = None;
            if let Some(i) = first {
                self = self.put(i, entry);
            }
        }
        if self.player.seek.is_none() {
            self = self.settle_cursor(entry);
        }
        self
    }

    /// Puts the address's cursor on the step it resolved to, where the link named none exactly
    /// (a time between steps, a rank past the last at that time).
    fn settle_cursor(self, entry: Entry) -> Page {
        if self.scenario.at_ms.is_none() || !self.player.open {
            return self;
        }
        let Some(i) = self.step_index() else {
            return self;
        };
        self.put(i, entry)
    }

    /// Stands the cursor on step `i`.
    fn put(mut self, i: usize, entry: Entry) -> Page {
        let Some((t, within)) = self.steps().and_then(|s| nav::place(&s.steps, i)) else {
            return self;
        };
        if self.scenario.at_ms != Some(t) || self.player.within != within {
            self.scenario.at_ms = Some(t);
            self.player.within = within;
            self.revise(entry);
        }
        self
    }

    /// Stands the cursor at `t` before its steps are in: the record around it is asked for,
    /// and the cursor settles on its step when it arrives.
    fn stand_at(mut self, t: f64) -> Page {
        let t = on_the_clock(t);
        if self.scenario.at_ms != Some(t) || self.player.within != 0 {
            self.scenario.at_ms = Some(t);
            self.player.within = 0;
            self.revise(Entry::Refine);
        }
        self
    }

    fn rtt_ms(&self) -> f64 {
        self.view
            .as_ref()
            .map_or(self.scenario.rtt_ms, |v| v.theory.rtt_ms)
    }

    pub(crate) fn player_apply(mut self, action: Action) -> Page {
        let here = self.step_index();
        let count = self.steps().map_or(0, |s| s.steps.len());
        match action {
            Action::Open if !self.player.open => {
                self.player.open = true;
                self.player.within = 0;
                self.scenario.at_ms.get_or_insert(0.0);
                self.revise(Entry::Push);
                self
            }
            Action::Close if self.player.open => {
                self.player.open = false;
                self.player.playing = false;
                self.player.play_ms = None;
                self.player.within = 0;
                self.scenario.at_ms = None;
                self.revise(Entry::Push);
                self
            }
            Action::Open | Action::Close => self,
            Action::Toggle if self.player.playing => self.player_apply(Action::Pause),
            Action::Toggle => self.player_apply(Action::Play),
            Action::Play => {
                let Some(i) = here else { return self };
                // At the end of the run, play starts over from its start (recorded anew if this
                // record starts later); at the end of a record with more after it, play waits
                // there for the next.
                let run_over = i + 1 >= count && self.steps().is_some_and(|s| !s.truncated);
                self.player.playing = true;
                if run_over {
                    self.player.play_ms = Some(0.0);
                    return self.stand_at(0.0);
                }
                // From where a pause left the playhead, between this step and the next, or from
                // the step.
                let step_t = self.steps().and_then(|s| s.steps.get(i)).map(|s| s.t_ms);
                let paused = self
                    .scenario
                    .at_ms
                    .filter(|&a| step_t.is_some_and(|s| a > s));
                self = self.put(i, Entry::Refine);
                self.player.play_ms = paused.or(step_t);
                self
            }
            Action::Pause => {
                // The playhead stays where it was, between steps if it was: a pause in a quiet
                // stretch does not throw back the time played since the last step.
                let at = self.player.play_ms.take();
                self.player.playing = false;
                match at.filter(|t| t.is_finite()).map(on_the_clock) {
                    Some(t) if self.scenario.at_ms != Some(t) => {
                        // No step is at a time between steps: the address names the time.
                        self.scenario.at_ms = Some(t);
                        self.player.within = 0;
                        self.revise(Entry::Refine);
                        self
                    }
                    _ => self,
                }
            }
            // The run's start, whether this record holds it or not.
            Action::Go(Move::Start) => {
                self.player.playing = false;
                self.player.play_ms = None;
                self.stand_at(0.0)
            }
            Action::Go(Move::End) if self.steps().is_some_and(|s| s.truncated) => {
                self.player.playing = false;
                self.player.play_ms = None;
                let end = self.shown_end_ms();
                self.stand_at(end)
            }
            Action::Go(mv) => {
                let Some(i) = here else { return self };
                let rtt = self.rtt_ms();
                let to = self.steps().map_or(i, |s| nav::go(&s.steps, i, mv, rtt));
                self.player.playing = false;
                self.player.play_ms = None;
                self.put(to, Entry::Refine)
            }
            Action::To(i) if i < count => {
                self.player.playing = false;
                self.player.play_ms = None;
                self.put(i, Entry::Refine)
            }
            Action::To(_) => self,
            Action::Seek(t) if t.is_finite() => {
                let covered = self.recorded().is_some_and(|r| r.covers(t));
                let Some(i) = self
                    .steps()
                    .filter(|_| covered)
                    .map(|s| nav::at_time(&s.steps, t))
                else {
                    // Outside the record: the cursor goes there, and its part is recorded.
                    if self.player.playing {
                        self.player.play_ms = Some(t);
                    }
                    return self.stand_at(t);
                };
                if self.player.playing {
                    self.player.play_ms = Some(t);
                }
                self.put(i, Entry::Refine)
            }
            Action::Seek(_) => self,
            Action::Tick(t) if self.player.playing && t.is_finite() => {
                let Some(steps) = self.steps().cloned() else {
                    return self;
                };
                let Some(last) = steps.steps.last() else {
                    return self;
                };
                if t >= last.t_ms {
                    // The playhead holds at the record's end while the next part is recorded.
                    if steps.truncated {
                        self.player.play_ms = Some(last.t_ms);
                    } else {
                        self.player.playing = false;
                        self.player.play_ms = None;
                    }
                    return self.put(steps.steps.len() - 1, Entry::Refine);
                }
                self.player.play_ms = Some(t);
                self.put(nav::at_time(&steps.steps, t), Entry::Refine)
            }
            Action::Tick(_) => self,
            Action::Speed(s) => {
                self.player.speed = s.min(SPEEDS.len() - 1);
                self
            }
            Action::Follow(f) => {
                self.player.follow = f.min(FOLLOW.len() - 1);
                self
            }
        }
    }
}

/// A time between steps as the address writes it: on the simulator's clock, which ticks in
/// nanoseconds, so that a pause after playing reads `at=31.3307`, not the playhead's sum of
/// frame times, `at=31.3306999999997`.
fn on_the_clock(t_ms: f64) -> f64 {
    (t_ms * 1e6).round() / 1e6
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use std::rc::Rc;

    use crate::model::page::{test_page, Action};
    use crate::worker::protocol::{run_steps, run_view};
    use crate::worker::Outcome;

    #[test]
    fn a_link_past_the_runs_end_stands_on_its_last_step() {
        // The default body is done in a quarter of a second: `at=5000` is long after it.
        let page = test_page("?at=5000");
        assert!(page.player.open);
        let query = page.run_query();
        let view = Rc::new(run_view(&query));
        let end = view.end_ms;
        assert!(end < 1000.0, "{end}");
        let page = page.apply(Action::Ran {
            query: query.clone(),
            outcome: Outcome::View(view),
        });
        let window = page.wants_steps().expect("a record to ask for");
        assert!(
            window.from_ms < end,
            "{} after the end, {end}",
            window.from_ms
        );
        let steps = Rc::new(run_steps(&query, window.from_ms));
        let last = steps
            .steps
            .len()
            .checked_sub(1)
            .expect("steps before the end");
        let page = page.apply(Action::Recorded {
            query,
            outcome: Outcome::Steps(steps),
        });
        assert_eq!(page.step_index(), Some(last));
        assert_eq!(page.wants_steps(), None, "asked again");
    }

    /// The slow-start lesson's page at its fourth part ("how many round trips does the POST
    /// take?"), with its run and steps in, for a body of `body` bytes.
    fn counting_round_trips(body: &str) -> crate::model::page::Page {
        recorded(&format!("?lesson=slow-start&part=4&body={body}"))
    }

    /// The page of `search` with its run and its steps in.
    fn recorded(search: &str) -> crate::model::page::Page {
        let page = test_page(search);
        let query = page.run_query();
        let view = Rc::new(run_view(&query));
        let page = page.apply(Action::Ran {
            query: query.clone(),
            outcome: Outcome::View(view),
        });
        let window = page.wants_steps().expect("a record to ask for");
        let steps = Rc::new(run_steps(&query, window.from_ms));
        page.apply(Action::Recorded {
            query,
            outcome: Outcome::Steps(steps),
        })
    }

    #[test]
    fn a_veiled_runs_axis_and_scrubber_end_where_the_players_time_says_not_the_run() {
        // Two bodies whose runs agree up to the part's moment and end a round trip apart: the
        // horizon is the same, past the player's time, and tells neither end.
        let (a, b) = (
            counting_round_trips("2499986"),
            counting_round_trips("4000000"),
        );
        assert!(a.lesson_pending() && b.lesson_pending());
        let (t, end_a, end_b) = (
            a.player_ms().expect("the player's time"),
            a.shown_end_ms(),
            b.shown_end_ms(),
        );
        assert_eq!(b.player_ms(), Some(t));
        assert!(end_b > end_a + 20.0, "{end_a} {end_b}");
        let h = a.horizon_ms().expect("a horizon while veiled");
        assert_eq!(b.horizon_ms(), Some(h));
        assert!(h > t && h != end_a && h != end_b, "{t} {h} {end_a} {end_b}");
        // Unveiled, the whole run.
        assert_eq!(
            test_page("?preset=post-slow-start&at=60").horizon_ms(),
            None
        );
    }

    #[test]
    fn the_veiled_horizon_is_the_players_time_and_as_much_again_rounded_up() {
        use super::veiled_horizon;
        // Four round trips ahead at least, then twice the time; 1, 2, 2.5 or 5 a decade.
        assert_eq!(veiled_horizon(31.5, 31.5), 200.0);
        assert_eq!(veiled_horizon(63.0, 31.5), 200.0);
        assert_eq!(veiled_horizon(100.0, 25.0), 200.0);
        assert_eq!(veiled_horizon(110.0, 25.0), 250.0);
        assert_eq!(veiled_horizon(160.0, 31.5), 500.0);
        assert_eq!(veiled_horizon(304.0, 100.0), 1000.0);
        assert_eq!(veiled_horizon(3000.0, 40.0), 10000.0);
        assert_eq!(veiled_horizon(f64::NAN, 40.0), 1.0);
    }

    #[test]
    fn a_pause_keeps_the_playhead_where_it_was_and_play_goes_on_from_there() {
        use super::Action as Player;
        // The staged loss's run: a quiet stretch of a round trip after the duplicate ACKs.
        let page = recorded("?preset=lesson-fast-retransmit&at=0");
        let steps = page.steps().cloned().expect("steps");
        let (a, b) = steps
            .steps
            .windows(2)
            .map(|w| (w[0].t_ms, w[1].t_ms))
            .find(|(a, b)| b - a > 10.0)
            .expect("a quiet stretch");
        let mid = (a + b) / 2.0;
        let page = page
            .apply(Action::Player(Player::Play))
            .apply(Action::Player(Player::Tick(mid)))
            .apply(Action::Player(Player::Pause));
        assert!(!page.player.playing);
        assert_eq!(page.player_ms(), Some(super::on_the_clock(mid)));
        let i = page.step_index().expect("a step");
        assert_eq!(steps.steps[i].t_ms, a, "the step before the playhead");
        // Play goes on from the playhead, not from the step before it.
        let page = page.apply(Action::Player(Player::Play));
        assert_eq!(page.player.play_ms, Some(super::on_the_clock(mid)));
        // A step moves on from the step, and stands on a step's time again.
        let page = page
            .apply(Action::Player(Player::Pause))
            .apply(Action::Player(Player::Go(crate::player::nav::Move::Step(
                crate::player::nav::Dir::Forward,
            ))));
        assert_eq!(page.player_ms(), Some(b));

        // The playhead is a sum of frame times: paused between steps, the address names its
        // time on the simulator's nanosecond clock, not the sum's rounding errors.
        let noisy = a + (b - a) / 3.0 + 1e-13;
        let page = page
            .apply(Action::Player(Player::Play))
            .apply(Action::Player(Player::Tick(noisy)))
            .apply(Action::Player(Player::Pause));
        let at = page.scenario.at_ms.expect("a cursor");
        assert_eq!(at, super::on_the_clock(noisy));
        let written = page.search();
        let digits = written
            .split("at=")
            .nth(1)
            .and_then(|v| v.split('&').next())
            .and_then(|v| v.split('.').nth(1))
            .map_or(0, str::len);
        assert!(digits <= 6, "{written}");
    }
}
