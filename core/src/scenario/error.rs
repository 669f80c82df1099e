//! Why a query is not a scenario: always the key at fault and what it allows, as one line a
//! person can act on (`rtt: 5000 is out of range (allowed 0.1 to 2000 ms)`).

use std::borrow::Cow;

use thiserror::Error;

use super::keys::{Key, MAX_DROPS};
use super::presets::PRESETS;

/// A bad scenario: the key at fault and the problem with it.
///
/// Displays as `key: problem`. The key is the one written in the query (percent-decoded), so a
/// page can point at the control that holds it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{}: {problem}", shown_key(&self.key))]
pub struct ScenarioError {
    key: String,
    problem: Problem,
}

/// What is wrong with a key or its value. Values are quoted as written, up to a length.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum Problem {
    #[error("unknown key (known keys: {})", known_keys())]
    UnknownKey,
    #[error("repeated key")]
    RepeatedKey,
    #[error("empty value ({allowed})")]
    Empty { allowed: String },
    #[error("{} is too long ({allowed})", quoted(value))]
    TooLong { value: String, allowed: String },
    #[error("{} is not a number ({allowed})", quoted(value))]
    NotANumber { value: String, allowed: String },
    #[error(
        "{} has an exponent: write the number in full digits ({allowed})",
        quoted(value)
    )]
    Exponent { value: String, allowed: String },
    #[error("{} is not a whole number ({allowed})", quoted(value))]
    NotWhole { value: String, allowed: String },
    #[error("{} has an unknown unit (units: {units})", quoted(value))]
    UnknownUnit { value: String, units: &'static str },
    #[error("{} is out of range ({allowed})", shown(value))]
    OutOfRange { value: String, allowed: String },
    #[error("unknown value {} (allowed {allowed})", quoted(value))]
    UnknownValue { value: String, allowed: String },
    #[error("unknown preset {} (known: {})", quoted(name), preset_names())]
    UnknownPreset { name: String },
    #[error("{} has an empty entry ({allowed})", quoted(value))]
    EmptyEntry { value: String, allowed: String },
    #[error("{count} entries (allowed up to {MAX_DROPS})")]
    TooManyDrops { count: usize },
    #[error("{count} entries (allowed up to {})", super::sched::MAX_CHANGES)]
    TooManyChanges { count: usize },
    #[error("entry {}: {why}", quoted(entry))]
    BadChange { entry: String, why: ChangeProblem },
    #[error("{given} values for {count} {} (give one value for every flow, or one for each)", noun(*count, *connections))]
    PerFlowCount {
        given: usize,
        count: usize,
        /// The workload's connections carry messages (`conns`), not flows.
        connections: bool,
    },
    #[error("trace needs a Mahimahi trace file (the runner's --link-trace FILE, or a file picked or dropped on the page)")]
    NeedsTrace,
    #[error("{0}")]
    Conflict(Conflict),
    #[error("entries must be ascending without repeats")]
    DropNotAscending,
    #[error("cannot be set on its own: it resets every other key (start the query with it)")]
    PresetNotSettable,
}

/// A value that is good on its own but not beside the rest of the scenario, or not where it was
/// written. Each is a variant, not a sentence, so that the page can say it in its reader's
/// language.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Conflict {
    /// A link read from a trace file, with `link=` naming another model.
    #[error("the trace file is the link; leave link={link} out of the query")]
    TraceIsTheLink { link: &'static str },
    /// `preset=` in a lesson's link: the lesson has chosen its scenario.
    #[error("a lesson sets its own scenario; change its keys, or open the preset without lesson=")]
    PresetInLesson,
    /// A scheduled `bw` change on a link model that sets its own rate.
    #[error("a bw change needs link=fixed (link={link} sets the rate itself)")]
    BwNeedsFixedLink { link: &'static str },
    /// A per-flow value (`KEY.N`, 1-based) of a key that has one value for every flow.
    #[error(
        "one value for every flow (the keys with one for each are {}), not flow {flow}'s",
        per_flow_names(" and ")
    )]
    OneValueForEveryFlow { flow: usize },
    /// A per-flow value for a flow the scenario does not have.
    #[error("there is no flow {flow} of {flows}")]
    NoSuchFlow { flow: usize, flows: usize },
    /// A list where one flow's value was asked.
    #[error("one value for flow {flow}, not a list")]
    OneFlowNotAList { flow: usize },
}

/// What is wrong with one entry of a schedule (`sched=T:KEY:VALUE,...`).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ChangeProblem {
    #[error("is not T:KEY:VALUE ({})", super::sched::allowed())]
    Shape,
    #[error("time {} is not 0 to 600 s", quoted(time))]
    Time { time: String },
    #[error(
        "unknown key {} (allowed {})",
        quoted(key),
        super::sched::schedulable_names()
    )]
    UnknownKey { key: String },
    #[error(
        "{key} cannot be scheduled (allowed {})",
        super::sched::schedulable_names()
    )]
    NotSchedulable { key: Key },
    /// The value, read as the key itself reads it.
    #[error("{key}: {problem}")]
    Value { key: Key, problem: Box<Problem> },
    #[error("comes before the entry ahead of it (times ascend)")]
    NotAscending,
}

/// The keys that take a value for each flow, as a list ending in `last` ("cc, rtt, iw and
/// start").
pub fn per_flow_names(last: &str) -> String {
    let names: Vec<&str> = Key::ALL
        .iter()
        .filter(|k| k.per_flow())
        .map(|k| k.name())
        .collect();
    match names.split_last() {
        Some((end, rest)) if !rest.is_empty() => format!("{}{last}{end}", rest.join(", ")),
        _ => names.concat(),
    }
}

fn noun(count: usize, connections: bool) -> &'static str {
    match (connections, count == 1) {
        (false, true) => "flow",
        (false, false) => "flows",
        (true, true) => "connection",
        (true, false) => "connections",
    }
}

impl ScenarioError {
    pub(crate) fn new(key: impl Into<String>, problem: Problem) -> Self {
        ScenarioError {
            key: key.into(),
            problem,
        }
    }

    pub(crate) fn unknown_key(key: &str) -> Self {
        ScenarioError::new(key, Problem::UnknownKey)
    }

    /// The key at fault, as written in the query after percent-decoding.
    pub fn key(&self) -> &str {
        &self.key
    }

    pub fn problem(&self) -> &Problem {
        &self.problem
    }
}

/// Longest key or value repeated back in a message, in characters.
const SHOWN_CHARS: usize = 64;

/// Whether `c` must not be shown as itself in a message: a control character, or a Unicode
/// format character that is invisible or reorders the text around it (bidi embeddings,
/// overrides and isolates, zero-width characters, the BOM). Shown raw, a right-to-left override
/// inside a hand-edited link would make the lab's own sentence read backwards.
pub fn is_unshowable(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{061C}'
                | '\u{180E}'
                | '\u{200B}'..='\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2060}'..='\u{2064}'
                | '\u{2066}'..='\u{206F}'
                | '\u{FEFF}'
                | '\u{FFF9}'..='\u{FFFB}'
        )
}

/// A whole message with its control and format characters escaped (nothing cut): for messages
/// that repeat a command-line argument, as `shown` does for a scenario's values.
pub fn escaped(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    for c in message.chars() {
        push_shown(&mut out, c);
    }
    out
}

/// Appends `c` as a message shows it: `\n` for a control character, `\u{202e}` for a format
/// character, itself otherwise.
fn push_shown(out: &mut String, c: char) {
    if c.is_control() {
        out.extend(c.escape_default());
    } else if is_unshowable(c) {
        out.extend(c.escape_unicode());
    } else {
        out.push(c);
    }
}

/// `s` fit to repeat in a one-line message: control and format characters escaped (`\n`,
/// `\u{202e}`), long input cut after 64 characters with `…`.
pub fn shown(s: &str) -> Cow<'_, str> {
    if s.chars().count() <= SHOWN_CHARS && !s.chars().any(is_unshowable) {
        return Cow::Borrowed(s);
    }
    let mut out = String::new();
    for c in s.chars().take(SHOWN_CHARS) {
        push_shown(&mut out, c);
    }
    if s.chars().nth(SHOWN_CHARS).is_some() {
        out.push('…');
    }
    Cow::Owned(out)
}

/// A key as the message starts: quoted when empty (`=5`), so the line still reads.
fn shown_key(key: &str) -> Cow<'_, str> {
    if key.is_empty() {
        Cow::Borrowed("\"\"")
    } else {
        shown(key)
    }
}

pub(crate) fn quoted(s: &str) -> String {
    format!("\"{}\"", shown(s).replace('"', "\\\""))
}

/// Every key's name, a discipline's several settings as one pattern (`codel_*`), so that the
/// list stays a line a person reads.
fn known_keys() -> String {
    let family = |name: &'static str| name.split_once('_').map(|(f, _)| f);
    let shared = |f: &str| {
        Key::ALL
            .iter()
            .filter(|k| family(k.name()) == Some(f))
            .count()
            > 1
    };
    let mut names: Vec<String> = Vec::new();
    for k in Key::ALL {
        let name = match family(k.name()).filter(|f| shared(f)) {
            Some(f) => format!("{f}_*"),
            None => k.name().to_string(),
        };
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names.join(", ")
}

fn preset_names() -> String {
    join(PRESETS.iter().map(|p| p.name))
}

fn join<'a>(names: impl Iterator<Item = &'a str>) -> String {
    names.collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(key: &str, problem: Problem) -> String {
        ScenarioError::new(key, problem).to_string()
    }

    #[test]
    fn bidi_and_invisible_characters_are_escaped() {
        assert_eq!(shown("a\u{202E}b"), "a\\u{202e}b");
        assert_eq!(shown("\u{2066}x\u{2069}"), "\\u{2066}x\\u{2069}");
        assert_eq!(
            shown("zero\u{200B}width\u{FEFF}"),
            "zero\\u{200b}width\\u{feff}"
        );
        assert_eq!(shown("line\nbreak"), "line\\nbreak");
        assert_eq!(shown("中文 ok"), "中文 ok", "visible text is left alone");
        let m = message(
            "cc",
            Problem::UnknownValue {
                value: "\u{202E}moc.elpmaxe".into(),
                allowed: "reno, cubic, bbr".into(),
            },
        );
        assert!(!m.chars().any(is_unshowable), "{m}");
    }

    #[test]
    fn messages_read_like_the_spec() {
        assert_eq!(
            message(
                "rtt",
                Problem::OutOfRange {
                    value: "5000".into(),
                    allowed: "allowed 0.1 to 2000 ms".into()
                }
            ),
            "rtt: 5000 is out of range (allowed 0.1 to 2000 ms)"
        );
        assert_eq!(
            message(
                "iw",
                Problem::NotWhole {
                    value: "ten".into(),
                    allowed: "allowed 1 to 1000 segments".into()
                }
            ),
            r#"iw: "ten" is not a whole number (allowed 1 to 1000 segments)"#
        );
        assert_eq!(message("loss", Problem::RepeatedKey), "loss: repeated key");
        assert!(message("foo", Problem::UnknownKey)
            .starts_with("foo: unknown key (known keys: preset, cc, rtt, bw, "));
        // A discipline's settings are one pattern; a key alone in its family is named whole.
        let all = known_keys();
        assert!(
            all.contains("codel_*, fq_quantum, pie_*, red_*, mss"),
            "{all}"
        );
        assert!(!all.contains("codel_target"), "{all}");
        assert!(message("foo", Problem::UnknownKey).ends_with(", seed, at)"));
        assert_eq!(
            message(
                "cc",
                Problem::UnknownValue {
                    value: "vegas".into(),
                    allowed: "reno, cubic, bbr".into()
                }
            ),
            r#"cc: unknown value "vegas" (allowed reno, cubic, bbr)"#
        );
        assert!(
            message("preset", Problem::UnknownPreset { name: "x".into() })
                .starts_with(r#"preset: unknown preset "x" (known: post-slow-start, "#)
        );
    }

    #[test]
    fn long_and_control_input_is_tamed() {
        let key = format!("a\nb{}", "x".repeat(100));
        let m = message(&key, Problem::UnknownKey);
        assert!(m.starts_with(r"a\nbxxx"), "{m}");
        assert!(m.contains("…: unknown key"), "{m}");
        assert!(!m.contains('\n'));
        assert!(message("", Problem::UnknownKey).starts_with(r#""": unknown key"#));
        let q = quoted("say \"hi\"");
        assert_eq!(q, r#""say \"hi\"""#);
    }
}
