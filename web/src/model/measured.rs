//! The number an engineer measured, for "My number, explained": as the form reads what was
//! typed into it and as a link carries it (`my_goodput=`, `my_time=`), and why either refuses
//! one. A number reads the same in both, so a link a page wrote opens on the same question.

use tcplab::diagnose::{check, ExplainError, Measured};
use tcplab::lesson::question::read_number;
use tcplab::lesson::Refusal as LessonRefusal;
use tcplab::{App, Scenario};

use crate::controls::app_label;
use crate::i18n::Lang;
use crate::model::address::BadLink;
use crate::model::format;

/// Why the page did not ask, kept apart from its wording so that the message follows the
/// page's language.
#[derive(Debug, Clone, PartialEq)]
pub enum Refusal {
    /// What was typed is not a number above 0.
    NotANumber { field: Field, text: String },
    /// Written with an exponent (`1e99`), which the page's links and a lesson's answers refuse
    /// too: a number reads the same everywhere in the lab.
    Exponent { field: Field, text: String },
    /// A decimal comma (`1,8`), which would read as 18 (`tcplab::lesson::question::read_number`).
    DecimalComma { field: Field, text: String },
    /// The simulator's own check refused it (`tcplab::diagnose::check`).
    Check(ExplainError),
}

/// The form's two fields: what was measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Goodput,
    Time,
}

impl Field {
    pub const ALL: [Field; 2] = [Field::Goodput, Field::Time];

    /// The link's key for a number measured so (docs/scenario.md, "The page's own keys").
    pub fn key(self) -> &'static str {
        match self {
            Field::Goodput => "my_goodput",
            Field::Time => "my_time",
        }
    }

    pub fn of(m: Measured) -> Field {
        match m {
            Measured::Goodput(_) => Field::Goodput,
            Measured::Time(_) => Field::Time,
        }
    }

    /// The unit its numbers are in.
    fn unit(self) -> &'static str {
        match self {
            Field::Goodput => "MB/s",
            Field::Time => "ms",
        }
    }
}

/// The key and value a link carries for `m`: the number as Rust writes an `f64`, the shortest
/// text that reads back to the same number.
pub fn write(m: Measured) -> (&'static str, String) {
    (Field::of(m).key(), format!("{}", m.value()))
}

/// The number a link's `my_goodput=` or `my_time=` (`pairs`, decoded) asks about on `path`, if
/// either is there; the key at fault, in English and Chinese, if it cannot be asked (the
/// runner's own check: a time needs a body, each number its range).
pub fn read(pairs: &[(String, String)], path: &Scenario) -> Result<Option<Measured>, BadLink> {
    let mut given = Field::ALL
        .into_iter()
        .filter_map(|f| Some((f, pairs.iter().find(|(k, _)| k == f.key())?.1.as_str())));
    let Some((field, text)) = given.next() else {
        return Ok(None);
    };
    if let Some((other, _)) = given.next() {
        return Err(BadLink::new(
            other.key(),
            format!("give one of {} and {}", field.key(), other.key()),
            format!("{} 与 {} 只能给一个", field.key(), other.key()),
        ));
    }
    measured(path, field, text).map(Some).map_err(|r| {
        BadLink::new(
            field.key(),
            link_problem(&r, Lang::En),
            link_problem(&r, Lang::Zh),
        )
    })
}

/// A refusal as a link's message says it after the key, in the words of the scenario's own
/// (`rtt: "abc" is not a number (allowed 0.1 to 2000 ms)`).
fn link_problem(r: &Refusal, lang: Lang) -> String {
    let allowed = |field: Field| {
        let (max, unit) = (range_max(field), field.unit());
        match lang {
            Lang::En => format!("allowed above 0 to {max} {unit}"),
            Lang::Zh => format!("允许大于 0 至 {max} {unit}"),
        }
    };
    match (r, lang) {
        (Refusal::NotANumber { field, text }, Lang::En) => {
            format!("\"{text}\" is not a number ({})", allowed(*field))
        }
        (Refusal::NotANumber { field, text }, Lang::Zh) => {
            format!("“{text}”不是数字（{}）", allowed(*field))
        }
        (Refusal::Exponent { field, text }, Lang::En) => format!(
            "\"{text}\" has an exponent: write the number in full digits ({})",
            allowed(*field)
        ),
        (Refusal::Exponent { field, text }, Lang::Zh) => format!(
            "“{text}”用了指数形式：请写出完整的数字（{}）",
            allowed(*field)
        ),
        (Refusal::DecimalComma { text, .. }, _) => decimal_comma(text, lang),
        (Refusal::Check(ExplainError::GoodputOutOfRange(v)), Lang::En) => format!(
            "{} is out of range ({})",
            format::number(*v, 6),
            allowed(Field::Goodput)
        ),
        (Refusal::Check(ExplainError::GoodputOutOfRange(v)), Lang::Zh) => format!(
            "{} 超出范围（{}）",
            format::number(*v, 6),
            allowed(Field::Goodput)
        ),
        (Refusal::Check(ExplainError::TimeOutOfRange(v)), Lang::En) => format!(
            "{} is out of range ({})",
            format::number(*v, 7),
            allowed(Field::Time)
        ),
        (Refusal::Check(ExplainError::TimeOutOfRange(v)), Lang::Zh) => format!(
            "{} 超出范围（{}）",
            format::number(*v, 7),
            allowed(Field::Time)
        ),
        (Refusal::Check(ExplainError::TimeNeedsBody(app)), Lang::En) => format!(
            "the time one body took applies to app=body only (this path has app={}): give my_goodput",
            app.name()
        ),
        (Refusal::Check(ExplainError::TimeNeedsBody(app)), Lang::Zh) => format!(
            "一个请求体的耗时只适用于 app=body（这条路径是 app={}）：请改用 my_goodput",
            app.name()
        ),
    }
}

/// The field as the form's choice names it: the runner's flags (`--goodput`, `--time`) mean
/// nothing on the page.
pub fn field_name(field: Field, lang: Lang) -> &'static str {
    match field {
        Field::Goodput => lang.pick("The goodput you measured (MB/s)", "测得的有效吞吐（MB/s）"),
        Field::Time => lang.pick("The time one body took (ms)", "一个请求体的耗时（ms）"),
    }
}

/// The refusal in the page's words.
pub fn refusal(r: &Refusal, lang: Lang) -> String {
    match (r, lang) {
        (Refusal::NotANumber { field, text }, Lang::En) => {
            format!(
                "{}: \"{text}\" is not a number above 0.",
                field_name(*field, lang)
            )
        }
        (Refusal::NotANumber { field, text }, Lang::Zh) => {
            format!("{}：“{text}”不是大于 0 的数。", field_name(*field, lang))
        }
        (Refusal::Exponent { field, text }, Lang::En) => format!(
            "{}: \"{text}\" has an exponent: write the number in full digits ({}).",
            field_name(*field, lang),
            range(*field, lang)
        ),
        (Refusal::Exponent { field, text }, Lang::Zh) => format!(
            "{}：“{text}”用了指数形式：请写出完整的数字（{}）。",
            field_name(*field, lang),
            range(*field, lang)
        ),
        (Refusal::DecimalComma { field, text }, _) => format!(
            "{}{}{}",
            field_name(*field, lang),
            lang.pick(": ", "："),
            decimal_comma(text, lang)
        ),
        (Refusal::Check(e), _) => checked(e, lang),
    }
}

/// The values `field` takes, in the page's words.
fn range(field: Field, lang: Lang) -> String {
    let max = range_max(field);
    match lang {
        Lang::En => format!("above 0, up to {max}"),
        Lang::Zh => format!("须大于 0，至多 {max}"),
    }
}

/// Why a decimal comma is refused, in the lessons' words (one sentence for the lab).
fn decimal_comma(text: &str, lang: Lang) -> String {
    LessonRefusal::DecimalComma(text.to_string()).message("", lang.language())
}

/// The largest number `field` takes, as the page writes it.
fn range_max(field: Field) -> String {
    match field {
        Field::Goodput => format::number(tcplab::diagnose::MAX_GOODPUT, 6),
        Field::Time => format::number(tcplab::diagnose::MAX_TIME_MS, 7),
    }
}

fn checked(e: &ExplainError, lang: Lang) -> String {
    let (goodput, time) = (
        field_name(Field::Goodput, lang),
        field_name(Field::Time, lang),
    );
    let (goodput_range, time_range) = (range(Field::Goodput, lang), range(Field::Time, lang));
    match (e, lang) {
        (ExplainError::GoodputOutOfRange(v), Lang::En) => format!(
            "{goodput}: {} is out of range ({goodput_range}).",
            format::number(*v, 6)
        ),
        (ExplainError::GoodputOutOfRange(v), Lang::Zh) => format!(
            "{goodput}：{} 超出范围（{goodput_range}）。",
            format::number(*v, 6)
        ),
        (ExplainError::TimeOutOfRange(v), Lang::En) => format!(
            "{time}: {} is out of range ({time_range}).",
            format::number(*v, 7)
        ),
        (ExplainError::TimeOutOfRange(v), Lang::Zh) => format!(
            "{time}：{} 超出范围（{time_range}）。",
            format::number(*v, 7)
        ),
        (ExplainError::TimeNeedsBody(app), Lang::En) => format!(
            "{time} applies to the {} workload only, and this path's is {}: give a goodput, or choose {} under Workload.",
            app_label(App::Body, lang),
            app_label(*app, lang),
            app_label(App::Body, lang)
        ),
        (ExplainError::TimeNeedsBody(app), Lang::Zh) => format!(
            "{time}只适用于“{}”负载，而这条路径的负载是“{}”：请改填有效吞吐，或在“负载”中选择“{}”。",
            app_label(App::Body, lang),
            app_label(*app, lang),
            app_label(App::Body, lang)
        ),
    }
}
/// What to ask, from what was typed into `field`: the measurement, or why the page will not ask.
pub fn measured(scenario: &Scenario, field: Field, typed: &str) -> Result<Measured, Refusal> {
    let text = typed.trim();
    // Read as a lesson's answer is (`1,250`, full-width digits), so a wall of digits or an
    // exponent is refused here, not echoed back as a hundred digits out of range.
    // A number at or below zero is read, and refused by the range check as out of range,
    // not as "not a number".
    let v = match read_number(text, true) {
        Ok(v) if v.is_finite() => v,
        Err(LessonRefusal::Exponent(_)) => {
            return Err(Refusal::Exponent {
                field,
                text: text.to_string(),
            })
        }
        Err(LessonRefusal::DecimalComma(_)) => {
            return Err(Refusal::DecimalComma {
                field,
                text: text.to_string(),
            })
        }
        _ => {
            return Err(Refusal::NotANumber {
                field,
                text: text.to_string(),
            })
        }
    };
    let m = match field {
        Field::Time => Measured::Time(v),
        Field::Goodput => Measured::Goodput(v),
    };
    check(scenario, m).map_err(Refusal::Check)?;
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(q: &str) -> Scenario {
        Scenario::parse(q).unwrap_or_default()
    }

    fn refused(q: &str, field: Field, typed: &str, lang: Lang) -> String {
        match measured(&path(q), field, typed) {
            Err(r) => refusal(&r, lang),
            Ok(m) => panic!("{typed} asked as {m:?}"),
        }
    }

    #[test]
    fn a_refusal_names_the_page_s_fields_not_the_runner_s_flags() {
        assert_eq!(
            refused("", Field::Goodput, " abc ", Lang::En),
            "The goodput you measured (MB/s): \"abc\" is not a number above 0."
        );
        assert_eq!(
            refused("", Field::Time, "-3", Lang::Zh),
            "一个请求体的耗时（ms）：-3 超出范围（须大于 0，至多 3,600,000）。"
        );
        assert_eq!(
            refused("", Field::Goodput, "0", Lang::En),
            "The goodput you measured (MB/s): 0 is out of range (above 0, up to 100,000)."
        );
        // A decimal comma would read as ten times the number: refused, with the point.
        assert_eq!(
            refused("", Field::Goodput, "1,8", Lang::En),
            "The goodput you measured (MB/s): “1,8”: a comma groups thousands here (1,250); \
             write a decimal with a point: 1.8."
        );
        assert_eq!(
            refused("app=bulk", Field::Time, "100", Lang::En),
            "The time one body took (ms) applies to the Body workload only, and this path's is \
             Bulk: give a goodput, or choose Body under Workload."
        );
        assert_eq!(
            refused("", Field::Goodput, "200000", Lang::En),
            "The goodput you measured (MB/s): 200,000 is out of range (above 0, up to 100,000)."
        );
        // An exponent is refused as the links refuse it, not read and echoed back as a
        // hundred digits; so is a wall of digits.
        assert_eq!(
            refused("", Field::Goodput, "1e99", Lang::En),
            "The goodput you measured (MB/s): \"1e99\" has an exponent: write the number in \
             full digits (above 0, up to 100,000)."
        );
        assert_eq!(
            refused("", Field::Time, "2E3", Lang::Zh),
            "一个请求体的耗时（ms）：“2E3”用了指数形式：请写出完整的数字（须大于 0，至多 3,600,000）。"
        );
        let wall = "9".repeat(100);
        assert_eq!(
            refused("", Field::Goodput, &wall, Lang::En),
            format!("The goodput you measured (MB/s): \"{wall}\" is not a number above 0.")
        );
        assert_eq!(
            measured(&path(""), Field::Time, "1,250"),
            Ok(Measured::Time(1250.0))
        );
        for lang in Lang::ALL {
            for (q, field, typed) in [
                ("", Field::Goodput, "abc"),
                ("app=msgs", Field::Time, "5"),
                ("", Field::Time, "4000000"),
            ] {
                let text = refused(q, field, typed, lang);
                assert!(!text.contains("--"), "{text}");
            }
        }
        assert_eq!(
            measured(&path(""), Field::Time, "6390"),
            Ok(Measured::Time(6390.0))
        );
    }

    fn link(q: &str, search: &str) -> Result<Option<Measured>, BadLink> {
        let pairs: Vec<(String, String)> = search
            .split('&')
            .filter_map(|kv| kv.split_once('='))
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        read(&pairs, &path(q))
    }

    #[test]
    fn a_link_carries_the_number_and_reads_back_the_same() {
        assert_eq!(link("", "view=diagnose"), Ok(None));
        for m in [
            Measured::Goodput(1.8),
            Measured::Goodput(0.0018),
            Measured::Goodput(100_000.0),
            Measured::Time(6390.0),
            Measured::Time(0.25),
        ] {
            let (k, v) = write(m);
            assert_eq!(link("", &format!("{k}={v}")), Ok(Some(m)), "{k}={v}");
        }
        assert_eq!(
            write(Measured::Goodput(1.8)),
            ("my_goodput", "1.8".to_string())
        );
        assert_eq!(
            write(Measured::Time(6390.0)),
            ("my_time", "6390".to_string())
        );
    }

    #[test]
    fn a_bad_number_in_a_link_names_its_key_and_range() {
        let refused = |q: &str, search: &str| match link(q, search) {
            Err(b) => (b.key, b.problem, b.problem_zh),
            Ok(m) => panic!("{search} read as {m:?}"),
        };
        assert_eq!(
            refused("", "my_goodput=abc"),
            (
                "my_goodput".to_string(),
                "\"abc\" is not a number (allowed above 0 to 100,000 MB/s)".to_string(),
                "“abc”不是数字（允许大于 0 至 100,000 MB/s）".to_string()
            )
        );
        assert_eq!(
            refused("", "my_goodput=-1").1,
            "-1 is out of range (allowed above 0 to 100,000 MB/s)"
        );
        assert_eq!(
            refused("", "my_goodput=1,8").1,
            "“1,8”: a comma groups thousands here (1,250); write a decimal with a point: 1.8."
        );
        assert_eq!(
            refused("", "my_time=4000000").1,
            "4,000,000 is out of range (allowed above 0 to 3,600,000 ms)"
        );
        assert_eq!(
            refused("", "my_goodput=1e99").1,
            "\"1e99\" has an exponent: write the number in full digits (allowed above 0 to \
             100,000 MB/s)"
        );
        assert_eq!(
            refused("app=bulk", "my_time=100").1,
            "the time one body took applies to app=body only (this path has app=bulk): give \
             my_goodput"
        );
        let both = refused("", "my_goodput=1&my_time=100");
        assert_eq!(both.0, "my_time");
        assert_eq!(both.1, "give one of my_goodput and my_time");
    }
}
