//! The page's module keeps its relocations when it is to be cut at its split points
//! (`split`): scripts/split.py reads them to tell each function's references apart.
fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|a| a == "wasm32");
    if wasm && std::env::var_os("CARGO_FEATURE_SPLIT").is_some() {
        println!("cargo:rustc-link-arg-bin=tcplab-web=--emit-relocs");
    }
}
