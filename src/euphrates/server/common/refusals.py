"""Every way the server says no, as a machine-readable code with a human message.

The codes are the contract with clients (docs/server.md lists them); the message is
the engine's own where the engine refused, so it names the ruling (G-n, B-n, C-n).
A refusal never carries a token, a seed or anything the receiver may not see.
"""

from __future__ import annotations

from typing import Any

from euphrates.core.errors import (
    EuphratesError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    StaleActionError,
    WrongSeatError,
)

HTTP_STATUS = {
    "bad_json": 400,
    "bad_request": 400,
    "bad_message": 400,
    "bad_host": 400,
    "too_large": 413,
    "unknown_type": 400,
    "hello_required": 400,
    "not_found": 404,
    "method_not_allowed": 405,
    "unknown_game": 404,
    "expired": 410,
    "bad_token": 403,
    "not_host": 403,
    "not_your_seat": 403,
    "not_started": 409,
    "game_over": 409,
    "abandoned": 409,
    "stale_version": 409,
    "wrong_seat": 409,
    "invalid_action": 422,
    "illegal_action": 422,
    "undo_refused": 409,
    "chat_refused": 422,
    "chat_full": 409,
    "rate_limited": 429,
    "too_many_connections": 429,
    "request_timeout": 408,
    "headers_too_large": 431,
    "record_unavailable": 403,
    "not_over": 409,
    "seat_not_human": 409,
    "not_out_of_time": 409,
    "storage_unavailable": 503,
    "bad_login": 401,
    "not_signed_in": 401,
    "csrf_failed": 403,
    "account_required": 403,
    "account_disabled": 403,
    "muted": 403,
    "unknown_user": 404,
    "name_taken": 409,
    "bad_password": 422,
    "bad_name": 422,
    "not_admin": 403,
    "server_error": 500,
    "tour_step": 409,
    "not_open": 409,
    "already_started": 409,
    "seat_taken": 409,
    "already_seated": 409,
    "host_stays": 409,
    "nobody_seated": 409,
    "mail_unavailable": 409,
    "no_address": 409,
    "no_code": 409,
    "bad_code": 422,
    "bad_email": 422,
    "bad_webhook": 422,
    "bad_setting": 422,
    "send_failed": 502,
    "not_rated": 409,
    "already_waiting": 409,
    "hint_refused": 409,
    "hint_busy": 429,
    "bot_unavailable": 503,
    "rated_seat": 403,
    "aborted": 409,
    "too_many_aborts": 429,
    "on_vacation": 409,
    "unknown_tournament": 404,
    "entries_closed": 409,
    "tournament_full": 409,
    "tournament_ended": 409,
    "creator_stays": 409,
    "not_creator": 403,
    "too_few_entrants": 409,
    "too_many_tournaments": 429,
    "admins_only": 403,
    "second_account": 403,
    "vacation_refused": 409,
    "follow_refused": 409,
    "too_many_follows": 409,
    "invite_refused": 409,
    "unknown_invitation": 404,
    "invitation_ended": 409,
}


class Refusal(Exception):
    """A request the server will not carry out; nothing was changed."""

    def __init__(self, code: str, message: str, ruling: str | None = None) -> None:
        assert code in HTTP_STATUS, code
        super().__init__(message)
        self.code = code
        self.message = message
        self.ruling = ruling

    @property
    def status(self) -> int:
        return HTTP_STATUS[self.code]

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "ruling": self.ruling}


def from_engine(e: EuphratesError) -> Refusal:
    """The engine's refusal, with its message (which ends with the ruling) and ruling."""
    ruling = getattr(e, "ruling", None)
    if isinstance(e, StaleActionError):
        return Refusal("stale_version", str(e), ruling)
    if isinstance(e, WrongSeatError):
        return Refusal("wrong_seat", str(e), ruling)
    if isinstance(e, GameOverError):
        return Refusal("game_over", str(e), ruling)
    if isinstance(e, IllegalActionError):
        return Refusal("illegal_action", str(e), ruling)
    if isinstance(e, InvalidActionError):
        return Refusal("invalid_action", str(e), ruling)
    return Refusal("invalid_action", str(e), ruling)
