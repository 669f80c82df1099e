//! The default page's first screen, rendered as HTML when the page is built.
//!
//! A first visit to the default page shows this before the page's WebAssembly has come: the
//! page's own components (`tcplab_web::app::App`) rendered by Yew's server renderer, given the
//! default scenario's run as the worker would send it (`tcplab_wire::page_view`, the run
//! `web/build.rs` ships beside the page), its charts drawn by the page's own figures as SVG
//! (`tcplab_web::charts::svg`). `scripts/prerender.py` puts it into `index.html`; the page
//! replaces it with itself when its module has mounted (`tcplab_web::start`).

use std::rc::Rc;

use tcplab_web::app::{App, AppProps, Start};
use tcplab_web::i18n::Lang;
use tcplab_web::model::address;

/// A first screen: its HTML, and its charts' files as (name, SVG document).
pub struct FirstScreen {
    pub html: String,
    pub files: Vec<(String, String)>,
}

/// The first screen of the page at `search` (a location's query, `""` for the default page) in
/// `lang`, or the scenario's problem.
pub fn first_screen(search: &str, lang: Lang) -> Result<FirstScreen, String> {
    let address = address::parse_search(search);
    let scenario = tcplab::Scenario::parse(search).map_err(|e| e.to_string())?;
    let view = Rc::new(tcplab_wire::page_view(&scenario));
    let props = AppProps {
        start: Some(Start {
            address,
            lang,
            view,
        }),
    };
    let renderer = yew::LocalServerRenderer::<App>::with_props(props).hydratable(false);
    tcplab_web::charts::svg::take_files();
    let html = futures::executor::block_on(renderer.render());
    Ok(FirstScreen {
        html,
        files: tcplab_web::charts::svg::take_files(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn default_screen() -> FirstScreen {
        first_screen("", Lang::En).expect("the default page renders")
    }

    #[test]
    fn the_first_screen_shows_the_default_runs_verdict_cards_and_controls() {
        let html = default_screen().html;
        let scenario = tcplab::Scenario::parse("").expect("the default scenario");
        let run = tcplab::run(&scenario, &tcplab_wire::page_options());
        let goodput = format!("{:.1}", run.summary.goodput_MBps.expect("the body is done"));
        assert!(
            html.contains(&format!(">{goodput}<")),
            "the goodput card's {goodput} MB/s"
        );
        assert!(html.contains("Limited by slow start"), "the verdict");
        assert!(
            html.contains("simulated when this page was built"),
            "the status line"
        );
        // The controls stand at the scenario's values.
        assert!(html.contains(r#"value="28""#), "the RTT slider at 28 ms");
        assert!(
            !html.contains("<!--<["),
            "no hydration markers: nothing hydrates it"
        );
    }

    #[test]
    fn every_chart_of_the_default_run_is_an_svg_file_at_each_width() {
        let screen = default_screen();
        let view = tcplab_wire::page_view(&tcplab::Scenario::parse("").expect("default"));
        let kinds = tcplab_web::charts::kinds(Rc::new(view), Lang::En);
        assert_eq!(kinds, ["cwnd", "goodput", "sequence", "rtt", "queue"]);
        assert_eq!(screen.files.len(), kinds.len() * 6);
        for kind in kinds {
            let at = screen
                .html
                .find(&format!(r#"data-chart="{kind}""#))
                .unwrap_or_else(|| panic!("{kind}'s figure"));
            let figure = &screen.html[at..];
            let figure = &figure[..figure.find("</figure>").expect("closed")];
            assert!(
                !figure.contains("<canvas role=\"img\""),
                "{kind}: no empty canvas"
            );
            for screens in ["narrow", "mid", "wide", "laptop", "wider", "widest"] {
                let (name, svg) = screen
                    .files
                    .iter()
                    .find(|(n, _)| n.starts_with(&format!("chart-{kind}-{screens}-")))
                    .unwrap_or_else(|| panic!("{kind} {screens}'s file"));
                assert!(
                    figure.contains(&format!(r#"src="{name}""#)),
                    "{kind} shows {name}"
                );
                assert!(svg.starts_with("<svg xmlns="), "{name} is an SVG document");
                assert!(svg.contains("<path d=\"M"), "{name} draws lines");
                assert!(
                    svg.contains(">time (ms)</text>"),
                    "{name} has its time axis"
                );
            }
        }
    }
}
