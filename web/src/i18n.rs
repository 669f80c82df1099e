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
        other => other.to_string(),
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
