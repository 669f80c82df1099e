#!/usr/bin/env python3
"""Trunk post-build hook: puts the default page's first screen, rendered now, into index.html.

`tcplab-prerender` (prerender/) renders the page's own components, given the default scenario's
run, as HTML, with the charts as SVG files; this hook builds and runs it on the host, puts its
HTML in place of index.html's `<!-- first-screen -->` marker, as `<div id="first-screen">`, and
its charts (named by their content) beside the page. A first visit
to the default page shows it at once; the page replaces it when its module has mounted
(web/src/lib.rs, `start`), and index.html's inline script shows the skeleton instead on any other
address, language or type size.

Environment (set by Trunk): TRUNK_STAGING_DIR. Fails the build if the marker is missing or the
renderer fails.
"""

import os
import subprocess
import tempfile

import staged_page

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARKER = "<!-- first-screen -->"


def fail(message):
    staged_page.fail("prerender.py", message)


def main():
    path, html = staged_page.read("prerender.py")
    staging = os.path.dirname(path)
    if html.count(MARKER) != 1:
        fail(f"index.html has {html.count(MARKER)} {MARKER} markers, not one")
    # Trunk's own cargo variables name the WebAssembly build; the renderer is a host program.
    env = {k: v for k, v in os.environ.items() if not k.startswith("CARGO_") or k == "CARGO_TARGET_DIR"}
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "first-screen.html")
        command = ["cargo", "run", "--quiet", "--locked", "-p", "tcplab-prerender", "--", out, staging]
        done = subprocess.run(command, cwd=ROOT, env=env)
        if done.returncode != 0:
            fail(f"{' '.join(command)} failed ({done.returncode})")
        with open(out, encoding="utf-8") as f:
            screen = f.read()
    html = html.replace(MARKER, f'<div id="first-screen">{screen}</div>', 1)
    staged_page.write(path, html)


if __name__ == "__main__":
    main()
