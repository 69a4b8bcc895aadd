"""The browser the tests drive: the address bar's pop-ups are off (a renderer each per
page, for nothing, when headless) and Playwright's own disabled features still are."""

from __future__ import annotations

from typing import Any

from tests.web.conftest import (
    QUIET_FEATURES,
    Pages,
    Server,
    _our_browser_args,
    _switch_of_our_browser,
)


def test_no_address_bar_renderer_and_playwrights_features_kept(
    browser: Any, server: Server, pages: Pages
) -> None:
    page = pages.open(server.base + "/rules/board")
    session = browser.new_browser_cdp_session()
    targets = session.send("Target.getTargets", {"filter": [{}]})["targetInfos"]
    urls = [t["url"] for t in targets]
    assert page.url in urls
    assert not [u for u in urls if u.startswith("chrome://")], urls
    switch = _switch_of_our_browser("--disable-features=")
    assert switch is not None, "no browser of this process's Playwright"
    features = switch.split(",")
    assert set(QUIET_FEATURES) <= set(features)
    # Playwright's list came first and whole (among it, what keeps a headless browser
    # from reaching out to the network at start).
    assert len(features) > len(QUIET_FEATURES) + 3, features
    assert "MediaRouter" in features


def test_one_feature_switch_reaches_the_browser(browser: Any) -> None:
    """Chromium keeps only the last --disable-features: a second would drop Playwright's."""
    assert browser.is_connected()
    args = _our_browser_args()
    assert args is not None, "no browser of this process's Playwright"
    assert len([a for a in args if a.startswith("--disable-features=")]) == 1, args
