//! The address bar: reading `window.location`, and writing the page's address into the
//! history as the page changes. What an address means (its scenario, the page's keys, `lang=`)
//! is [`crate::model::address`], which does no I/O.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};

use crate::model::address::Entry;
// The player (`crate::player::state`) quotes values through this path.

/// The page's current `location.search`.
pub fn current_search() -> Result<String, String> {
    crate::window()
        .ok_or("no window")?
        .location()
        .search()
        .map_err(describe)
}

/// The page's current address, absolute, as the bar shows it.
pub fn current_href() -> Result<String, String> {
    crate::window()
        .ok_or("no window")?
        .location()
        .href()
        .map_err(describe)
}

/// The page's own address with `search` in place of the current one: what Share copies, the
/// canonical address of what is on show, even while the bar keeps a bad link as written for its
/// banner (a link copied then would carry the values the page refused).
pub fn href_for(search: &str) -> Result<String, String> {
    let location = crate::window().ok_or("no window")?.location();
    Ok(format!(
        "{}{}{search}",
        location.origin().map_err(describe)?,
        location.pathname().map_err(describe)?
    ))
}

/// Puts `search` in the address bar without reloading the page, keeping the path and hash.
/// Writing the address that is already there adds no step to the history.
pub fn write(search: &str, entry: Entry) -> Result<(), String> {
    let window = crate::window().ok_or("no window")?;
    let location = window.location();
    let push = entry == Entry::Push && location.search().map_err(describe)? != search;
    let url = format!(
        "{}{}{}",
        location.pathname().map_err(describe)?,
        search,
        location.hash().map_err(describe)?
    );
    let history = window.history().map_err(describe)?;
    if push {
        history.push_state_with_url(&JsValue::NULL, "", Some(&url))
    } else {
        history.replace_state_with_url(&JsValue::NULL, "", Some(&url))
    }
    .map_err(describe)
}

/// How long a drag's refinements of the address wait for the next one: a browser refuses a
/// page that rewrites its address hundreds of times in a few seconds.
pub const REPLACE_EVERY_MS: i32 = 120;

/// Writes the address as the page changes: a new step at once, and a drag's refinements at
/// most every [`REPLACE_EVERY_MS`], the last one always.
#[derive(Clone, Default)]
pub struct Writer {
    /// The refinement waiting for its turn, and whether a timer is set for it.
    pending: Rc<RefCell<(Option<String>, bool)>>,
}

impl Writer {
    pub fn write(&self, search: &str, entry: Entry) -> Result<(), String> {
        match entry {
            Entry::Push => {
                // The drag before this step ends where it ended, not one refinement short.
                let refined = self.pending.borrow_mut().0.take();
                if let Some(refined) = refined {
                    write(&refined, Entry::Replace)?;
                }
                write(search, entry)
            }
            Entry::Replace => {
                self.cancel();
                write(search, entry)
            }
            Entry::Refine => {
                let mut pending = self.pending.borrow_mut();
                pending.0 = Some(search.to_string());
                if pending.1 {
                    return Ok(());
                }
                pending.1 = true;
                drop(pending);
                self.schedule()
            }
        }
    }

    /// Drops a waiting refinement: the page moved to another address (Back, Forward), whose
    /// entry it must not overwrite.
    pub fn cancel(&self) {
        self.pending.borrow_mut().0 = None;
    }

    fn schedule(&self) -> Result<(), String> {
        let pending = self.pending.clone();
        let fire = Closure::once_into_js(move || {
            let search = {
                let mut p = pending.borrow_mut();
                p.1 = false;
                p.0.take()
            };
            if let Some(search) = search {
                if let Err(e) = write(&search, Entry::Replace) {
                    web_sys::console::warn_1(&format!("the address was not updated: {e}").into());
                }
            }
        });
        let window = crate::window().ok_or("no window")?;
        window
            .set_timeout_with_callback_and_timeout_and_arguments_0(
                fire.unchecked_ref(),
                REPLACE_EVERY_MS,
            )
            .map(drop)
            .map_err(describe)
    }
}

pub fn describe(e: JsValue) -> String {
    e.as_string()
        .or_else(|| {
            js_sys::Reflect::get(&e, &JsValue::from_str("message"))
                .ok()
                .and_then(|m| m.as_string())
        })
        .unwrap_or_else(|| format!("{e:?}"))
}
