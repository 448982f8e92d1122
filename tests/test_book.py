"""The static book: built for real with Jupyter Book, opened in Debian's Chromium with the network blocked.

The site is built once per session (``jupyter-book build -W -n --keep-going``, through the
execution cache, so a warm build takes seconds) and served from 127.0.0.1; every request to any
other host is aborted, so a page that needs a CDN shows it here.
"""

from __future__ import annotations

import functools
import html.parser
import math
import re
from pathlib import Path
from urllib.parse import unquote, urljoin, urlparse

import pytest

from tests.browser import PageWatch, site_pages

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "_build" / "html"
# The eight worked examples and notebook I (the self-check notebook, S-self-check, has exercises, not an explorer).
NOTEBOOK_PAGES = sorted(f"notebooks/{p.stem}.html" for p in (ROOT / "notebooks").glob("[A-I]-*.ipynb"))
PAGE_BUDGET = 1.5e6  # bytes: the HTML of a page plus the local images it loads

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]


def test_every_page_loads_offline_without_errors(site: Path, watch: PageWatch) -> None:
    """No page needs the network, and none raises or logs an error in the browser."""
    pages = site_pages(site)
    assert len(pages) >= 8 + 7, f"the site should hold the eight notebooks and the book pages, found {pages}"
    problems = []
    for path in pages:
        watch.errors.clear()
        watch.blocked.clear()
        watch.open(path)
        if watch.errors:
            problems.append(f"{path}: {watch.errors}")
        if watch.blocked:
            problems.append(f"{path} asked the network for {watch.blocked}")
    assert not problems, "\n".join(problems)


def test_math_is_typeset_offline(watch: PageWatch) -> None:
    """Formulas render with the MathJax copy served by the site itself, not left as raw TeX."""
    page = watch.open("book/notation.html")
    assert page.locator("mjx-container").count() >= 5
    assert "\\mathbf" not in page.locator("article").inner_text()


@pytest.mark.parametrize("path", NOTEBOOK_PAGES)
def test_every_control_changes_its_figure(watch: PageWatch, path: str) -> None:
    """On each worked example, moving any control of the explorer shows another frame and readout."""
    page = watch.open(path)
    explorers = page.locator(".embedlab-explorer")
    assert explorers.count() >= 1, f"{path} has no kernel-free explorer"
    for e in range(explorers.count()):
        explorer = explorers.nth(e)
        inputs = explorer.locator("input[type=range]")
        assert inputs.count() >= 1
        for i in range(inputs.count()):
            control = inputs.nth(i)
            visible = explorer.locator("img:not([hidden])")
            assert visible.count() == 1, "exactly one frame is shown at a time"
            before_src, before_alt = visible.get_attribute("src"), visible.get_attribute("alt")
            before_readout = explorer.locator(".embedlab-readout").inner_text()
            at_end = control.get_attribute("value") == control.get_attribute("max")
            control.focus()
            page.keyboard.press("ArrowLeft" if at_end else "ArrowRight")
            visible = explorer.locator("img:not([hidden])")
            assert visible.count() == 1
            assert visible.get_attribute("src") != before_src, f"{path}: control {i} did not change the figure"
            assert visible.get_attribute("alt") != before_alt
            readout = explorer.locator(".embedlab-readout").inner_text()
            assert readout == visible.get_attribute("alt") and readout != before_readout
            label = control.evaluate("e => e.parentNode.querySelector('output').textContent")
            assert label == control.get_attribute("aria-valuetext"), "the shown value follows the control"
    assert not watch.errors, watch.errors


@pytest.mark.parametrize("path", NOTEBOOK_PAGES)
def test_no_dead_widget_snapshot(site: Path, path: str) -> None:
    """The book shows the kernel-free explorer, never a frozen ipywidgets view or its CDN scripts."""
    text = (site / path).read_text(encoding="utf-8")
    assert "application/vnd.jupyter.widget-view+json" not in text
    assert "widget-state+json" not in text
    assert "@jupyter-widgets/html-manager" not in text and "require.min.js" not in text


def page_weight(site: Path, path: str) -> int:
    """Bytes of a page's HTML plus the local images it references."""
    page = site / path
    text = page.read_text(encoding="utf-8")
    total = len(text.encode())
    for src in set(re.findall(r'<img[^>]+src="([^"]+)"', text)):
        if not src.startswith(("data:", "http")):
            target = (page.parent / unquote(urlparse(src).path)).resolve()
            total += target.stat().st_size if target.exists() else 0
    return total


def test_pages_stay_small(site: Path) -> None:
    heavy = {p: page_weight(site, p) for p in site_pages(site)}
    too_big = {p: n for p, n in heavy.items() if n > PAGE_BUDGET}
    assert not too_big, f"pages over {PAGE_BUDGET / 1e6} MB: {too_big}"


class _Links(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.links: list[str] = []
        self.ids: set[str] = set()
        self.imgs: list[dict[str, str | None]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])  # type: ignore[arg-type]
        if tag == "a" and a.get("href"):
            self.links.append(a["href"])  # type: ignore[arg-type]
        if tag == "img":
            self.imgs.append(a)


@functools.cache
def _parse(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def test_internal_links_resolve(site: Path) -> None:
    """Every link inside the site points at a file that exists, and at an anchor that exists."""
    broken = []
    for path in site_pages(site):
        page = site / path
        base = "http://site/" + path
        for href in _parse(page).links:
            url = urlparse(urljoin(base, href))
            if url.scheme not in ("http", "https") or url.netloc != "site":
                continue
            target = site / unquote(url.path.lstrip("/"))
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                broken.append(f"{path}: {href}")
            elif url.fragment and target.suffix == ".html" and url.fragment not in _parse(target).ids:
                broken.append(f"{path}: {href} (no anchor)")
    assert not broken, "broken internal links:\n" + "\n".join(broken)


def test_every_figure_has_alt_text(site: Path) -> None:
    missing = [
        f"{path}: {str(img.get('src'))[:60]}"
        for path in site_pages(site)
        for img in _parse(site / path).imgs
        if not (img.get("alt") or "").strip() and "logo" not in str(img.get("class", ""))
    ]
    assert not missing, "images without alt text:\n" + "\n".join(missing)


@pytest.mark.parametrize(
    "path", ["book/index.html", "book/self-check.html", "notebooks/S-self-check.html", *NOTEBOOK_PAGES]
)
def test_no_serious_accessibility_violations(watch: PageWatch, path: str) -> None:
    """axe-core finds nothing serious or critical (labels, contrast, names of controls...)."""
    from axe_playwright_python.sync_playwright import Axe

    page = watch.open(path)
    violations = Axe().run(page).response["violations"]
    serious = [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in violations
        if v["impact"] in ("serious", "critical")
    ]
    assert not serious, "\n".join(serious)


def test_pages_quote_the_computed_numbers(site: Path) -> None:
    """Numbers pasted into the Markdown pages are the computed ones (checked here with plain math)."""
    z = [-0.24, -0.14, -0.49, 0.51]  # h = [0.5, 0.2, -0.3] against the toy E, by hand
    probs = [math.exp(v) / sum(math.exp(w) for w in z) for v in z]
    notes = (site / "book" / "draft-notes.html").read_text(encoding="utf-8")
    for p in probs:
        assert f"{p:.2f}" in notes
    # The self-check's answers are checked against embedlab in tests/test_quiz_browser.py.
    checks = (site / "book" / "self-check.html").read_text(encoding="utf-8")
    assert "glue" not in re.sub(r"<[^>]+>", "", checks).lower(), "an unresolved glue reference is shown"


@pytest.mark.parametrize("path", NOTEBOOK_PAGES)
def test_every_coding_exercise_shows_its_cases_and_a_solution_behind_a_toggle(watch: PageWatch, path: str) -> None:
    """Each "your turn" exercise: its statement, the cases its check tries, the stub, and the solution folded away.

    The toggle is HTML's own <details>, so it works without a kernel or a script; the section has no
    other control that could sit dead.
    """
    from embedlab import practice

    letter = Path(path).stem[0]
    names = [n for n in practice.TASKS if practice.task(n).example == letter]
    assert names, f"{path} has no coding exercise"
    page = watch.open(path)
    for name in names:
        section = page.locator(f"section#your-turn-{name.replace('_', '-').lower()}")
        assert section.count() == 1, f"{path}: no section for {name}"
        text = section.inner_text()
        assert practice.task(name).signature in text, f"{path}: the statement of {name}"
        for line in practice.task(name).describe().splitlines():
            assert line.strip() in text, f"{path}: the cases of {name} are not shown ({line.strip()!r})"
        assert f"def {name}(" in text and f"practice.check({name})" in text, "the stub and its check"
        # (copy buttons on the code work without a kernel; nothing else may ask for one)
        assert section.locator("input, select, textarea, button:not(.copybtn)").count() == 0, "a dead control"
        toggle = section.locator("details")
        assert toggle.count() == 1
        code = toggle.locator(".cell_input")
        assert not code.is_visible(), "the solution shows before the reader asks for it"
        toggle.locator("summary").click()
        code.wait_for(state="visible")
        assert f"def {name}(" in code.inner_text() and f"practice.check({name})" in code.inner_text()
        passed = f"{name}: all {len(practice.task(name).cases())} cases pass."
        assert passed in section.inner_text()
        assert section.inner_text().index("not tried yet") < section.inner_text().index(passed)
    assert not watch.errors, watch.errors
