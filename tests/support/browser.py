"""A real browser for the web pages' tests (no tests here): the system's Chromium (Debian's
``chromium`` package, which ``.ci/run`` installs), driven by Playwright's Python package — never a
browser of Playwright's own (nothing is downloaded). Where Chromium or Playwright is missing the
tests skip and say why.

The flags keep Chromium off the network: this machine's network is closed, and a browser's own
background connections (updates, sync, QUIC probes) would only wait there.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator

import pytest

CHROMIUM = os.environ.get("MAFIA_REFEREE_TEST_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: where the screenshots go (git-ignored: tests/artifacts/)
ARTIFACTS = Path(__file__).resolve().parent.parent / "artifacts"
PHONE = {"width": 360, "height": 740}
SCREEN = {"width": 1920, "height": 1080}
#: Telegram's dark theme, as its client gives a Mini App
THEME = {"bg_color": "#17212b", "text_color": "#f5f5f5", "hint_color": "#708499",
         "link_color": "#6ab3f3", "button_color": "#5288c1", "button_text_color": "#ffffff",
         "secondary_bg_color": "#232e3c"}


def chromium() -> str:
    """The system's Chromium, or the test is skipped with the reason."""
    pytest.importorskip("playwright.async_api", reason="Playwright's Python package is not installed "
                        "(pip install -e '.[test]')")
    found = CHROMIUM if os.path.exists(CHROMIUM) else shutil.which("chromium")
    if not found:
        pytest.skip("Chromium is not installed (apt-get install chromium; .ci/run installs it)")
    return found


@asynccontextmanager
async def browser() -> AsyncIterator[Any]:
    """A headless Chromium, closed after."""
    path = chromium()
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=path, args=FLAGS)
        try:
            yield launched
        finally:
            await launched.close()


def telegram_stub(init_data: str, theme: dict[str, str] | None = None) -> str:
    """A small ``window.Telegram.WebApp`` in place of Telegram's script (not reachable here):
    the signed ``initData``, the theme, and ``ready``/``expand`` that note they were called."""
    return ("window.Telegram = {WebApp: {initData: %s, themeParams: %s, ready() { this.readied = true; },"
            " expand() { this.expanded = true; }}};" % (json.dumps(init_data), json.dumps(theme or THEME)))


def init_fields(user_id: int, first_name: str = "Судья", *, at: float | None = None) -> dict[str, str]:
    """``initData``'s fields for Telegram's user ``user_id`` signed at ``at`` (now)."""
    return {"query_id": "AAHdF6IQAAAAAN0XohDhrOrc", "auth_date": str(int(at if at is not None else time.time())),
            "user": json.dumps({"id": user_id, "first_name": first_name, "language_code": "ru"},
                               ensure_ascii=False, separators=(",", ":"))}


async def layout_problems(page: Any, selector: str) -> list[str]:
    """What overflows on ``page``: the document wider or (``overflow: hidden`` aside) taller than
    the viewport, an element of ``selector`` outside it or cut (its text wider than its box)."""
    return await page.evaluate("""(selector) => {
      const out = [];
      const w = window.innerWidth, h = window.innerHeight;
      const doc = document.documentElement;
      if (doc.scrollWidth > w + 1) out.push(`the page is ${doc.scrollWidth}px wide in ${w}px`);
      for (const node of document.querySelectorAll(selector)) {
        const r = node.getBoundingClientRect();
        const label = node.dataset.seat ? `seat ${node.dataset.seat}` : node.id || node.className;
        if (r.width === 0 || r.height === 0) out.push(`${label} is not shown`);
        if (r.left < -1 || r.right > w + 1 || r.top < -1 || r.bottom > h + 1) out.push(`${label} is outside the screen`);
        if (node.scrollWidth > node.clientWidth + 1) out.push(`${label} overflows its box`);
      }
      return out;
    }""", selector)


async def shot(page: Any, name: str, *, transparent: bool = False) -> Path:
    """A screenshot kept under :data:`ARTIFACTS` (git-ignored); ``transparent``: what the page
    does not paint stays transparent (the overlay, as OBS composes it)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / name
    await page.screenshot(path=str(path), full_page=False, omit_background=transparent)
    return path
