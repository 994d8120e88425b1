"""Credentials out of URLs before anything is written: `redis://user:***@host`, `https://***@host`,
`...?key=***`.

A leaf module (standard library only), so config writing, tracking, traces, reports and the stores can
all use it. Masking is one-way: a run directory never holds what would let someone connect as the
operator. `masked_fields` finds what a resumed session must be given again.
"""

from __future__ import annotations

import re
from typing import Any, Mapping
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

MASK = "***"
# A URL in prose ends before trailing punctuation ("see http://h/x?key=K), then").
_URL_IN_TEXT = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://[^\s'\"<>`]*[^\s'\"<>`.,;:!?)\]}]")
# Query parameters that carry credentials (Gemini's ?key=, signed URLs, tokens).
_SECRET_PARAM = re.compile(r"(key|token|secret|pass|pwd|sig|signature|credential|auth)", re.IGNORECASE)


def _mask_netloc(netloc: str) -> str:
    userinfo, sep, hostport = netloc.rpartition("@")
    if not sep:
        return netloc
    user, colon, _password = userinfo.partition(":")
    # With a password, the user name is kept (it says who connects); a lone user name in a URL is
    # usually itself a token (https://TOKEN@host), so it goes.
    return f"{user}:{MASK}@{hostport}" if colon else f"{MASK}@{hostport}"


def mask_url(url: str) -> str:
    """`url` with its password (or lone user name) and credential-like query values replaced by ***."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return _URL_IN_TEXT.sub(MASK, url)  # unparseable: keep nothing of it
    netloc = _mask_netloc(parts.netloc)
    query = parts.query
    if query and _SECRET_PARAM.search(query):
        pairs = parse_qsl(query, keep_blank_values=True)
        query = urlencode([(k, MASK if _SECRET_PARAM.search(k) else v) for k, v in pairs], safe="*")
    if netloc == parts.netloc and query == parts.query:
        return url
    return urlunsplit(parts._replace(netloc=netloc, query=query))


def mask_urls_in_text(text: str) -> str:
    """Every URL inside free text (a log line, a YAML document, an error message) masked."""
    if "://" not in text:
        return text
    return _URL_IN_TEXT.sub(lambda m: mask_url(m.group(0)), text)


def mask_urls_in(value: Any) -> Any:
    """A JSON-like value (dicts, lists, strings, numbers) with every URL in every string masked.

    A string that is one URL is masked whole, so a password with spaces or quotes in it goes too.
    """
    if isinstance(value, str):
        if "://" not in value:
            return value
        if _URL_IN_TEXT.match(value) and not any(c.isspace() for c in value.split("@", 1)[-1]):
            return mask_url(value)
        return mask_urls_in_text(value)
    if isinstance(value, Mapping):
        return {k: mask_urls_in(v) for k, v in value.items()}
    if isinstance(value, list):
        return [mask_urls_in(v) for v in value]
    if isinstance(value, tuple):
        return tuple(mask_urls_in(v) for v in value)
    return value


def is_masked(value: Any) -> bool:
    """True when `value` is a URL whose credentials were masked here (it cannot be used to connect)."""
    return isinstance(value, str) and "://" in value and mask_url(value) == value and (
        f":{MASK}@" in value or f"//{MASK}@" in value or f"={MASK}" in value
    )


def masked_fields(flat: Mapping[str, Any]) -> list[str]:
    """Keys of a flat `section.key -> value` mapping whose URL values carry masked credentials."""
    return sorted(key for key, value in flat.items() if is_masked(value))
