#!/usr/bin/env python3
"""Trunk's post-build hook: writes the page's Content-Security-Policy into dist/index.html.

The policy is a <meta> tag, so any static host serves it. Trunk writes one inline module script
(its loader) whose text names the hashed file names of the build, so the policy allows exactly
that script by its SHA-256 and no other inline script. What each directive is for:

  default-src 'self'        nothing from any other origin
  script-src 'self' 'sha256-…' 'wasm-unsafe-eval'
                            the page's own scripts, Trunk's loader, and compiling WebAssembly
  worker-src 'self'         the simulator's Web Workers and the capture analysis's, both
                            started through assets/worker-loader.js
  style-src-elem 'self'     style sheets from the page's origin only
  style-src-attr 'unsafe-inline'
                            the style attributes Yew writes (chart heights, colours)
  img-src 'self' data: blob:
                            the favicon and the charts' PNG exports
  connect-src 'self' blob: data:
                            the page's files, and its exports (the blob: and data: URLs it made)
  object-src 'none'; base-uri 'none'; form-action 'none'
                            no plugins, no <base> rewriting of relative URLs, no form posts

It also drops the `integrity` attribute Trunk puts on the WebAssembly preload: Chromium ignores
integrity on `as="fetch"` preloads and warns about it on every load (crbug.com/981419), and the
module that fetches the WebAssembly keeps its own integrity check.

A host that can set headers should also send frame-ancestors (a meta tag cannot), see the
README. Exits non-zero, failing the build, if the page has no inline script to hash: Trunk's
output would then have changed under the policy.
"""

import base64
import hashlib
import os
import re
import sys

MARK = '<meta charset="utf-8">'


def policy(hashes):
    scripts = " ".join(f"'sha256-{h}'" for h in hashes)
    return "; ".join(
        [
            "default-src 'self'",
            f"script-src 'self' {scripts} 'wasm-unsafe-eval'",
            "worker-src 'self'",
            "style-src-elem 'self'",
            "style-src-attr 'unsafe-inline'",
            "img-src 'self' data: blob:",
            "connect-src 'self' blob: data:",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'none'",
        ]
    )


def main():
    staging = os.environ.get("TRUNK_STAGING_DIR")
    if not staging:
        sys.exit("csp.py: TRUNK_STAGING_DIR is not set (run by trunk as a post_build hook)")
    path = os.path.join(staging, "index.html")
    with open(path, encoding="utf-8") as f:
        html = f.read()
    inline = re.findall(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", html, flags=re.S)
    if not inline:
        sys.exit("csp.py: no inline script in index.html to allow by hash")
    hashes = [
        base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode("ascii")
        for body in inline
    ]
    if MARK not in html:
        sys.exit(f"csp.py: index.html has no {MARK} to put the policy after")
    if "Content-Security-Policy" in html:
        sys.exit("csp.py: index.html already has a policy")
    meta = f'\n    <meta http-equiv="Content-Security-Policy" content="{policy(hashes)}">'
    html = html.replace(MARK, MARK + meta, 1)
    html = re.sub(
        r'(<link rel="preload"[^>]*?) integrity="[^"]*"([^>]*as="fetch")',
        r"\1\2",
        html,
    )
    with open(path, "w", encoding="utf-8") as f:
        f.write(html)


if __name__ == "__main__":
    main()
