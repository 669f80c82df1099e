//! The key table is defined once (`tcplab::scenario::KEYS`): docs/scenario.md shows it as the
//! table generates it, so a key's meaning, unit, default or range cannot drift between them.

use std::path::Path;

#[test]
fn the_documented_key_table_is_the_key_table() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/scenario.md");
    let doc = std::fs::read_to_string(&path).expect("docs/scenario.md");
    let table = tcplab::scenario::table_markdown();
    assert!(
        doc.contains(&table),
        "docs/scenario.md's key table differs from the key table; it should read:\n{table}"
    );
}
