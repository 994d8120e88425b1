"""Round 52 (r52d): a FORMAT rule is injected in its author's words. Nothing checks a model's rewrite of a reply's form,
so a directive the compiler shortened lost what the author asked (the part after a dash)."""

import pytest

from forge.config import load_config
from forge.wiring import build_clients
from forge.rulebook.authoring.compile import RuleCompiler, SourceItem


@pytest.mark.parametrize("text, kept", [
    ("Keep every reply brief - a single line for each host you name.", "a single line for each host"),
    ("Plan layout \u2014 numbered steps, the host first, then the move.", "numbered steps, the host first"),
])
def test_a_format_rule_keeps_the_words_after_its_dash(text, kept):
    clients, _ = build_clients(load_config())
    report = RuleCompiler(clients["compiler"]).compile([SourceItem("correction", "planner", text, "user:dana")])
    (compiled,) = report.rules
    assert compiled.type == "FORMAT" and kept in compiled.directive
