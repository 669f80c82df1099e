//! A guided lesson on the page (`lesson=NAME&part=N`): the part's scenario with the link's own
//! changes over it, the player stood at the part's moment, the part's words and question, and
//! the class's answer. The lessons themselves, their moments and answers are the core's
//! (`tcplab::lesson`); this is their state in the page's reducer, the panel that shows them,
//! the index, and the presenter's keys.

pub mod index;
pub mod keys;
pub mod panel;

use tcplab::lesson::{Given, Lesson, Moment, Part};
use tcplab::scenario::Lenient;
use tcplab::Scenario;

use crate::model::address::{BadLink, Entry};
use crate::model::page::Page;

/// The page's keys of a lesson.
pub const LESSON_KEY: &str = "lesson";
pub const PART_KEY: &str = "part";
/// The presenter's mode: large type, the part in front, a clicker's keys.
pub const PRESENT_KEY: &str = "present";

/// A lesson a link opens.
#[derive(Debug, Clone, Copy)]
pub struct Opened {
    pub lesson: &'static Lesson,
    pub part: usize,
    pub present: bool,
}

impl PartialEq for Opened {
    fn eq(&self, other: &Opened) -> bool {
        (self.lesson.name, self.part, self.present)
            == (other.lesson.name, other.part, other.present)
    }
}

impl Opened {
    /// The link's scenario keys over the part's scenario.
    pub fn scenario_with(&self, query: &str) -> Lenient {
        match self.lesson.scenario_with(self.part, query) {
            Ok(read) => read,
            // Only a lesson written wrong fails here, which the core's tests catch.
            Err(_) => Scenario::parse_lenient(query),
        }
    }
}

/// Reads `lesson=`, `part=` and `present=` from the page's own keys: the lesson the link opens,
/// and what in them is wrong. Only a lesson that cannot be told (none, an unknown name, the key
/// repeated) opens none: a bad `part=` opens the lesson at its first part, a bad `present=`
/// without the presenter's mode, each named in the banner, as a bad scenario key is.
pub fn read(pairs: &[(String, String)]) -> (Option<Opened>, Vec<BadLink>) {
    let mut bad = Vec::new();
    let mut one = |key: &str| -> Option<&str> {
        let mut values = pairs
            .iter()
            .filter(|(k, _)| k == key)
            .map(|(_, v)| v.as_str());
        let first = values.next();
        if values.next().is_some() {
            bad.push(BadLink::new(
                key,
                "repeated key".to_string(),
                "键重复".to_string(),
            ));
            return None;
        }
        first
    };
    let (name, part, present) = (one(LESSON_KEY), one(PART_KEY), one(PRESENT_KEY));
    let named = pairs.iter().any(|(k, _)| k == LESSON_KEY);
    let Some(name) = name else {
        // Without lesson= (or with it repeated) there is no lesson for these to name.
        for (key, given) in [(PART_KEY, part.is_some()), (PRESENT_KEY, present.is_some())] {
            if given && !named {
                bad.push(BadLink::new(
                    key,
                    "needs lesson= (it names a lesson's part or mode)".to_string(),
                    "需要 lesson=（它指课程的部分或模式）".to_string(),
                ));
            }
        }
        return (None, bad);
    };
    let present = match present {
        None => false,
        Some("1") => true,
        Some(other) => {
            bad.push(BadLink::new(
                PRESENT_KEY,
                format!(
                    "unknown value {} (allowed 1: the presenter's mode)",
                    crate::model::address::quoted(other)
                ),
                format!(
                    "未知的值 {}（允许 1：演示模式）",
                    crate::model::address::quoted(other)
                ),
            ));
            false
        }
    };
    let opened = match Lesson::read(name, part) {
        Ok((lesson, part)) => Some((lesson, part)),
        Err(e @ tcplab::lesson::LessonError::Unknown { .. }) => {
            bad.push(BadLink::new(LESSON_KEY, e.to_string(), lesson_error_zh(&e)));
            None
        }
        Err(e) => {
            bad.push(BadLink::new(PART_KEY, e.to_string(), lesson_error_zh(&e)));
            Lesson::read(name, None).ok()
        }
    };
    let opened = opened.map(|(lesson, part)| Opened {
        lesson,
        part,
        present,
    });
    (opened, bad)
}

/// A lesson link's error in Chinese.
fn lesson_error_zh(e: &tcplab::lesson::LessonError) -> String {
    use tcplab::lesson::LessonError;
    match e {
        LessonError::Unknown { name } => format!(
            "未知的课程 \"{}\"（允许 {}）",
            tcplab::scenario::shown(name),
            tcplab::lesson::names()
        ),
        LessonError::PartOutOfRange { part, parts } => format!(
            "{} 不是本课程的一部分（允许 1 至 {parts}）",
            tcplab::scenario::shown(part)
        ),
    }
}

/// A lesson under way.
#[derive(Debug, Clone, Copy)]
pub struct State {
    pub lesson: &'static Lesson,
    /// The part on show, 0-based.
    pub part: usize,
    /// The class's answer to the part's question: chosen (or typed) first, checked when the
    /// answer is revealed, so that a teacher can point at a choice, or poll the room on it,
    /// before the reveal.
    pub given: Option<Given>,
    /// The answer is shown, with the lab's explanation.
    pub revealed: bool,
    pub present: bool,
    /// How many times the part was reset: the panel's answer box starts empty again.
    pub tries: u32,
}

impl PartialEq for State {
    fn eq(&self, other: &State) -> bool {
        self.lesson.name == other.lesson.name
            && (
                self.part,
                self.given,
                self.revealed,
                self.present,
                self.tries,
            ) == (
                other.part,
                other.given,
                other.revealed,
                other.present,
                other.tries,
            )
    }
}

impl State {
    pub fn part(&self) -> &'static Part {
        self.lesson.part(self.part)
    }

    /// The part's question waits for its answer.
    pub fn pending(&self) -> bool {
        self.part().question.is_some() && !self.revealed
    }

    /// What would give away an answer stays hidden: the part's own while it waits, and a later
    /// part's that asks about the same run ([`Lesson::veiled`]).
    pub fn veiled(&self) -> bool {
        self.lesson.veiled(self.part, self.revealed)
    }

    pub fn is_last(&self) -> bool {
        self.part + 1 >= self.lesson.parts.len()
    }
}

/// A change of the lesson.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Action {
    /// Opens this lesson at its first part (from the index).
    Open(&'static str),
    /// To part `n` (0-based).
    Go(usize),
    /// On: the answer if one is pending, else the next part (what a clicker's key does).
    Next,
    Back,
    /// The class's answer as it stands, not yet checked: a choice pointed at, the number in
    /// the box (`None`: none, or one the box refuses). A reveal checks it.
    Choose(Option<Given>),
    /// The class answers and the answer is checked at once: revealed with its feedback.
    Answer(Given),
    /// The answer is shown, the player going to the step that shows it.
    Reveal,
    /// The part from its moment again, unanswered.
    Reset,
    Present(bool),
    /// The lesson is put away; its scenario stays on show.
    Leave,
}

impl Page {
    /// The lesson a link opened: its part's moment is where the player stands.
    pub(crate) fn lesson_arrive(&mut self, opened: Option<Opened>) {
        self.lesson = opened.map(|o| State {
            lesson: o.lesson,
            part: o.part,
            given: None,
            revealed: false,
            present: o.present,
            tries: 0,
        });
    }

    /// The moment the player seeks in the lesson's part, where the link names no step.
    pub(crate) fn lesson_moment(&self) -> Option<Moment> {
        self.lesson.as_ref().map(|l| l.part().moment)
    }

    /// What would give away a lesson's answer is hidden (the run's cards, the charts past
    /// the player's time): while the part's question waits, and while a later part still asks
    /// about the same run ([`State::veiled`]). Not only the part's own question: the verdict of
    /// the part that shows the loss ("1 fast retransmit") answers the next part's question.
    pub fn lesson_pending(&self) -> bool {
        self.lesson.as_ref().is_some_and(State::veiled)
    }

    /// The page's keys a lesson writes first, and the changes its link makes to the part's
    /// scenario: `lesson=slow-start&part=2&iw=4`.
    pub fn lesson_search(&self, state: &State) -> (Vec<(&'static str, String)>, String) {
        let mut keys = vec![(LESSON_KEY, state.lesson.name.to_string())];
        if state.part > 0 {
            keys.push((PART_KEY, (state.part + 1).to_string()));
        }
        let changes = match state.lesson.scenario(state.part) {
            Ok(base) => self.scenario.query_against(&base),
            Err(_) => self.scenario.to_query(),
        };
        (keys, changes)
    }

    /// The changes the reader made to the part's scenario, less the cursor: they follow the
    /// lesson from part to part.
    fn lesson_changes(&self, state: &State) -> String {
        let mut here = self.scenario.clone();
        here.at_ms = None;
        match state.lesson.scenario(state.part) {
            Ok(base) => here.query_against(&base),
            Err(_) => String::new(),
        }
    }

    /// Shows part `part` of `lesson` with `changes` over its scenario, the player at its moment,
    /// unanswered.
    fn enter_part(mut self, lesson: &'static Lesson, part: usize, changes: &str) -> Page {
        let part = part.min(lesson.parts.len().saturating_sub(1));
        let present = self.lesson.is_some_and(|l| l.present);
        let opened = Opened {
            lesson,
            part,
            present,
        };
        // A change the new part cannot take (a key it sets itself) is dropped with it.
        self.scenario = opened.scenario_with(changes).scenario;
        self.scenario.at_ms = None;
        self.lesson = Some(State {
            lesson,
            part,
            given: None,
            revealed: false,
            present,
            tries: 0,
        });
        self.field_error = None;
        self.hover_ms = None;
        self.player_to_moment();
        // The same run's record may be in already (a part of the same scenario).
        let mut page = self.seek_now(Entry::Push);
        page.revise(Entry::Push);
        page
    }

    pub(crate) fn lesson_apply(self, action: Action) -> Page {
        let Some(state) = self.lesson else {
            return match action {
                Action::Open(name) => match Lesson::find(name) {
                    Some(lesson) => self.enter_part(lesson, 0, ""),
                    None => self,
                },
                _ => self,
            };
        };
        match action {
            Action::Open(name) => match Lesson::find(name) {
                Some(lesson) => self.enter_part(lesson, 0, ""),
                None => self,
            },
            Action::Go(n) if n < state.lesson.parts.len() && n != state.part => {
                let changes = self.lesson_changes(&state);
                self.enter_part(state.lesson, n, &changes)
            }
            Action::Go(_) => self,
            Action::Next if state.pending() => self.lesson_apply(Action::Reveal),
            Action::Next if !state.is_last() => self.lesson_apply(Action::Go(state.part + 1)),
            Action::Next => self,
            Action::Back => match state.part.checked_sub(1) {
                Some(n) => self.lesson_apply(Action::Go(n)),
                None => self,
            },
            Action::Choose(given) if !state.revealed => {
                let mut page = self;
                if let Some(l) = page.lesson.as_mut() {
                    l.given = given;
                }
                page
            }
            Action::Choose(_) => self,
            Action::Answer(given) if !state.revealed => {
                let mut page = self;
                if let Some(l) = page.lesson.as_mut() {
                    l.given = Some(given);
                }
                page.lesson_apply(Action::Reveal)
            }
            Action::Answer(_) => self,
            Action::Reveal => {
                let mut page = self;
                if let Some(l) = page.lesson.as_mut() {
                    l.revealed = true;
                }
                match page.lesson_answer_step() {
                    Some(i) => page.put_step(i, Entry::Push),
                    None => page,
                }
            }
            Action::Reset => {
                let mut page = self;
                if let Some(l) = page.lesson.as_mut() {
                    l.given = None;
                    l.revealed = false;
                    l.tries = l.tries.wrapping_add(1);
                }
                page.scenario.at_ms = None;
                page.player_to_moment();
                let mut page = page.seek_now(Entry::Push);
                page.revise(Entry::Push);
                page
            }
            Action::Present(on) if on != state.present => {
                let mut page = self;
                if let Some(l) = page.lesson.as_mut() {
                    l.present = on;
                }
                page.revise(Entry::Push);
                page
            }
            Action::Present(_) => self,
            Action::Leave => {
                let mut page = self;
                page.lesson = None;
                page.revise(Entry::Push);
                page
            }
        }
    }

    /// The step that shows the answer of the part on show, once the steps are in: where a
    /// reveal takes the player. (The sentences around it are the lesson panel's to write, and
    /// come with its module.)
    fn lesson_answer_step(&self) -> Option<usize> {
        let state = self.lesson?;
        let steps = self.steps()?;
        let view = self.shown_view();
        let evidence = tcplab::lesson::Evidence {
            scenario: &self.scenario,
            steps: Some(steps),
            summary: view.map(|v| &v.summary),
        };
        state.lesson.reveal_step(state.part, &evidence)
    }
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::*;
    use crate::model::page::test_page;

    #[test]
    fn a_lesson_link_reads_over_its_part_and_writes_back_the_same() {
        let page = test_page("?lesson=slow-start&part=2&iw=4");
        assert!(page.banner.is_empty(), "{:?}", page.banner);
        let state = page.lesson.expect("a lesson");
        assert_eq!((state.lesson.name, state.part), ("slow-start", 1));
        assert_eq!(page.scenario.iw, 4);
        assert_eq!(page.scenario.rtt_ms, 31.537);
        assert_eq!(page.search(), "?lesson=slow-start&part=2&iw=4");
        assert!(page.player.open);
        // The keys may come in any order; the canonical address puts the lesson first.
        let page = test_page("?iw=4&present=1&lesson=slow-start");
        assert_eq!(page.search(), "?lesson=slow-start&iw=4&present=1");
    }

    #[test]
    fn a_bad_lesson_key_is_named_with_its_range() {
        let page = test_page("?lesson=nope");
        assert!(page.lesson.is_none());
        assert_eq!(page.banner[0].key, "lesson");
        assert!(
            page.banner[0].message.contains("allowed slow-start"),
            "{}",
            page.banner[0].message
        );
        // A bad part is named, and the lesson opens at its first part; a bad mode, without it.
        let page = test_page("?lesson=timeout&part=9");
        assert_eq!(page.banner[0].key, "part");
        assert!(
            page.banner[0].message.contains("allowed 1 to 5"),
            "{}",
            page.banner[0].message
        );
        let opened = page.lesson.as_ref().expect("the lesson opens");
        assert_eq!((opened.lesson.name, opened.part), ("timeout", 0));
        assert_eq!(
            page.scenario.to_query(),
            test_page("?lesson=timeout").scenario.to_query()
        );
        let page = test_page("?lesson=slow-start&part=2&part=3");
        assert_eq!(page.banner[0].key, "part");
        assert_eq!(page.lesson.map(|l| l.part), Some(0));
        let page = test_page("?part=2");
        assert_eq!(page.banner[0].key, "part");
        assert!(page.lesson.is_none());
        let page = test_page("?lesson=timeout&present=yes");
        assert_eq!(page.banner[0].key, "present");
        assert!(page.lesson.is_some_and(|l| !l.present));
        let page = test_page("?lesson=timeout&lesson=mathis&part=2");
        assert_eq!(page.banner[0].key, "lesson");
        assert!(page.lesson.is_none());
        let page = test_page("?lesson=timeout&preset=bufferbloat");
        assert_eq!(page.banner[0].key, "preset");
        assert!(page.lesson.is_some());
    }

    #[test]
    fn parts_keep_the_readers_changes_and_start_unanswered() {
        let page = test_page("?lesson=fast-retransmit&cc=reno");
        let page = page.apply(crate::model::page::Action::Lesson(Action::Next));
        let state = page.lesson.expect("a lesson");
        assert_eq!(state.part, 1);
        assert_eq!(page.scenario.cc, tcplab::CcAlgo::Reno);
        assert_eq!(page.search(), "?lesson=fast-retransmit&part=2&cc=reno");
        // A pending question: Next reveals it first, then moves on.
        let page = page
            .apply(crate::model::page::Action::Lesson(Action::Go(2)))
            .apply(crate::model::page::Action::Lesson(Action::Next));
        let state = page.lesson.expect("a lesson");
        assert_eq!((state.part, state.revealed), (2, true));
        let page = page.apply(crate::model::page::Action::Lesson(Action::Next));
        let state = page.lesson.expect("a lesson");
        assert_eq!((state.part, state.revealed, state.given), (3, false, None));
        let page = page.apply(crate::model::page::Action::Lesson(Action::Leave));
        assert!(page.lesson.is_none());
        assert_eq!(page.scenario.cc, tcplab::CcAlgo::Reno);
    }

    /// A link names no reveal, so a part it opens asks its question again, the player on the
    /// part's moment: not on the link's cursor past it (the last byte's arrival, written by the
    /// reveal before the reload), where the run gives the answer.
    #[test]
    fn a_link_to_a_part_past_its_moment_opens_on_the_moment_with_its_question() {
        use crate::model::page::Action as PageAction;
        use crate::worker::Outcome;
        let page = test_page("?lesson=slow-start&part=4&at=273.682084");
        assert!(page.lesson.is_some_and(|l| l.pending()));
        let query = page.run_query();
        let steps = std::rc::Rc::new(crate::worker::protocol::run_steps(&query, 0.0));
        let page = page.apply(PageAction::Recorded {
            query,
            outcome: Outcome::Steps(steps.clone()),
        });
        let moment = tcplab::lesson::Lesson::find("slow-start")
            .and_then(|l| l.part(3).moment.find(&steps))
            .map(|i| steps.steps[i].t_ms);
        assert!(moment.is_some_and(|t| t < 200.0), "{moment:?}");
        assert_eq!(page.scenario.at_ms, moment);
    }

    /// A part whose moment is an instant (the Mathis lesson's second, `Moment::At(3000.0)`)
    /// stands the player on the step at or before it, at that step's time, whether the part is
    /// opened by its link or entered by Next over a record already in; by Next the player stood
    /// at 3,000 ms, between steps, while the part's sentence named the step's 2,991 ms.
    #[test]
    fn a_part_at_an_instant_stands_on_its_step_by_next_as_by_its_link() {
        use crate::model::page::Action as PageAction;
        use crate::worker::Outcome;
        let by_link = |page: crate::model::page::Page| {
            let query = page.run_query();
            let steps = std::rc::Rc::new(crate::worker::protocol::run_steps(&query, 0.0));
            page.apply(PageAction::Recorded {
                query,
                outcome: Outcome::Steps(steps),
            })
        };
        let linked = by_link(test_page("?lesson=mathis&part=2"));
        let at = linked.scenario.at_ms.expect("a cursor");
        assert!(at < 3000.0 && at > 2900.0, "{at}");
        let first = by_link(test_page("?lesson=mathis"));
        let next = first
            .apply(PageAction::Lesson(Action::Next))
            .apply(PageAction::Lesson(Action::Next));
        assert_eq!(next.lesson.map(|l| l.part), Some(1));
        assert_eq!(next.scenario.at_ms, Some(at));
        assert_eq!(next.search(), linked.search());
    }

    #[test]
    fn choosing_selects_and_the_reveal_checks_what_was_chosen() {
        use crate::model::page::Action as PageAction;
        let page = test_page("?lesson=fast-retransmit&part=3");
        // A choice pointed at is the class's answer, not yet checked: nothing is revealed, the
        // results stay hidden, and another choice replaces it.
        let page = page
            .apply(PageAction::Lesson(Action::Choose(Some(Given::Choice(1)))))
            .apply(PageAction::Lesson(Action::Choose(Some(Given::Choice(2)))));
        let state = page.lesson.expect("a lesson");
        assert_eq!(
            (state.given, state.revealed),
            (Some(Given::Choice(2)), false)
        );
        assert!(page.lesson_pending());
        // The reveal (Reveal, Enter, PageDown) checks it.
        let page = page.apply(PageAction::Lesson(Action::Next));
        let state = page.lesson.expect("a lesson");
        assert_eq!(
            (state.given, state.revealed),
            (Some(Given::Choice(2)), true)
        );
        // Once revealed, the answer stands.
        let page = page.apply(PageAction::Lesson(Action::Choose(Some(Given::Choice(0)))));
        assert_eq!(page.lesson.expect("a lesson").given, Some(Given::Choice(2)));
        // A reset starts the part afresh, its answer box too.
        let page = page.apply(PageAction::Lesson(Action::Reset));
        let state = page.lesson.expect("a lesson");
        assert_eq!((state.given, state.revealed, state.tries), (None, false, 1));
        // A number typed and not yet checked is checked by the reveal too.
        let page = test_page("?lesson=fast-retransmit&part=4")
            .apply(PageAction::Lesson(Action::Choose(Some(Given::Number(
                20.0,
            )))))
            .apply(PageAction::Lesson(Action::Choose(None)))
            .apply(PageAction::Lesson(Action::Choose(Some(Given::Number(
                16.0,
            )))));
        assert!(!page.lesson.expect("a lesson").revealed);
        let page = page.apply(PageAction::Lesson(Action::Next));
        let state = page.lesson.expect("a lesson");
        assert_eq!(
            (state.given, state.revealed),
            (Some(Given::Number(16.0)), true)
        );
    }

    #[test]
    fn the_results_stay_hidden_before_the_question_they_would_answer() {
        use crate::model::page::Action as PageAction;
        // The loss and the first duplicate ACK ask nothing, but the verdict ("1 fast
        // retransmit, 0 timeouts") would answer the third part's question.
        for part in [1, 2] {
            let page = test_page(&format!("?lesson=fast-retransmit&part={part}"));
            let state = page.lesson.expect("a lesson");
            assert!(!state.pending() && page.lesson_pending(), "part {part}");
        }
        assert!(test_page("?lesson=timeout").lesson_pending());
        // The last question on the run revealed: everything shows.
        let page =
            test_page("?lesson=fast-retransmit&part=4").apply(PageAction::Lesson(Action::Reveal));
        assert!(!page.lesson_pending());
        assert!(!test_page("?lesson=fast-retransmit&part=5").lesson_pending());
    }
}
