//! The page's two languages. Every visible string is chosen by [`Lang`]; the page's default
//! comes from the browser's language, a choice is remembered, and `lang=` carries it in a link.

/// A language of the page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub enum Lang {
    #[default]
    En,
    Zh,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Zh];

    /// The code used in `lang=` and in `<html lang>`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    pub fn from_code(code: &str) -> Option<Lang> {
        Lang::ALL.into_iter().find(|l| l.code() == code)
    }

    /// Picks the English or the Chinese of a pair.
    pub fn pick(self, en: &'static str, zh: &'static str) -> &'static str {
        match self {
            Lang::En => en,
            Lang::Zh => zh,
        }
    }
}

impl Lang {
    /// The simulator's language for the page's: what its explanations, lessons and sources
    /// are written in.
    pub fn language(self) -> tcplab::player::Language {
        match self {
            Lang::En => tcplab::player::Language::En,
            Lang::Zh => tcplab::player::Language::Zh,
        }
    }

    /// The value of `<html lang>`: what screen readers and fonts go by.
    pub fn html_lang(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-CN",
        }
    }

    /// The language's own name, as its switch shows it.
    pub fn own_name(self) -> &'static str {
        match self {
            Lang::En => "English",
            Lang::Zh => "中文",
        }
    }

    /// The page's language for a browser whose preferred languages are `tags`, best first
    /// (`navigator.languages`): the first English or Chinese one, else English.
    pub fn from_browser<S: AsRef<str>>(tags: &[S]) -> Lang {
        tags.iter()
            .find_map(|t| {
                let primary = t.as_ref().split(['-', '_']).next().unwrap_or("");
                match primary.to_ascii_lowercase().as_str() {
                    "zh" => Some(Lang::Zh),
                    "en" => Some(Lang::En),
                    _ => None,
                }
            })
            .unwrap_or_default()
    }
}

/// A scenario's problem in Chinese: the sentence around the values translated, the values and
/// units as written (they are what the reader typed, and what the link takes).
pub fn problem_zh(p: &tcplab::scenario::Problem) -> String {
    use tcplab::scenario::{Key, Problem, PRESETS};
    let q = |v: &str| crate::model::address::quoted(v);
    let shown = |v: &str| tcplab::scenario::shown(v).into_owned();
    match p {
        Problem::UnknownKey => {
            let keys: Vec<&str> = Key::ALL.iter().map(|k| k.name()).collect();
            format!("未知的键（已知的键：{}）", keys.join(", "))
        }
        Problem::RepeatedKey => "键重复".to_string(),
        Problem::Empty { allowed } => format!("值为空（{}）", allowed_zh(allowed)),
        Problem::TooLong { value, allowed } => {
            format!("{} 太长（{}）", q(value), allowed_zh(allowed))
        }
        Problem::NotANumber { value, allowed } => {
            format!("{} 不是数字（{}）", q(value), allowed_zh(allowed))
        }
        Problem::Exponent { value, allowed } => {
            format!(
                "{} 用了指数写法：请把数字完整写出（{}）",
                q(value),
                allowed_zh(allowed)
            )
        }
        Problem::NotWhole { value, allowed } => {
            format!("{} 不是整数（{}）", q(value), allowed_zh(allowed))
        }
        Problem::UnknownUnit { value, units } => {
            format!("{} 的单位未知（单位：{units}）", q(value))
        }
        Problem::OutOfRange { value, allowed } => {
            format!("{} 超出范围（{}）", shown(value), allowed_zh(allowed))
        }
        Problem::UnknownValue { value, allowed } => {
            format!("未知的值 {}（允许 {allowed}）", q(value))
        }
        Problem::UnknownPreset { name } => {
            let names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
            format!("未知的预设 {}（已知：{}）", q(name), names.join(", "))
        }
        Problem::EmptyEntry { value, allowed } => {
            format!("{} 中有空项（{}）", q(value), allowed_zh(allowed))
        }
        Problem::TooManyDrops { count } => {
            format!("{count} 项（最多 {} 项）", tcplab::scenario::MAX_DROPS)
        }
        Problem::DropNotAscending => "各项须递增且不重复".to_string(),
        Problem::PresetNotSettable => {
            "不能单独设置：它会重置其他所有键（请把它写在查询的开头）".to_string()
        }
        Problem::TooManyChanges { count } => {
            format!("{count} 项（最多 {} 项）", tcplab::scenario::sched::MAX_CHANGES)
        }
        Problem::BadChange { entry, why } => format!("第 {} 项：{}", q(entry), change_zh(why)),
        Problem::PerFlowCount {
            given,
            count,
            connections,
        } => {
            let (noun, each) = if *connections {
                ("个连接", "每个连接")
            } else {
                ("条流", "每条流")
            };
            format!("{count} {noun}给了 {given} 个值（请为{each}给一个值，或只给一个）")
        }
        Problem::NeedsTrace => {
            "trace 需要一个 Mahimahi 轨迹文件（运行器的 --link-trace FILE，或在页面上选择或拖入的文件）"
                .to_string()
        }
        Problem::Conflict(c) => conflict_zh(c),
        other => other.to_string(),
    }
}

/// A [`Conflict`](tcplab::scenario::Conflict) in Chinese.
fn conflict_zh(c: &tcplab::scenario::Conflict) -> String {
    use tcplab::scenario::Conflict;
    match c {
        Conflict::TraceIsTheLink { link } => {
            format!("轨迹文件就是链路：请从查询中去掉 link={link}")
        }
        Conflict::PresetInLesson => {
            "课程有自己的场景：请修改它的键，或去掉 lesson= 再打开预设".to_string()
        }
        Conflict::BwNeedsFixedLink { link } => {
            format!("bw 的变化需要 link=fixed（link={link} 自己决定速率）")
        }
        Conflict::OneValueForEveryFlow { flow } => format!(
            "所有流共用一个值（可为每条流各设一个的键是 {}），不能单设流 {flow} 的",
            tcplab::scenario::per_flow_names("、")
        ),
        Conflict::NoSuchFlow { flow, flows } => format!("{flows} 条流中没有流 {flow}"),
        Conflict::OneFlowNotAList { flow } => format!("流 {flow} 只有一个值，不能是列表"),
    }
}

/// What is wrong with one entry of `sched=`, in Chinese.
fn change_zh(why: &tcplab::scenario::ChangeProblem) -> String {
    use tcplab::scenario::ChangeProblem;
    let q = |v: &str| crate::model::address::quoted(v);
    let schedulable = || {
        tcplab::scenario::sched::SCHEDULABLE
            .map(|k| k.name())
            .join("、")
    };
    match why {
        ChangeProblem::Shape => format!(
            "不是 T:KEY:VALUE 的形式（允许用逗号分隔的 T:KEY:VALUE，T 为 0 至 600 秒且递增，KEY 为 {} 之一，最多 {} 项）",
            schedulable(),
            tcplab::scenario::sched::MAX_CHANGES
        ),
        ChangeProblem::Time { time } => format!("时间 {} 不在 0 至 600 秒之间", q(time)),
        ChangeProblem::UnknownKey { key } => {
            format!("未知的键 {}（允许 {}）", q(key), schedulable())
        }
        ChangeProblem::NotSchedulable { key } => {
            format!("{key} 不能排入日程（允许 {}）", schedulable())
        }
        ChangeProblem::Value { key, problem } => format!("{key}：{}", problem_zh(problem)),
        ChangeProblem::NotAscending => "排在前一项之前（时间须递增）".to_string(),
    }
}

/// A range as the scenario states it (`allowed 0.1 to 2000 ms`), in Chinese.
fn allowed_zh(allowed: &str) -> String {
    if allowed.contains("packet numbers") {
        return format!(
            "允许从 1 起的包序号，以逗号分隔，最多 {} 个",
            tcplab::scenario::MAX_DROPS
        );
    }
    let rest = allowed.strip_prefix("allowed ").unwrap_or(allowed);
    format!("允许 {}", rest.replace(" to ", " 至 "))
}

#[cfg(test)]
mod tests {
    #[cfg(target_arch = "wasm32")]
    use wasm_bindgen_test::wasm_bindgen_test as test;

    use super::Lang;

    #[test]
    fn the_browser_language_picks_the_default() {
        assert_eq!(Lang::from_browser(&["zh-CN", "en-US"]), Lang::Zh);
        assert_eq!(Lang::from_browser(&["de-DE", "zh_TW"]), Lang::Zh);
        assert_eq!(Lang::from_browser(&["en-GB", "zh-CN"]), Lang::En);
        assert_eq!(Lang::from_browser(&["fr"]), Lang::En);
        assert_eq!(Lang::from_browser::<&str>(&[]), Lang::En);
    }
}
