#!/usr/bin/env python3
"""Trunk post-build hook: puts the default scenario's view beside the page.

web/build.rs runs the default scenario through the simulator as the worker would and writes
its view, named by its content (`default-view-HASH.bin`), into the build script's OUT_DIR; the
page's code knows that name (web/src/worker/shipped.rs) and fetches the file on a first visit
to the default page, instead of fetching and running the simulator's worker. This hook copies
the file the page's module names into the staging directory. OUT_DIR may hold files of earlier
builds (build.rs removes them, but a build dir of another configuration keeps its own): the one
whose name the module carries is the one that goes.

Environment (set by Trunk): TRUNK_STAGING_DIR, TRUNK_PROFILE. Fails the build if the module
names no view or the view it names is missing.
"""

import glob
import os
import re
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# As scripts/split.py: the cargo profile of the page's module in each of Trunk's profiles.
CARGO_PROFILE = {"release": "page", "debug": "debug"}
NAME = re.compile(rb"default-view-[0-9a-f]{16}\.bin")


def fail(message):
    print(f"default_view.py: {message}", file=sys.stderr)
    sys.exit(1)


def main():
    staging = os.environ.get("TRUNK_STAGING_DIR") or fail("TRUNK_STAGING_DIR is not set")
    profile = os.environ.get("TRUNK_PROFILE", "debug")
    if profile not in CARGO_PROFILE:
        fail(f"unknown TRUNK_PROFILE {profile!r}")
    modules = glob.glob(os.path.join(staging, "tcplab-web-*_bg.wasm"))
    if len(modules) != 1:
        fail(f"expected one page module in {staging}, found {modules}")
    with open(modules[0], "rb") as f:
        names = {m.decode() for m in NAME.findall(f.read())}
    if len(names) != 1:
        fail(f"the page's module names {len(names)} default views ({sorted(names)}), not one")
    name = names.pop()
    target = os.environ.get("CARGO_TARGET_DIR") or os.path.join(ROOT, "target")
    pattern = os.path.join(
        target, "wasm32-unknown-unknown", CARGO_PROFILE[profile], "build", "tcplab-web-*", "out", name
    )
    found = glob.glob(pattern)
    if not found:
        fail(f"{name}, which the page fetches, is not in any {pattern}")
    shutil.copyfile(found[0], os.path.join(staging, name))


if __name__ == "__main__":
    main()
