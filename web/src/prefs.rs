//! What the page remembers between visits (the language, large type), in `localStorage`, and
//! what the browser says about its reader. Storage may be refused (private windows, policies):
//! then nothing is remembered and nothing fails.

use crate::i18n::Lang;

const LANG: &str = "tcplab.lang";
const LARGE: &str = "tcplab.large";

fn storage() -> Option<web_sys::Storage> {
    crate::window()?.local_storage().ok().flatten()
}

fn get(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

fn set(key: &str, value: &str) {
    if let Some(s) = storage() {
        // A full or refused storage only means the choice is not remembered.
        let _ = s.set_item(key, value);
    }
}

/// The language chosen on an earlier visit.
pub fn stored_lang() -> Option<Lang> {
    get(LANG).as_deref().and_then(Lang::from_code)
}

pub fn store_lang(lang: Lang) {
    set(LANG, lang.code());
}

/// The browser's preferred languages, best first.
pub fn browser_langs() -> Vec<String> {
    let Some(navigator) = crate::window().map(|w| w.navigator()) else {
        return Vec::new();
    };
    let mut tags: Vec<String> = navigator
        .languages()
        .iter()
        .filter_map(|v| v.as_string())
        .collect();
    if tags.is_empty() {
        tags.extend(navigator.language());
    }
    tags
}

/// The language to show when the address names none: the one chosen before, else the
/// browser's.
pub fn default_lang() -> Lang {
    stored_lang().unwrap_or_else(|| Lang::from_browser(&browser_langs()))
}

pub fn stored_large() -> bool {
    get(LARGE).as_deref() == Some("1")
}

pub fn store_large(large: bool) {
    set(LARGE, if large { "1" } else { "0" });
}
