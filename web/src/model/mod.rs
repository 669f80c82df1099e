//! The page's logic without the page: it touches no DOM, no storage and no worker (it only
//! holds what they answer), so it runs and is tested on the host as well as in the browser
//! (`cargo test -p tcplab-web --lib model`).
//!
//! [`page`] is the page's state and its reducer; [`address`] reads and writes the query string
//! (the scenario, the page's own keys, `lang=`); [`views`] is the view on show and its keys (a
//! sweep, a matrix, a comparison); [`plan`] turns them into the runs a batch asks for;
//! [`knobs`] presents each scenario key, over [`scale`]'s sliders; [`format`](mod@format)
//! writes numbers and units as people read them, and [`verdict`] words what limited a run.

pub mod address;
pub mod format;
pub mod knobs;
pub mod link_trace;
pub mod measured;
pub mod page;
pub mod path_words;
pub mod plan;
pub mod queues;
pub mod scale;
pub mod verdict;
pub mod views;
