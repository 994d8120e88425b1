"""Issue 29, round 50 (r50g: harm on blind-47 from rules the gate let speak where their words do not apply).
- a step of the episode named by its place or its period, "on the opening turn of a game", "every fourth turn", "on
  turns 5, 10, 15 and so on": a window of steps (read as none, the rule spoke at every step); an order to act with only
  such a window needs no host shown ("put a decoy on User4" on the opening turn: the host is its target); "the last
  step" with no episode named is the step before, history, no window
  (`episode._FORMS`, `EpisodeStep.every`, `rule_claims.rule_claims`);
- an order of a move read as a rule on the reply's form (FORMAT, delivered on every call): a scope that is a step of the
  episode, or a quoted code or configuration form that states a host's state and its moves, is a decision
  (`compile.format_problem`, `compile._decision_quoted`);
- "REASON, so for <scope> I should <move>": the scope and the teacher's resolve are the order (dropped with the reason,
  the reason's words were read as the condition and the scope's state lost) (`order.so_order`);
- "<host> is the exception: hands off <host>" after an order on a class holding it: the host is excepted from that order,
  not the rule's heading (`wording._heading`);
- a phase the text defines in brackets right after naming it: its definition is the condition, not the product's wider
  mapping of the phase (`general_claims.general_parts`).
Each test fails on the product files of 6db5527 (checked: this file run in a `git archive 6db5527` tree). Sentences of
our own, none from a case file."""

from __future__ import annotations

from forge.rulebook.authoring.compile import looks_like_format
from forge.rulebook.language.episode import step_windows
from forge.rulebook.language.wording import read_wording
from tests.situations import alert_lines, refused_rule_holds, refused_rule_holds_on


def _at_step(step: int, **rows: str) -> str:
    return f"Step {step} of 30.\n" + alert_lines(**rows)


def test_a_step_named_by_its_place_or_its_period_is_a_window() -> None:
    opening = "On the opening turn of a game, deploy DecoySSHD on User4 and nothing further."
    # the host it acts on is its target: no need for User4 to be listed
    assert refused_rule_holds(opening, _at_step(1, User1="None/No")) is True
    assert refused_rule_holds(opening, _at_step(5, User1="Scan/No")) is False
    assert refused_rule_holds(opening, alert_lines(User1="Scan/No")) is None  # no step stated: unknown
    every = "Every fourth turn, add an Analyse of Op_Host2 to the plan whatever it shows."
    assert refused_rule_holds(every, _at_step(8, Op_Host2="None/No")) is True
    assert refused_rule_holds(every, _at_step(6, Op_Host2="None/No")) is False
    listed = "On turns 5, 10, 15 and so on, queue an Analyse of Enterprise2."
    assert refused_rule_holds(listed, _at_step(20, Enterprise2="None/No")) is True
    assert refused_rule_holds(listed, _at_step(12, Enterprise2="None/No")) is False
    # which of two steps "every other turn" starts at is not said: unknown
    other = "Every other turn, queue an Analyse of Enterprise2."
    assert refused_rule_holds(other, _at_step(4, Enterprise2="None/No")) is None
    # "the last step" with no episode named is the step before (history), no window
    assert not step_windows("If Op_Host1 was inspected on the last step, do not queue a fresh Analyse of it.")
    # a plan's first step is no step of the episode
    assert refused_rule_holds("As a first step, plan an Analyse of User3 when it shows a scan.",
                              _at_step(9, User3="Scan/No")) is True


def test_an_order_of_a_move_is_no_rule_on_the_reply_form() -> None:
    assert not looks_like_format("On the opening turn of a game, put a DecoySSHD on User4 and nothing else.")
    assert not looks_like_format("My fix, written as a config line for the planner: "
                                 "`User3: {when: rooted, do: [Restore User3, Analyse User3]}`")
    # the reply's form, with an example of a move in it, still is one
    assert looks_like_format("Reply with the move only, for instance `Remove User2`.")


def test_a_scope_and_the_teachers_resolve_after_so_are_the_order() -> None:
    text = ("I once restored Op_Host1 while it sat at Unknown. A row at Unknown with a quiet activity tells us little, so "
            "for each box under inspection at Unknown and with no activity we should suggest another Analyse, not a Restore.")
    assert "Analyse" in read_wording(text).instruction
    assert refused_rule_holds_on(text, Op_Host1="None/Unknown") is True
    assert refused_rule_holds_on(text, Op_Host1="None/User") is False


def test_a_host_named_the_exception_after_a_class_order_is_excepted() -> None:
    text = "Scanned user machines not yet compromised -> DecoySmss on them. User2 is the exception: keep off User2."
    assert "User2" in read_wording(text).excepted
    assert refused_rule_holds_on(text, User1="Scan/No") is True
    assert refused_rule_holds_on(text, User2="Scan/No") is not True


def test_a_phase_defined_in_brackets_is_its_definition() -> None:
    text = "During the exploitation phase (an exploit under way on some box), plan an Analyse of that box first."
    assert refused_rule_holds_on(text, Enterprise2="Exploit/User") is True
    # a foothold with no exploit under way is the product's exploitation phase, not the text's
    assert refused_rule_holds_on(text, Enterprise2="None/User") is False
