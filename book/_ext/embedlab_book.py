"""Local Sphinx extension for the embedlab book.

1. Serves MathJax from the build itself (copied from the pinned ``django-static-mathjax``
   package), so formulas render with the network blocked.
2. Drops myst-nb's ipywidgets scripts and saved widget state from every page: the book shows
   each explorer's kernel-free HTML form, so the CDN scripts would only fail offline.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx

# The parts of MathJax's es5 build that tex-chtml.js loads: itself, its fonts, TeX extensions.
MATHJAX_PARTS = ("tex-chtml.js", "output/chtml/fonts/woff-v2", "input/tex/extensions", "a11y", "ui", "sre")


def _mathjax_source() -> Path:
    import mathjax  # the django-static-mathjax package: a plain copy of MathJax 3's files

    return Path(mathjax.__file__).resolve().parent / "static" / "mathjax" / "es5"


def copy_mathjax(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    source = _mathjax_source()
    target = Path(app.outdir) / "_static" / "mathjax"
    for part in MATHJAX_PARTS:
        src, dst = source / part, target / part
        if dst.exists():  # a warm rebuild copies nothing
            continue
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_dir():
            shutil.copytree(src, dst)
        elif src.exists():
            shutil.copy2(src, dst)


def drop_widget_scripts(app: Sphinx, pagename: str, *args: Any) -> None:
    js_files = getattr(app.env, "nb_metadata", {}).get(pagename, {}).get("js_files", {})
    for key in [k for k in js_files if k.startswith("ipywidgets")]:
        del js_files[key]


def drop_thebe(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any], doctree: Any) -> None:
    """Remove sphinx-thebe's scripts: the book launches no kernel, and Jupyter Book 1 adds the
    extension's inline script twice, which throws "THEBE_JS_URL has already been declared"."""
    scripts = context.get("script_files")
    if scripts is None:
        return
    context["script_files"] = [
        s
        for s in scripts
        if "sphinx-thebe" not in str(s) and "THEBE_JS_URL" not in str(getattr(s, "attributes", {}).get("body", ""))
    ]


def setup(app: Sphinx) -> dict[str, Any]:
    app.connect("build-finished", copy_mathjax)
    app.connect("html-page-context", drop_widget_scripts, priority=400)  # before myst-nb adds them
    app.connect("html-page-context", drop_thebe, priority=900)  # after every extension added its scripts
    return {"parallel_read_safe": True, "parallel_write_safe": True}
