"""The staged index.html that the post-build steps rewrite in turn (scripts/post_build.py)."""

import os
import sys


def fail(step, message):
    """Stops the build with `message`, named by the step that says it."""
    print(f"{step}: {message}", file=sys.stderr)
    sys.exit(1)


def staging(step):
    """Trunk's staging directory, where the page is built before it goes to dist/."""
    return os.environ.get("TRUNK_STAGING_DIR") or fail(step, "TRUNK_STAGING_DIR is not set")


def read(step):
    """The staged index.html: its path and its text."""
    path = os.path.join(staging(step), "index.html")
    with open(path, encoding="utf-8") as f:
        return path, f.read()


def write(path, html):
    with open(path, "w", encoding="utf-8") as f:
        f.write(html)
