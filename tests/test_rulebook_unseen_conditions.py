"""Issue 29, fourth round: conditions the product's reader did not see at all. Where the product reads no condition in
a rule's words, a compiled predicate wider than them is held to nothing, and a prohibition fires on the host its words
let the order reach. Two forms were unseen: a condition of absence said with a preposition other than "without"
("absent any exploitation", "barring an exploit", "short of privileged access"), and the situation said after the
order, of how far things have gone on its host ("do not restore User1 yet; it only shows a scan"). The compilations are
scripted (what a compiler answered), so the product's own reading, checks and gate are what is tested."""

from __future__ import annotations

import pytest

from forge.rulebook.language.condition import text_claims
from forge.rulebook.language.wording import read_wording
from tests.test_rulebook_claims_scope import taught
from tests.test_rulebook_text_checks import entry, reply
from tests.actions import never
from tests.test_rulebook_text_held import claimed, every_host


# The form a condition takes | the host it is about | where it applies | where it does not | the rule's text.
UNSEEN = """
absence | Op_Host1    | Scan,No      | Exploit,User    | Do not restore Op_Host1 absent any exploitation.
absence | User4       | Exploit,User | None,Privileged | Never restore User4 in the absence of root access.
absence | User2       | Scan,No      | Exploit,User    | Barring an exploit, never restore User2.
absence | User1       | Scan,No      | Exploit,User    | Failing any exploit on it, do not restore User1.
absence | Op_Host2    | Exploit,User | None,Privileged | Short of privileged access, do not restore Op_Host2.
absence | User3       | Exploit,User | None,Privileged | Absent privileged access, never restore User3; remove instead.
absence | Enterprise2 | Scan,No      | Exploit,User    | Lacking evidence of a compromise, don't restore Enterprise2.
absence | Op_Server0  | Scan,No      | None,User       | Pending a confirmed compromise, do not restore Op_Server0.
after   | User1       | Scan,No      | Exploit,User    | Do not restore User1 yet; it only shows a scan.
after   | User1       | Scan,No      | Exploit,User    | Do not restore User1: it only shows a scan.
after   | Enterprise0 | Scan,No      | Exploit,User    | Don't restore Enterprise0, it's just being scanned.
after   | User1       | Scan,No      | Exploit,User    | Do not restore User1 - it has only been scanned.
after   | User3       | Scan,No      | Exploit,User    | Hold back on restoring User3: it has only been scanned so far.
after   | Op_Host0    | Exploit,User | None,Privileged | Do not restore Op_Host0 yet; the attacker has only user-level access there.
"""


def of_form(form: str) -> list[tuple[str, str, str, str]]:
    """(text, host, applies, not_applies) of the UNSEEN rows of one form."""
    rows = [[cell.strip() for cell in line.split("|", 4)] for line in UNSEEN.strip().splitlines()]
    return [(text, host, applies, not_applies) for kind, host, applies, not_applies, text in rows if kind == form]


@pytest.mark.parametrize("text, host, applies, not_applies", of_form("absence"))
def test_a_condition_of_absence_said_with_any_preposition_is_read(text, host, applies, not_applies):
    """"absent", "in the absence of", "barring", "failing", "short of", "lacking", "pending" say what "without" says:
    they were no condition at all (the claims were None: nothing to hold a predicate to)."""
    assert read_wording(text).conditions, text
    assert claimed(text, every_host(**{host: applies})) is not False
    assert claimed(text, every_host(**{host: not_applies})) is False


@pytest.mark.parametrize("text, host, applies, not_applies", of_form("after"))
def test_the_situation_said_after_the_order_is_its_condition(text, host, applies, not_applies):
    """How far things have gone on the order's host, said after the order (after a semicolon, colon, comma or dash),
    bounds it: read whole, true where the host stands so, false once it has gone further."""
    found, whole = text_claims(text)
    assert found is not None and whole, text
    assert claimed(text, every_host(**{host: applies})) is True
    assert claimed(text, every_host(**{host: not_applies})) is False


@pytest.mark.parametrize("text, host, applies, not_applies", of_form("absence")[::3] + of_form("after")[::3])
def test_a_prohibition_compiled_on_the_bare_host_is_held_to_its_unseen_condition(tmp_path, text, host, applies,
                                                                                 not_applies):
    """The compiler left the condition out (never Restore on the host, whatever it shows): the prohibition fired where
    the host was compromised, where its own words let the order stand."""
    bare = reply(entry({"host": host}, never("Restore", host)))
    record, injected = taught(tmp_path, text, bare, bare)  # refused, the one re-prompt answered the same
    assert not injected(every_host(**{host: not_applies}))
    assert record.when is None or injected(every_host(**{host: applies}))


def test_barring_a_host_is_still_an_exception():
    words = read_wording("Restore every user host that is compromised, barring User0.")
    assert words.excepted == ("User0",)
    assert "without" not in words.text


@pytest.mark.parametrize("text", [
    "Do not waste actions on User0; it is the attacker's foothold and cannot be cleaned.",
    "Never restore User0 though; it is the attacker's entry point.",
])
def test_a_reason_after_the_order_is_no_condition(text):
    """A statement of what the host is, with no bound on how far things have gone, explains the order."""
    assert not read_wording(text).conditions


def test_nothing_more_than_a_scan_is_only_a_scan():
    text = "Never restore User4 with nothing more than a scan on it."
    assert claimed(text, every_host(User4="Scan,No")) is True
    assert claimed(text, every_host(User4="Exploit,User")) is False


def test_a_condition_about_the_other_hosts_leaves_the_named_one_out():
    """"another host" was read as the host the order names ("do not restore User1 when another host is compromised"
    claimed User1 compromised), "other hosts" and "something else" as any host (User1 itself met them), and "no other
    host" as the named host clean: a prohibition fired where only its own host was compromised."""
    alone, with_user2 = every_host(User1="None,User"), every_host(User1="None,User", User2="None,User")
    for text in ("Do not restore User1 when another host is compromised.",
                 "Do not restore User1 while something else is compromised.",
                 "Do not restore User1 if any other user host is compromised.",
                 "Do not restore User1 when other hosts are also compromised."):
        assert text_claims(text)[1] or "something" in text, text  # ("something" is read, but not counted as read)
        assert claimed(text, alone) is False, text
        assert claimed(text, with_user2) is True, text
    # "also": the named host is compromised too
    assert claimed("Do not restore User1 when other hosts are also compromised.", every_host(User2="None,User")) is False
    only = "Restore Enterprise2 only if no other host is compromised."
    assert claimed(only, every_host(Enterprise2="None,User")) is True
    assert claimed(only, every_host(Enterprise2="None,User", User0="None,User")) is False
    # the class is the class: a second enterprise host is no Defender
    second = "Do not restore Enterprise0 when a second enterprise host is compromised."
    assert claimed(second, every_host(Enterprise0="None,User", Defender="None,User")) is False
    assert claimed(second, every_host(Enterprise0="None,User", Enterprise2="None,User")) is True


def test_a_prohibition_is_held_to_its_condition_on_the_other_hosts(tmp_path):
    bare = reply(entry({"host": "User1", "compromise": "any"}, never("Restore", "User1")))
    _, injected = taught(tmp_path, "Do not restore User1 when another host is compromised.", bare, bare)
    assert not injected(every_host(User1="None,User"))
    assert injected(every_host(User1="None,User", Enterprise1="None,User"))
