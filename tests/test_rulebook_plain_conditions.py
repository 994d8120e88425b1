"""Issue 29, fifth round: conditions a text states plainly that the product's reader misread, so that a compiled
predicate wider than the text was held to nothing (or to the wrong thing) and a rule fired where its own words say it
does not apply. Each class is tested on sentences of its kind written for these tests; the compilations are scripted
(what a compiler answered), so the product's own reading, checks and gate are what is tested.

- A word that only ends like a gerund ("Nothing ...", "Something ...") opened a "report" and its situation was lost.
- A level stated beside the level it negates ("with user-level access (not root)") kept only the negation.
- "not clean", "isn't quiet": a negated word of absence was read as the absence itself.
- The Planner's and Analyst's orders ("plan a ...", "recommend ...") were no orders, so a situation before them was
  no condition.
- "they" / "none of them" after a clause about a class of hosts: about the hosts of that class.
"""

from __future__ import annotations

import pytest

from forge.rulebook.language.condition import text_claims
from forge.rulebook.language.situation import state_of
from forge.rulebook.language.order import gives_order
from forge.rulebook.language.wording import read_wording
from tests.test_rulebook_claims_scope import taught
from tests.test_rulebook_text_checks import entry, reply
from tests.actions import do, never
from tests.test_rulebook_text_held import claimed, every_host


def hosts(spec: str) -> dict[str, str]:
    """"User1=Exploit,User;User2=None,No" -> {"User1": "Exploit,User", "User2": "None,No"} ("-": every host quiet)."""
    return {} if spec == "-" else dict(pair.split("=") for pair in spec.split(";"))


def read_whole_and_held(text: str, applies: str, not_applies: str) -> None:
    """The text's condition is read whole, true where it applies and false where it does not."""
    found, whole = text_claims(text)
    assert whole, (text, found)
    assert claimed(text, every_host(**hosts(applies))) is True
    assert claimed(text, every_host(**hosts(not_applies))) is False


# text | where it applies | where it does not (every other host quiet and clean)
NOTHING = [
    ("Nothing going on at all? Do not analyse Enterprise0.", "-", "User1=Exploit,User"),
    ("Nothing compromised yet: never restore User2.", "User2=Scan,No", "User1=None,User"),
    ("Nothing happening anywhere, no alerts? Sleep.", "-", "Enterprise2=Scan,No"),
]


@pytest.mark.parametrize("text, applies, not_applies", NOTHING)
def test_a_word_that_only_ends_like_a_gerund_opens_no_report(text, applies, not_applies):
    """"Nothing ..." was read as a report of what was done ("Restoring User0 cost ..."), so the situation it opens was
    dropped and the rule had no condition at all."""
    assert read_wording(text).situation, text
    read_whole_and_held(text, applies, not_applies)


def test_a_prohibition_compiled_without_its_opening_situation_stays_out_where_it_does_not_hold(tmp_path):
    text = "Nothing happening on any host and nothing compromised? Don't waste a Monitor."
    always = reply(entry({"always": True}, never("Monitor", None)))
    record, injected = taught(tmp_path, text, always, always)
    assert record.when is None or record.when != {"always": True}
    assert not injected(every_host(User2="Exploit,User"))


LEVELS = [
    ("Enterprise1 with user-level access (not root): remove the attacker.", "Enterprise1", "None,User",
     ["None,No", "None,Privileged"]),
    ("Op_Host2 with a user shell (not privileged): restore it.", "Op_Host2", "None,User", ["Scan,No", "None,Privileged"]),
    ("When User4 has user-level access, not root, remove it.", "User4", "Exploit,User", ["None,No", "None,Privileged"]),
]


@pytest.mark.parametrize("text, host, applies, not_applies", LEVELS)
def test_a_level_stated_beside_the_level_it_negates_is_read_with_it(text, host, applies, not_applies):
    """"user-level (not root)" claimed only "not root": true on a clean host."""
    found, whole = text_claims(text)
    assert whole, (text, found)
    assert claimed(text, every_host(**{host: applies})) is True
    for state in not_applies:
        assert claimed(text, every_host(**{host: state})) is False, state


def test_a_predicate_of_the_negated_level_alone_is_held_to_the_level_stated(tmp_path):
    text = "Enterprise1 with user-level access (not root): remove the attacker."
    not_root = reply(entry({"not": {"host": "Enterprise1", "compromise": "Privileged"}}, do("Remove", "Enterprise1")))
    _, injected = taught(tmp_path, text, not_root, not_root)
    assert injected(every_host(Enterprise1="None,User"))
    assert not injected(every_host(Enterprise1="Scan,No"))  # it fired on a clean host


@pytest.mark.parametrize("phrase, state", [
    ("is not clean", (None, "?")),
    ("isn't clean yet", (None, "?")),
    ("is not quiet", ("?", None)),
    ("is clean", (None, "No")),
    ("is not compromised", (None, "No")),
])
def test_a_negated_word_of_absence_is_its_opposite(phrase, state):
    """"not clean" was read as clean (the negation dropped): a compromised host, read as a clean one."""
    from forge.rulebook.language.situation import SOME

    expected = tuple(SOME if v == "?" else v for v in state)
    assert state_of(phrase)[0] == expected


def test_restore_when_not_clean_never_holds_on_a_clean_host():
    text = "Restore User3 when it is not clean."
    assert claimed(text, every_host(User3="None,User")) is True
    assert claimed(text, every_host(User3="None,No")) is False


@pytest.mark.parametrize("order", ["Plan a DecoyTomcat on User2.", "Recommend Remove for Enterprise1.",
                                   "Schedule a Restore of Op_Server0.", "Suggest analysing User3 first."])
def test_the_planners_and_analysts_orders_are_orders(order):
    assert gives_order(order)


# text | where it applies | where it does not
THEIR_CLASS = [
    ("When enterprise hosts are being scanned and none of them is compromised, plan a DecoyApache on each.",
     "Enterprise0=Scan,No", "Enterprise0=Scan,No;Enterprise2=None,User"),
    ("If user hosts show exploits while none of them has root yet, remove the attacker from them.",
     "User1=Exploit,User", "User1=Exploit,User;User2=None,Privileged"),
    ("Operational hosts under a scan, none of them compromised: recommend a decoy on each.",
     "Op_Host0=Scan,No", "Op_Host0=Scan,No;Op_Host2=None,User"),
    ("Enterprise2 exploited: recommend Remove.", "Enterprise2=Exploit,User", "Enterprise2=Scan,No"),
]


def test_a_class_wide_absence_compiled_per_host_is_refused_and_held_to_the_text(tmp_path):
    text = "When enterprise hosts are being scanned and none of them is compromised, plan a DecoyApache on each."
    per_host = reply(entry({"class": "Enterprise", "activity": "Scan", "compromise": "No"}, do("DecoyApache", "$matched")))
    record, injected = taught(tmp_path, text, per_host, per_host)
    assert record.when is None  # the predicate was wider than the text: kept semantic
    assert injected(every_host(Enterprise0="Scan,No"))
    assert not injected(every_host(Enterprise0="Scan,No", Enterprise2="None,User"))


# text | where it applies | where it does not: the named host alone
JOINT = [
    ("If a user host and Enterprise2 are both exploited, remove the attacker from Enterprise2.",
     "Enterprise2=Exploit,User;User1=Exploit,User", "Enterprise2=Exploit,User"),
    ("If an enterprise host and User0 are scanned, plan a decoy on the enterprise host.",
     "User0=Scan,No;Enterprise1=Scan,No", "User0=Scan,No"),
    ("When any user host or Op_Host0 is compromised, plan a Restore.", "User2=None,User", "Op_Host1=Scan,No"),
]


@pytest.mark.parametrize("text, applies, not_applies", THEIR_CLASS + JOINT)
def test_a_class_named_with_them_or_with_a_host_is_claimed(text, applies, not_applies):
    """"none of them is compromised" after "enterprise hosts are being scanned" was read as the scanned host not
    compromised (true where another enterprise host was), or not read at all; "a user host and Enterprise2 are both
    exploited" claimed Enterprise2 alone, read whole: a rule kept semantic fired where no user host was exploited
    ("or": where only the class held, it was false). A situation before a Planner's order is its condition."""
    read_whole_and_held(text, applies, not_applies)


def test_an_order_put_before_another_is_a_preference_the_checks_accept(tmp_path):
    """"restore Op_Server0 before restoring the user host" disprefers the later Restore: a `prefer` over it was refused
    as "the text disprefers neither that verb nor that host", and the rule lost its predicate."""
    text = "If an enterprise host and Op_Server0 are both compromised, restore Op_Server0 before restoring the other one."
    when = {"all": [{"class": "Enterprise", "compromise": "any"}, {"host": "Op_Server0", "compromise": "any"}]}
    first = {"mode": "prefer", "verb": "Restore", "target": "Op_Server0", "over": {"verb": "Restore", "target": "$matched"}}
    record, injected = taught(tmp_path, text, reply(entry(when, first)), reply(entry(when, first)))
    assert record.when == when, record.semantic_reason
    assert injected(every_host(Op_Server0="None,User", Enterprise1="None,User"))
    assert not injected(every_host(Op_Server0="None,User"))
    # "as before the Analyse", in a condition, puts off nothing: a `prefer` over Analyse is still refused there
    other = "When User1 is at the same level as before the Analyse, remove it."
    over = {"mode": "prefer", "verb": "Remove", "target": "User1", "over": {"verb": "Analyse", "target": "User1"}}
    refused, _ = taught(tmp_path / "b", other, reply(entry({"host": "User1", "compromise": "any"}, over)),
                        reply(entry({"host": "User1", "compromise": "any"}, over)))
    assert refused.when is None


@pytest.mark.parametrize("text, host", [
    ("If Enterprise2 reads Unknown, analyse it before anything else.", "Enterprise2"),
    ("Once Op_Host0 drops to Unknown, do not restore it.", "Op_Host0"),
    ("When User3 shows Unknown, recommend an Analyse.", "User3"),
])
def test_the_tables_unknown_said_bare_is_a_level(text, host):
    """"shows Unknown" claimed the host merely shown, read whole ("unknown" is a word the reader accounts for): a rule
    fired wherever the host was listed, at any level."""
    found, whole = text_claims(text)
    assert whole, (text, found)
    assert claimed(text, every_host(**{host: "None,Unknown"})) is True
    assert claimed(text, every_host(**{host: "None,User"})) is False


def test_a_host_named_as_a_heading_adds_no_claim_and_a_reworded_withdrawal_is_refused(tmp_path):
    """"Enterprise1: remove rather than restore once it is exploited" claimed Enterprise1 exploited *and* merely shown:
    the same condition as "When Enterprise1 is exploited, ...", but another key, so the rewording of a withdrawn rule
    was added again (its predicate refused, the text key was all there was to compare)."""
    from forge.memory.model import Provenance
    from forge.rulebook.authoring import Correction, RuleCompiler, teach_text
    from forge.rulebook.book import Rulebook
    from forge.rulebook.language.condition import words_key
    from forge.rulebook.store import open_rulebook
    from tests.test_rulebook_text_checks import CHOOSER, ScriptedClient
    first = "When Enterprise1 is exploited, don't restore it - remove it."
    again = "Enterprise1: remove rather than restore once it is exploited."
    assert words_key(first) == words_key(again)
    over = {"mode": "prefer", "verb": "Remove", "target": "Enterprise1", "over": {"verb": "Restore", "target": "Enterprise1"}}
    bare = reply(entry({"host": "Enterprise1"}, over))  # the rewording compiled bare: refused by the checks
    client = ScriptedClient(reply(entry({"host": "Enterprise1", "activity": "Exploit"}, over)), bare, bare)
    book = Rulebook(open_rulebook(str(tmp_path / "rb.db")))
    compiler = RuleCompiler(client)
    (rule_id,) = teach_text(book, compiler, [Correction(first, CHOOSER, "user:kim", "t1")], provenance=Provenance()).rule_ids
    book.withdraw(rule_id, Provenance(actor="user:kim"))
    taught = teach_text(book, compiler, [Correction(again, CHOOSER, "user:kim", "t2")], provenance=Provenance())
    assert taught.results == ["refused"], taught.teach.outcomes


@pytest.mark.parametrize("text, verb, host", [
    ("I'd rather you didn't restore Enterprise2 while it only shows a scan.", "Restore", "Enterprise2"),
    ("We would prefer that you did not analyse Op_Host1 whilst it is quiet.", "Analyse", "Op_Host1"),
    ("I'd rather we didn't recommend removing anything from User3 whilst it is only scanned, if that's alright.",
     "Remove", "User3"),
])
def test_a_prohibition_said_politely_is_a_prohibition_and_whilst_is_while(text, verb, host):
    """"I'd rather we didn't ..." forbade nothing (a `do` of the verb passed the checks: the opposite of the text), and
    "whilst" opened no condition; "if that's alright" is politeness, no condition."""
    words = read_wording(text)
    assert [(p.verb, p.hosts) for p in words.prohibitions] == [(verb, (host,))]
    assert [c.text for c in words.conditions] and not any("alright" in c.text for c in words.conditions)
    assert text_claims(text)[1]


def test_a_do_of_a_verb_forbidden_politely_is_refused(tmp_path):
    text = "I'd rather you didn't restore Enterprise2 while it only shows a scan."
    done = reply(entry({"host": "Enterprise2", "activity": "Scan", "compromise": "No"}, do("Restore", "Enterprise2")))
    record, _ = taught(tmp_path, text, done, done)
    assert record.when is None and record.semantic_reason.startswith("predicate refused: prohibition")


def test_a_preference_of_a_move_over_itself_is_refused(tmp_path):
    """"prefer Restore Enterprise1 over Restore Enterprise1" prescribes the Restore the text forbids: it passed, because
    the forbidden verb was also on its dispreferred side."""
    text = "Please don't restore Enterprise1; it runs the build server. Use Remove on it instead."
    itself = {"mode": "prefer", "verb": "Restore", "target": "Enterprise1", "over": {"verb": "Restore", "target": "Enterprise1"}}
    record, _ = taught(tmp_path, text, reply(entry({"host": "Enterprise1"}, itself)), reply(entry({"host": "Enterprise1"}, itself)))
    assert record.when is None and "over itself" in record.semantic_reason


@pytest.mark.parametrize("text, ordered", [
    ("Never restore Op_Host2, even if it is rooted. Remove is as far as we go there.", {"Restore", "Remove"}),
    ("Don't reimage User1. A Remove is all we need on it.", {"Restore", "Remove"}),
    ("Leave the decoys out on Enterprise0; Analyse is the right call there.", {"Analyse"}),
])
def test_a_verb_named_as_the_limit_is_ordered(text, ordered):
    """"Remove is as far as we go there" was no order: a compilation preferring Remove over the forbidden Restore was
    refused ("the text's order names Restore"), and the rule lost its predicate."""
    from forge.rulebook.language.names import verbs_in

    assert ordered <= set(verbs_in(read_wording(text).instruction))


def test_what_a_colon_adds_after_an_order_is_no_part_of_it(tmp_path):
    """"...: the lab runs on it" stayed in the order, so a compiler that listed "lab runs" as unexpressed had the rule
    guarded by words no context states: silent where it applies."""
    text = "Never restore Op_Host2, even if it is rooted: the plant's historian runs on it. Remove is as far as we go there."
    words = read_wording(text)
    assert "historian" not in words.instruction and "Remove" in words.instruction
    over = {"mode": "prefer", "verb": "Remove", "target": "Op_Host2", "over": {"verb": "Restore", "target": "Op_Host2"}}
    when = {"host": "Op_Host2", "compromise": "Privileged"}
    record, injected = taught(tmp_path, text, reply(entry(when, over, "historian runs")))
    assert record.when == when and not record.unexpressed
    assert injected(every_host(Op_Host2="None,Privileged"))
    # the colon that opens a situation or names hosts stays as it was
    assert read_wording("Restore these hosts first: User1 and User2.").hosts == ("User1", "User2")


@pytest.mark.parametrize("text, applies, not_applies", [
    ("Restore enterprise hosts as soon as they're compromised.", "Enterprise1=None,User", "User1=None,User"),
    ("Put a decoy on user hosts while they are only scanned.", "User2=Scan,No", "User2=Exploit,User"),
])
def test_they_in_a_condition_are_the_class_its_order_names(text, applies, not_applies):
    """"they're" was not written out, and "they" after an order on a class of hosts stood for nothing: the claims were
    not whole, so a rule kept semantic was silent where it applies."""
    read_whole_and_held(text, applies, not_applies)


@pytest.mark.parametrize("text, applies, not_applies", [
    ("If the host only shows a scan, recommend a DecoyApache on it.", "Enterprise1=Scan,No", "Enterprise1=Exploit,User"),
    ("When the box has root on it, recommend a Restore of that box.", "User3=None,Privileged", "User3=None,User"),
])
def test_the_host_of_a_rule_that_names_none_is_a_host_whichever_it_is(text, applies, not_applies):
    """The Analyst's rules say "the host" (the one it is asked about): with no host named, "the host" stood for nothing,
    the claims were not whole, and a rule kept semantic was silent where it applies."""
    read_whole_and_held(text, applies, not_applies)


@pytest.mark.parametrize("text, applies, not_applies", [
    ("Enterprise2 exploited means the attacker is one hop from the op server. Remove the attacker from Enterprise2.",
     "Enterprise2=Exploit,User", "Enterprise2=Scan,No"),
    ("User3 rooted, i.e. privilege escalation on a workstation: recommend a Restore of User3.",
     "User3=None,Privileged", "User3=None,User"),
])
def test_a_gloss_on_the_situation_is_no_further_condition(text, applies, not_applies):
    """"Op_Server0 compromised means we are in the impact phase": what follows "means" names what the situation is; it
    was read as more condition, with words the reader does not place, so the rule was silent where it applies."""
    read_whole_and_held(text, applies, not_applies)
