"""Round 56, second wave (r56n): forms of words the readers did not place, whose rules were missed.

Each test holds a reading exactly as wide as its words: what the words state is read, and a near sentence that says
more (or less) is not read as they are.
"""
from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.situation import read_situation
from forge.rulebook.language.wording import read_wording


# --- the teacher's own lesson lead, "correcting my own habit: <order>" ---------------------------------------------

_OWN_HABIT = ("Two turns ago I queued a DecoyTomcat for User1 while its line had read Exploit for a while, far too slow. "
              "Correcting my own habit: queue a Remove of User1 in the turn it gets exploited, no decoy first.")


def test_own_habit_lead_heads_the_lesson_and_the_story_is_no_condition():
    words = read_wording(_OWN_HABIT)
    assert words.gives_order
    assert words.instruction.lower().startswith("queue a remove of user1")
    assert all("for a while" not in c.text for c in words.conditions)
    assert text_problem(_OWN_HABIT, {"host": "User1", "activity": "Exploit"},
                        {"mode": "do", "verb": "Remove", "target": "User1"}) is None
    # (the lesson's "no decoy first" stays a ban: a decoy ordered is refused)
    assert text_problem(_OWN_HABIT, {"host": "User1", "activity": "Exploit"},
                        {"mode": "do", "verb": "DecoyTomcat", "target": "User1"}) is not None


# --- a quiet network said on the alerts' header line, or in the history lines' shorthand ---------------------------

def test_alerts_header_with_the_quiet_line_on_it_states_every_host_quiet_unnamed():
    seen = read_situation("Alerts: No host shows activity or compromise.")
    assert seen.states("Op_Host1") == (("None", "No"),)
    assert seen.unnamed == frozenset(seen.by_host)  # stated quiet, none of them shown by name


def test_every_host_quiet_in_the_none_no_shorthand():
    seen = read_situation("by now all 13 hosts None/No and no alert since the first step")
    assert seen.states("Enterprise2") == (("None", "No"),)
    assert len(seen.by_host) == 13
    # (not with a host set apart after it, nor negated: those lines say more, or less, than every host quiet)
    apart = read_situation("all hosts None/No except Op_Server0: Activity Exploit, Compromised User")
    assert "Op_Host1" not in apart.by_host
    assert apart.states("Op_Server0") == (("Exploit", "User"),)
    assert read_situation("it is not all 13 hosts None/No any more").by_host == {}


# --- the Analyst's report named as the rater of the step's analyses ------------------------------------------------

def test_analysts_report_as_the_rater_leaves_the_rest_for_the_claims():
    from forge.rulebook.language.condition import semantic_claims
    from forge.rulebook.language.judged import judged_in
    from forge.rulebook.language.predicate import Always, Not

    text = "If the analyst's report for this step rates some host's risk high, Remove that host at once."
    assert [t.kind for t in judged_in(text)] == ["risk"]
    assert semantic_claims(text) != Not(Always())  # read: some host shown, its rating judged by the gate
    # (denied, the rating is no condition read: the rule stays unread, silent)
    assert semantic_claims("Unless the analyst's report rates some host's risk high, just Monitor.") == Not(Always())


# --- "For <host> <state> (aside), <order>": the host and its state heading the order -------------------------------

_FOR_HOST_STATE = "For Op_Host1 probed (a scan only, no compromise yet), queue DecoySmss on it ahead of the red team."


def test_for_host_in_state_heads_the_order_as_its_condition():
    words = read_wording(_FOR_HOST_STATE)
    assert [c.hosts for c in words.conditions] == [("Op_Host1",)]
    do = {"mode": "do", "verb": "DecoySmss", "target": "Op_Host1"}
    assert text_problem(_FOR_HOST_STATE, {"host": "Op_Host1", "activity": "Scan", "compromise": "No"}, do) is None
    # (the aside's "no compromise" stays a restriction: a scan in any state is wider than the words)
    assert text_problem(_FOR_HOST_STATE, {"host": "Op_Host1", "activity": "Scan"}, do) is not None
    # (a host named after "for" with no state of its own is no such head)
    assert read_wording("For Op_Host1, probed boxes get a DecoySmss.").conditions == ()


# --- a chat log written speaker first, "<name> <time> > <message>" -------------------------------------------------

_SPEAKER_FIRST_LOG = ("ivy 16:02 > analyse Op_Host0 whenever anything shows on it\n"
                      "jon 16:03 > even for a probe? waste of a step, never analyse for that\n"
                      "ivy 16:05 > ok: analyse Op_Host0 when it shows an exploit, probes aside")


def test_speaker_first_log_settles_on_its_last_order():
    from forge.rulebook.language.transcript import settled_line

    assert settled_line(_SPEAKER_FIRST_LOG) == "analyse Op_Host0 when it shows an exploit, probes aside"
    # (a single such line, or one that is no message, leaves the text as it stands)
    mixed = _SPEAKER_FIRST_LOG + "\nsummary: see above"
    assert settled_line(mixed) == mixed


# --- a move named alone after a ban, "...; an Analyse first." ------------------------------------------------------

_MOVE_ALONE = "Right after a Restore of an op host, we must not Restore the same box again; an Analyse first."


def test_move_named_alone_after_a_ban_is_its_order():
    words = read_wording(_MOVE_ALONE)
    assert "Analyse" in words.verbs and words.instruction.endswith("an Analyse first.")
    when = {"class": "Operational", "acted": "Restore", "within": 1}
    prefer = {"mode": "prefer", "verb": "Analyse", "target": "$matched", "over": {"verb": "Restore", "target": "$matched"}}
    assert text_problem(_MOVE_ALONE, when, prefer) is None
    assert text_problem(_MOVE_ALONE, when, {"mode": "do", "verb": "Restore", "target": "$matched"}) is not None
