#!/usr/bin/env python3
"""Trunk post-build hook: cuts the page's module at its split points.

The views a first visit does not show (web/src/lazy.rs) are split points of
`wasm_split_helpers`. Trunk runs cargo, wasm-bindgen and wasm-opt on the page's module as one
step; the cut must come between cargo and wasm-bindgen, which drops the relocations it reads.
So this hook takes cargo's own output (linked with `--emit-relocs`, web/build.rs) and does the
rest again:

1. `wasm-split-cli` cuts it into the main module, one module per split point and the chunks
   they share, and writes `__wasm_split.js`, which fetches each when first called;
2. `wasm-bindgen --keep-lld-exports` writes the main module's glue (the exports the split
   modules link against are kept);
3. `wasm-opt` at the level Trunk uses (release builds only, as Trunk);
4. the main module and its glue replace Trunk's, under Trunk's names, so that index.html's
   loader (and the hash of it in the Content-Security-Policy) stays as it is, and the
   integrity of their preload links is written anew; the split modules and
   `__wasm_split.js` are named by their content, so that a browser never pairs a cached one
   with a newer page.

Environment (set by Trunk): TRUNK_STAGING_DIR, TRUNK_PROFILE. Fails the build, with the step
named, if anything goes wrong.
"""

import base64
import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The cargo profile of the page's module in each of Trunk's profiles (index.html,
# data-cargo-profile-release) and wasm-opt's level (data-wasm-opt; Trunk skips it in debug).
CARGO_PROFILE = {"release": "page", "debug": "debug"}
WASM_OPT_LEVEL = {"release": "-Oz", "debug": None}


def fail(message):
    sys.exit(f"scripts/split.py: {message}")


def run(step, args):
    try:
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    except FileNotFoundError:
        fail(f"{step}: {args[0]} is not installed (scripts/setup.sh installs it)")
    except subprocess.CalledProcessError as e:
        fail(f"{step} failed:\n{e.stderr}")


def only(pattern):
    found = glob.glob(pattern)
    if len(found) != 1:
        fail(f"expected one file matching {pattern}, found {found}")
    return found[0]


def content_name(path, stem, ext):
    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:16]
    return f"{stem}-{digest}{ext}"


def integrity(path):
    with open(path, "rb") as f:
        return "sha384-" + base64.b64encode(hashlib.sha384(f.read()).digest()).decode()


def rewrite_integrity(html, name, path):
    """The `integrity` of every link to `name` in `html` (Trunk gives the glue's preload one),
    for the file's new content."""
    pattern = re.compile(r'(<link\b[^>]*\bhref="/?' + re.escape(name) + r'"[^>]*\bintegrity=")[^"]*(")')
    return pattern.sub(lambda m: m.group(1) + integrity(path) + m.group(2), html)


# The marker wasm-bindgen's casts call (`__rt::wbg_cast`), which its CLI rewrites: a function
# calling it must stay in the module wasm-bindgen reads. wasm-split-cli 0.2.4 keeps the callers
# of this name (0.2.2 knew only its former name, `__wbindgen_describe_cast`, and a cast cut into
# the sweep's module then failed at run time with "function signature mismatch"), so the build
# fails if the page's module stops importing it: wasm-bindgen would have renamed it again.
CAST_MARKER = b"__wbindgen_describe_generic_import"


def main():
    staging = os.environ.get("TRUNK_STAGING_DIR") or fail("TRUNK_STAGING_DIR is not set")
    profile = os.environ.get("TRUNK_PROFILE", "debug")
    if profile not in CARGO_PROFILE:
        fail(f"unknown TRUNK_PROFILE {profile!r}")
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target")
    linked = os.path.join(target, "wasm32-unknown-unknown", CARGO_PROFILE[profile], "tcplab-web.wasm")
    if not os.path.exists(linked):
        fail(f"{linked} is missing: Trunk's cargo step should have written it")
    page_wasm = only(os.path.join(staging, "tcplab-web-*_bg.wasm"))
    page_js = only(os.path.join(staging, "tcplab-web-[0-9a-f]*[0-9a-f].js"))
    level = WASM_OPT_LEVEL[profile]

    with tempfile.TemporaryDirectory() as tmp:
        cut = os.path.join(tmp, "cut")
        bound = os.path.join(tmp, "bound")
        os.makedirs(cut)
        with open(linked, "rb") as f:
            if CAST_MARKER not in f.read():
                fail(f"{linked} does not import {CAST_MARKER.decode()}: has wasm-bindgen changed its casts?")
        run("the cut at the split points", ["wasm-split-cli", linked, cut])
        run(
            "wasm-bindgen on the main module",
            ["wasm-bindgen", "--target", "web", "--no-typescript", "--keep-lld-exports",
             "--out-dir", bound, "--out-name", "main", os.path.join(cut, "main.wasm")],
        )
        main_wasm = os.path.join(bound, "main_bg.wasm")
        parts = sorted(glob.glob(os.path.join(cut, "split_*.wasm")) + glob.glob(os.path.join(cut, "chunk_*.wasm")))
        if not any(os.path.basename(p).startswith("split_") for p in parts):
            fail("no split module came out: are the split points built (cargo feature `split`)?")
        if level:
            for path in [main_wasm] + parts:
                run(f"wasm-opt {level} on {os.path.basename(path)}", ["wasm-opt", level, path, "-o", path])

        with open(os.path.join(cut, "__wasm_split.js"), encoding="utf-8") as f:
            loader = f.read()
        for path in parts:
            base = os.path.basename(path)
            named = content_name(path, base[: -len(".wasm")], ".wasm")
            quoted = f'"./{base}"'
            if quoted not in loader:
                fail(f"__wasm_split.js does not name {base}")
            loader = loader.replace(quoted, f'"./{named}"')
            shutil.copyfile(path, os.path.join(staging, named))
        page_js_name = os.path.basename(page_js)
        if '"./main.js"' not in loader:
            fail("__wasm_split.js does not import the main module's glue as ./main.js")
        loader = loader.replace('"./main.js"', f'"./{page_js_name}"')
        loader_path = os.path.join(tmp, "__wasm_split.js")
        with open(loader_path, "w", encoding="utf-8") as f:
            f.write(loader)
        loader_name = content_name(loader_path, "__wasm_split", ".js")
        shutil.copyfile(loader_path, os.path.join(staging, loader_name))

        with open(os.path.join(bound, "main.js"), encoding="utf-8") as f:
            glue = f.read()
        # Only the ES imports move: the import object's keys must stay the module names the
        # wasm itself imports from.
        glue, n = re.subn(r'\bfrom\s*(["\'])\./__wasm_split\.js\1', f'from "./{loader_name}"', glue)
        if n == 0:
            fail("the main module's glue does not import ./__wasm_split.js")
        with open(page_js, "w", encoding="utf-8") as f:
            f.write(glue)
        shutil.copyfile(main_wasm, page_wasm)

    html_path = os.path.join(staging, "index.html")
    with open(html_path, encoding="utf-8") as f:
        html = f.read()
    for path in (page_js, page_wasm):
        html = rewrite_integrity(html, os.path.basename(path), path)
    with open(html_path, "w", encoding="utf-8") as f:
        f.write(html)


if __name__ == "__main__":
    main()
