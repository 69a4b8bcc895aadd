"""The chat in the browser: lines reach the other player as text, never markup, and
what a player is typing survives the moves and lines that arrive meanwhile."""

from __future__ import annotations

from tests.web.conftest import Pages, Server
from tests.web.helpers import open_seat, place_leader, wait_version


def test_chat_keeps_what_is_typed_and_shows_text(server: Server, pages: Pages) -> None:
    game = server.create(2)
    view = server.view(game["id"], game["seats"][0]["token"], 0)
    first = view["turn"]["active"]
    p = {0: open_seat(pages, server, game, 0, "Ann"), 1: open_seat(pages, server, game, 1, "Bob")}
    mover, talker = p[first], p[1 - first]
    talker.click(".tablist [data-tab=chat]")
    mover.click(".tablist [data-tab=chat]")
    talker.fill("#chat-input", "half a sent")
    # A move and a chat line arrive while the talker types.
    place_leader(mover, "king", "J1")
    wait_version(talker, 1)
    mover.fill("#chat-input", "<b>bold</b> move")
    mover.press("#chat-input", "Enter")
    talker.wait_for_function(
        "() => document.querySelectorAll('.chat-lines li').length === 1", timeout=10000
    )
    assert talker.input_value("#chat-input") == "half a sent"
    assert talker.locator(".chat-lines li .text").inner_text() == "<b>bold</b> move"
    assert talker.locator(".chat-lines b").count() == 0
    talker.fill("#chat-input", "half a sentence")
    talker.press("#chat-input", "Enter")
    mover.wait_for_function(
        "() => document.querySelectorAll('.chat-lines li').length === 2", timeout=10000
    )
    assert mover.locator(".chat-lines li .text").nth(1).inner_text() == "half a sentence"
    talker.wait_for_function("() => document.querySelector('#chat-input').value === ''")
