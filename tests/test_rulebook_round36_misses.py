"""Issue 29, round 36 (r36m, blind-33's missed injections): rules that hold for part of an episode, or on what the
rewards did, were silent wherever they applied. No predicate and no claim could state "after step 15" or "the latest
reward is below -8", so the product kept them semantic and their condition unread (a predicate that never holds).

- a window of the episode's steps, in numbers ("in the first six steps", "step 14+", "after step 15", "step 18 or
  later", "(step 9 or before)", "b4 step 5", "steps 4-9", "the last four steps of the episode (step 27 onwards of
  30)"), is a claim of its own (language/episode.py: EpisodeStep), true or false on the context's step (the Planner's
  `Step N of M.`, one after the defender's last recorded step, the Analyst's evidence step), unknown without one;
- "from step 5 on: n/a" says where the rule does not apply;
- what the latest rewards did ("the latest reward is below -8", "the most recent reward is lower than the one before
  it", "the last two rewards are both negative", "negative at each of the last three steps") is read from the
  `Recent steps:` line (RewardTrend), unknown without it;
- a compiled predicate that leaves the window out is refused (kept semantic, judged by the claims that hold it), unless
  its unexpressed rest states the window (judged as its guard).

Sentences of our own, none from a case file. Tests marked "guard" pass without the change too."""

from __future__ import annotations

import pytest

from forge.rulebook.authoring.checks import text_problem
from forge.rulebook.language.condition import semantic_claims
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.situation import read_situation
from tests.test_rulebook_claims_scope import taught
from tests.test_rulebook_round32_misses import _do
from tests.test_rulebook_text_checks import do, entry, reply

_REFUSED = "predicate refused: claims"


def _planner(step: int, **hosts: str) -> str:
    """A Planner's context at `step` of 30: the step line and alert lines (host="Activity,Compromised")."""
    lines = [f"{h}: Activity {s.split(',')[0]}, Compromised {s.split(',')[1]}" for h, s in hosts.items()]
    return f"Step {step} of 30.\nAlerts:\n" + "\n".join(lines)


def _chooser(rewards: list[float], **hosts: str) -> str:
    """An ActionChooser's context: the Planner's situation line and the defender's recent steps with their rewards."""
    said = ", ".join(f"{h} shows Activity {s.split(',')[0]}, Compromised {s.split(',')[1]}" for h, s in hosts.items())
    steps = " | ".join(f"step {i + 4}: Monitor -> reward {r:+.1f}" for i, r in enumerate(rewards))
    return f"Situation (from the Planner): {said}\nRecent steps: {steps}"


def _judged(text: str, context: str):
    """A rule kept semantic (its predicate refused): its claims' value on the context."""
    return truth(semantic_claims(text, _REFUSED), read_situation(context))


# -- windows of steps ---------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, inside, outside", [
    ("In the first six steps (step 6 included), plan a Restore of any enterprise host that shows Compromised User.", 6, 7),
    ("step 14+: U2 at User -> plan Remove U2, not Restore.", 14, 13),
    ("U3 @ Privileged, step 18 or later -> Restore U3.", 18, 17),
    ("From step 11 of the episode onwards, when User3 shows Compromised Privileged, plan a Restore of User3.", 11, 10),
    ("Before step 8 of the episode, when User3 shows Compromised Privileged, plan a Restore of User3.", 7, 8),
])
def test_a_window_of_steps_is_read_with_the_rest_of_the_condition(text, inside, outside):
    state = {"User2": "None,User", "User3": "None,Privileged", "Enterprise1": "None,User"}
    assert _judged(text, _planner(inside, **state)) is True
    assert _judged(text, _planner(outside, **state)) is False
    # the window says nothing without a step: unknown, so silent
    assert _judged(text, "Alerts:\n" + "\n".join(f"{h}: Activity None, Compromised {s.split(',')[1]}"
                                                for h, s in state.items())) is None


def test_a_window_in_brackets_after_an_adverb_of_time():
    text = "ent srv scan only, early (step 9 or before) -> plan DecoyTomcat on it."
    assert _judged(text, _planner(9, Enterprise1="Scan,No")) is True
    assert _judged(text, _planner(10, Enterprise1="Scan,No")) is False


def test_the_last_steps_of_the_episode_in_numbers():
    text = "In the last four steps of the episode (step 27 onwards of 30), do not plan a Remove of User2."
    assert _judged(text, _planner(27, User2="None,User")) is True
    assert _judged(text, _planner(20, User2="None,User")) is False


def test_a_window_said_not_to_be_the_rules_own():
    text = "U2 scan seen b4 step 5 -> plan Analyse U2. from step 5 on: n/a."
    assert _judged(text, _planner(4, User2="Scan,No")) is True
    assert _judged(text, _planner(5, User2="Scan,No")) is False


def test_the_step_of_a_context_with_only_its_recent_steps():
    text = "After step 15, never Remove User1, whatever it shows."
    assert _judged(text, _chooser([-0.1, -0.1], User1="None,User")) is False  # steps 4 and 5 recorded: step 6 now
    late = "Situation (from the Planner): User1 shows Activity None, Compromised User\n" \
           "Recent steps: step 17: Monitor -> reward -1.0 | step 18: Monitor -> reward -1.0"
    assert _judged(text, late) is True


def test_guard_a_step_told_in_a_story_is_no_window():
    # guard: "at step 14 I removed it" tells a moment of a past run; the rule's condition is its own
    text = "At step 14 of seed 3 I removed User4 and lost the foothold to watch. When User4 is scanned, put a DecoySSHD on User4."
    assert _judged(text, "Alerts:\nUser4: Activity Scan, Compromised No") is not False


def test_a_predicate_that_leaves_the_window_out_is_refused_unless_its_rest_states_it():
    text = "From step 12 on, when User2 shows Compromised User, choose Remove User2."
    when = {"host": "User2", "compromise": "User"}
    problem = text_problem(text, when, _do("Remove", "User2"))
    assert problem is not None and problem.startswith("claims")
    assert text_problem(text, when, _do("Remove", "User2"), "from step 12 on") is None


def test_a_rule_with_a_window_is_injected_inside_it_only(tmp_path):
    text = "After step 15, whenever User1 shows Compromised User, choose Remove User1."
    wide = reply(entry({"host": "User1", "compromise": "User"}, do("Remove", "User1")))
    record, injected = taught(tmp_path, text, wide, wide)  # (the corrective re-prompt gets the same answer)
    assert record.when is None  # refused: the window is said nowhere in the predicate
    assert injected(_planner(18, User1="None,User"))
    assert not injected(_planner(12, User1="None,User"))
    assert not injected("Alerts:\nUser1: Activity None, Compromised User")


# -- what the rewards did -----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, met, unmet", [
    ("When User3 and User1 both show Compromised Privileged and the latest reward is below -8, choose Restore User3 first.",
     [-2.0, -9.5], [-9.5, -2.0]),
    ("When the most recent reward is lower than the one before it and User3 shows Compromised Privileged, I should choose "
     "Remove User3 rather than Monitor.", [-1.0, -3.0], [-3.0, -1.0]),
    ("Once the last two rewards are both negative and User3 sits at Compromised Privileged, plan a Remove of User3.",
     [0.0, -1.0, -1.0], [-1.0, 0.0, -1.0]),
])
def test_a_condition_on_the_latest_rewards_is_read_from_the_recent_steps(text, met, unmet):
    state = {"User3": "None,Privileged", "User1": "None,Privileged"}
    assert _judged(text, _chooser(met, **state)) is True
    assert _judged(text, _chooser(unmet, **state)) is False
    # no recent steps, no rewards: unknown
    assert _judged(text, "Alerts:\nUser3: Activity None, Compromised Privileged\n"
                         "User1: Activity None, Compromised Privileged") is None


def test_too_few_rewards_leave_a_count_unknown():
    text = "Once the last three rewards are all negative and User3 sits at Compromised Privileged, plan a Remove of User3."
    assert _judged(text, _chooser([-1.0, -1.0], User3="None,Privileged")) is None


def test_guard_a_reward_said_without_a_value_stays_unread():
    # guard: "when the reward looks bad" says no value the product can judge: the rule stays silent
    text = "When the reward looks bad and User3 sits at Compromised Privileged, plan a Remove of User3."
    assert _judged(text, _chooser([-5.0, -9.0], User3="None,Privileged")) is not True


# -- a state held now and at each recorded step before ------------------------------------------------------------------

def _held(now: str, before: list[str]) -> str:
    """A context with User3's row now and its Host history line (oldest first)."""
    past = ", ".join(f"step {i + 5} None/{c}" for i, c in enumerate(before))
    return (f"Situation (from the Planner): User3 shows Activity None, Compromised {now}\n"
            f"Recent steps: step 7: Monitor -> reward -1.0\nHost history (last {len(before)} steps): User3: {past}")


@pytest.mark.parametrize("text", [
    "U3 row Unknown now + at all of the last 2 history steps -> Analyse U3.",
    "When User3 shows Compromised Unknown now and at both of the last 2 steps, choose Analyse User3.",
])
def test_a_state_now_and_at_each_of_the_last_steps_is_held_that_long(text):
    assert _judged(text, _held("Unknown", ["Unknown", "Unknown"])) is True
    assert _judged(text, _held("Unknown", ["User", "Unknown"])) is False


# -- the table's "Compromised No" said of a host of a class ---------------------------------------------------------------

_ANALYSED = ("Host User2: table Activity Scan, Compromised No.\nBaseline: 1 processes; users Administrator; OS WINDOWS.\n"
             "Current evidence (step 6):\n- process: 2 connections on local port 22")


@pytest.mark.parametrize("text", [
    "When the host under analysis shows Activity Scan and Compromised No, recommend a DecoySSHD on it.",
    "When a user host shows Activity Scan, Compromised No, recommend a DecoySSHD on it and nothing heavier.",
])
def test_compromised_no_of_a_class_host_is_its_rows_value_not_a_denial_of_the_class(text):
    assert _judged(text, _ANALYSED) is True
    # (read as "no host is scanned and compromised", the rule held where nothing at all was scanned)
    quiet = "Step 6 of 30.\nAll 13 hosts: Activity None, Compromised No."
    assert _judged(text, quiet) is False


def test_guard_no_host_shows_a_compromise_is_still_a_denial_of_the_class():
    # guard: "no host shows ..." denies it of every host
    text = "When no user host shows any compromise, choose Monitor."
    assert _judged(text, "Alerts:\nUser1: Activity None, Compromised User") is False


# -- a window after the defender's own move; a moment of a past run ---------------------------------------------------

def test_within_the_next_steps_after_our_move_is_a_window_on_our_history():
    text = "After you Remove User3, do not choose Restore User3 within the next three steps."
    found = semantic_claims(text, _REFUSED)
    assert (found.host, found.acted, found.within) == ("User3", "Remove", 3)


@pytest.mark.parametrize("story", [
    "Late in one run I kept choosing Analyse on User1 again and again while it sat at user level.",
    "In the last steps of seed 12 I chose Analyse on User1 over and over while it sat at user level.",
    "Early in an earlier game I analysed User1 twice while it sat at user level.",
])
def test_a_moment_of_a_past_run_is_the_storys_not_a_condition(story):
    text = f"{story} Lesson: when User1 shows Compromised User, choose Remove User1 rather than another Analyse."
    assert _judged(text, "Alerts:\nUser1: Activity None, Compromised User") is True


def test_guard_late_in_the_episode_stays_a_condition_unread():
    # guard: the episode under way, with no number: still a condition the product cannot judge
    text = "Late in the episode, when User1 shows Compromised User, choose Remove User1."
    assert _judged(text, "Alerts:\nUser1: Activity None, Compromised User") is not True
