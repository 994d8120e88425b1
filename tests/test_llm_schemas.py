"""Every JSON schema the product can send, as each API is sent it, against that API's documented rules.

The rules (forge/llm/schema_rules.py) are OpenAI's Structured Outputs strict mode and Gemini's
`response_json_schema` / `response_schema`, written from their documentation. The fixtures below are
cases the documentation describes, in our own words: each rule is shown to refuse what it must.
"""

from __future__ import annotations

import itertools
import json

import pytest

from agents.react import TOOLS
from agents.schemas import action_chooser_schema, analyst_schema, exemplifier_schema, planner_schema, reflector_schema
from forge.config import ROLES, StructuredOutput
from forge.llm.openai_provider import response_format
from forge.llm.schema_rules import (
    drop_nulls,
    gemini_json_form,
    gemini_json_schema_problems,
    gemini_openapi_form,
    gemini_openapi_problems,
    openai_form,
    openai_strict_problems,
)
from forge.rulebook.authoring.compile import COMPILER_SCHEMA


def product_schemas() -> dict[str, dict]:
    """Every schema a FORGE session sends: each role's, the learners' for every set of roles they may
    change, the rule compiler's."""
    found = {"planner": planner_schema(TOOLS), "planner, no tools left": planner_schema(()),
             "analyst": analyst_schema(), "action_chooser": action_chooser_schema(), "compiler": COMPILER_SCHEMA}
    for size in range(1, len(ROLES) + 1):
        for roles in itertools.combinations(ROLES, size):
            found[f"reflector {'+'.join(roles)}"] = reflector_schema(roles, 3)
            found[f"exemplifier {'+'.join(roles)}"] = exemplifier_schema(roles, 3)
    return found


SCHEMAS = product_schemas()


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_every_product_schema_goes_to_openai_strict_and_meets_strict_mode(name):
    sent = response_format(StructuredOutput.json_schema, SCHEMAS[name])
    assert sent["type"] == "json_schema" and sent["json_schema"]["strict"] is True
    assert openai_strict_problems(sent["json_schema"]["schema"]) == []


@pytest.mark.parametrize("name", sorted(SCHEMAS))
def test_every_product_schema_meets_geminis_rules_in_both_spellings(name):
    as_json = gemini_json_form(SCHEMAS[name])
    assert gemini_json_schema_problems(as_json) == []
    assert "$ref" not in json.dumps(as_json) and "maxLength" not in json.dumps(as_json)
    assert gemini_openapi_problems(gemini_openapi_form(SCHEMAS[name])) == []


def test_a_bound_strict_mode_does_not_take_is_said_in_the_description_not_dropped():
    form = openai_form(analyst_schema())
    evidence = form.schema["properties"]["evidence"]
    assert "maxLength" not in evidence and "at most 120 characters" in evidence["description"]
    assert analyst_schema()["properties"]["evidence"]["maxLength"] == 120  # llama.cpp's grammar still gets the bound


# -- the rules themselves, on the documentation's cases --------------------------------------------------

WEATHER = {"type": "object", "additionalProperties": False, "required": ["location", "unit"],
           "properties": {"location": {"type": "string", "description": "where"},
                          "unit": {"type": ["string", "null"], "enum": ["F", "C", None]}}}


def test_the_documented_strict_example_passes_and_each_broken_rule_is_named():
    assert openai_strict_problems(WEATHER) == []
    open_object = {**WEATHER, "additionalProperties": True}
    assert "'additionalProperties' is required to be supplied and to be false" in openai_strict_problems(open_object)[0]
    missing = {**WEATHER, "required": ["location"]}
    assert "Missing 'unit'" in openai_strict_problems(missing)[0]
    nested = {**WEATHER, "properties": {**WEATHER["properties"], "where": {"type": "object", "properties": {"x": {"type": "string"}}}},
              "required": ["location", "unit", "where"]}
    problems = " ".join(openai_strict_problems(nested))
    assert "('properties', 'where')" in problems and "additionalProperties" in problems and "Missing 'x'" in problems
    assert "root must be an object" in openai_strict_problems({"anyOf": [WEATHER, WEATHER]})[0]
    lengths = {**WEATHER, "properties": {**WEATHER["properties"], "location": {"type": "string", "maxLength": 9}}}
    assert "'maxLength' is not permitted" in openai_strict_problems(lengths)[0]
    composed = {**WEATHER, "properties": {**WEATHER["properties"], "location": {"allOf": [{"type": "string"}]}}}
    assert "'allOf' is not permitted" in openai_strict_problems(composed)[0]
    dated = {**WEATHER, "properties": {**WEATHER["properties"], "location": {"type": "string", "format": "postcode"}}}
    assert "format 'postcode' is not supported" in openai_strict_problems(dated)[0]


def test_strict_limits_on_enums_nesting_and_references():
    many = {"type": "object", "additionalProperties": False, "required": ["a"],
            "properties": {"a": {"type": "string", "enum": [f"v{i}" for i in range(1001)]}}}
    assert any("1001 enum values" in p for p in openai_strict_problems(many))
    deep: dict = {"type": "string"}
    for level in range(11):
        deep = {"type": "object", "additionalProperties": False, "required": ["x"], "properties": {"x": deep}}
    assert any("deeper than 10" in p for p in openai_strict_problems(deep))
    recursive = {"type": "object", "additionalProperties": False, "required": ["node"],
                 "properties": {"node": {"$ref": "#/$defs/node"}},
                 "$defs": {"node": {"type": "object", "additionalProperties": False, "required": ["value", "next"],
                                    "properties": {"value": {"type": "number"},
                                                   "next": {"anyOf": [{"$ref": "#/$defs/node"}, {"type": "null"}]}}}}}
    assert openai_strict_problems(recursive) == []  # recursion is documented as supported
    dangling = {**recursive, "$defs": {}}
    assert "can't be resolved" in openai_strict_problems(dangling)[0]


def test_a_schema_that_cannot_be_strict_goes_as_it_is_with_strict_false():
    any_object = {"type": "object", "properties": {"payload": {"type": "object"}}, "required": ["payload"]}
    form = openai_form(any_object)
    assert not form.strict and form.schema == any_object and "properties" in form.why[0]
    optional = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["a"]}
    strict = openai_form(optional)
    assert strict.strict and strict.schema["required"] == ["a", "b"] and strict.schema["properties"]["b"]["type"] == ["integer", "null"]
    assert strict.schema["additionalProperties"] is False


def test_geminis_rules_refuse_what_its_documentation_refuses():
    assert gemini_json_schema_problems(WEATHER)  # enum values must be strings or numbers, not null
    assert gemini_json_schema_problems(gemini_json_form(WEATHER)) == []
    sibling = {"type": "object", "properties": {"a": {"$ref": "#/$defs/a", "description": "no"}}, "$defs": {"a": {"type": "string"}}}
    assert "no other keywords" in gemini_json_schema_problems(sibling)[0]
    cycle = {"type": "object", "required": ["next"], "properties": {"next": {"$ref": "#"}}}
    assert "cyclic reference" in gemini_json_schema_problems(cycle)[0]
    assert gemini_json_schema_problems({**cycle, "required": []}) == []  # allowed under a property that is not required
    unknown = gemini_openapi_problems({"type": "object", "additionalProperties": False, "properties": {"a": {"type": ["string", "null"]}}})
    assert any('Unknown name "additionalProperties"' in p for p in unknown)
    assert any("Invalid value at 'generation_config.response_schema.properties['a'].value.type'" in p for p in unknown)
    form = gemini_openapi_form(WEATHER)
    assert form["properties"]["unit"] == {"type": "STRING", "nullable": True, "enum": ["F", "C"]}
    assert form["propertyOrdering"] == ["location", "unit"] and "additionalProperties" not in form


def test_a_strict_compiler_reply_reads_like_the_free_one():
    from forge.rulebook.authoring.compile import _entry
    from forge.rulebook.model import SourceItem

    nulls = {"item": 1, "verdict": "RULE", "type": None, "directive": "Restore Op_Server0 when it is compromised",
             "roles": None, "when": {"host": "Op_Server0", "class": None, "activity": None, "compromise": "any",
                                     "newly_compromised": None, "unchanged_for": None, "acted": None, "within": None,
                                     "changed": None, "scan_before_exploit": None},
             "action": {"mode": "do", "verb": "Restore", "target": "Op_Server0", "over": None, "then": []},
             "unexpressed": None, "trigger": None, "reason": None}
    item = SourceItem(kind="rule", role="action_chooser", actor="alice", text="Restore Op_Server0 when it is compromised")
    rule, problem = _entry(item, drop_nulls(nulls))
    assert problem is None and rule.when == {"host": "Op_Server0", "compromise": "any"} and rule.action["verb"] == "Restore"
    assert rule.type == "CONTENT" and rule.roles == ("action_chooser",)
