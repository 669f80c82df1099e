//! A sentence of a capture's analysis in both of the lab's languages: the runner prints the
//! English, the page shows whichever language it is in. Both are written where the sentence is
//! made, from the same figures, so that the two never say different things.

use crate::player::Language;

/// One sentence, in English and in Chinese.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Said {
    pub en: String,
    pub zh: String,
}

impl Said {
    pub fn new(en: impl Into<String>, zh: impl Into<String>) -> Said {
        Said {
            en: en.into(),
            zh: zh.into(),
        }
    }

    pub fn get(&self, lang: Language) -> &str {
        match lang {
            Language::En => &self.en,
            Language::Zh => &self.zh,
        }
    }
}

/// Counted in the singular or the plural, as English says it: `1 packet`, `3 packets`.
pub fn counted(n: u64, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}
