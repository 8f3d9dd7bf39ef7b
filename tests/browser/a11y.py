"""Checks of a table's page in the browser that every game shares: tap targets, whole words, focus."""

from __future__ import annotations

# Every clickable thing on the table (board, prompt, status bar, result) that is smaller than
# 24x24 CSS px (WCAG 2.2 target size), as "tag.class 'text' WxH".
SMALL_TARGETS = """(root) => {
  const out = [];
  // What says it is clickable: its tag or role, the shell's data-click, or a pointer cursor of its
  // own (not one inherited from a clickable parent).
  const clickable = 'button, a[href], [data-click], [role="button"], select, input:not([type="hidden"])';
  const pointer = (n) => getComputedStyle(n).cursor === 'pointer';
  const nodes = [...document.querySelector(root).querySelectorAll('*')].filter((n) =>
    n.matches(clickable) || (pointer(n) && !(n.parentElement && pointer(n.parentElement))));
  for (const node of nodes) {
    if (node.closest('[hidden]') || node.disabled) continue;
    const r = node.getBoundingClientRect();
    if (!r.width || !r.height) continue;  // not shown
    if (r.width < 23.5 || r.height < 23.5)
      out.push(`${node.tagName.toLowerCase()}.${node.getAttribute('class') || ''} '${(node.textContent || node.getAttribute('aria-label') || '').trim().slice(0, 30)}' ${r.width.toFixed(0)}x${r.height.toFixed(0)}`);
  }
  return out;
}"""

# Words of the page's HTML text under `root` that are drawn on two lines ("Slaughterho|use").
# A word is a run of letters and digits; a break at a space or a hyphen is not a broken word.
BROKEN_WORDS = """(root) => {
  const out = [];
  const walker = document.createTreeWalker(document.querySelector(root), NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement.closest('svg, [hidden], script, style')) continue;
    for (const m of node.data.matchAll(/[\\p{L}\\p{N}']{2,}/gu)) {
      // Letter by letter: a range over the whole word also holds the hyphen drawn at the end of
      // the line before when the word follows a soft hyphen ("News-/stand" is a whole word).
      const tops = new Set();
      for (let k = m.index; k < m.index + m[0].length; k++) {
        range.setStart(node, k);
        range.setEnd(node, k + 1);
        // A letter sits on one line: its own box is the last (a generated hyphen comes first).
        const boxes = [...range.getClientRects()].filter((r) => r.width > 0);
        if (boxes.length) tops.add(Math.round(boxes[boxes.length - 1].top));
      }
      if (tops.size > 1) out.push(m[0]);
    }
  }
  return out;
}"""


# Tab from the top of the page to `node` (or the focusable thing around it) and say whether it
# got there; the page's own order, nothing set by the test.
_FOCUSABLE = "button, a[href], input, select, textarea, [tabindex]:not([tabindex='-1']), [data-click]"


def tab_to(page, locator, most: int = 600) -> None:
    """Press Tab from the top of the page until what `locator` finds (or the focusable thing
    around it) has the focus. Fails when Tab never reaches it."""
    locator.wait_for(state="attached", timeout=10000)
    # Start at the top: on the skip link (the page's first stop) where there is one.
    page.evaluate(
        "() => { const s = document.querySelector('.skip-link'); "
        "if (s) s.focus(); else if (document.activeElement) document.activeElement.blur(); }"
    )
    # The locator is found again after every Tab: a redraw (another seat's move) replaces nodes.
    reached = f"(n) => (n.closest({_FOCUSABLE!r}) || n) === document.activeElement"
    for _ in range(most):
        page.keyboard.press("Tab")
        if locator.count() and locator.evaluate(reached, timeout=5000):
            return
    raise AssertionError(f"Tab never reached {locator}")


def key_click(page, locator, most: int = 600) -> None:
    """Press what `locator` finds with the keyboard only: Tab until it has the focus, then Enter.
    Fails when Tab never reaches it (so a mouse-only control fails the keyboard tests)."""
    tab_to(page, locator, most)
    page.keyboard.press("Enter")


FOCUS_RGB = "rgb(26, 95, 180)"  # the kit's focus colour, #1a5fb4


def focus_ring(page, locator) -> dict:
    """Tab onto `locator` and read how its focus shows: outline (HTML) or stroke (SVG)."""
    tab_to(page, locator)
    return locator.evaluate("""(n) => { const st = getComputedStyle(n);
      return { style: st.outlineStyle, width: parseFloat(st.outlineWidth), colour: st.outlineColor,
               stroke: st.stroke, strokeWidth: parseFloat(st.strokeWidth) }; }""")


class KeyLocator:
    """A Playwright locator whose click() is made with the keyboard (key_click)."""

    def __init__(self, page, locator):
        self._page, self._loc = page, locator

    def click(self, **_):
        key_click(self._page, self._loc)

    @property
    def first(self):
        return KeyLocator(self._page, self._loc.first)

    @property
    def last(self):
        return KeyLocator(self._page, self._loc.last)

    def nth(self, i):
        return KeyLocator(self._page, self._loc.nth(i))

    def locator(self, *a, **k):
        return KeyLocator(self._page, self._loc.locator(*a, **k))

    def get_by_role(self, *a, **k):
        return KeyLocator(self._page, self._loc.get_by_role(*a, **k))

    def __getattr__(self, name):
        return getattr(self._loc, name)


class KeyPage:
    """A page whose clicks (page.click, locator(...).click()) are made with the keyboard only, so
    the renderers' clicking helpers play a turn without a mouse."""

    def __init__(self, page):
        self._page = page

    def click(self, selector, **_):
        key_click(self._page, self._page.locator(selector).first)

    def locator(self, *a, **k):
        return KeyLocator(self._page, self._page.locator(*a, **k))

    def get_by_role(self, *a, **k):
        return KeyLocator(self._page, self._page.get_by_role(*a, **k))

    def __getattr__(self, name):
        return getattr(self._page, name)
