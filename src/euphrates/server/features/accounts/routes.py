"""Accounts: sign up, log in and out, my games, a profile, export and deletion; a
seat claimed for an account; a chat line reported.

The session is a cookie (HttpOnly, SameSite=Lax, Secure behind https) naming a row
of the database, so it can be ended. Every change a session authorises carries the
session's CSRF token (deps.signed_in); sign-up and log-in, which no session authorises
yet, are refused from a page of another origin (log-in CSRF). Both are rate-limited per
client address; wrong passwords are slowed per name and address (lockout.py); an
unknown name and a wrong password get the same answer after the same work.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request, Response

from euphrates.server.common.clients import client_address
from euphrates.server.common.refusals import Refusal
from euphrates.server.features.accounts.passwords import (
    check_password,
    clean_account_name,
    hash_password,
)
from euphrates.server.features.accounts.schemas import (
    AccountOut,
    ClaimOut,
    CredentialsIn,
    DoneOut,
    EndedOut,
    ExportOut,
    MyGamesOut,
    PasswordChangeIn,
    PasswordIn,
    ProfileOut,
)
from euphrates.server.features.api import GAME, refusals
from euphrates.server.features.deps import (
    SESSION_COOKIE,
    OpenedDep,
    ServicesDep,
    Signed,
    SignedDep,
    UserDep,
    foreign,
)
from euphrates.server.features.fairplay.fairplay import DEVICE_COOKIE, DEVICE_DAYS, new_device
from euphrates.server.features.services import Services
from euphrates.server.store import lifetime as lifetime_reads
from euphrates.server.store import ratings as rating_reads
from euphrates.server.store.accounts import csrf_token

router = APIRouter(tags=["accounts"])


def _answer(signed: Signed | None) -> dict[str, Any]:
    if signed is None:
        return {"user": None, "csrf": None}
    return {"user": signed.user.public(), "csrf": csrf_token(signed.session)}


async def _start_session(
    services: Services, response: Response, request: Request, user_id: int
) -> str:
    """A new session for `user_id`, in the cookie; the one the browser had ends."""
    accounts = services.accounts.store
    old = request.cookies.get(SESSION_COOKIE)
    if old:
        await accounts.end_session(old)
    session = await accounts.open_session(user_id, services.settings.session_days)
    response.set_cookie(
        SESSION_COOKIE,
        session,
        max_age=int(services.settings.session_days * 86400),
        path="/",
        httponly=True,
        samesite="lax",
        secure=services.settings.secure_cookies,
    )
    # The device it came from (a first-party cookie, made once) and its address: quick
    # match pairs no two accounts that share one (docs/fair-play.md).
    device = request.cookies.get(DEVICE_COOKIE) or ""
    if not 16 <= len(device) <= 64:
        device = new_device()
        response.set_cookie(
            DEVICE_COOKIE,
            device,
            max_age=DEVICE_DAYS * 86400,
            path="/",
            httponly=True,
            samesite="lax",
            secure=services.settings.secure_cookies,
        )
    await services.fairplay.seen(user_id, device, client_address(request.scope))
    return session


def _door(request: Request, services: Services) -> None:
    """Sign-up and log-in: not from another site's page, and not too often from one
    address, whatever the names (a name's password is guarded apart: lockout.py)."""
    if foreign(request, services):
        raise Refusal("csrf_failed", "this request did not come from this server's pages")
    if not services.logins.take(client_address(request.scope)):
        raise Refusal("rate_limited", "too many attempts; wait a minute")


@router.get("/api/account", response_model=AccountOut, responses=refusals("storage_unavailable"))
async def account(signed: SignedDep) -> dict[str, Any]:
    """Who is signed in (null for nobody) and the CSRF token of the session."""
    return _answer(signed)


@router.post(
    "/api/account/signup",
    status_code=201,
    response_model=AccountOut,
    responses=refusals("bad_name", "bad_password", "name_taken", "storage_unavailable"),
)
async def signup(
    body: CredentialsIn, request: Request, response: Response, services: ServicesDep
) -> dict[str, Any]:
    """Create an account and sign in. A taken name is said so: a name is public."""
    if not services.signups.take(client_address(request.scope)):
        raise Refusal("rate_limited", "too many new accounts from this address; wait")
    name = clean_account_name(body.name)
    _door(request, services)
    password = check_password(body.password)
    user = await services.accounts.store.create(name, await hash_password(password))
    session = await _start_session(services, response, request, user.id)
    return _answer(Signed(user, session))


@router.post(
    "/api/account/login",
    response_model=AccountOut,
    responses=refusals("bad_login", "account_disabled", "storage_unavailable"),
)
async def login(
    body: CredentialsIn, request: Request, response: Response, services: ServicesDep
) -> dict[str, Any]:
    """Sign in. A wrong name and a wrong password get the same refusal, `bad_login`."""
    _door(request, services)
    user = await services.accounts.login(body.name, body.password, client_address(request.scope))
    session = await _start_session(services, response, request, user.id)
    return _answer(Signed(user, session))


@router.post(
    "/api/account/logout",
    response_model=DoneOut,
    responses=refusals("not_signed_in", "storage_unavailable"),
)
async def logout(signed: UserDep, response: Response, services: ServicesDep) -> dict[str, Any]:
    """End this browser's session."""
    await services.accounts.store.end_session(signed.session)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return {"done": True}


@router.post(
    "/api/account/logout-all",
    response_model=EndedOut,
    responses=refusals("not_signed_in", "storage_unavailable"),
)
async def logout_all(signed: UserDep, response: Response, services: ServicesDep) -> dict[str, Any]:
    """End every session of the account, on every browser."""
    ended = await services.accounts.store.end_sessions(signed.user.id)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return {"ended": ended}


@router.get(
    "/api/account/games",
    response_model=MyGamesOut,
    responses=refusals("not_signed_in", "storage_unavailable"),
)
async def my_games(signed: UserDep, services: ServicesDep) -> dict[str, Any]:
    """The games with a seat of this account, newest first: on any browser."""
    return {"games": await services.accounts.store.games(signed.user.id)}


@router.get(
    "/api/account/export",
    response_model=ExportOut,
    responses=refusals("not_signed_in", "storage_unavailable"),
)
async def export(signed: UserDep, services: ServicesDep) -> dict[str, Any]:
    """Everything the server keeps that is this account's, as JSON."""
    mine = await services.accounts.store.export(signed.user)
    mine["notifications"] = await services.notifier.choices.export(signed.user.id)
    mine["ratings"] = await rating_reads.of_user(services.accounts.database, signed.user.id)
    mine["lifetime"] = await lifetime_reads.export(services.accounts.database, signed.user.id)
    mine["friends"] = await services.friends.store.export(signed.user.id)
    return mine


@router.post(
    "/api/account/delete",
    response_model=DoneOut,
    responses=refusals("not_signed_in", "bad_login", "storage_unavailable"),
)
async def delete(
    body: PasswordIn, signed: UserDep, request: Request, response: Response, services: ServicesDep
) -> dict[str, Any]:
    """Delete the account (its password again): games stay, the name is replaced
    everywhere, every session ends, its address, webhook and messages go."""
    await services.accounts.confirm(signed.user, body.password, client_address(request.scope))
    await services.accounts.delete(signed.user)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return {"done": True}


@router.get(
    "/api/users/{name}",
    response_model=ProfileOut,
    responses=refusals("unknown_user", "storage_unavailable"),
)
async def profile(
    name: Annotated[str, Path(max_length=64, description="the player's name")],
    services: ServicesDep,
    signed: SignedDep,
) -> dict[str, Any]:
    """A player's profile: games per game, the latest ended games with their replays;
    signed in, whether you block them."""
    return await services.accounts.profile(name, signed.user if signed else None)


@router.post(
    "/api/games/{game_id}/claim",
    tags=["seats"],
    response_model=ClaimOut,
    responses=refusals(
        *GAME, "bad_token", "account_required", "not_signed_in", "not_your_seat", "seat_not_human"
    ),
)
async def claim(opened: OpenedDep) -> dict[str, Any]:
    """Tie the seats your links open to your account: from then on a link alone no
    longer acts for them, and your account opens them on any browser."""
    if opened.user is None:
        raise Refusal("not_signed_in", "sign in to claim a seat")
    if not opened.seats:
        raise Refusal("not_your_seat", "send a seat's token to claim that seat")
    seats = await opened.room.claim(opened.seats, opened.user)
    return {"game": opened.room.audience.meta(), "you": {"seats": seats, "host": opened.host}}


@router.post(
    "/api/account/password",
    tags=["accounts"],
    response_model=AccountOut,
    responses=refusals("not_signed_in", "bad_login", "bad_password", "storage_unavailable"),
)
async def change_password(
    body: PasswordChangeIn,
    signed: UserDep,
    request: Request,
    response: Response,
    services: ServicesDep,
) -> dict[str, Any]:
    """Change your password (the old one again): every other session ends; this
    browser gets a new one (and a new CSRF token)."""
    accounts = services.accounts.store
    await services.accounts.confirm(signed.user, body.old, client_address(request.scope))
    new = check_password(body.new)
    await accounts.set_password(signed.user.id, await hash_password(new))
    session = await accounts.open_session(signed.user.id, services.settings.session_days)
    response.set_cookie(
        SESSION_COOKIE,
        session,
        max_age=int(services.settings.session_days * 86400),
        path="/",
        httponly=True,
        samesite="lax",
        secure=services.settings.secure_cookies,
    )
    return {"user": signed.user.public(), "csrf": csrf_token(session)}
