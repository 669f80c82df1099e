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
    Number { unit: Unit, tolerance: Tolerance },
}

/// The unit of a number the class writes, and whether the quantity can be below zero (a
/// window, a time, a rate or a count cannot, so "-5" is refused as written, not graded as
/// far off).
#[derive(Debug, Clone, Copy)]
pub struct Unit {
    pub name: Text,
    pub signed: bool,
}

/// The numbers the page's hint gives as examples of how to write one ("such as 0.35 or
/// 7,200"): a decimal and a number with a thousands separator. They are far from every answer
/// of every lesson (`core/tests/lessons.rs` holds them outside each numeric question's
/// tolerance), so an example never hands the class an answer.
pub const NUMBER_EXAMPLES: [&str; 2] = ["0.35", "7,200"];

/// How to write a number, with [`NUMBER_EXAMPLES`].
pub fn number_hint(lang: Language) -> String {
    let [a, b] = NUMBER_EXAMPLES;
    match lang {
        Language::En => format!("Write a number, such as {a} or {b}."),
        Language::Zh => format!("请填写一个数字，例如 {a} 或 {b}。"),
    }
}

/// Why a number the class wrote is not read as an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// Nothing, or not a number ("sixteen", "inf", a wall of digits).
    NotANumber,
    /// Below zero, for a quantity that cannot be.
    Negative,
    /// Written with an exponent (`1e3`): the page's links refuse them too, so that a number
    /// reads the same to the class as to the lab.
    Exponent(String),
    /// A comma that groups no three digits (`1,8`, `0,5`): a decimal comma, as much of the
    /// world writes one. Read as the thousands separator it is in `1,250`, `1,8` would be 18,
    /// ten times what was meant; it is refused instead, with the point to write.
    DecimalComma(String),
}

impl Refusal {
    /// What the page says under the box.
    pub fn message(&self, unit: &str, lang: Language) -> String {
        match (self, lang) {
            (Refusal::NotANumber, lang) => number_hint(lang),
            (Refusal::Negative, Language::En) => format!(
                "The answer cannot be below zero here: write 0 or more{}.",
                if unit.is_empty() {
                    String::new()
                } else {
                    format!(" (in {unit})")
                }
            ),
            (Refusal::Negative, Language::Zh) => format!(
                "这里的答案不可能小于零：请填写 0 或更大的数{}。",
                if unit.is_empty() {
                    String::new()
                } else {
                    format!("（单位 {unit}）")
                }
            ),
            (Refusal::Exponent(written), Language::En) => {
                format!("“{written}” has an exponent: write the number in full digits.")
            }
            (Refusal::Exponent(written), Language::Zh) => {
                format!("“{written}”用了指数形式：请写出完整的数字。")
            }
            (Refusal::DecimalComma(written), Language::En) => format!(
                "“{written}”: a comma groups thousands here (1,250); write a decimal with a \
                 point: {}.",
                with_point(written)
            ),
            (Refusal::DecimalComma(written), Language::Zh) => format!(
                "“{written}”：逗号在这里用于千位分隔（1,250）；小数请用小数点：{}。",
                with_point(written)
            ),
        }
    }
}

/// A question's `because` that says nothing of its own: the lead-in to the lab's sentence for
/// the step that shows the answer. An answer no step shows ("it does not" end) has no such
/// sentence, and the lead-in goes with it.
pub const THE_RUN: Text = Text {
    en: "What the run did:",
    zh: "运行中发生的是：",
};

/// A number written with a decimal comma, written with a point.
fn with_point(written: &str) -> String {
    written.replace(['，', ','], ".")
}

/// Whether each comma of `text` groups thousands: digits before it, exactly three after it
/// (up to the next comma, the point or the end), and none after the point.
fn commas_group_thousands(text: &str) -> bool {
    let chars: Vec<char> = text
        .chars()
        .map(|c| match c {
            '０'..='９' => '0',
            '．' => '.',
            '，' => ',',
            c => c,
        })
        .collect();
    let mut past_point = false;
    for (i, &c) in chars.iter().enumerate() {
        match c {
            '.' => past_point = true,
            ',' => {
                let before = i > 0 && chars[i - 1].is_ascii_digit();
                let after = chars[i + 1..]
                    .iter()
                    .take_while(|c| c.is_ascii_digit())
                    .count();
                if past_point || !before || after != 3 {
                    return false;
                }
            }
            _ => {}
        }
    }
    true
}

/// Longest number read, separators left out: room for any answer a lesson has, and a pasted
/// wall of digits is refused at once.
const MAX_NUMBER_LEN: usize = 32;

/// Reads a number as a class writes it: `16`, `8.5`, `.5`, `1,250`, `2 400`, full-width digits
/// from a Chinese keyboard (`１６`), a leading `+`. A minus sign is refused unless `signed`,
/// and so is an exponent (`1e3`), each with its own reason.
pub fn read_number(text: &str, signed: bool) -> Result<f64, Refusal> {
    let cleaned: String = text
        .trim()
        .chars()
        .filter_map(|c| match c {
            // Thousands separators and spaces, as a class groups digits.
            ',' | '，' | '_' | ' ' | '\u{a0}' | '\u{202f}' | '\u{2009}' => None,
            // Full-width digits and point.
            '０'..='９' => char::from_u32(u32::from(c) - u32::from('０') + u32::from('0')),
            '．' => Some('.'),
            // A typographic minus is a minus.
            '\u{2212}' => Some('-'),
            c => Some(c),
        })
        .collect();
    if cleaned.is_empty() || cleaned.len() > MAX_NUMBER_LEN {
        return Err(Refusal::NotANumber);
    }
    let (negative, body) = match cleaned.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, cleaned.strip_prefix('+').unwrap_or(&cleaned)),
    };
    let plain = |s: &str| {
        s.bytes().any(|b| b.is_ascii_digit())
            && s.bytes().all(|b| b.is_ascii_digit() || b == b'.')
            && s.bytes().filter(|&b| b == b'.').count() <= 1
    };
    if !plain(body) {
        // `1e3`, `2.5E-2`: a plain number with an exponent after it.
        let exponent = body
            .split_once(['e', 'E'])
            .is_some_and(|(mantissa, power)| {
                let power = power.strip_prefix(['+', '-']).unwrap_or(power);
                plain(mantissa) && !power.is_empty() && power.bytes().all(|b| b.is_ascii_digit())
            });
        return Err(if exponent {
            Refusal::Exponent(text.trim().to_string())
        } else {
            Refusal::NotANumber
        });
    }
    if !commas_group_thousands(text.trim()) {
        return Err(Refusal::DecimalComma(text.trim().to_string()));
    }
    if negative && !signed {
        return Err(Refusal::Negative);
    }
    let value = body.parse::<f64>().map_err(|_| Refusal::NotANumber)?;
    Ok(if negative { -value } else { value })
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
    /// The number can be below zero.
    pub signed: bool,
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
        let (choices, unit, signed, tolerance) = match self.form {
            Form::Choice(choices) => (
                choices
                    .iter()
                    .map(|c| slots::fill(c.get(lang), evidence, at, lang))
                    .collect::<Option<Vec<String>>>()?,
                String::new(),
                false,
                None,
            ),
            Form::Number { unit, tolerance } => (
                Vec::new(),
                unit.name.get(lang).to_string(),
                unit.signed,
                Some(tolerance),
            ),
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
        // The lab's own sentence for the step that shows the answer, as the player's log
        // writes it beside the reveal.
        let sentence = evidence
            .steps
            .zip(found.show)
            .and_then(|(steps, i)| Some(explain(steps.steps.get(i)?, steps, lang)));
        match sentence {
            Some(s) => {
                // Chinese punctuation is full width: no space after it.
                if !why.ends_with(['：', '。', '，', '；']) {
                    why.push(' ');
                }
                why.push_str(&as_the_log_writes(&s));
            }
            None if self.because == THE_RUN => why.clear(),
            None => {}
        }
        Some(Answer {
            ask,
            choices,
            unit,
            signed,
            value: found.value,
            text,
            show: found.show,
            why,
            tolerance,
        })
    }
}

/// The lab's sentence as the page shows it: `explain` writes a change of a number as
/// `cwnd 24 -> 23` (plain text, for the command line's trace), the player's log as `24 → 23`
/// held on one line by no-break spaces (`web/src/player/log.rs`, `sentence`), and the reveal
/// stands beside that log.
pub fn as_the_log_writes(sentence: &str) -> String {
    sentence.replace(" -> ", "\u{a0}→\u{a0}")
}

fn with_unit(n: String, unit: &str) -> String {
    if unit.is_empty() {
        n
    } else {
        format!("{n} {unit}")
    }
}

impl Answer {
    /// The number the class wrote, read by this question's rules, or why it is refused (the
    /// message under the box).
    pub fn read(&self, text: &str, lang: Language) -> Result<Given, String> {
        read_number(text, self.signed)
            .map(Given::Number)
            .map_err(|r| r.message(&self.unit, lang))
    }

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
                // Off by a factor of two or more, a percentage reads oddly ("3 ms is 100 % too
                // low" of 1,216 ms): the factor says it.
                let factor = if g > a { g / a } else { a / g };
                let far = g > 0.0 && a > 0.0 && factor >= 2.0;
                let times = number(factor, 2);
                let text = match (right, zh, g > a) {
                    (true, false, _) => {
                        format!("Right: the run gives {}; you said {said}.", self.text)
                    }
                    (true, true, _) => {
                        format!("答对了：运行给出 {}；你的答案是 {said}。", self.text)
                    }
                    (false, false, true) if far => format!(
                        "The run gives {}: your {said} is {times} times that.",
                        self.text
                    ),
                    (false, false, false) if far => {
                        format!("The run gives {}, {times} times your {said}.", self.text)
                    }
                    (false, true, true) if far => {
                        format!("运行给出 {}：你的 {said} 是它的 {times} 倍。", self.text)
                    }
                    (false, true, false) if far => {
                        format!("运行给出 {}，是你的 {said} 的 {times} 倍。", self.text)
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
            signed: false,
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
        // Off by a factor, the factor: not "3 MSS is 81 % too low".
        let f = a.grade(Given::Number(3.0), Language::En);
        assert_eq!(f.text, "The run gives 16 MSS, 5.3 times your 3 MSS.");
        let f = a.grade(Given::Number(40.0), Language::Zh);
        assert_eq!(f.text, "运行给出 16 MSS：你的 40 MSS 是它的 2.5 倍。");
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

    #[test]
    fn a_number_is_read_as_a_class_writes_it() {
        let read = |t: &str| read_number(t, false);
        assert_eq!(read(" 16 "), Ok(16.0));
        assert_eq!(read("1,250"), Ok(1250.0));
        assert_eq!(read("8.5"), Ok(8.5));
        assert_eq!(read(".5"), Ok(0.5));
        assert_eq!(read("2 400"), Ok(2400.0));
        assert_eq!(read("+7"), Ok(7.0));
        assert_eq!(read("１６．５"), Ok(16.5));
        assert_eq!(read("0"), Ok(0.0));
        for bad in [
            "", "  ", "sixteen", "inf", "NaN", "1.2.3", "-", ".", "16 MSS", "0x10",
        ] {
            assert_eq!(read(bad), Err(Refusal::NotANumber), "{bad:?}");
        }
        assert_eq!(read(&"9".repeat(400)), Err(Refusal::NotANumber));
        assert_eq!(read("12,345,678.5"), Ok(12_345_678.5));
        assert_eq!(read("１，２５０"), Ok(1250.0));
    }

    #[test]
    fn a_decimal_comma_is_refused_not_read_as_ten_times_the_number() {
        let read = |t: &str| read_number(t, false);
        for t in ["1,8", "0,5", "12,34", "1,2345", ",5", "1.5,000", "1,250,5"] {
            assert_eq!(read(t), Err(Refusal::DecimalComma(t.to_string())), "{t:?}");
        }
        assert_eq!(
            Refusal::DecimalComma("1,8".into()).message("MB/s", Language::En),
            "“1,8”: a comma groups thousands here (1,250); write a decimal with a point: 1.8."
        );
    }

    #[test]
    fn a_negative_or_an_exponent_is_refused_with_its_reason() {
        // A window, a time, a rate or a count cannot be below zero.
        for t in ["-5", "−5", " -0.5", "-0"] {
            assert_eq!(read_number(t, false), Err(Refusal::Negative), "{t:?}");
        }
        assert_eq!(read_number("-5", true), Ok(-5.0));
        // The page's links refuse exponents; so does the answer box.
        for t in ["1e3", "1E3", "2.5e-2", "1e+3", "-1e3"] {
            assert_eq!(
                read_number(t, false),
                Err(Refusal::Exponent(t.to_string())),
                "{t:?}"
            );
        }
        assert_eq!(read_number("1e", false), Err(Refusal::NotANumber));
        assert_eq!(read_number("e3", false), Err(Refusal::NotANumber));
        let a = answer(Given::Number(16.0), Some(Tolerance::Whole));
        assert_eq!(
            a.read("-5", Language::En),
            Err("The answer cannot be below zero here: write 0 or more (in MSS).".to_string())
        );
        assert_eq!(
            a.read("1e3", Language::En),
            Err("“1e3” has an exponent: write the number in full digits.".to_string())
        );
        assert!(a
            .read("-5", Language::Zh)
            .is_err_and(|m| m.contains("小于零")));
        assert_eq!(
            a.read("sixteen", Language::En),
            Err(number_hint(Language::En))
        );
        assert_eq!(a.read("16", Language::En), Ok(Given::Number(16.0)));
    }

    #[test]
    fn the_labs_sentence_is_written_as_the_players_log_writes_it() {
        assert_eq!(
            as_the_log_writes("RTO fired after 608 ms: cwnd 1 -> 1 MSS, ssthresh 13 MSS."),
            "RTO fired after 608 ms: cwnd 1\u{a0}→\u{a0}1 MSS, ssthresh 13 MSS."
        );
    }
}
