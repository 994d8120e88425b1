"""Issue 29, third round: a predicate rule fires only where the product's own reading of its teacher's words is not
false. The teacher's text stays on the record (the directive may be a compiler's rewrite) and the gate holds a compiled
predicate to what the product reads of it; the reading knows counted conditions ("two or more user hosts"), ranges
("User1-User3") and lists of hosts ("User2, User3 or User4"), conditions about hosts in general, a lesson apart from
its story, and conditions on kinds of fact no context states (the step of the episode). The compilations are scripted
(what a compiler answered), so the product's own checks, claims and gate are what is tested."""

from __future__ import annotations

import pytest

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import text_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.names import hosts_in
from forge.rulebook.model import RuleRecord
from tests.test_rulebook_claims_scope import taught
from tests.test_rulebook_text_checks import entry, reply
from tests.actions import do
def table(**hosts: str) -> str:
    """Alert lines: host=\"Activity,Compromised\"."""
    return "Alerts:\n" + "\n".join(f"{h}: Activity {s.split(',')[0]}, Compromised {s.split(',')[1]}" for h, s in hosts.items())


def every_host(**hosts: str) -> str:
    """Every host's line, quiet and clean unless given."""
    from forge.env.catalog import HOSTS

    return table(**{h: hosts.get(h, "None,No") for h in HOSTS})


def claimed(text: str, context: str):
    found, _ = text_claims(text)
    return truth(found, read_situation(context))


def test_a_range_or_a_list_of_hosts_names_each_host_in_it():
    assert hosts_in("any of User1-User3") == ("User1", "User2", "User3")
    assert hosts_in("User1 through User4 and Enterprise0") == ("User1", "User2", "User3", "User4", "Enterprise0")
    assert hosts_in("Op_Host0-2") == ("Op_Host0", "Op_Host1", "Op_Host2")
    ranged = "When any of User1-User3 is being exploited, remove the attacker from it."
    assert text_claims(ranged)[1]
    assert claimed(ranged, table(User2="Exploit,No")) is True
    assert claimed(ranged, table(User4="Exploit,User", User0="Exploit,User")) is not True
    # a predicate over the whole class, or over the range's ends only, is wider than the text
    assert text_problem(ranged, {"class": "User", "activity": "Exploit"}, do("Remove", "$matched")) is not None
    listed = "If User2, User3 or User4 is compromised, restore it."
    assert text_claims(listed)[1]
    assert claimed(listed, table(User4="None,User")) is True
    assert claimed(listed, table(User2="Exploit,No")) is not True  # exploited is not compromised
    both_ends = "When User1 through User3 are all compromised, restore Enterprise0."
    assert text_problem(both_ends, {"all": [{"host": "User1", "compromise": "any"}, {"host": "User3", "compromise": "any"}]},
                        do("Restore", "Enterprise0")) is not None


@pytest.mark.parametrize("text, held, not_held", [
    ("If two or more user hosts are compromised, put a DecoyApache on Enterprise1.",
     {"User1": "None,User", "User3": "None,Privileged"}, {"User1": "None,User", "User2": "None,No"}),
    ("When at least two user hosts show exploit activity, restore Op_Server0.",
     {"User1": "Exploit,User", "User2": "Exploit,No"}, {"User1": "Exploit,User", "User2": "Scan,No"}),
    ("Whenever more than one enterprise host shows exploit activity, restore Op_Server0.",
     {"Enterprise0": "Exploit,User", "Enterprise2": "Exploit,User"}, {"Enterprise1": "Exploit,User", "User1": "Exploit,User"}),
])
def test_a_counted_condition_claims_that_many_hosts(text, held, not_held):
    assert text_claims(text)[1]  # the whole condition is read
    assert claimed(text, table(**held)) is True
    assert claimed(text, table(**not_held)) is not True


def test_a_condition_about_hosts_in_general_is_not_about_the_host_named_before_it():
    text = "Put a DecoyApache on Enterprise0 when the attacker is scanning hosts."
    assert claimed(text, table(User1="Scan,No", Enterprise0="None,No")) is True
    assert claimed(text, table(Enterprise0="None,No", User1="None,No")) is not True
    general = "Analyse Enterprise1 whenever two or more hosts show an exploit."
    assert claimed(general, table(Enterprise1="Exploit,User", User1="None,No")) is not True
    assert claimed(general, table(Enterprise1="None,No", User1="Exploit,User", Op_Host0="Exploit,User")) is True


def test_a_lesson_is_about_its_own_subject_never_a_host_only_its_story_names():
    text = "User1 was exploited and the attacker moved on. When Enterprise0 is scanned, put a DecoyApache on it."
    story = {"all": [{"host": "Enterprise0", "activity": "Scan"}, {"host": "User1", "compromise": "any"}]}
    problem = text_problem(text, story, do("DecoyApache", "Enterprise0"))
    assert problem is not None and "story" in problem
    assert text_problem(text, {"host": "Enterprise0", "activity": "Scan"}, do("DecoyApache", "Enterprise0")) is None


def test_a_condition_on_the_step_of_the_episode_is_stated_or_the_rule_is_silent(tmp_path):
    text = "In the first five steps of the episode, restore any user host that is compromised."
    wide = {"class": "User", "compromise": "any"}
    # (refused: the product reads the window of steps, r36m, and the predicate does not state it)
    problem = text_problem(text, wide, do("Restore", "$matched"))
    assert problem.startswith("facts") or problem.startswith("claims") and "steps 1 to 5" in problem
    assert text_problem(text, wide, do("Restore", "$matched"), "in the first five steps of the episode") is None
    # a record the checks never saw (a rule written before them): its words still keep it silent
    record, injected = taught(tmp_path, text, reply(entry(wide, do("Restore", "$matched"), "in the first five steps")))
    assert record.when == wide
    assert not injected(table(User1="None,User"))


def test_a_compiled_predicate_is_held_to_what_the_product_reads_of_its_teachers_words(tmp_path):
    """The predicate passes every check (the reading of the condition is partial: "at the same moment" is not placed),
    but the part the product does read (two or more user hosts) must hold: where one user host is compromised its own
    words say the rule does not apply. The teacher's text is kept on the record beside the compiler's directive."""
    text = "If two or more user hosts are compromised at the same moment, restore Op_Server0."
    wide = {"class": "User", "compromise": "any"}
    record, injected = taught(tmp_path, text, reply(entry(wide, do("Restore", "Op_Server0"))))
    assert record.when == wide and record.text == text and record.directive != text
    assert not injected(table(User1="None,User", User2="None,No"))
    assert injected(table(User1="None,User", User2="None,User"))


def test_the_teachers_text_is_on_the_record_and_records_without_it_keep_their_digest():
    record = RuleRecord("r1", "Restore a compromised user host.", "CONTENT", ("action_chooser",), "g",
                        when={"class": "User", "compromise": "any"}, action=do("Restore", "$matched"),
                        text="Restore any user box that got popped.")
    assert RuleRecord.from_dict(record.to_dict()) == record
    assert "text" not in record.with_(text="").to_dict()


def test_one_teachers_exception_taught_first_speaks_alone_where_it_applies(tmp_path):
    """One teacher: an exception (a trigger strictly inside the general rule's), then the general rule. Where the
    exception applies it is injected alone; the general rule still speaks for the hosts the exception does not
    dispute, and alone where the exception does not apply. (It used to be injected beside its exception.)"""
    from forge.memory.model import Provenance
    from forge.rulebook.authoring.compile import RuleCompiler
    from forge.rulebook.authoring.teaching import Correction, teach_text
    from forge.rulebook.book import Rulebook
    from forge.rulebook.injection import RulebookInjection
    from forge.rulebook.retrieval.retrieve import RetrievalSettings
    from forge.rulebook.store.backends import open_rulebook
    from tests.test_rulebook_compile import ScriptedClient

    exception = "When User0 is compromised, remove the attacker from it instead of restoring it."
    general = "Restore any user host that is compromised."
    book = Rulebook(open_rulebook(str(tmp_path / "rb.db")))
    ids = []
    for text, compiled in ((exception, entry({"host": "User0", "compromise": "any"},
                                             {"mode": "prefer", "verb": "Remove", "target": "User0",
                                              "over": {"verb": "Restore", "target": "User0"}})),
                           (general, entry({"class": "User", "compromise": "any"}, do("Restore", "$matched")))):
        ids += teach_text(book, RuleCompiler(ScriptedClient(reply(compiled))),
                          [Correction(text, "action_chooser", "user:ann", "t")], provenance=Provenance()).rule_ids
    for actor in (None, "user:ann", "user:bob"):
        injection = RulebookInjection(book, RetrievalSettings(), actor=actor, window=0, embedder=book.embedder)

        def injected(context: str) -> list[str]:
            got = {i.id.split("@")[0] for i in injection.for_call("action_chooser", context).items}
            return ["exception" if rid == ids[0] else "general" for rid in ids if rid in got]

        assert injected(table(User0="None,User")) == ["exception"]
        assert injected(table(User0="None,User", User3="None,User")) == ["exception", "general"]
        assert injected(table(User3="None,User")) == ["general"]


@pytest.mark.parametrize("text, wide, held, not_held", [
    # a second, negated state of the same host: both are claimed (the surrogate kept only the negation)
    ("When User1 shows a user-level compromise and no privileged access yet, remove the attacker from User1.",
     {"not": {"host": "User1", "compromise": "Privileged"}}, {"User1": "None,User"}, {"User1": "None,No"}),
    # "nothing is compromised" is about every host, not the host named after it
    ("If nothing is compromised yet and User2 is scanned, put a DecoyApache on User2.",
     {"host": "User2", "activity": "Scan", "compromise": "No"}, {"User2": "Scan,No", "User1": "None,No"},
     {"User2": "Scan,No", "User1": "None,User"}),
    # a bare count ("two user hosts") is at least that many
    ("When two user hosts are compromised, restore Enterprise0.", {"class": "User", "compromise": "any"},
     {"User1": "None,User", "User4": "None,User"}, {"User1": "None,User", "User4": "None,No"}),
    # what people leave out: "neither ... nor", "... but Enterprise0 is not" (read as Enterprise1 compromised, and as
    # Enterprise0 merely shown)
    ("If neither Enterprise0 nor Enterprise1 is compromised, put a DecoyApache on Enterprise1.",
     {"not": {"host": "Enterprise0", "compromise": "any"}}, {}, {"Enterprise1": "None,User"}),
    ("When Enterprise1 is scanned but Enterprise0 is not, put a DecoyApache on Enterprise0.",
     {"host": "Enterprise1", "activity": "Scan"}, {"Enterprise1": "Scan,No"}, {"Enterprise1": "Scan,No", "Enterprise0": "Scan,No"}),
    # a named phase opened by "in the ... phase" is a condition (it was read as no condition at all)
    ("In the impact phase, restore Op_Server0.", {"host": "Op_Server0"}, {"Op_Server0": "None,User"},
     {"Op_Server0": "None,No"}),
])
def test_more_conditions_are_read_whole_and_a_wider_predicate_is_refused(text, wide, held, not_held):
    found, whole = text_claims(text)
    assert whole
    assert claimed(text, every_host(**held)) is True
    assert claimed(text, every_host(**not_held)) is False
    action = {"mode": "do", "verb": "Restore", "target": "Op_Server0"}  # the check is on the trigger
    assert text_problem(text, wide, action) is not None


def test_a_change_of_state_said_in_words_is_history():
    from forge.rulebook.language.facts import facts_needed

    assert "history" in facts_needed("when a user host goes from scanned to exploited")
    assert text_problem("When a user host goes from scanned to exploited, remove the attacker from it.",
                        {"class": "User", "activity": "Exploit"}, do("Remove", "$matched")).startswith("history")


@pytest.mark.parametrize("text, host, state, verb", [
    ("Condition: User2 shows exploit activity. Action: remove the attacker from User2.", "User2", "Exploit,No", "Remove"),
    ("Situation: Op_Server0 is compromised. What to do: restore Op_Server0.", "Op_Server0", "None,User", "Restore"),
])
def test_a_form_with_labelled_parts_has_its_condition(text, host, state, verb):
    """The condition of a form ("Condition: ... Action: ...") was not read: a predicate that merely asks that the
    context shows the host (true in every table, which lists every host) passed."""
    assert text_claims(text)[1]
    assert claimed(text, every_host(**{host: state})) is True
    assert claimed(text, every_host()) is False
    assert text_problem(text, {"host": host}, do(verb, host)).startswith("bare")


@pytest.mark.parametrize("text, late", [
    ("Put a DecoyApache on Enterprise2 before the attacker reaches it.", {"host": "Enterprise2", "compromise": "any"}),
    ("Restore Enterprise1 before the attacker escalates on it.", {"host": "Enterprise1", "compromise": "Privileged"}),
    ("Deploy a DecoyApache on User3 before it gets exploited.", {"host": "User3", "activity": "Exploit"}),
])
def test_an_order_given_before_something_happens_is_never_triggered_by_it(text, late):
    action = do("Restore" if "Restore" in text else "DecoyApache", late["host"])
    assert text_problem(text, late, action).startswith("before")
    # an order of two hosts, or a trigger the before-clause does not state, passes
    assert text_problem(text, {"host": late["host"], "compromise": "No"}, action) is None
    assert text_problem("If Op_Server0 and Enterprise2 are both compromised, restore Op_Server0 before Enterprise2.",
                        {"all": [{"host": "Op_Server0", "compromise": "any"}, {"host": "Enterprise2", "compromise": "any"}]},
                        do("Restore", "Op_Server0")) is None


def test_a_semantic_rule_whose_condition_the_product_cannot_read_is_silent_whatever_its_likeness(tmp_path):
    """The compiler gave no predicate (kept it semantic) for a lesson whose condition the product cannot read in full:
    it used to fire on its cosine to any context that resembles it, also where its condition plainly does not hold
    (Enterprise1 quiet and clean). A rule that states no condition is still left to its likeness."""
    def semantic(text: str) -> str:
        return reply({"item": 1, "verdict": "RULE", "type": "CONTENT", "directive": text, "roles": ["action_chooser"],
                      "when": None, "action": None, "unexpressed": "", "trigger": ""})

    text = "I waited too long on Enterprise1. Restore Enterprise1 when the attacker seems focused on it."
    record, injected = taught(tmp_path, text, semantic(text), kind="rule")
    assert record.when is None
    assert not injected(table(Enterprise1="None,No"))
    assert not injected(table(Enterprise1="Scan,No"))


def test_scan_before_exploit_in_the_words_of_the_alerts():
    from forge.rulebook.language.history_words import history_conditions

    assert history_conditions("a host that showed Scan before it showed Exploit") == {"scan_before_exploit": True}


@pytest.mark.parametrize("text, host, state", [
    ("Should Op_Host2 be compromised, restore Op_Host2.", "Op_Host2", "None,User"),
    ("Enterprise2 exploited -> remove the attacker from Enterprise2.", "Enterprise2", "Exploit,User"),
    ("For any privileged compromise on an enterprise host, restore that host.", "Enterprise1", "None,Privileged"),
    ("Kick the attacker off User3 as it gets exploited.", "User3", "Exploit,No"),
])
def test_conditions_in_more_forms_are_read(text, host, state):
    """Conditions without "if" or "when" were not seen at all: a compiled predicate went unchecked, and the gate had
    nothing of the text to hold it to."""
    assert text_claims(text)[1]
    assert claimed(text, every_host(**{host: state})) is True
    assert claimed(text, every_host()) is False


def test_a_condition_about_it_is_about_the_host_it_stands_for():
    text = "Op_Server0 must be restored the moment it is touched."
    assert text_problem(text, {"host": "Op_Server0"}, do("Restore", "Op_Server0")).startswith("bare")
    assert text_problem(text, {"host": "Op_Server0", "compromise": "any"}, do("Restore", "Op_Server0")) is None


def test_contractions_in_a_condition_are_read():
    """"the attacker's on Enterprise1" was read as Enterprise1 merely shown: the claims held in every table."""
    text = "If the attacker's on Enterprise1, kick them off."
    assert text_claims(text)[1]
    assert claimed(text, every_host(Enterprise1="None,User")) is True
    assert claimed(text, every_host()) is False
    assert claimed("Restore User1 if it's been breached.", every_host(User1="None,No")) is False


def test_a_relative_clause_without_that_is_a_condition(tmp_path):
    """"any user host the attacker controls" was no condition: a predicate on any activity fired on a scanned host."""
    text = "Restore any user host the attacker controls."
    record, injected = taught(tmp_path, text, reply(entry({"class": "User", "activity": "any"}, do("Restore", "$matched"))))
    assert record.when == {"class": "User", "activity": "any"}
    assert not injected(every_host(User2="Scan,No"))
    assert injected(every_host(User2="Exploit,User"))


@pytest.mark.parametrize("text, host, only, worse", [
    ("Do not restore Op_Server0 just because it was scanned.", "Op_Server0", "Scan,No", "Scan,User"),
    ("No restoring User0 for a mere scan.", "User0", "Scan,No", "Scan,Privileged"),
    ("Do not restore Enterprise0 for an exploit attempt that did not land.", "Enterprise0", "Exploit,No", "Exploit,User"),
    ("Don't restore Enterprise1 on scan activity.", "Enterprise1", "Scan,No", "Scan,User"),
    ("Do not restore a host the attacker merely scanned.", "User3", "Scan,No", "Scan,User"),
])
def test_a_prohibition_for_a_mere_scan_does_not_reach_a_compromised_host(text, host, only, worse):
    """"X alone is no reason" is a condition (only X): the prohibition was compiled on the bare host or on the scan,
    and fired also where the host was compromised, where the text lets the order stand."""
    assert claimed(text, every_host(**{host: only})) is True
    assert claimed(text, every_host(**{host: worse})) is False
