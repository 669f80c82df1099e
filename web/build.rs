//! Two things the page's build needs besides the code:
//!
//! - The default scenario's view, made here by the simulator as the worker would make it
//!   (`tcplab_wire::page_view`), in a file named by its content (`default-view-HASH.bin`, the
//!   name given to the page's code as `TCPLAB_DEFAULT_VIEW`), which scripts/default_view.py puts
//!   beside the page: a first visit to the default page fetches it and draws its charts from it,
//!   and fetches the simulator's worker only when the reader changes something
//!   (`src/worker/shipped.rs`; docs/performance.md, "What the page downloads"). The simulator
//!   is deterministic and its native and WebAssembly builds agree to the bit (core's golden
//!   records), so these are the worker's bytes.
//! - The page's module keeps its relocations when it is to be cut at its split points
//!   (`split`): scripts/split.py reads them to tell each function's references apart.

use std::hash::{Hash, Hasher};
use std::path::PathBuf;

/// The query of the view made here: the default scenario's.
const QUERY: &str = "";

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|a| a == "wasm32");
    if wasm && std::env::var_os("CARGO_FEATURE_SPLIT").is_some() {
        println!("cargo:rustc-link-arg-bin=tcplab-web=--emit-relocs");
    }
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let scenario = tcplab::Scenario::parse(QUERY).expect("the default scenario parses");
    let view = tcplab_wire::page_view(&scenario);
    assert_eq!(view.query, QUERY, "the default scenario's canonical query");
    let bytes = tcplab_wire::encode_view(&view).expect("the default view is written");
    // Named by its content, as Trunk names the page's files: a browser never pairs a cached
    // view with a newer page.
    let mut h = std::collections::hash_map::DefaultHasher::new();
    bytes.hash(&mut h);
    let name = format!("default-view-{:016x}.bin", h.finish());
    // An earlier build's view, under another name, would only take room.
    if let Ok(entries) = std::fs::read_dir(&out) {
        for e in entries.flatten() {
            let old = e.file_name().to_string_lossy().into_owned();
            if old.starts_with("default-view-") && old != name {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
    std::fs::write(out.join(&name), bytes).expect("OUT_DIR is writable");
    println!("cargo:rustc-env=TCPLAB_DEFAULT_VIEW={name}");
}
