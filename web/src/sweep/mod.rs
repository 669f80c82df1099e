//! Many runs at once: a sweep of one knob (seed 000's table and chart, made live), seed 004's
//! matrix of three knobs as heatmaps, and the page's own keys that carry them in the address.
//! The runs go to a pool of workers (`crate::worker::pool`) and stream back into the page.
//!
//! [`keys`] reads and writes the view's keys; [`plan`] turns them into runs and gathers the
//! results; [`data`] makes the table's rows (the runner's own `tcplab::sweep`) and the theory's
//! curve; [`chart`], [`table`], [`settings`] and [`view`] show them; [`matrix`] is the heatmap;
//! [`tabs`] switches views; [`canvas`] and [`xy`] draw charts with value axes.

pub mod canvas;
pub mod chart;
pub mod data;
pub mod matrix;
pub mod settings;
pub mod table;
pub mod tabs;
pub mod view;
pub mod xy;
