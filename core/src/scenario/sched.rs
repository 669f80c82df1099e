//! The path's schedule (`sched`): settings that change at given instants of a run, as a
//! routed path's bandwidth or delay does when a link fails over or a radio changes its
//! modulation. Each entry is `T:KEY:VALUE`, `T` in seconds from the start of the run; the
//! value is read exactly as the key itself is, with its units and its range.

use super::error::{ChangeProblem, Problem};
use super::keys::{Key, Value};
use super::print::fmt_decimal;
use super::units::{read_decimal, Dimension};
use super::Scenario;

/// Most entries a schedule may hold.
pub const MAX_CHANGES: usize = 1000;

/// The keys a schedule may change: the path's, never the hosts'.
pub const SCHEDULABLE: [Key; 5] = [Key::Bw, Key::Loss, Key::Rtt, Key::Ackloss, Key::Queue];

/// One setting of the path, in the units of its key.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Setting {
    /// Bottleneck rate (Mbit/s).
    Bw(f64),
    /// Random loss, data direction (percent).
    Loss(f64),
    /// Random loss, ACK direction (percent).
    Ackloss(f64),
    /// Round-trip propagation delay of every flow (ms).
    Rtt(f64),
    /// The bottleneck queue's hard limit (packets).
    Queue(u32),
}

/// A change of one setting at `at_s` seconds of simulated time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Change {
    pub at_s: f64,
    pub setting: Setting,
}

impl Setting {
    pub fn key(self) -> Key {
        match self {
            Setting::Bw(_) => Key::Bw,
            Setting::Loss(_) => Key::Loss,
            Setting::Ackloss(_) => Key::Ackloss,
            Setting::Rtt(_) => Key::Rtt,
            Setting::Queue(_) => Key::Queue,
        }
    }

    /// The value as the key's own query value writes it.
    pub fn text(self) -> String {
        match self {
            Setting::Bw(x) | Setting::Loss(x) | Setting::Ackloss(x) | Setting::Rtt(x) => {
                fmt_decimal(x)
            }
            Setting::Queue(n) => n.to_string(),
        }
    }

    /// The setting `key=raw` would make, checked as the key itself is checked.
    fn read(key: Key, raw: &str) -> Result<Setting, ChangeProblem> {
        if !SCHEDULABLE.contains(&key) {
            return Err(ChangeProblem::NotSchedulable { key });
        }
        let mut s = Scenario::default();
        s.set(key, raw).map_err(|e| ChangeProblem::Value {
            key,
            problem: Box::new(e.problem().clone()),
        })?;
        Ok(match s.value(key) {
            Value::Real(x) => match key {
                Key::Bw => Setting::Bw(x),
                Key::Loss => Setting::Loss(x),
                Key::Ackloss => Setting::Ackloss(x),
                _ => Setting::Rtt(x),
            },
            Value::Whole(n) => Setting::Queue(u32::try_from(n).unwrap_or(u32::MAX)),
            _ => return Err(ChangeProblem::NotSchedulable { key }),
        })
    }
}

pub(crate) fn schedulable_names() -> String {
    SCHEDULABLE.map(Key::name).join(", ")
}

/// How a message states what `sched` takes.
pub(crate) fn allowed() -> String {
    format!(
        "allowed comma-separated T:KEY:VALUE, T in seconds from 0 to 600 and ascending, KEY one \
         of {}, at most {MAX_CHANGES} entries",
        schedulable_names()
    )
}

/// A `sched` value: entries in the order given, which must be that of their times.
pub(crate) fn read(raw: &str) -> Result<Vec<Change>, Problem> {
    if raw.is_empty() {
        return Ok(Vec::new());
    }
    let count = raw.split(',').count();
    if count > MAX_CHANGES {
        return Err(Problem::TooManyChanges { count });
    }
    let mut out: Vec<Change> = Vec::with_capacity(count);
    for entry in raw.split(',') {
        let bad = |why: ChangeProblem| Problem::BadChange {
            entry: entry.to_owned(),
            why,
        };
        let mut parts = entry.splitn(3, ':');
        let (Some(t), Some(key), Some(value)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(bad(ChangeProblem::Shape));
        };
        let at_s = read_decimal(t, Dimension::Seconds)
            .ok()
            .filter(|t| (0.0..=600.0).contains(t))
            .ok_or_else(|| bad(ChangeProblem::Time { time: t.to_owned() }))?;
        let key = Key::from_name(key).ok_or_else(|| {
            bad(ChangeProblem::UnknownKey {
                key: key.to_owned(),
            })
        })?;
        let setting = Setting::read(key, value).map_err(bad)?;
        if out.last().is_some_and(|c| c.at_s > at_s) {
            return Err(bad(ChangeProblem::NotAscending));
        }
        out.push(Change { at_s, setting });
    }
    Ok(out)
}

/// The schedule as the query writes it.
pub(crate) fn text(changes: &[Change]) -> String {
    let entries: Vec<String> = changes
        .iter()
        .map(|c| {
            format!(
                "{}:{}:{}",
                fmt_decimal(c.at_s),
                c.setting.key(),
                c.setting.text()
            )
        })
        .collect();
    entries.join(",")
}

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;

    #[test]
    fn entries_read_in_their_keys_units_and_print_back() {
        let changes = read("10:bw:10,20:bw:1gbit,20:loss:2,30.5:rtt:0.1s,31:queue:50,32:ackloss:1");
        let want = vec![
            Change {
                at_s: 10.0,
                setting: Setting::Bw(10.0),
            },
            Change {
                at_s: 20.0,
                setting: Setting::Bw(1000.0),
            },
            Change {
                at_s: 20.0,
                setting: Setting::Loss(2.0),
            },
            Change {
                at_s: 30.5,
                setting: Setting::Rtt(100.0),
            },
            Change {
                at_s: 31.0,
                setting: Setting::Queue(50),
            },
            Change {
                at_s: 32.0,
                setting: Setting::Ackloss(1.0),
            },
        ];
        assert_eq!(changes.as_ref(), Ok(&want));
        assert_eq!(
            text(&want),
            "10:bw:10,20:bw:1000,20:loss:2,30.5:rtt:100,31:queue:50,32:ackloss:1"
        );
    }

    #[test]
    fn a_bad_entry_is_named_with_what_is_wrong() {
        let why = |raw: &str| match read(raw) {
            Err(p) => p.to_string(),
            Ok(c) => format!("read {c:?}"),
        };
        assert_eq!(
            why("10:bw:10,20:mss:100"),
            "entry \"20:mss:100\": mss cannot be scheduled (allowed bw, loss, rtt, ackloss, queue)"
        );
        assert_eq!(
            why("10:bw:0"),
            "entry \"10:bw:0\": bw: 0 is out of range (allowed 0.01 to 100000 Mbit/s)"
        );
        assert_eq!(
            why("10:bogus:1"),
            "entry \"10:bogus:1\": unknown key \"bogus\" (allowed bw, loss, rtt, ackloss, queue)"
        );
        assert_eq!(
            why("20:bw:10,10:bw:100"),
            "entry \"10:bw:100\": comes before the entry ahead of it (times ascend)"
        );
        assert_eq!(
            why("700:bw:10"),
            "entry \"700:bw:10\": time \"700\" is not 0 to 600 s"
        );
        assert!(why("10:bw").starts_with("entry \"10:bw\": is not T:KEY:VALUE"));
        assert!(why("10:bw:10,").starts_with("entry \"\": is not T:KEY:VALUE"));
        let many = vec!["1:bw:10"; MAX_CHANGES + 1].join(",");
        assert_eq!(why(&many), "1001 entries (allowed up to 1000)");
    }
}
