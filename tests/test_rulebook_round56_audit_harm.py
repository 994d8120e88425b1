"""Round 56 audit (r56a) of r56h's readers, probed with sentences of our own. Each test is a reading wider than its words,
or their opposite, on 0dbe6c8:

- an inversion whose case is said as a plain condition ("Only once <case> should anyone <move>", "not before <case> may
  we <move>") is no ban in that case: r56h's negative inversion (forbidding._INVERTED_BAN) read the case as the ban's
  condition, and the checks took "never <move>" in the very case the words let it (only "not unless / until" keep the
  word that lifts the ban);
"""

from forge.rulebook.authoring.checks import text_problem


def _on(verb, target, mode="do"):
    return {"mode": mode, "verb": verb, "target": target}


def test_an_inversion_whose_case_lets_the_move_is_no_ban_in_that_case():
    for text, host, verb, case in (
            ("Only once User3 is rooted should anybody Remove User3.", "User3", "Remove", {"compromise": "Privileged"}),
            ("Only when Enterprise1 reads root shall the defender ever Restore Enterprise1.", "Enterprise1", "Restore",
             {"compromise": "Privileged"}),
            ("Not till Op_Host2 shows an exploit should one Remove Op_Host2.", "Op_Host2", "Remove", {"activity": "Exploit"})):
        # "never <move>" in the case is the opposite of the words: there the move is let
        assert text_problem(text, {"host": host, **case}, _on(verb, host, "never")) is not None, text
        # the move in its case is what the words let (read as a ban, this was refused as "a prohibition ... never a do")
        assert text_problem(text, {"host": host, **case}, _on(verb, host)) is None, text
    # "not before" keeps no lifting word: the ban in any state was taken, wider than the words once the host is owned
    text = "Not before User0 is owned may we Remove User0."
    assert text_problem(text, {"host": "User0"}, _on("Remove", "User0", "never")) is not None


def test_a_negative_inversion_with_unless_still_bans_outside_its_case():
    text = "Not unless Op_Host0 is owned should anyone Restore User4."
    assert text_problem(text, {"all": [{"host": "User4"}, {"not": {"host": "Op_Host0", "compromise": "any"}}]},
                        _on("Restore", "User4", "never")) is None
    assert text_problem(text, {"all": [{"host": "User4"}, {"host": "Op_Host0", "compromise": "any"}]},
                        _on("Restore", "User4", "never")) is not None
