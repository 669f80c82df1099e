//! What a reader sees, kept word for word so that a change shows as a readable difference:
//! every step of each lesson as `tcplab trace --what steps` prints it (its explanation in
//! English included), and the JSON summary of each preset as `tcplab run` writes it (less the
//! wall-clock time). The golden record (`golden.rs`) checks that wasm32 computes the same bits;
//! these say what changed.
//!
//! A change of behaviour on purpose: `INSTA_UPDATE=always cargo test -p tcplab --test
//! snapshots`, then read the difference in `tests/snapshots/` before committing it.
#![cfg(not(target_arch = "wasm32"))]

use tcplab::player::StepWindow;
use tcplab::scenario::PRESETS;
use tcplab::{run, RunOptions, Scenario};

fn scenario(query: &str) -> Scenario {
    Scenario::parse(query).unwrap_or_else(|e| panic!("{query}: {e}"))
}

#[test]
fn each_lesson_is_told_step_by_step() {
    let lessons: Vec<_> = PRESETS.iter().filter(|p| p.moment.is_some()).collect();
    assert!(lessons.len() >= 3);
    for p in lessons {
        let query = format!("preset={}", p.name);
        let options = RunOptions {
            record_steps: Some(StepWindow::from(0.0)),
            ..RunOptions::default()
        };
        let steps = run(&scenario(&query), &options)
            .steps
            .unwrap_or_else(|| panic!("{query}: no steps"));
        insta::assert_snapshot!(format!("steps-{}", p.name), steps.csv());
    }
}

#[test]
fn each_preset_s_summary() {
    for p in PRESETS {
        let query = format!("preset={}", p.name);
        let mut summary = run(&scenario(&query), &RunOptions::default()).summary;
        summary.scenario = query;
        let json = serde_json::to_string_pretty(&summary).unwrap_or_default();
        insta::assert_snapshot!(format!("summary-{}", p.name), json);
    }
}
