//! The lab's page: a Yew front end over the `tcplab` simulator.
//!
//! Nothing about TCP is decided here: numbers come from `tcplab`, and the URL is read and
//! written only through its one scenario parser and printer, so a link and the command-line
//! runner always agree.

pub mod app;
pub mod chart;
pub mod charts;
pub mod format;
pub mod i18n;
pub mod location;

pub use app::App;

/// Mounts the page on `<body>`.
pub fn start() {
    // With panic = "abort" a panic would otherwise reach the console only as "unreachable".
    console_error_panic_hook::set_once();
    yew::Renderer::<App>::new().render();
}
