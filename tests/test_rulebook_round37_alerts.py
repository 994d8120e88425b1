"""Issue 29, round 37 (r37q): the hosts a context's alert block leaves out. The product renders one alert line per host
that is not quiet under an `Alerts:` line of its own (the Planner's observation, the ActionChooser's context; the
property test in test_rulebook_contexts_read.py checks the block is complete on real episodes). Read as quiet, a host
the block leaves out made rules of absence ("no operational host is compromised", "while Op_Server0 is clean") speak on
contexts where the case authors of the development splits, nearly all of them, mean them silent: 281 harmful injections
with the reference compiler over 26 splits, for 25 queries won. So the reader keeps such a host unknown, and these
tests pin that; each fails with the quiet reading in place (checked on a copy of situation.py that filled them in).
Sentences of our own, none from a case file."""

from __future__ import annotations

from types import SimpleNamespace

from forge.env.text_view import render_alerts
from forge.rulebook.language.predicate import parse_predicate, truth
from forge.rulebook.language.situation import read_situation

PLANNER = ("Step 9 of 30.\n"
           "Observation from get_updated_hosts(): Hosts changed since the last step: User3 (Activity Exploit, Compromised User)\n"
           "Alerts:\n"
           "User3: Activity Exploit, Compromised User\n"
           "Enterprise1: Activity Scan, Compromised No")

CHOOSER = ("Situation (from the Planner): User3 looks exploited; what about Op_Server0?\n\n"
           "Recent steps: step 7: Monitor -> reward -0.1 | step 8: Analyse User3 -> reward -0.1\n"
           "Host history (last 2 steps): User3: step 7 Scan/No, step 8 Exploit/User; every other host: None/No\n\n"
           "Alerts:\n"
           "User3: Activity Exploit, Compromised User\n\n"
           "Analyses this step:\n"
           "Host: User3\nActivity: Exploit\nCompromise: User\nRisk: high")

NO_OP_COMPROMISE = parse_predicate({"not": {"class": "Operational", "compromise": "any"}})
OP_SERVER_CLEAN = parse_predicate({"host": "Op_Server0", "compromise": "No"})
OP_SERVER_SCANNED = parse_predicate({"host": "Op_Server0", "activity": "Scan"})


def test_a_host_the_planners_alert_block_leaves_out_stays_unknown():
    situation = read_situation(PLANNER)
    assert situation.states("Op_Server0") == ()
    assert truth(NO_OP_COMPROMISE, situation) is None
    assert truth(OP_SERVER_CLEAN, situation) is None
    assert truth(OP_SERVER_SCANNED, situation) is None
    assert situation.states("Enterprise1") == (("Scan", "No"),)  # the listed hosts keep their rows


def test_the_action_choosers_context_leaves_a_host_out_of_its_block_unknown_even_when_the_planner_names_it():
    situation = read_situation(CHOOSER)
    # named without a state in the Planner's line: shown, nothing stated of it
    assert situation.states("Op_Server0") == ((None, None),)
    assert situation.states("Op_Host1") == ()
    assert truth(NO_OP_COMPROMISE, situation) is None
    assert truth(OP_SERVER_CLEAN, situation) is None
    assert truth(parse_predicate({"not": {"class": "Enterprise", "activity": "any"}}), situation) is None


def test_only_a_line_that_states_every_host_makes_an_unnamed_host_quiet():
    quiet = read_situation("Situation (from the Planner): the network is quiet\n\nAlerts:\n"
                           + render_alerts(SimpleNamespace(hosts=())))
    assert truth(NO_OP_COMPROMISE, quiet) is True
    table = read_situation("Hostname | Subnet | IP | Activity | Compromised\n"
                           "User3 | User | 10.0.1.5 | Exploit | User\n(12 other hosts: Activity None, Compromised No)")
    assert truth(NO_OP_COMPROMISE, table) is True and truth(OP_SERVER_CLEAN, table) is True
    for text in (PLANNER, CHOOSER, "Alerts:\nUser3: Activity Exploit, Compromised User",
                 "Op_Server0 seems fine; User3 is exploited."):
        assert truth(NO_OP_COMPROMISE, read_situation(text)) is None, text
