"""An account's notifications out of the browser — an e-mail address (verified by a
code mailed to it before any turn mail goes there), a webhook, each on or off, per
turn or a daily digest, a test message — and a change of password.

Every route is the signed-in account's own (with the CSRF check of every change):
the address and the webhook are answered to their owner only, and never appear in a
refusal or a log line. Mail a player asks for (a code, a test) is limited per account
and, for codes, per address: nobody can make the server write to a stranger more than
a few times an hour.
"""

from __future__ import annotations

import hashlib
import re
from datetime import timedelta
from functools import cache
from typing import Any
from zoneinfo import available_timezones

from fastapi import APIRouter

from euphrates.server.common.refusals import Refusal
from euphrates.server.features.api import refusals
from euphrates.server.features.deps import BaseUrl, ServicesDep, UserDep
from euphrates.server.features.notifications.notifier import CODE_DAYS, new_code
from euphrates.server.features.notifications.schemas import (
    CodeIn,
    EmailIn,
    NotifyIn,
    NotifyOut,
    SentOut,
    TestIn,
)
from euphrates.server.features.notifications.webhooks import WebhookRefused, check_url
from euphrates.server.features.services import Services
from euphrates.server.store.database import now
from euphrates.server.store.notify_settings import Prefs, next_digest
from euphrates.words.book import LANGS

router = APIRouter(tags=["notifications"])

EMAIL = re.compile(
    r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]{1,64}"
    r"@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+"
)
"""An address as people type it (ASCII; an international domain in its xn-- form).
No space, angle bracket or line break can pass: nothing is added to a header."""


@cache
def _zones() -> frozenset[str]:
    return frozenset(available_timezones()) | {"UTC"}


def _out(prefs: Prefs, services: Services) -> dict[str, Any]:
    return {
        "email": prefs.email,
        "email_pending": prefs.email_pending,
        "email_on": prefs.email_on,
        "webhook": prefs.webhook,
        "webhook_on": prefs.webhook_on,
        "digest": prefs.digest,
        "digest_hour": prefs.digest_hour,
        "timezone": prefs.timezone,
        "lang": prefs.lang if prefs.lang in LANGS else "en",
        "mail": services.notifier.mailer is not None,
        "next_digest": prefs.digest_next.isoformat() if prefs.digest_next else None,
    }


def _storage(e: Exception) -> Refusal:
    return Refusal("storage_unavailable", f"the settings could not be saved: {type(e).__name__}")


@router.get(
    "/api/account/notifications",
    response_model=NotifyOut,
    responses=refusals("not_signed_in", "storage_unavailable"),
)
async def notifications(signed: UserDep, services: ServicesDep, base: BaseUrl) -> dict[str, Any]:
    """Your channels and choices for turn messages out of the browser."""
    services.notifier.seen(base)
    try:
        prefs = await services.notifier.choices.prefs(signed.user.id)
    except Exception as e:
        raise _storage(e) from None
    return _out(prefs, services)


@router.post(
    "/api/account/notifications",
    response_model=NotifyOut,
    responses=refusals(
        "not_signed_in", "bad_webhook", "bad_setting", "no_address", "storage_unavailable"
    ),
)
async def change(
    body: NotifyIn, signed: UserDep, services: ServicesDep, base: BaseUrl
) -> dict[str, Any]:
    """Change your choices: channels on or off, the webhook, per turn or a daily
    digest at an hour of your time zone, the messages' language."""
    services.notifier.seen(base)
    notices = services.notifier.choices
    given = body.model_fields_set
    values: dict[str, Any] = {
        f: getattr(body, f)
        for f in ("email_on", "webhook_on", "digest", "digest_hour", "timezone", "lang")
        if f in given and getattr(body, f) is not None
    }
    if "timezone" in values and values["timezone"] not in _zones():
        raise Refusal("bad_setting", "'timezone' must be an IANA time zone, such as Europe/Berlin")
    if "webhook" in given:
        if body.webhook is None or not body.webhook.strip():
            values.update(webhook=None, webhook_on=False)
        else:
            try:
                values["webhook"] = check_url(body.webhook.strip(), services.notifier.allow)
            except WebhookRefused as e:
                raise Refusal("bad_webhook", str(e)) from None
            values.setdefault("webhook_on", True)
    try:
        current = await notices.prefs(signed.user.id)
        if values.get("email_on") and current.email is None:
            raise Refusal("no_address", "verify an e-mail address first")
        if values.get("webhook_on") and (values.get("webhook") or current.webhook) is None:
            raise Refusal("no_address", "give a webhook address first")
        digest = values.get("digest", current.digest)
        if {"digest", "digest_hour", "timezone"} & set(values):
            hour = values.get("digest_hour", current.digest_hour)
            zone = values.get("timezone", current.timezone)
            values["digest_next"] = next_digest(hour, zone, now()) if digest else None
        prefs = await notices.save(signed.user.id, values)
    except Refusal:
        raise
    except Exception as e:
        raise _storage(e) from None
    return _out(prefs, services)


@router.post(
    "/api/account/notifications/email",
    response_model=NotifyOut,
    responses=refusals(
        "not_signed_in", "bad_email", "mail_unavailable", "send_failed", "storage_unavailable"
    ),
)
async def email(
    body: EmailIn, signed: UserDep, services: ServicesDep, base: BaseUrl
) -> dict[str, Any]:
    """Give an address: a code is mailed to it, and turn mail goes there only once you
    enter it (a server must not mail strangers on anyone's say). `null` removes it."""
    notifier = services.notifier
    notifier.seen(base)
    user_id = signed.user.id
    if body.email is None:
        values = {"email": None, "email_pending": None, "code_hash": None, "email_on": False}
        return _out(await notifier.choices.save(user_id, values), services)
    address = body.email.strip()
    if not EMAIL.fullmatch(address):
        raise Refusal("bad_email", "that is not an e-mail address (name@example.org)")
    if notifier.mailer is None:
        raise Refusal("mail_unavailable", "this server sends no e-mail")
    key = hashlib.sha256(address.lower().encode()).hexdigest()
    if not notifier.sends.take(str(user_id)) or not notifier.codes.take(key):
        raise Refusal("rate_limited", "too many messages asked for; wait an hour")
    lang = body.lang or (await notifier.choices.prefs(user_id)).lang
    code = new_code()
    await notifier.send_code(address, code, lang)
    await notifier.choices.set_code(user_id, address, code, now() + timedelta(days=CODE_DAYS))
    if body.lang is not None:
        await notifier.choices.save(user_id, {"lang": body.lang})
    return _out(await notifier.choices.prefs(user_id), services)


@router.post(
    "/api/account/notifications/verify",
    response_model=NotifyOut,
    responses=refusals("not_signed_in", "bad_code", "no_code", "storage_unavailable"),
)
async def verify(body: CodeIn, signed: UserDep, services: ServicesDep) -> dict[str, Any]:
    """Enter the code mailed to your new address: turn mail goes there from now on."""
    notices = services.notifier.choices
    result = await notices.verify(signed.user.id, body.code)
    if result == "wrong":
        raise Refusal("bad_code", "that is not the code that was mailed")
    if result == "none":
        raise Refusal(
            "no_code", "no code waits (it expired, or was tried too often): ask for a new one"
        )
    return _out(await notices.prefs(signed.user.id), services)


@router.post(
    "/api/account/notifications/test",
    response_model=SentOut,
    responses=refusals(
        "not_signed_in",
        "mail_unavailable",
        "no_address",
        "bad_webhook",
        "send_failed",
        "storage_unavailable",
    ),
)
async def test(
    body: TestIn, signed: UserDep, services: ServicesDep, base: BaseUrl
) -> dict[str, Any]:
    """Send a test message now on one channel, to your own address or webhook."""
    services.notifier.seen(base)
    if not services.notifier.sends.take(str(signed.user.id)):
        raise Refusal("rate_limited", "too many messages asked for; wait an hour")
    await services.notifier.send_test(signed.user.id, body.channel)
    return {"sent": True}
