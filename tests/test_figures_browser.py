"""Figures in the built book, as a reader's screen shows them: sharp at a device pixel ratio of 2,
as wide as the text column at 1280 px, and nothing clipped or overflowing on a 390 px phone.

The device metrics are set per page through the Chrome DevTools Protocol, so the session's shared
Chromium (tests/conftest.py) keeps its own.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser import PageWatch

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK_PAGES = sorted(f"notebooks/{p.stem}.html" for p in (ROOT / "notebooks").glob("[A-I]-*.ipynb"))

pytestmark = [pytest.mark.browser, pytest.mark.timeout(900)]


def open_at(watch: PageWatch, path: str, width: int, *, mobile: bool = False) -> Any:
    """Open ``path`` in a ``width`` CSS px wide viewport at a device pixel ratio of 2."""
    cdp = watch.page.context.new_cdp_session(watch.page)
    cdp.send(
        "Emulation.setDeviceMetricsOverride",
        {"width": width, "height": 900, "deviceScaleFactor": 2, "mobile": mobile},
    )
    page = watch.open(path)
    page.wait_for_function("devicePixelRatio === 2")
    # data: images decode asynchronously: wait until every image of the article has its pixels
    page.wait_for_function("[...document.querySelectorAll('article img')].every(i => i.complete)")
    return page


_COLUMN_JS = """() => {
  const a = document.querySelector('article.bd-article');
  const cs = getComputedStyle(a);
  return a.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
}"""

# Each explorer's visible frame and background, and each static figure of a cell's output.
_FIGURES_JS = """async () => {
  const natural = async (url) => { const i = new Image(); i.src = url; await i.decode(); return i.naturalWidth; };
  const out = [];
  for (const fig of document.querySelectorAll('.embedlab-figure')) {
    const frame = fig.querySelector('img:not([hidden])');
    const bg = getComputedStyle(fig).backgroundImage.replace(/^url\\("?/, '').replace(/"?\\)$/, '');
    out.push({kind: 'explorer frame', natural: frame.naturalWidth, shown: frame.getBoundingClientRect().width});
    out.push({kind: 'explorer background', natural: await natural(bg), shown: fig.getBoundingClientRect().width});
  }
  for (const img of document.querySelectorAll('.cell_output img')) {
    if (img.closest('.embedlab-explorer')) continue;
    out.push({kind: 'static figure ' + img.getAttribute('src').slice(-20), natural: img.naturalWidth,
              shown: img.getBoundingClientRect().width});
  }
  return out;
}"""


def figure_problems(figures: list[dict[str, Any]], column: float) -> list[str]:
    problems = []
    for f in figures:
        if f["natural"] < 2 * f["shown"] - 0.5:
            problems.append(f"{f['kind']}: {f['natural']} px shown {f['shown']:.0f} CSS px wide (blurred at 2x)")
        if f["shown"] < 0.9 * column:
            problems.append(f"{f['kind']}: {f['shown']:.0f} CSS px wide in a {column:.0f} px column")
    return problems


@pytest.mark.parametrize("path", NOTEBOOK_PAGES)
def test_explorer_frames_are_sharp_and_fill_the_column(watch: PageWatch, path: str) -> None:
    page = open_at(watch, path, 1280)
    column = page.evaluate(_COLUMN_JS)
    figures = [f for f in page.evaluate(_FIGURES_JS) if f["kind"].startswith("explorer")]
    assert figures, f"{path} shows no explorer"
    problems = figure_problems(figures, column)
    assert not problems, f"{path}:\n" + "\n".join(problems)


@pytest.mark.parametrize("path", NOTEBOOK_PAGES)
def test_static_figures_are_sharp_and_fill_the_column(watch: PageWatch, path: str) -> None:
    """Figures a cell draws (after ``embedlab.notebook_setup()``) are sharp and column-wide too."""
    page = open_at(watch, path, 1280)
    column = page.evaluate(_COLUMN_JS)
    figures = [f for f in page.evaluate(_FIGURES_JS) if f["kind"].startswith("static")]
    problems = figure_problems(figures, column)
    assert not problems, f"{path}:\n" + "\n".join(problems)


# Elements of the article sticking out of it, unless a scrolling (or clipping) box holds them.
_OVERFLOW_JS = """() => {
  const root = document.documentElement;
  const article = document.querySelector('article.bd-article');
  const right = article.getBoundingClientRect().right;
  const held = (el) => {
    for (let p = el.parentElement; p && p !== article; p = p.parentElement) {
      if (['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(p).overflowX)) return true;
    }
    return false;
  };
  const out = [];
  for (const el of article.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.right <= right + 1 || held(el)) continue;
    const what = `<${el.tagName.toLowerCase()} class="${el.className}">`;
    out.push(`${what} ends at ${Math.round(r.right)} > ${Math.round(right)}`);
  }
  if (root.scrollWidth > root.clientWidth) {
    out.push(`the page scrolls sideways: ${root.scrollWidth} > ${root.clientWidth}`);
  }
  return out.slice(0, 10);
}"""

# Every value of every range control: its <output> shows the whole label, inside the explorer.
_OUTPUTS_JS = """() => {
  const out = [];
  for (const input of document.querySelectorAll('.embedlab-explorer input[type=range]')) {
    const box = input.closest('.embedlab-explorer').getBoundingClientRect();
    const start = input.value;
    for (let v = Number(input.min); v <= Number(input.max); v++) {
      input.value = String(v);
      input.dispatchEvent(new Event('input', {bubbles: true}));
      const o = input.parentNode.querySelector('output');
      const r = o.getBoundingClientRect();
      if (o.scrollWidth > o.clientWidth || r.right > box.right + 0.5 || r.left < box.left - 0.5) {
        out.push(`"${o.textContent}": ${o.scrollWidth} px of text in ${o.clientWidth} px,`
                 + ` right edge ${r.right} (box ${box.right})`);
      }
    }
    input.value = start;
    input.dispatchEvent(new Event('input', {bubbles: true}));
  }
  return out;
}"""


@pytest.mark.parametrize("path", NOTEBOOK_PAGES)
def test_phone_width_nothing_clipped_or_overflowing(watch: PageWatch, path: str) -> None:
    page = open_at(watch, path, 390, mobile=True)
    overflow = page.evaluate(_OVERFLOW_JS)
    assert not overflow, f"{path} at 390 px:\n" + "\n".join(overflow)
    clipped = page.evaluate(_OUTPUTS_JS)
    assert not clipped, f"{path} at 390 px, value labels cut:\n" + "\n".join(clipped)
