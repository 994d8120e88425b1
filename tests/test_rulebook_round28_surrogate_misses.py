"""Issue 29, twenty-eighth round (r28m, blind25's misses): readings of the product that kept a rule semantic where its
words apply. A host named as a specimen of a group ("servers such as Enterprise0", "a box of the same kind as User3")
stands for the group, never for itself alone; a note that keeps an order to the host it names ("don't stretch this to
the other servers") is no negation of the order's verb; "user level rather than at root" is read whole as the user
level. Sentences of our own, not the case files'."""

from __future__ import annotations

from forge.rulebook.authoring.checks import text_problem

_RESTORE_MATCHED = {"mode": "do", "verb": "Restore", "target": "$matched"}


def test_a_host_named_as_a_specimen_stands_for_its_group():
    text = "Enterprise servers such as Enterprise0 deserve a Restore once they show privileged access."
    assert text_problem(text, {"class": "Enterprise", "compromise": "Privileged"}, _RESTORE_MATCHED) is None
    kind = "Each desktop of the same kind as User3 needs a Restore whenever an exploit is seen on it."
    assert text_problem(kind, {"class": "User", "activity": "Exploit"}, _RESTORE_MATCHED) is None


def test_a_specimen_host_keeps_the_trigger_to_its_own_group():
    # guard: the group the specimen belongs to, never another one
    text = "Enterprise servers such as Enterprise0 deserve a Restore once they show privileged access."
    assert text_problem(text, {"class": "User", "compromise": "Privileged"}, _RESTORE_MATCHED) is not None


def test_a_note_keeping_the_order_to_its_host_is_no_negation():
    text = "If Op_Host1 reads Unknown, run an Analyse on Op_Host1, and don't extend this to the remaining op hosts."
    action = {"mode": "do", "verb": "Analyse", "target": "Op_Host1"}
    assert text_problem(text, {"host": "Op_Host1", "compromise": "Unknown"}, action) is None


def test_a_note_that_names_a_host_stays_a_negation_to_place():
    # guard: "do not extend this to Op_Host2" is about a host; the reading must place it, or the rule stays semantic
    text = "If an op host reads Unknown, run an Analyse on it, and do not extend this to Op_Host2."
    action = {"mode": "do", "verb": "Analyse", "target": "$matched"}
    assert text_problem(text, {"class": "Operational", "compromise": "Unknown"}, action) is not None


def test_user_level_rather_than_root_is_read_whole():
    from forge.rulebook.language.condition import semantic_claims
    from forge.rulebook.language.predicate import truth
    from forge.rulebook.language.situation import read_situation

    text = "If an enterprise server is now at user level rather than at root, Remove it."
    for said in (text, "When an enterprise server was owned with user access instead of admin, remove it."):
        found = semantic_claims(said, "predicate refused: claims: the predicate does not say what the condition says")
        assert truth(found, read_situation("Alerts:\nEnterprise1: Activity None, Compromised User")) is True
        assert truth(found, read_situation("Alerts:\nEnterprise1: Activity None, Compromised Privileged")) is not True
    # and a predicate at the level the words turn down is refused, not kept as a guarded rule
    action = {"mode": "do", "verb": "Remove", "target": "$matched"}
    assert text_problem(text, {"class": "Enterprise", "compromise": "Privileged"}, action) is not None


def test_the_inspected_box_is_the_host_at_hand_in_a_condition():
    from forge.rulebook.language.condition import semantic_claims
    from forge.rulebook.language.predicate import truth
    from forge.rulebook.language.situation import read_situation

    for text in ("examined machine at root -> rec a Restore of it",
                 "the server under inspection reads Privileged: recommend it be restored"):
        found = semantic_claims(text, "predicate refused: always: the predicate holds on every context")
        assert truth(found, read_situation("Alerts:\nOp_Host2: Activity None, Compromised Privileged")) is True
        assert truth(found, read_situation("Alerts:\nOp_Host2: Activity None, Compromised User")) is not True


def test_a_hosts_row_and_a_state_with_no_verb_is_that_state():
    from forge.rulebook.language.condition import semantic_claims
    from forge.rulebook.language.predicate import truth
    from forge.rulebook.language.situation import read_situation

    found = semantic_claims("OpH1 row Privileged -> Restore OpH1 now", "predicate refused: always: the predicate holds")
    assert truth(found, read_situation("Alerts:\nOp_Host1: Activity None, Compromised Privileged")) is True
    assert truth(found, read_situation("Alerts:\nOp_Host1: Activity None, Compromised User")) is not True
    assert truth(found, read_situation("Alerts:\nOp_Host2: Activity None, Compromised Privileged")) is not True
