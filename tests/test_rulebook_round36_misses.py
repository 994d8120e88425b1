"""Issue 29, round 36 (r36m, blind-33's missed injections): rules that hold for part of an episode, or on what the
rewards did, were silent wherever they applied. No predicate and no claim could state a bound on the step or on the
reward, so the product kept them semantic with their condition unread (a predicate that never holds).

- a window of the episode's steps in numbers ("during the opening 6 turns", "turn 14+", "past step 15", "step 18 or
  after", "(turn 9 or earlier)", "b4 step 5", "steps 4-9", "the closing 4 turns of the game (turn 27 onwards of 30)")
  is a claim of its own (language/episode.py: EpisodeStep), true or false on the context's step (the Planner's step
  line, one after the defender's last recorded step, the Analyst's evidence step), unknown without one;
- "from turn 5 on: n/a" says where the rule does not apply;
- what the latest rewards did ("the newest reward is under -8", "came in lower than the previous one", "the past two
  rewards are all negative", "negative on every one of the past 3 turns") is read from the recent-steps line
  (RewardTrend), unknown without it;
- a compiled predicate that leaves the window out is refused (kept semantic, judged by the claims that hold it), unless
  its unexpressed rest states the window (judged as its guard);
- and four readings beside them: a state "now and in all of the previous N turns", a class host at the table's
  "Compromised No" (its row's value, no denial of the class), "within the following N steps" after our own move, and a
  moment of a past run ("late in one game") that is the story's, no condition.

Sentences of our own, none from a case file. Tests marked "guard" pass without the change too."""

from __future__ import annotations

import pytest

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.situation import read_situation
from tests.test_rulebook_claims_scope import taught
from tests.actions import do
from tests.test_rulebook_text_checks import entry, reply
_REFUSED = "predicate refused: claims"


def _rows(**hosts: str) -> list[str]:
    """Alert lines, host="Activity,Compromised"."""
    out = []
    for host, state in hosts.items():
        activity, level = state.split(",")
        out.append(f"{host}: Activity {activity}, Compromised {level}")
    return out


def _planner(step: int, **hosts: str) -> str:
    """A Planner's context at `step` of a 30-step episode."""
    return "\n".join([f"Step {step} of 30.", "Alerts:", *_rows(**hosts)])


def _no_step(**hosts: str) -> str:
    return "\n".join(["Alerts:", *_rows(**hosts)])


def _chooser(rewards: list[float], first: int = 4, **hosts: str) -> str:
    """An ActionChooser's context: the Planner's situation, then the defender's recent steps from `first` on."""
    said = ", ".join(line.replace(":", " shows", 1) for line in _rows(**hosts))
    entries = []
    for i, reward in enumerate(rewards):
        entries.append(f"step {first + i}: Monitor -> reward {reward:+.1f}")
    return "\n".join([f"Situation (from the Planner): {said}", "Recent steps: " + " | ".join(entries)])


def _judged(text: str, context: str):
    """A rule kept semantic (its predicate refused): its claims' value on the context."""
    return truth(semantic_claims(text, _REFUSED), read_situation(context))


# -- windows of steps ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, inside, outside", [
    ("During the opening 6 turns (turn 6 included), Restore whichever enterprise box sits at user level.", 6, 7),
    ("turn 14+ : U2 @ User => Remove U2 in the plan, never a Restore.", 14, 13),
    ("U3 rooted, step 18 or after => plan Restore U3.", 18, 17),
    ("From turn 11 of this game onwards, should User3 be at Compromised Privileged, plan User3's Restore.", 11, 10),
    ("Prior to step 8 of this game, should User3 be at Compromised Privileged, plan User3's Restore.", 7, 8),
])
def test_a_window_of_steps_is_read_with_the_rest_of_the_condition(text, inside, outside):
    state = {"User2": "None,User", "User3": "None,Privileged", "Enterprise1": "None,User"}
    assert _judged(text, _planner(inside, **state)) is True
    assert _judged(text, _planner(outside, **state)) is False
    assert _judged(text, _no_step(**state)) is None  # no step stated: unknown, so silent


@pytest.mark.parametrize("text, row, inside, outside", [
    # after an adverb of time, in brackets
    ("enterprise box probed but clean, early (turn 9 or earlier) => DecoyTomcat there.", {"Enterprise1": "Scan,No"}, 9, 10),
    # the episode's closing steps, in numbers
    ("Over the closing 4 turns of the game (turn 27 onwards of 30), keep any Remove of User2 out of the plan.",
     {"User2": "None,User"}, 27, 20),
    # a window said not to be the rule's own
    ("U2 probed b4 step 5 => Analyse U2 in the plan. from step 5 on: n/a.", {"User2": "Scan,No"}, 4, 5),
])
def test_a_window_in_other_forms(text, row, inside, outside):
    assert _judged(text, _planner(inside, **row)) is True
    assert _judged(text, _planner(outside, **row)) is False


def test_the_step_of_a_context_with_only_its_recent_steps():
    text = "Past step 15, no Remove of User1 at all, whatever its row says."
    assert _judged(text, _chooser([-0.1, -0.1], User1="None,User")) is False  # steps 4 and 5 recorded: step 6 now
    assert _judged(text, _chooser([-1.0, -1.0], first=17, User1="None,User")) is True


def test_guard_a_step_told_in_a_story_is_no_window():
    # guard: "at step 14 I removed it" tells a moment of a past run; the rule's condition is its own
    text = "At step 14 of seed 3 I removed User4 and lost the foothold to watch. Whenever User4 is probed, DecoySSHD it."
    assert _judged(text, _no_step(User4="Scan,No")) is not False


def test_a_predicate_that_leaves_the_window_out_is_refused_unless_its_rest_states_it():
    text = "From turn 12 on, once User2 sits at user level, go for a Remove of User2."
    when = {"host": "User2", "compromise": "User"}
    problem = text_problem(text, when, do("Remove", "User2"))
    assert problem is not None and problem.startswith("claims")
    assert text_problem(text, when, do("Remove", "User2"), "from turn 12 on") is None


def test_a_rule_with_a_window_is_injected_inside_it_only(tmp_path):
    text = "Past step 15, whenever User1 is at user level, the move is to Remove User1."
    wide = reply(entry({"host": "User1", "compromise": "User"}, do("Remove", "User1")))
    record, injected = taught(tmp_path, text, wide, wide)  # (the corrective re-prompt gets the same answer)
    assert record.when is None  # refused: the window is said nowhere in the predicate
    assert injected(_planner(18, User1="None,User"))
    assert not injected(_planner(12, User1="None,User"))
    assert not injected(_no_step(User1="None,User"))


# -- what the rewards did -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, met, unmet", [
    ("If User3 and User1 are both rooted while the newest reward is under -8, User3's Restore goes first.",
     [-2.0, -9.5], [-9.5, -2.0]),
    ("If the newest reward came in lower than the previous one while User3 is rooted, go for a Remove of User3, "
     "not a Monitor.", [-1.0, -3.0], [-3.0, -1.0]),
    ("Once the past two rewards are all negative with User3 rooted, Remove User3 in the plan.",
     [0.0, -1.0, -1.0], [-1.0, 0.0, -1.0]),
])
def test_a_condition_on_the_latest_rewards_is_read_from_the_recent_steps(text, met, unmet):
    state = {"User3": "None,Privileged", "User1": "None,Privileged"}
    assert _judged(text, _chooser(met, **state)) is True
    assert _judged(text, _chooser(unmet, **state)) is False
    assert _judged(text, _no_step(**state)) is None  # no recent steps, no rewards: unknown


def test_too_few_rewards_leave_a_count_unknown():
    text = "Once the past three rewards are all negative with User3 rooted, Remove User3 in the plan."
    assert _judged(text, _chooser([-1.0, -1.0], User3="None,Privileged")) is None


def test_guard_a_reward_said_without_a_value_stays_unread():
    # guard: "when the reward looks bad" says no value the product can judge: the rule stays silent
    text = "When the reward looks bad with User3 rooted, Remove User3 in the plan."
    assert _judged(text, _chooser([-5.0, -9.0], User3="None,Privileged")) is not True


# -- a state held now and at each recorded step before ------------------------------------------------------------------

def _held(now: str, before: list[str]) -> str:
    """A context with User3's row now and its host-history line (oldest first)."""
    past = ", ".join(f"step {i + 5} None/{level}" for i, level in enumerate(before))
    head = _chooser([-1.0], first=7, User3=f"None,{now}")
    return f"{head}\nHost history (last {len(before)} steps): User3: {past}"


@pytest.mark.parametrize("text", [
    "U3 @ Unknown now + in all of the previous 2 turns => Analyse U3.",
    "Should User3 read Unknown now and on both of the prior 2 steps, Analyse User3.",
])
def test_a_state_now_and_at_each_of_the_last_steps_is_held_that_long(text):
    assert _judged(text, _held("Unknown", ["Unknown", "Unknown"])) is True
    assert _judged(text, _held("Unknown", ["User", "Unknown"])) is False


# -- the table's "Compromised No" said of a host of a class ---------------------------------------------------------------

def _analysed(host: str, activity: str, level: str) -> str:
    return "\n".join([f"Host {host}: table Activity {activity}, Compromised {level}.", "Current evidence (step 6):",
                      "- file notes.txt density 0.1"])


@pytest.mark.parametrize("text", [
    "Should the box under analysis read Activity Scan plus Compromised No, suggest DecoySSHD for it.",
    "When a user workstation has Activity Scan and Compromised No, put DecoySSHD on it.",
])
def test_compromised_no_of_a_class_host_is_its_rows_value_not_a_denial_of_the_class(text):
    assert _judged(text, _analysed("User2", "Scan", "No")) is True
    # (read as "no host is scanned and compromised", the rule held where nothing at all was scanned)
    assert _judged(text, "Step 6 of 30.\nAll 13 hosts: Activity None, Compromised No.") is False


def test_guard_no_host_of_a_class_compromised_is_still_a_denial_of_the_class():
    # guard: "no ... host ..." denies it of every host of the class
    text = "With no user box compromised in any way, Monitor is fine."
    assert _judged(text, _no_step(User1="None,User")) is False


# -- a window after the defender's own move; a moment of a past run ---------------------------------------------------

def test_within_the_next_steps_after_our_move_is_a_window_on_our_history():
    text = "After you Remove User3, keep Restore User3 off the table within the following three steps."
    found = semantic_claims(text, _REFUSED)
    assert (found.host, found.acted, found.within) == ("User3", "Remove", 3)


@pytest.mark.parametrize("story", [
    "Late in one game I looked at User1 with Analyse over and over, though its row never moved off user level.",
    "In the final turns of seed 12 my plan kept asking for an Analyse of User1 while it was at user level.",
    "Early in an earlier game I analysed User1 twice at user level and learnt nothing.",
])
def test_a_moment_of_a_past_run_is_the_storys_not_a_condition(story):
    text = f"{story} Lesson: if User1 reads Compromised User, go for a Remove of User1 over yet another Analyse."
    assert _judged(text, _no_step(User1="None,User")) is True


def test_guard_late_in_the_episode_stays_a_condition_unread():
    # guard: the episode under way, with no number: still a condition the product cannot judge
    text = "Late in the episode, if User1 reads Compromised User, go for a Remove of User1."
    assert _judged(text, _no_step(User1="None,User")) is not True


# -- one host of no class, quiet in one column ----------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "When a box sits at Unknown with Activity None, recommend one more Analyse of it.",
    "inspected machine at Unknown w/ no activity => one more Analyse of it.",
])
def test_a_host_quiet_in_one_column_is_one_host_not_every_host(text):
    # (read as every host of the network at Unknown with no activity, it held nowhere an analyst looks at one host)
    assert _judged(text, _analysed("Enterprise1", "None", "Unknown")) is True
    assert _judged(text, _analysed("Enterprise1", "None", "User")) is not True
