//! Many runs at once: a sweep of one knob (seed 000's table and chart, made live) and seed
//! 004's matrix of three knobs as heatmaps. Their keys in the address are
//! [`crate::model::views`], the runs they ask for [`crate::model::plan`]; the runs go to a pool
//! of workers as a [`crate::batch::Batch`] and stream back into the page.
//!
//! [`data`] makes the table's rows (the runner's own `tcplab::sweep`) and the theory's curve;
//! [`chart`], [`table`], [`settings`] and [`view`] show them; [`matrix`] is the heatmap;
//! [`tabs`] switches views. Their charts are drawn on [`crate::charts::canvas`] through
//! [`crate::charts::xy`].

pub mod chart;
pub mod data;
pub mod matrix;
pub mod settings;
pub mod table;
pub mod tabs;
pub mod view;
