#!/usr/bin/env python3
"""Trunk post-build step: the page's module comes when the reader first reaches for the page.

The default page's first screen stands complete without the page's module (scripts/prerender.py):
a reader who only reads it needs nothing more. So the module (its glue, its WebAssembly) is not
preloaded and started at once as Trunk writes it, but by a loader of this step's own:

- on any page whose first screen is not the prerendered one (index.html's inline script marks
  it `linked`: a shared link, another language, large type), at once, as before;
- on the default page, at the reader's first gesture towards it: a key, the focus, a press on
  a control or a button, a click or tap on a chart, a mouse over any of them. A finger that only
  scrolls the page, on its text or its charts, does not start it.

What the reader does on the first screen before the page has mounted is not lost: the controls
changed there are given to the page's own controls once it has mounted (their values, as `input`
and `change` events, so that the page reads them as it reads a reader's: the sliders' scales stay
defined once, in Rust), and the button that was pressed is pressed again. While the module comes,
the page says so (`html.waking`, assets/style.css).

Trunk's preloads are kept, with the glue's integrity, and added to the document when the module
is started. Fails the build if Trunk's loader, or either preload, is not where this step expects it.
"""

import json
import re

import staged_page

LOADER = re.compile(
    r'<script type="module">\s*'
    r"import init, \* as bindings from '(?P<js>/tcplab-web-[0-9a-f]+\.js)';\s*"
    r"const wasm = await init\(\{ module_or_path: '(?P<wasm>/tcplab-web-[0-9a-f]+_bg\.wasm)' \}\);\s*"
    r"window\.wasmBindings = bindings;\s*"
    r'dispatchEvent\(new CustomEvent\("TrunkApplicationStarted", \{detail: \{wasm\}\}\)\);\s*'
    r"</script>"
)
PRELOAD = re.compile(r'<link rel="(?:modulepreload|preload)" href="/tcplab-web-[^"]+"[^>]*>')
ATTR = re.compile(r'([a-z-]+)="([^"]*)"')

# The loader, with the page's module's names and its preloads' attributes filled in.
SCRIPT = """<script type="module">
const preloads = %(preloads)s;
const changed = new Map();
let pressed = null, started = false;
const shown = () => !document.documentElement.classList.contains("linked");
// What the reader changes or presses on the first screen before the page has mounted.
const screen = () => document.getElementById("first-screen");
const note = (e) => {
    const s = screen();
    if (!s || !s.contains(e.target) || !e.target.id) return;
    changed.set(e.target.id, e.target.type === "checkbox" ? e.target.checked : e.target.value);
};
const GESTURES = ["pointerdown", "pointerover", "click", "keydown", "focusin"];
addEventListener("input", note, true);
addEventListener("change", note, true);
// A file dropped on the first screen (a capture, for the diagnosis) would have the browser open
// it in the page's place: it is kept and dropped again on the page once it has mounted.
let dropped = null;
const files = (e) => !!e.dataTransfer && Array.from(e.dataTransfer.types).includes("Files");
const over = (e) => { if (files(e)) e.preventDefault(); };
const drop = (e) => {
    if (!files(e)) return;
    e.preventDefault();
    dropped = e.dataTransfer.files[0] || null;
    start();
};
addEventListener("dragover", over);
addEventListener("drop", drop);
// Anything on the page that answers the reader: its controls, and its charts and settings.
const CONTROLS = "input, select, textarea, button, summary, a[href], label, [tabindex]";
const ANSWERS = CONTROLS + ", .tl-chart, .controls";
const start = (e) => {
    if (e && e.type !== "keydown" && e.type !== "focusin") {
        const target = e.target instanceof Element ? e.target.closest(ANSWERS) : null;
        if (!target) return;
        if (e.type === "pointerover" && e.pointerType !== "mouse") return;
        // A finger put down on a chart may only be scrolling the page: its tap comes as a click.
        if (e.type === "pointerdown" && e.pointerType !== "mouse" && !e.target.closest(CONTROLS)) return;
        if (e.type === "pointerdown") {
            const button = e.target.closest("button[id]");
            if (button && screen() && screen().contains(button)) pressed = button.id;
        }
    }
    if (started) return;
    started = true;
    document.documentElement.classList.add("waking");
    for (const attrs of preloads) {
        const link = document.createElement("link");
        for (const [k, v] of Object.entries(attrs)) link.setAttribute(k, v);
        document.head.append(link);
    }
    import("%(js)s").then(async (bindings) => {
        const wasm = await bindings.default({ module_or_path: "%(wasm)s" });
        window.wasmBindings = bindings;
        // The page removes the first screen once it has drawn itself after it.
        while (screen()) await new Promise(requestAnimationFrame);
        // The page answers its reader itself from now on.
        removeEventListener("input", note, true);
        removeEventListener("change", note, true);
        removeEventListener("dragover", over);
        removeEventListener("drop", drop);
        for (const type of GESTURES) removeEventListener(type, start, true);
        document.documentElement.classList.remove("waking");
        // The page has mounted in the first screen's place: it takes what the reader did there.
        for (const [id, value] of changed) {
            const control = document.getElementById(id);
            if (!control) continue;
            if (control.type === "checkbox") control.checked = value; else control.value = value;
            control.dispatchEvent(new Event("input", { bubbles: true }));
            control.dispatchEvent(new Event("change", { bubbles: true }));
        }
        if (pressed) document.getElementById(pressed)?.click();
        if (dropped) {
            const dt = new DataTransfer();
            dt.items.add(dropped);
            document.body.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
        }
        dispatchEvent(new CustomEvent("TrunkApplicationStarted", { detail: { wasm } }));
    }, (err) => {
        // The first screen stays: it is the default page, if one that does not answer.
        document.documentElement.classList.remove("waking");
        console.error("the page's module could not be loaded:", err);
    });
};
if (shown()) {
    for (const type of GESTURES) addEventListener(type, start, { capture: true, passive: true });
} else {
    start();
}
</script>"""


def fail(message):
    staged_page.fail("on_intent.py", message)


def main():
    path, html = staged_page.read("on_intent.py")
    loaders = list(LOADER.finditer(html))
    if len(loaders) != 1:
        fail(f"expected Trunk's one loader of the page's module, found {len(loaders)}")
    links = PRELOAD.findall(html)
    if len(links) != 2:
        fail(f"expected the module's two preloads, found {links}")
    preloads = [dict(ATTR.findall(link)) for link in links]
    # As scripts/csp.py: Chromium ignores integrity on an `as="fetch"` preload and warns about it
    # (crbug.com/981419); the glue checks the module it fetches.
    for attrs in preloads:
        if attrs.get("as") == "fetch":
            attrs.pop("integrity", None)
    loader = loaders[0]
    script = SCRIPT % {
        "preloads": json.dumps(preloads),
        "js": loader.group("js"),
        "wasm": loader.group("wasm"),
    }
    html = html[: loader.start()] + script + html[loader.end() :]
    html = PRELOAD.sub("", html)
    staged_page.write(path, html)


if __name__ == "__main__":
    main()
