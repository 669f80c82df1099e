//! A part's question: asked before the lab shows the moment after, answered by the class,
//! then revealed with the lab's own explanation. The answer is found in the run by the
//! question's `find`, never written down, and the feedback measures the class's answer
//! against it.

use super::{slots, Evidence, Text};
use crate::player::explain::{explain, number};
use crate::player::Language;

/// How the class answers.
#[derive(Debug, Clone, Copy)]
pub enum Form {
    /// One of these; `find` names the one the run shows.
    Choice(&'static [Text]),
    /// A number in this unit, right within the tolerance.
    Number { unit: Text, tolerance: Tolerance },
}

/// How near a number must come to the run's to be right.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Tolerance {
    /// A count: the same whole number.
    Whole,
    /// Within this fraction of the run's value (0.25: a quarter either way).
    Relative(f64),
    /// Within this much of it, in the question's unit.
    Absolute(f64),
}

impl Tolerance {
    pub fn admits(self, given: f64, answer: f64) -> bool {
        let off = (given - answer).abs();
        match self {
            Tolerance::Whole => off < 0.5,
            Tolerance::Relative(r) => off <= r * answer.abs() + 1e-9,
            Tolerance::Absolute(d) => off <= d + 1e-9,
        }
    }
}

/// The class's answer, or the run's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Given {
    Choice(usize),
    Number(f64),
}

/// What `find` reads in the run: the answer, and the step that shows it (where the player goes
/// when it is revealed), if one does.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Found {
    pub value: Given,
    pub show: Option<usize>,
}

/// A question of a part.
#[derive(Debug, Clone, Copy)]
pub struct Question {
    /// The question, with the run's figures in `{slots}` as of the part's moment.
    pub ask: Text,
    pub form: Form,
    /// The answer, read from the run at the part's moment (the step index, if it has one).
    pub find: fn(&Evidence, Option<usize>) -> Option<Found>,
    /// Why, said at the reveal before the lab's own sentence for the step that shows it;
    /// `{answer}` is the answer, and the other slots are read at that step.
    pub because: Text,
}

/// A question as asked in a run, with its answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Answer {
    pub ask: String,
    /// The choices, in order (none for a number).
    pub choices: Vec<String>,
    /// The number's unit (empty for a choice).
    pub unit: String,
    pub value: Given,
    /// The answer as the reveal writes it.
    pub text: String,
    /// Where the player goes when it is revealed.
    pub show: Option<usize>,
    /// The reveal: the question's reason and the lab's sentence for the step that shows it.
    pub why: String,
    pub tolerance: Option<Tolerance>,
}

/// What the class is told of its answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Feedback {
    pub right: bool,
    pub text: String,
}

impl Question {
    /// The question at step `at` of the run, with its answer; `None` until the run holds it.
    pub fn answer(&self, evidence: &Evidence, at: Option<usize>, lang: Language) -> Option<Answer> {
        let found = (self.find)(evidence, at)?;
        let ask = slots::fill(self.ask.get(lang), evidence, at, lang)?;
        let (choices, unit, tolerance) = match self.form {
            Form::Choice(choices) => (
                choices
                    .iter()
                    .map(|c| slots::fill(c.get(lang), evidence, at, lang))
                    .collect::<Option<Vec<String>>>()?,
                String::new(),
                None,
            ),
            Form::Number { unit, tolerance } => {
                (Vec::new(), unit.get(lang).to_string(), Some(tolerance))
            }
        };
        let text = match found.value {
            Given::Choice(i) => choices.get(i)?.clone(),
            Given::Number(v) => with_unit(number(v, 3), &unit),
        };
        let shown_at = found.show.or(at);
        let mut why = slots::fill_with(
            self.because.get(lang),
            evidence,
            shown_at,
            lang,
            &[("answer", text.clone())],
        )?;
        // The lab's own sentence for the step that shows the answer.
        if let (Some(steps), Some(i)) = (evidence.steps, found.show) {
            if let Some(step) = steps.steps.get(i) {
                why.push(' ');
                why.push_str(&explain(step, steps, lang));
            }
        }
        Some(Answer {
            ask,
            choices,
            unit,
            value: found.value,
            text,
            show: found.show,
            why,
            tolerance,
        })
    }
}

fn with_unit(n: String, unit: &str) -> String {
    if unit.is_empty() {
        n
    } else {
        format!("{n} {unit}")
    }
}

impl Answer {
    /// The class answered `given`: right or not, and by how much.
    pub fn grade(&self, given: Given, lang: Language) -> Feedback {
        let zh = lang == Language::Zh;
        match (given, self.value) {
            (Given::Choice(g), Given::Choice(a)) => {
                let right = g == a;
                let text = match (right, zh) {
                    (true, false) => format!("Right: {}.", self.text),
                    (true, true) => format!("答对了：{}。", self.text),
                    (false, false) => format!(
                        "Not this time: the run shows “{}”, not “{}”.",
                        self.text,
                        self.choices.get(g).map_or("?", String::as_str)
                    ),
                    (false, true) => format!(
                        "这次不对：运行显示的是“{}”，而不是“{}”。",
                        self.text,
                        self.choices.get(g).map_or("?", String::as_str)
                    ),
                };
                Feedback { right, text }
            }
            (Given::Number(g), Given::Number(a)) => {
                let tolerance = self.tolerance.unwrap_or(Tolerance::Whole);
                let right = g.is_finite() && tolerance.admits(g, a);
                let said = with_unit(number(g, 4), &self.unit);
                let off = if a != 0.0 {
                    (g - a) / a.abs() * 100.0
                } else {
                    0.0
                };
                let text = match (right, zh, g > a) {
                    (true, false, _) => {
                        format!("Right: the run gives {}; you said {said}.", self.text)
                    }
                    (true, true, _) => {
                        format!("答对了：运行给出 {}；你的答案是 {said}。", self.text)
                    }
                    (false, false, high) => format!(
                        "The run gives {}: {said} is {} too {}.",
                        self.text,
                        percent(off),
                        if high { "high" } else { "low" }
                    ),
                    (false, true, high) => format!(
                        "运行给出 {}：{said} {}了 {}。",
                        self.text,
                        if high { "高" } else { "低" },
                        percent(off)
                    ),
                };
                Feedback { right, text }
            }
            _ => Feedback {
                right: false,
                text: match lang {
                    Language::En => format!("The run gives {}.", self.text),
                    Language::Zh => format!("运行给出 {}。", self.text),
                },
            },
        }
    }
}

fn percent(p: f64) -> String {
    format!("{} %", number(p.abs(), 2))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(value: Given, tolerance: Option<Tolerance>) -> Answer {
        Answer {
            ask: "?".into(),
            choices: vec!["a".into(), "b".into()],
            unit: if tolerance.is_some() {
                "MSS".into()
            } else {
                String::new()
            },
            value,
            text: match value {
                Given::Choice(i) => ["a", "b"][i].into(),
                Given::Number(v) => format!("{v} MSS"),
            },
            show: None,
            why: String::new(),
            tolerance,
        }
    }

    #[test]
    fn a_number_is_right_within_its_tolerance_and_told_by_how_much_otherwise() {
        let a = answer(Given::Number(16.0), Some(Tolerance::Whole));
        assert!(a.grade(Given::Number(16.2), Language::En).right);
        let f = a.grade(Given::Number(20.0), Language::En);
        assert!(!f.right);
        assert_eq!(f.text, "The run gives 16 MSS: 20 MSS is 25 % too high.");
        assert!(!a.grade(Given::Number(f64::NAN), Language::En).right);
        let r = answer(Given::Number(100.0), Some(Tolerance::Relative(0.25)));
        assert!(r.grade(Given::Number(125.0), Language::En).right);
        assert!(!r.grade(Given::Number(126.0), Language::En).right);
        assert!(Tolerance::Absolute(1.0).admits(9.0, 8.0));
        assert!(!Tolerance::Absolute(1.0).admits(9.5, 8.0));
    }

    #[test]
    fn a_wrong_choice_is_told_what_the_run_shows() {
        let a = answer(Given::Choice(1), None);
        assert!(a.grade(Given::Choice(1), Language::En).right);
        let f = a.grade(Given::Choice(0), Language::En);
        assert!(!f.right);
        assert_eq!(f.text, "Not this time: the run shows “b”, not “a”.");
        assert!(a.grade(Given::Choice(0), Language::Zh).text.contains("“b”"));
    }
}
