#!/usr/bin/env python3
"""Trunk's post-build hook: the page's post-build steps, one after another.

Trunk starts every hook of a stage at once, and these steps each read and rewrite the staged
index.html, so they run here in order, each seeing the page as the one before left it:

1. scripts/split.py        the page's module cut at its split points
2. scripts/default_view.py the default scenario's view beside the page
3. scripts/prerender.py    the default page's first screen in index.html
4. scripts/on_intent.py    the page's module started at the reader's first gesture on that screen
5. scripts/csp.py          the Content-Security-Policy, with the hashes of the final inline scripts

Stops at the first step that fails, failing the build.
"""

import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
STEPS = ["split.py", "default_view.py", "prerender.py", "on_intent.py", "csp.py"]


def main():
    for step in STEPS:
        done = subprocess.run([sys.executable, os.path.join(HERE, step)])
        if done.returncode != 0:
            print(f"post_build.py: {step} failed ({done.returncode})", file=sys.stderr)
            sys.exit(1)


if __name__ == "__main__":
    main()
