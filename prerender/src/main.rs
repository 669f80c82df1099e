//! `tcplab-prerender HTML DIR`: writes the default page's first screen (English) as an HTML
//! fragment to HTML, and its charts' SVG files into DIR, for `scripts/prerender.py` to put into
//! the built page.

use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<_> = std::env::args_os().skip(1).collect();
    let [html_path, dir] = args.as_slice() else {
        eprintln!("usage: tcplab-prerender HTML DIR");
        return ExitCode::from(2);
    };
    let screen = match tcplab_prerender::first_screen("", tcplab_web::i18n::Lang::En) {
        Ok(screen) => screen,
        Err(e) => {
            eprintln!("tcplab-prerender: the default scenario: {e}");
            return ExitCode::FAILURE;
        }
    };
    let write = |path: &Path, text: &str| {
        std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
    };
    let written = write(Path::new(html_path), &screen.html).and_then(|()| {
        screen
            .files
            .iter()
            .try_for_each(|(name, svg)| write(&Path::new(dir).join(name), svg))
    });
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tcplab-prerender: {e}");
            ExitCode::FAILURE
        }
    }
}
