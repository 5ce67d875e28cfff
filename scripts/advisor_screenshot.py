"""The screenshot of docs/advisor.md: the advisor page on a phone (360 px wide).

Builds the page with ``tutto-sim advisor`` into a temporary folder (with the
Tutto win table to 300 of tests/web/data), opens it from disk in Debian's
chromium through Playwright, enters a Tutto throw with the scores and saves
the page as ``docs/img/advisor.png``.

    python scripts/advisor_screenshot.py [--out docs/img/advisor.png]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "img" / "advisor.png")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "advisor"
        subprocess.run([sys.executable, "-m", "tutto_sim.cli", "advisor", "--out", str(site),
                        "--win-table", str(ROOT / "tests" / "web" / "data" / "tutto-win-300.json")],
                       check=True)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            page = browser.new_page(viewport={"width": 360, "height": 780})
            page.goto((site / "index.html").as_uri())
            page.wait_for_function("document.body.dataset.table === 'tutto-default'", timeout=60_000)
            page.select_option("#tutto-card", "bonus300")
            page.fill("#tutto-total", "300")
            page.fill("#tutto-dice", "1 5 5 2 3")
            page.select_option("#win-table", "tutto-win-300")
            page.select_option("#win-seat", "1")
            page.fill("#win-own", "100")
            page.fill("#win-other", "150")
            page.click("#tutto-form button[type=submit]")
            page.wait_for_function("document.body.dataset.answered === '1'")
            args.out.parent.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(args.out), full_page=True)
            browser.close()
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
