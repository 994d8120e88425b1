"""Round 53 (r53l): disputes between rules kept semantic, and readings the last round's audit left narrow or unread.

- a standing prohibition of one verb on a whole class, kept without a compiled meaning ("workstations are never to be
  reimaged"), takes part in disputes by its words (said._forbidden_on_class), and a move on a whole class acts, in a
  context, on the hosts of that class the context shows (meaning._acted_on_here);
- a host named only in what a rule leaves to another provision is no host the rule is about (checks._provision_host_asked,
  forms.left_to_provision); the order's modal a subject condition runs into ("shall", "must") is the order's word
  (scope._ORDER_MODAL_LEFT);
- a markdown table of cases: a ditto cell with nothing above it, or a dash where a state is given, makes its row no case
  (forms.table_cases_said);
- "never ones which are rooted": "ones" after the words that keep hosts out stands for hosts (claims._ONES_DESCRIBED);
- "Restore nothing except when ...": the exception to a denied object is the order's condition (clauses.conditions_in,
  checks._LET_BY_EXCEPTION);
- a later case that only names which host of the first case's class it is ("if that host is X") is no alternative
  (rule_claims._one_of_the_class); a rest that keeps a rule to the hosts its trigger names is no guard
  (guard._named_hosts_only); a count of a class's hosts the text does not name singles them out (names._few_of_class).
Each test fails on the product files of 08ab237 and passes on r53l. Sentences of our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.action import parse_rule_action
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.guard import complete_claims, guard_rest
from forge.rulebook.language.meaning import Meaning, undisputed_hosts
from forge.rulebook.language.predicate import Atom, describe, parse_predicate
from forge.rulebook.language.rule_claims import rule_claims
from forge.rulebook.language.said import said_in_words
from forge.rulebook.model import Evidence
from forge.rulebook.retrieval.resolve import settle
from forge.rulebook.store.curation import Teaching
from tests.actions import do, never
from tests.plan_book import PlanBook
from tests.situations import REFUSED, alert_rows, refused_rule_holds_on

CHOOSER = ("action_chooser",)


def _semantic(text: str, actor: str) -> Teaching:
    return Teaching(text, "CONTENT", CHOOSER, "g", actor, Evidence("correction", actor, text[:40], 1),
                    trigger="dn-x", compiled_by="model", text=text)


# -- disputes between rules kept semantic ---------------------------------------------------------------------------------

CLASS_BAN = "Workstations on the user side are never to be reimaged, full stop."
ONE_HOST_ORDER = "User3 held at user level and not at root gets a Restore from us."


def test_a_standing_prohibition_on_a_class_is_said() -> None:
    said = said_in_words("User boxes never get a Restore from this team.")
    assert said is not None
    when, action = said
    assert when == Atom(host_class="User") and action.mode == "never" and action.move.verb == "Restore"


def test_a_standing_class_prohibition_kept_semantic_speaks_where_the_class_is_shown() -> None:
    assert refused_rule_holds_on(CLASS_BAN, User2="None/No") is True
    assert refused_rule_holds_on("Enterprise boxes never get a Remove from this team.", Op_Host1="Scan/No") is True
    # (the whole table is shown: the enterprise hosts too) but not an alert naming only an op host
    from forge.rulebook.language.predicate import truth
    from forge.rulebook.language.situation import read_situation
    found = semantic_claims(CLASS_BAN, REFUSED, CLASS_BAN)
    assert truth(found, read_situation("Alerts:\nOp_Host1: Activity Scan, Compromised No")) is False


def test_two_teachers_semantic_rules_on_a_class_and_one_of_its_hosts_are_flagged_and_settled() -> None:
    book = PlanBook()
    book.apply(_semantic(CLASS_BAN, "user:oona"), _semantic(ONE_HOST_ORDER, "user:piet"))
    general, exception = book.of(CLASS_BAN), book.of(ONE_HOST_ORDER)
    assert exception.rule_id in general.conflicts_with and general.rule_id in exception.conflicts_with
    # the general rule's own teacher asks: theirs; anyone else: the narrower word
    assert settle((general.rule_id, exception.rule_id), book.records, "user:oona").winner == general.rule_id
    assert settle((general.rule_id, exception.rule_id), book.records, "user:quin").winner == exception.rule_id


def test_a_move_on_a_whole_class_acts_on_the_hosts_the_context_shows() -> None:
    general = Meaning(parse_predicate({"class": "User"}), parse_rule_action(never("Restore", "User")))
    exception = Meaning(parse_predicate({"host": "User3", "compromise": "User"}), parse_rule_action(do("Restore", "User3")))
    alone = alert_rows(("User3", "None", "User"))
    assert undisputed_hosts(general, [exception], alone) == frozenset()
    beside = alert_rows(("User3", "None", "User"), ("User1", "Exploit", "User"))
    assert undisputed_hosts(general, [exception], beside) == frozenset({"User1"})


# -- what a rule leaves to another provision ----------------------------------------------------------------------------

DEFERRING = "Every host with an exploit in progress gets a Remove from us, except as set out in the standing exception for Op_Host2."


def test_a_trigger_on_the_host_left_to_another_provision_is_refused() -> None:
    assert text_problem(DEFERRING, {"host": "Op_Host2", "activity": "Exploit"}, do("Remove", "Op_Host2")) is not None
    assert text_problem(DEFERRING, {"class": "any", "activity": "Exploit"}, do("Remove")) is None


def test_the_orders_modal_ends_a_subject_condition() -> None:
    for modal in ("shall", "must"):
        text = f"Any box that shows a privileged compromise {modal} receive a Restore."
        assert complete_claims(text, rule_claims(text, with_instruction=True))


# -- a markdown table of cases ----------------------------------------------------------------------------------------------

def test_a_first_row_ditto_and_a_dash_state_are_no_cases() -> None:
    tables = ("| machine | what the row says | move |\n|---|---|---|\n| Enterprise0 | same | Analyse |\n"
              "| Enterprise1 | Compromised User | Remove |\n| Enterprise2 | ditto | Remove |",
              "| machine | what the row says | move |\n|---|---|---|\n| Enterprise0 | - | Analyse |\n"
              "| Enterprise1 | Compromised User | Remove |\n| Enterprise2 | ditto | Remove |")
    for table in tables:
        for said in (table, " ".join(table.split())):  # as written, and run into one line
            assert refused_rule_holds_on(said, Enterprise2="None/User") is True
            assert refused_rule_holds_on(said, Enterprise0="None/No") is not True
            assert refused_rule_holds_on(said, Enterprise0="Scan/No") is not True


# -- "ones which" after never --------------------------------------------------------------------------------------------------

def test_ones_after_never_keep_hosts_out() -> None:
    text = "Reimage every owned enterprise server, but never ones which sit at root."
    found = semantic_claims(text, REFUSED, text)
    assert "not" in describe(found) and "Privileged" in describe(found)
    assert refused_rule_holds_on(text, Enterprise1="None/Privileged") is False
    assert refused_rule_holds_on(text, Enterprise1="None/User") is True


# -- an exception to a denied object ---------------------------------------------------------------------------------------------

def test_restore_nothing_except_when_holds_only_in_the_exception() -> None:
    text = "Reimage nothing on Op_Host1 except when it is held at root."
    assert refused_rule_holds_on(text, Op_Host1="None/Privileged") is True
    assert refused_rule_holds_on(text, Op_Host1="None/User") is False
    assert text_problem(text, {"host": "Op_Host1", "compromise": "Privileged"}, do("Restore", "Op_Host1")) is None
    # a move denied, not its object: a prohibition, its exception kept out of it
    banned = "No Remove for the op boxes, except once they show an exploit."
    assert text_problem(banned, {"class": "Operational", "activity": "Exploit"}, do("Remove")) is not None


# -- a narrower case by the host's name; a rest that keeps to the named hosts; a count of a class -------------------------

def test_a_case_naming_which_host_it_is_is_no_alternative() -> None:
    text = "Evict the attacker from any user box that shows a compromise; if that box is User4, restore it instead."
    assert refused_rule_holds_on(text, User4="None/No") is False
    assert refused_rule_holds_on(text, User4="Scan/No") is False
    assert refused_rule_holds_on(text, User4="None/User") is True


def test_a_rest_keeping_to_the_named_hosts_is_no_guard() -> None:
    named = parse_predicate({"any": [{"host": "User1"}, {"host": "User2"}]})
    assert guard_rest("the two named user hosts only, not User0", named) == ""
    assert guard_rest("the two named user hosts only", parse_predicate({"class": "User"})) != ""


def test_a_count_of_a_class_the_text_does_not_name_is_no_class() -> None:
    text = "Once an op box reads Scan, a DecoyApache goes on it: just the three listed op boxes only."
    assert text_problem(text, {"class": "Operational", "activity": "Scan"}, do("DecoyApache")) is not None
    assert refused_rule_holds_on(text, Op_Server0="Scan/No") is not True
