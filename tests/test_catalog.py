"""The 145-action catalog against the real environment, and the action parser."""

from __future__ import annotations

import pytest

from forge.env import ACTIONS, Cage2Env
from forge.env.catalog import ActionParseError, action_name, action_reference, parse_action


def test_catalog_matches_cyborg_for_all_145_actions():
    env = Cage2Env()
    real = [str(a) for a in env._wrapper.possible_actions]
    assert len(real) == len(ACTIONS) == 145
    for action in ACTIONS:
        assert real[action.id] == str(action)
        assert parse_action(real[action.id]) == action.id
        assert action_name(action.id) == real[action.id]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Restore Enterprise0", "Restore Enterprise0"),
        ("DecoyApache User2", "DecoyApache User2"),
        ("decoyapache user2", "DecoyApache User2"),
        ("Decoy Apache User2", "DecoyApache User2"),
        ('Remove hostname="User1"', "Remove User1"),
        ("Action: Analyse(Op_Server0)", "Analyse Op_Server0"),
        ("  monitor ", "Monitor"),
        ("Sleep", "Sleep"),
    ],
)
def test_parser_accepts_forms_models_write(text, expected):
    assert action_name(parse_action(text)) == expected


def test_unknown_verb_lists_valid_verbs():
    with pytest.raises(ActionParseError) as err:
        parse_action("Block User1")
    assert "'Block'" in str(err.value) and "Restore" in str(err.value) and "DecoyVsftpd" in str(err.value)


def test_unknown_host_lists_valid_hosts():
    with pytest.raises(ActionParseError) as err:
        parse_action("Restore User9")
    assert "'User9'" in str(err.value) and "Op_Server0" in str(err.value)


@pytest.mark.parametrize("text", ["Restore", "", "   ", "Monitor User1", "DecoyNginx User1"])
def test_malformed_actions_rejected(text):
    with pytest.raises(ActionParseError):
        parse_action(text)


def test_action_id_out_of_range():
    with pytest.raises(ActionParseError, match="out of range"):
        action_name(145)


def test_reference_names_every_verb_and_host():
    text = action_reference()
    for action in ACTIONS:
        assert action.verb in text
        if action.host:
            assert action.host in text
