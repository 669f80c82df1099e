//! Guided lessons: a short path through one idea, each part a scenario, a moment of its run,
//! a few sentences on what to look at, and at the key moments a question the class answers
//! before the lab shows what happens.
//!
//! Nothing a part says or asks is written down as a number: every figure in its sentences is
//! read from the run at that moment ([`slots`]), and every answer is found in the run
//! ([`question`]), so `lesson=slow-start&iw=4` asks the same questions and expects other
//! answers.

pub mod catalog;
pub mod moment;
pub mod question;
pub mod slots;

pub use catalog::LESSONS;
pub use moment::{Find, Moment};
pub use question::{Answer, Feedback, Form, Given, Question, Refusal, Tolerance, Unit};

pub use crate::player::explain::Text;
use crate::player::{Language, Steps};
use crate::scenario::{Scenario, ScenarioError, Source};
use crate::Summary;

/// One lesson.
#[derive(Debug)]
pub struct Lesson {
    /// The value of `lesson=`.
    pub name: &'static str,
    pub title: Text,
    /// One line on what it is about, for the index.
    pub summary: Text,
    /// Where its experiment comes from (a post, "a staged loss"): the index says it.
    pub source: Source,
    /// Its scenario, as a link writes it (a preset's name, and keys over it).
    pub query: &'static str,
    pub parts: &'static [Part],
}

/// One part of a lesson.
#[derive(Debug)]
pub struct Part {
    pub title: Text,
    /// Keys over the lesson's scenario for this part (`cc=bbr`), or nothing.
    pub keys: &'static str,
    pub moment: Moment,
    /// What to look at, with the run's figures in `{slots}`.
    pub say: Text,
    pub question: Option<Question>,
}

/// What a part reads its figures and answers from: its scenario's run, whole (the summary),
/// and its steps from the start.
#[derive(Debug, Clone, Copy)]
pub struct Evidence<'a> {
    pub scenario: &'a Scenario,
    pub steps: Option<&'a Steps>,
    pub summary: Option<&'a Summary>,
}

/// Why a link's `lesson=` or `part=` cannot be shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LessonError {
    Unknown { name: String },
    PartOutOfRange { part: String, parts: usize },
}

impl std::fmt::Display for LessonError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LessonError::Unknown { name } => write!(
                f,
                "unknown lesson \"{}\" (allowed {})",
                crate::scenario::shown(name),
                names()
            ),
            LessonError::PartOutOfRange { part, parts } => write!(
                f,
                "{} is not a part of this lesson (allowed 1 to {parts})",
                crate::scenario::shown(part)
            ),
        }
    }
}

/// Every lesson's name, comma-separated, for a message.
pub fn names() -> String {
    LESSONS
        .iter()
        .map(|l| l.name)
        .collect::<Vec<_>>()
        .join(", ")
}

impl Lesson {
    /// The lesson called `name`, exactly.
    pub fn find(name: &str) -> Option<&'static Lesson> {
        LESSONS.iter().find(|l| l.name == name)
    }

    /// Reads `lesson=` and `part=` (1-based; the first when absent).
    pub fn read(name: &str, part: Option<&str>) -> Result<(&'static Lesson, usize), LessonError> {
        let lesson =
            Lesson::find(name).ok_or_else(|| LessonError::Unknown { name: name.into() })?;
        let Some(text) = part else {
            return Ok((lesson, 0));
        };
        let n = text
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=lesson.parts.len()).contains(n) && !text.starts_with('+'))
            .ok_or_else(|| LessonError::PartOutOfRange {
                part: text.into(),
                parts: lesson.parts.len(),
            })?;
        Ok((lesson, n - 1))
    }

    /// Whether the page hides, at part `part` (0-based), what would give away an answer: the
    /// run's results, and the charts past the player's time. They stay hidden while the part's
    /// own question waits (`revealed` false), and while a later part still asks about the same
    /// run (the same keys over the lesson's scenario): the verdict of the part that shows the
    /// loss would answer the next part's "what does the sender do?", and the cards a reveal
    /// uncovers would answer the next question on the run. A lesson's last question on a run
    /// uncovers it; a later part that changes the scenario asks about another run.
    pub fn veiled(&self, part: usize, revealed: bool) -> bool {
        let waiting = self.part(part).question.is_some() && !revealed;
        waiting || self.asked_later_on_the_same_run(part).next().is_some()
    }

    /// The parts after `part` (0-based) that ask a question about its run: the same keys over
    /// the lesson's scenario. What they ask stays hidden until they are revealed.
    fn asked_later_on_the_same_run(&self, part: usize) -> impl Iterator<Item = &'static Part> {
        let here = self.part(part);
        let parts: &'static [Part] = self.parts;
        parts
            .iter()
            .skip(part + 1)
            .filter(move |later| later.question.is_some() && later.keys == here.keys)
    }

    /// Where the reveal of part `part` (0-based) takes the player in `evidence`'s run: the
    /// step that shows its answer, but never past the moment of a later part that asks about
    /// the same run (the same keys, as [`Lesson::veiled`] holds them): the player would show
    /// that part's answer before it is asked. Slow start's part 3 showed the last byte's
    /// arrival, and with it the length part 4 asks for. The catalog's reveals keep to this on
    /// the lessons' own runs; the bound holds it on a run the reader's sliders changed, whose
    /// moments move.
    pub fn reveal_step(&self, part: usize, evidence: &Evidence) -> Option<usize> {
        let shown = self.part(part).answer_step(evidence)?;
        let steps = evidence.steps?;
        let asked_later = self
            .asked_later_on_the_same_run(part)
            .filter_map(|later| later.moment.find(steps))
            .min();
        Some(asked_later.map_or(shown, |asked| shown.min(asked)))
    }

    /// Part `part` (0-based), or the last.
    pub fn part(&self, part: usize) -> &'static Part {
        let parts: &'static [Part] = self.parts;
        &parts[part.min(parts.len().saturating_sub(1))]
    }

    /// The scenario of part `part` (0-based): the lesson's, with the part's keys over it.
    /// Fails only for a lesson written wrong, which the tests catch.
    pub fn scenario(&self, part: usize) -> Result<Scenario, ScenarioError> {
        let base = Scenario::parse(self.query)?;
        let keys = self.part(part).keys;
        if keys.is_empty() {
            return Ok(base);
        }
        base.with_query(keys)
    }

    /// The scenario of part `part` with the link's own changes to the lesson's scenario
    /// (`changes`, a query over the part's base) applied: the same changes are kept from part
    /// to part.
    pub fn scenario_with(
        &self,
        part: usize,
        changes: &str,
    ) -> Result<crate::scenario::Lenient, ScenarioError> {
        let base = self.scenario(part)?;
        Ok(base.with_query_lenient(changes, crate::scenario::Conflict::PresetInLesson))
    }
}

/// A part as the class sees it at its moment: where the player stands, what it says, and the
/// question with its answer found in the run.
#[derive(Debug, Clone, PartialEq)]
pub struct Shown {
    /// The moment's step in the record, if it has one.
    pub at: Option<usize>,
    pub say: Vec<slots::Piece>,
    pub answer: Option<Answer>,
}

impl Shown {
    /// What the part says, as one sentence.
    pub fn say_text(&self) -> String {
        slots::joined(&self.say)
    }
}

impl Part {
    /// The part at its moment in `evidence`'s run; `None` until the record holds the moment
    /// (and the summary is in, where a sentence reads from it).
    pub fn show(&self, evidence: &Evidence, lang: Language) -> Option<Shown> {
        let at = self.step(evidence)?;
        let say = slots::pieces(self.say.get(lang), evidence, at, lang, &[])?;
        let answer = match &self.question {
            Some(q) => Some(q.answer(evidence, at, lang)?),
            None => None,
        };
        Some(Shown { at, say, answer })
    }

    /// The step that shows the part's answer, where the player goes at the reveal: the
    /// question's finding alone, without the sentences [`Part::show`] writes around it (so the
    /// page's state can follow a reveal without the explanations, which come with the lesson's
    /// panel).
    pub fn answer_step(&self, evidence: &Evidence) -> Option<usize> {
        let at = self.step(evidence)?;
        (self.question.as_ref()?.find)(evidence, at)?.show
    }

    /// The step of the part's moment in `evidence`'s record (`Some(None)`: a moment in time
    /// before any record, read from the summary); `None` until the record holds it.
    fn step(&self, evidence: &Evidence) -> Option<Option<usize>> {
        match (self.moment, evidence.steps) {
            (Moment::At(_), None) => Some(None),
            (moment, Some(steps)) => Some(Some(moment.find(steps)?)),
            (_, None) => None,
        }
    }
}
