"""axe-core accessibility checks of a live page (and its MiniApp frames), in Chromium.

The vendored ``axe.min.js`` (``vendor/axe-core/``) is evaluated in the page through Playwright's
DevTools channel, which the page's CSP does not govern, so LineUp serves nothing extra for it. Each
sandboxed Surface is its own document with an opaque origin: it is checked in its own frame.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.sync_api import Frame, Page

AXE = Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js"
AXE_SHA256 = "880970c081707360e64f34cea25ff91892f5bc95675b0776925b9709dd8a68bb"  # axe-core 4.10.3
BLOCKING = ("serious", "critical")
# WCAG 2.1 A and AA, plus axe's best practices (landmarks, one main, headings, skip links).
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]

_source: str | None = None


def _axe_source() -> str:
    global _source
    if _source is None:
        data = AXE.read_bytes()
        assert hashlib.sha256(data).hexdigest() == AXE_SHA256, "vendor/axe-core/axe.min.js is not the pinned file"
        _source = data.decode("utf-8")
    return _source


@dataclass(frozen=True)
class Violation:
    rule: str
    impact: str
    help: str
    targets: tuple[str, ...]

    def __str__(self) -> str:
        return f"{self.impact} {self.rule}: {self.help} at {', '.join(self.targets[:5])}"


def violations(target: Page | Frame, *, where: str = "") -> list[Violation]:
    """Every axe violation in ``target``'s document (frames excluded: check them on their own)."""
    if not target.evaluate("() => typeof window.axe === 'object'"):
        target.evaluate(_axe_source())
    found: list[dict[str, Any]] = target.evaluate(
        """async (tags) => {
            const result = await axe.run(document, {
                runOnly: { type: "tag", values: tags }, resultTypes: ["violations"], iframes: false,
            });
            return result.violations.map((v) => ({
                rule: v.id, impact: v.impact || "", help: v.help, targets: v.nodes.map((n) => n.target.join(" ")),
            }));
        }""",
        TAGS,
    )
    return [Violation(v["rule"], v["impact"], v["help"], tuple(v["targets"])) for v in found]


def blocking(page: Page, *, frames: bool = True) -> list[Violation]:
    """The serious and critical violations of the page and (by default) of every Surface frame in it."""
    targets: list[Page | Frame] = [page]
    if frames:
        targets += [
            f
            for f in page.frames
            if f is not page.main_frame and "/surfaces/" in f.url and f.frame_element().is_visible()
        ]
    found = []
    for target in targets:
        found += [v for v in violations(target) if v.impact in BLOCKING]
    return found
