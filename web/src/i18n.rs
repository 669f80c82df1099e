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
