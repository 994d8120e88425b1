"""Issue 29, round 36 (r36h: blind-33's harmful injections and guarded misses). A rule that says when in the episode it
applies ("before step 8", "from step 18 onwards"), what the rewards must show ("the last three rewards all negative"),
or what the analyst's evidence or the step's analyses report ("a process count above its baseline", "an account its
baseline lacks", "rated Risk high") was judged by its host claims alone when kept semantic, so it spoke at any step, on
any reward and on any evidence. The product now reads these conditions itself (the evidence in language/judged.py, the
windows of steps and the rewards in language/episode.py, their one reader, wrapped by judged.py at the gate) and holds
a rule to them, three-valued: unknown where the context does not state the line they need. Sentences of our own, none
from a case file."""

from __future__ import annotations

from forge.rulebook.language.episode import EpisodeStep, RewardTrend, episode_claims, step_windows
from forge.rulebook.language.judged import EvidenceTest, InEpisode, Judged, evidence_of, judged_in
from forge.rulebook.language.predicate import truth
from forge.rulebook.language.situation import read_situation
from tests.test_rulebook_claims_scope import taught
from tests.test_rulebook_text_checks import entry, reply
from tests.actions import do
def _value(judged, text: str):
    """A judged condition's value, or a claim's (a window of steps, a trend of rewards), on a context."""
    if isinstance(judged, Judged):
        return judged.value(text, read_situation(text))
    return truth(judged, read_situation(text))


def step_window(condition: str):
    """The one window of steps a condition states (None: none)."""
    windows = step_windows(condition)
    assert len(windows) <= 1, windows
    return windows[0] if windows else None


def reward_tests(condition: str):
    return [c for c in episode_claims(condition) if isinstance(c, RewardTrend)]


def _planner(step: int, rows: str = "User3: Activity Scan, Compromised No") -> str:
    return f"Step {step} of 30.\nAlerts:\n{rows}"


# -- when in the episode -------------------------------------------------------------------------------------------------


def test_a_bound_on_the_step_is_a_window():
    assert step_window("only until step 8 of the run") == EpisodeStep(None, 7)
    assert step_window("from turn 18 onwards") == EpisodeStep(18)
    assert step_window("past step 22") == EpisodeStep(23)
    assert step_window("during the opening six steps") == EpisodeStep(1, 6)
    assert step_window("at step 14 or earlier") == EpisodeStep(None, 14)
    assert step_window("before step 5, step 5 included") == EpisodeStep(None, 5)


def test_an_example_moment_and_a_history_window_bound_nothing():
    assert step_window("as User2 did at step 9 of seed 4") is None
    assert step_window("unchanged for the last 3 steps") is None


def test_the_window_is_judged_on_the_step_line():
    window = step_window("ahead of step 12 is not read; before step 12 is")
    assert _value(window, _planner(11)) is True
    assert _value(window, _planner(12)) is False


def test_the_last_steps_of_the_episode_need_its_length():
    window = step_window("in the final three steps of the episode")
    assert _value(window, _planner(28)) is True and _value(window, _planner(27)) is False
    chooser = "Recent steps: step 26: Monitor -> reward -1.0\nAlerts:\nUser3: Activity Scan, Compromised No"
    assert _value(window, chooser) is None  # the step is 27 there, the episode's length is not said


def test_a_story_moment_with_on_is_no_window():
    assert step_window("I wasted step 19 on a Monitor") is None
    assert step_window("from step 19 on, plan nothing else") == EpisodeStep(19)


def test_a_step_only_the_history_bounds_is_unknown_at_the_bound():
    # the history's last line is the step acting now or the one before it: a bound between the two is not decided
    window = step_window("from step 12 onwards")
    history = "Recent steps: step {0}: DecoyTomcat Op_Host1 -> reward -1.0\nAlerts:\nUser3: Activity Scan, Compromised No"
    assert _value(window, history.format(11)) is None
    assert _value(window, history.format(12)) is True and _value(window, history.format(9)) is False


def test_no_step_stated_is_unknown():
    assert _value(step_window("after step 4"), "Alerts:\nUser3: Activity Scan, Compromised No") is None


# -- rewards --------------------------------------------------------------------------------------------------------------

_REWARDS = "Recent steps: step 4: DecoyTomcat Op_Host1 -> reward {0} | step 5: Restore Op_Host1 -> reward {1} | step 6: DecoySvchost Op_Host1 -> reward {2}"


def test_the_last_rewards_negative():
    test, = reward_tests("while the past three rewards are all negative")
    assert test == RewardTrend("negative", 3)
    assert _value(test, _REWARDS.format("-1.0", "-2.0", "-0.5")) is True
    assert _value(test, _REWARDS.format("+0.0", "-2.0", "-0.5")) is False
    assert _value(test, "Recent steps: step 6: DecoySvchost Op_Host1 -> reward -0.5") is None  # one reward listed, three asked


def test_a_falling_and_a_recovered_reward():
    fell, = reward_tests("if the latest reward is worse than the previous one")
    back, = reward_tests("once the score comes back to 0 after a loss")
    assert _value(fell, _REWARDS.format("0", "-1.0", "-3.0")) is True and _value(fell, _REWARDS.format("0", "-3.0", "-1.0")) is False
    assert _value(back, _REWARDS.format("0", "-1.0", "+0.0")) is True and _value(back, _REWARDS.format("0", "0", "0")) is False


def test_the_latest_reward_below_a_figure():
    test, = reward_tests("whenever the most recent reward is under -5")
    assert _value(test, _REWARDS.format("0", "0", "-7.5")) is True and _value(test, _REWARDS.format("0", "-9", "-1")) is False


# -- the analyst's evidence and the step's analyses ----------------------------------------------------------------------

_ROW = "Host {0}: table Activity {1}, Compromised {2}.\n".format("Op_Host2", "Exploit", "Privileged")
_ANALYST = (_ROW + "Baseline: 7 processes; users root, pi; OS LINUX.\n"
            "Current evidence (step 9):\n{0}")
_CHOOSER = ("Alerts:\nUser1: Activity None, Compromised User\n\nAnalyses this step:\nHost: User1\nActivity: None\n"
            "Compromise: User\nEvidence: file escalate.exe density 0.7\nRisk: {0}")


_CONNECTIONS = "- process: {n} connections on local port {port}, one of them back to the attacker over a reverse shell"


def test_the_evidence_is_read_per_host():
    assert set(evidence_of(_ANALYST.format("- file x.sh density 0.2"))) == {"Op_Host2"}
    assert evidence_of(_CHOOSER.format("medium"))["User1"].risk == "medium"
    assert evidence_of("Step 3 of 30.\nAlerts:\nUser1: Activity None, Compromised User") is None


def test_a_rating_of_the_named_host():
    test, = evidence_tests_of("the analysis gives User1 a high risk")
    assert test == EvidenceTest("evidence", "risk", "User1", word="high")
    assert _value(test, _CHOOSER.format("high")) is True and _value(test, _CHOOSER.format("low")) is False
    assert _value(test, "Alerts:\nUser1: Activity None, Compromised User") is None


def test_more_processes_than_the_baseline():
    test, = evidence_tests_of("if its evidence shows more processes than the baseline")
    assert _value(test, _ANALYST.format("- 3 processes running (baseline 1)")) is True
    assert _value(test, _ANALYST.format("- 1 process running (baseline 1)")) is False


def test_an_account_the_baseline_lacks():
    test, = evidence_tests_of("when a user absent from the baseline shows up")
    assert _value(test, _ANALYST.format("- session ssh user mallory")) is True
    assert _value(test, _ANALYST.format("- session ssh user pi")) is False


def test_a_dense_file_and_a_shell():
    dense, = evidence_tests_of("a dropper.sh file at density 0.6 or more")
    shell, = evidence_tests_of("a reverse shell back to the attacker")
    assert _value(dense, _ANALYST.format("- file dropper.sh density 0.75")) is True
    assert _value(dense, _ANALYST.format("- file dropper.sh density 0.5")) is False
    assert _value(shell, _ANALYST.format(_CONNECTIONS.format(n=3, port=50)))
    assert _value(shell, _ANALYST.format("- file dropper.sh density 0.5")) is False


def test_a_denied_reading_is_left_unread():
    # "with no reverse shell" is the opposite of a shell: read as one, the rule asked for what its text excludes
    assert not evidence_tests_of("when the record holds port 80 traffic only, with no reverse shell")
    assert not judged_in("rate the risk high")  # the analyst's verdict


def test_an_unknown_user_host_is_no_new_account():
    assert not evidence_tests_of("each Unknown user host first gets one Analyse")
    assert evidence_tests_of("a new account appears in its evidence")


def test_evidence_said_of_no_host_is_of_the_hosts_the_predicate_matches():
    from forge.rulebook.language.predicate import parse_predicate

    shell, = evidence_tests_of("its record holds a reverse shell", of=parse_predicate({"class": "User", "activity": "Exploit"}))
    block = ("Alerts:\nUser2: Activity Exploit, Compromised User\nEnterprise1: Activity None, Compromised User\n\n"
             "Analyses this step:\nHost: {0}\nEvidence: " + _CONNECTIONS.format(n=2, port=8080)[2:].replace("{", "{{").replace("}", "}}")
             + "\nRisk: high")
    assert _value(shell, block.format("User2")) is True
    assert _value(shell, block.format("Enterprise1")) is False  # the shell is on a host the rule is not about


def test_an_order_is_no_rating():
    # "rate it high risk" is the analyst's answer; only a condition's rating is judged
    assert not judged_in("when Op_Host2 is rooted", "recommend Restore and give it a high risk")


def evidence_tests_of(condition: str, of=None):
    return [t for t in judged_in(condition, of=of) if isinstance(t, EvidenceTest)]


# -- at the gate ----------------------------------------------------------------------------------------------------------

WINDOWED = "Before step 8 of the episode, whenever some user machine shows a scan, choose a DecoySmss on it."
DECOY_IT = do("DecoySmss", "$matched")


def test_the_gate_judges_the_episode_readers_windows():
    # one reader of windows and rewards (episode.py): the gate's judged conditions wrap its claims
    assert judged_in("whenever the last two rewards are negative", "From step 6 on, plan a Restore") == (
        InEpisode("episode time", EpisodeStep(6)), InEpisode("reward", RewardTrend("negative", 2)))


def test_one_reader_reads_the_phrasings_of_both_rounds():
    # (the fold: r36h's phrasings read by episode.py, which also keeps r36m's)
    assert step_window("no later than step 8") == EpisodeStep(None, 8)
    assert step_window("later than step 9") == EpisodeStep(10)
    assert step_window("as of turn 4") == EpisodeStep(4)
    assert step_window("till step 6") == EpisodeStep(None, 5)
    assert step_window("b4 step 6") == EpisodeStep(None, 5)
    assert step_window("after step 4, including step 4") == EpisodeStep(4)
    assert reward_tests("a few words stand between: the past 2 rewards on that line are both negative") == [RewardTrend("negative", 2)]
    assert reward_tests("the past 2 rewards were not both negative") == []


def test_the_analysts_evidence_step_is_that_step_or_later():
    analyst = _ANALYST.format("- file x.sh density 0.2").replace("step 9", "step {0}")
    assert _value(step_window("before step 10"), analyst.format(12)) is False
    assert _value(step_window("before step 10"), analyst.format(5)) is None
    assert _value(step_window("from step 4 on"), analyst.format(5)) is True


def test_a_rule_kept_semantic_that_is_for_early_steps_is_silent_later(tmp_path):
    always = reply(entry({"always": True}, DECOY_IT))
    record, injected = taught(tmp_path, WINDOWED, always, always)
    assert record.when is None  # kept semantic: judged by its claims, and now by its window too
    assert injected(_planner(6)) and not injected(_planner(9))
