"""The JSON Schemas of a rule file and a rule-test file, built from the vocabulary the product reads. Pure.

The schemas are published as `schemas/rulebook.schema.json` and `schemas/rulebook-tests.schema.json` so that
editors validate and complete the files (a YAML file opts in with a first line
`# yaml-language-server: $schema=<relative path>`); `scripts/write_schemas.py` writes them, and a test
keeps the published files equal to what this module builds. The loader validates every file against the
same dict, so an editor, `forge rulebook lint` and `apply` agree on what a well-formed file is.

The rule language part is stricter than the product's parser on spelling only, on purpose: names must be
spelled as the catalog spells them (`Op_Server0`, `Restore`, `Compromised` values, `$matched`), where the
parser also folds case and reads aliases (`matched`, `that host`); a key is given a value or left out
(never null), except a target, which is null (or left out) exactly for Sleep and Monitor, whose target the
parser ignores; an `any` / `all` has at most 16 parts (the parser reads no more). A reviewed file has one
spelling; `export` writes it. Everything else the parser reads, the schema accepts, and the other way round
(a test compares the two on the DC bench's development compilations and on broken ones).
"""

from __future__ import annotations

from typing import Any

from forge.config import ROLES
from forge.env.catalog import ACTIVITIES, COMPROMISE_LEVELS, GLOBAL_VERBS, HOST_VERBS, HOSTS, VERBS
from forge.rulebook.language.action import ANY_VERB, MATCHED, MAX_PLAN, MODES, RELATIVE_TARGETS
from forge.rulebook.language.phases import ALIASES, PHASES, WORDS
from forge.rulebook.language.predicate import CLASSES, MAX_COMBINED, MAX_HISTORY_STEPS
from forge.rulebook.model import RuleStatus, RuleType

FORMAT_VERSION = 1
SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"
# Entry ids: what reviewers, tests and `replaces` call a rule; a slug, so that it reads in a diff.
ENTRY_ID_PATTERN = r"^[a-z0-9][a-z0-9_.-]{0,79}$"
ACTOR_PATTERN = r"^(user:[^\s]+|[^\s/]+/[^\s/]+)$"
TRACE_STEP_PATTERN = r"^.+:[^:]+:[^:]+:[0-9]+$"
MAX_TEXT_CHARS = 1000
MAX_CONTEXT_CHARS = 20000

# The keys whose values are names from the catalog: a schema error there is an unknown name (lint's
# `unknown-name` check), anywhere else a malformed file (`schema`).
NAME_KEYS = ("host", "class", "activity", "compromise", "acted", "verb", "target", "phase", "role", "mode")


def _enum(values, description: str) -> dict[str, Any]:
    return {"enum": list(values), "description": description}


def _steps(description: str) -> dict[str, Any]:
    return {"type": "integer", "minimum": 1, "maximum": MAX_HISTORY_STEPS, "description": description}


def _names(keys: tuple[str, ...]) -> dict[str, Any]:
    """An object with exactly one of `keys` (a combinator, `phase`, `always`)."""
    return {"anyOf": [{"required": [k]} for k in keys]}


def language_defs() -> dict[str, Any]:
    """`$defs` of the rule language: a trigger predicate (`when`) and an action."""
    return {**_predicate_defs(), **_action_defs()}


def _atom_def() -> dict[str, Any]:
    """An atom: a host or a class in a state, with history conditions on the same host."""
    return {
        "type": "object",
        "description": "A host, or some host of a class (neither: some host, whichever), in a state; with history "
                       "conditions on the same host.",
        "additionalProperties": False,
        "properties": {
            "host": {"$ref": "#/$defs/host"},
            "class": _enum(CLASSES, "some host of this class (any: any host)"),
            "activity": _enum((*ACTIVITIES, "any"), "the Activity column (any: anything but None)"),
            "compromise": _enum((*COMPROMISE_LEVELS, "any"), "the Compromised column (any: anything but No)"),
            "newly_compromised": {"type": "boolean",
                                  "description": "compromised now and not at the last recorded step (false: since before)"},
            "unchanged_for": _steps("its Compromised value now equals its last n recorded ones"),
            "acted": _enum((*HOST_VERBS, "any"), "the defender took this verb on the host (within the last `within` steps)"),
            "within": _steps("with `acted`: the last n steps (default 1)"),
            "changed": {"type": "boolean", "description": "with `acted`: whether its Compromised value changed after the action"},
            "scan_before_exploit": {"type": "boolean", "description": "its history shows Activity Scan before Activity Exploit"},
        },
        "not": {"required": ["host", "class"]},  # one or the other, or neither (the class any), never both
        "dependentRequired": {"within": ["acted"], "changed": ["acted"]},
    }


def _predicate_defs() -> dict[str, Any]:
    """A trigger predicate: an atom, or a combinator of predicates, a phase, always."""
    combinators = ("any", "all", "not", "phase", "always")
    phases = sorted({*PHASES, *ALIASES})
    predicate = {
        "type": "object",
        "description": "A trigger predicate over what the decision context states (README, the rule language).",
        "minProperties": 1,
        "allOf": [
            {"if": {"required": ["any"]}, "then": {"$ref": "#/$defs/any_of"}},
            {"if": {"required": ["all"]}, "then": {"$ref": "#/$defs/all_of"}},
            {"if": {"required": ["not"]}, "then": {"$ref": "#/$defs/negation"}},
            {"if": {"required": ["phase"]}, "then": {"$ref": "#/$defs/phase"}},
            {"if": {"required": ["always"]}, "then": {"$ref": "#/$defs/always"}},
            {"if": {"not": _names(combinators)}, "then": {"$ref": "#/$defs/atom"}},
        ],
    }
    parts = {"type": "array", "minItems": 1, "maxItems": MAX_COMBINED, "items": {"$ref": "#/$defs/predicate"}}
    return {
        "predicate": predicate,
        "atom": _atom_def(),
        "any_of": {"type": "object", "additionalProperties": False, "required": ["any"],
                   "properties": {"any": {**parts, "description": "true when any part is true"}}},
        "all_of": {"type": "object", "additionalProperties": False, "required": ["all"],
                   "properties": {"all": {**parts, "description": "true when every part is true"}}},
        "negation": {"type": "object", "additionalProperties": False, "required": ["not"],
                     "properties": {"not": {"$ref": "#/$defs/predicate"}}},
        "phase": {"type": "object", "additionalProperties": False, "required": ["phase"],
                  "properties": {"phase": _enum(phases, "; ".join(f"{n}: {WORDS[n]}" for n in PHASES))}},
        "always": {"type": "object", "additionalProperties": False, "required": ["always"],
                   "properties": {"always": {"const": True, "description": "every decision of the rule's roles"}}},
    }


def _action_defs() -> dict[str, Any]:
    """An action: a mode, a verb, a target, and a preference's other move or a plan's later moves."""
    targets = (*HOSTS, *CLASSES, MATCHED, *RELATIVE_TARGETS)
    # Sleep and Monitor take no target (null or left out); a host verb's target is a name, or left out for the
    # host the trigger matched ("restore it"), never null: null is the host-less verbs' spelling.
    aimed = {"if": {"properties": {"verb": {"enum": list(GLOBAL_VERBS)}}, "required": ["verb"]},
             "then": {"properties": {"target": {"type": "null"}}},
             "else": {"properties": {"target": {"type": "string"}}}}
    move = {
        "type": "object",
        "additionalProperties": False,
        "required": ["verb"],
        "properties": {"verb": {"$ref": "#/$defs/verb"}, "target": {"$ref": "#/$defs/target"}},
        "allOf": [aimed],
    }
    return {
        "host": _enum(HOSTS, "a CAGE-2 host"),
        "verb": _enum(VERBS, "a CAGE-2 blue verb"),
        "target": {"enum": [*targets, None],
                   "description": f"a host, a class, {MATCHED} (the host the trigger matched; also what a host verb "
                                  f"without a target acts on), or {' / '.join(RELATIVE_TARGETS)}; null for "
                                  f"{' and '.join(GLOBAL_VERBS)}"},
        "move": move,
        "action": {
            "type": "object",
            "description": "What the rule prescribes (do), prohibits (never) or prefers (prefer ... over).",
            "additionalProperties": False,
            "required": ["mode", "verb"],
            "properties": {
                "mode": _enum(MODES, "do: prescribe; never: prohibit; prefer: this move over `over`"),
                "verb": _enum((*VERBS, ANY_VERB), f"a CAGE-2 blue verb; in a `never` also {ANY_VERB}: every verb on "
                                                  "the target (\"spend no actions on User0\")"),
                "target": {"$ref": "#/$defs/target"},
                "over": {"$ref": "#/$defs/move"},
                "then": {"type": "array", "maxItems": MAX_PLAN - 1, "items": {"$ref": "#/$defs/move"},
                         "description": f"a plan's later moves, in order (do only; at most {MAX_PLAN} moves in all)"},
            },
            "allOf": [
                {"if": {"properties": {"mode": {"const": "prefer"}}, "required": ["mode"]},
                 "then": {"required": ["over"]}, "else": {"not": {"required": ["over"]}}},
                {"if": {"properties": {"mode": {"const": "do"}}, "required": ["mode"]},
                 "else": {"not": {"required": ["then"]}}},
                {"if": {"properties": {"verb": {"const": ANY_VERB}}, "required": ["verb"]},
                 "then": {"properties": {"mode": {"const": "never"}}}},
                aimed,
            ],
        },
    }


def _roles(description: str) -> dict[str, Any]:
    role = {"enum": list(ROLES)}
    return {"description": description,
            "oneOf": [role, {"type": "array", "minItems": 1, "uniqueItems": True, "items": role}]}


def rule_file_schema() -> dict[str, Any]:
    """The schema of a rule file: `version` and `rules`, one rule per entry."""
    actor = {"type": "string", "pattern": ACTOR_PATTERN}
    rule = {
        "type": "object",
        "additionalProperties": False,
        "required": ["id", "text", "role", "actor"],
        "properties": {
            "id": {"type": "string", "pattern": ENTRY_ID_PATTERN,
                   "description": "the entry's name: what reviews, tests and `replaces` call it (unique in a book)"},
            "text": {"type": "string", "minLength": 1, "maxLength": MAX_TEXT_CHARS,
                     "description": "the author's words; what the agent reads, kept as written"},
            "role": _roles("the agent role(s) the rule is for"),
            "actor": {"description": "who teaches it: user:<name> or <session>/<instance>",
                      "oneOf": [actor, {"type": "array", "minItems": 1, "uniqueItems": True, "items": actor}]},
            "type": _enum((RuleType.CONTENT, RuleType.FORMAT), "CONTENT: what to do (default); FORMAT: how to answer, every call"),
            "when": {"$ref": "#/$defs/predicate",
                     "description": "the trigger in the rule language; given, the compiler is skipped (the same checks apply)"},
            "action": {"$ref": "#/$defs/action"},
            "unexpressed": {"type": "string", "minLength": 1, "maxLength": MAX_TEXT_CHARS,
                            "description": "the part of the text's condition `when` cannot state (the rule is then guarded)"},
            "semantic": {"const": True,
                         "description": "no predicate: the rule applies by the similarity of its words (never compiled)"},
            "context": {"type": "string", "minLength": 1, "maxLength": MAX_CONTEXT_CHARS,
                        "description": "the decision context the rule was forged from (default: its text)"},
            "replaces": {"type": "array", "uniqueItems": True, "items": {"type": "string", "minLength": 1},
                         "description": "entry ids (of entries no longer in the files) or book rule ids this rule replaces"},
            "status": _enum((RuleStatus.ACTIVE, RuleStatus.WITHDRAWN), "withdrawn: taken out of the book (a tombstone); default active"),
        },
        "dependentRequired": {"action": ["when"], "unexpressed": ["when"]},
        "allOf": [
            {"if": {"required": ["semantic"]}, "then": {"not": {"anyOf": [{"required": ["when"]}, {"required": ["action"]}]}}},
            {"if": {"properties": {"type": {"const": RuleType.FORMAT}}, "required": ["type"]},
             "then": {"not": {"anyOf": [{"required": ["action"]}, {"required": ["unexpressed"]}, {"required": ["semantic"]}]},
                      "properties": {"when": {"const": {"always": True}}}}},
        ],
    }
    return {
        "$schema": SCHEMA_DIALECT,
        "$id": "https://forge-agents.invalid/schemas/rulebook.schema.json",
        "title": "FORGE rule file",
        "description": "Rules for the decision-context rulebook, one per entry (docs/rulebook-as-code.md).",
        "type": "object",
        "additionalProperties": False,
        "required": ["rules"],
        "properties": {
            "version": {"const": FORMAT_VERSION, "description": "the file format's version"},
            "rules": {"type": "array", "items": {"$ref": "#/$defs/rule"}},
        },
        "$defs": {"rule": rule, **language_defs()},
    }


def tests_file_schema() -> dict[str, Any]:
    """The schema of a rule-test file: `cases`, each a decision context, a role and the expected rules."""
    names = {"type": "array", "uniqueItems": True, "items": {"type": "string", "minLength": 1}}
    case = {
        "type": "object",
        "additionalProperties": False,
        "required": ["name", "role"],
        "properties": {
            "name": {"type": "string", "minLength": 1, "description": "the case's name (JUnit testcase name)"},
            "role": {"enum": list(ROLES), "description": "the calling role"},
            "actor": {"type": "string", "pattern": ACTOR_PATTERN,
                      "description": "the querying actor (conflict resolution: its own rule wins)"},
            "context": {"type": "string", "minLength": 1, "maxLength": MAX_CONTEXT_CHARS,
                        "description": "the decision context, as the agent would see it"},
            "trace": {"type": "string", "pattern": TRACE_STEP_PATTERN,
                      "description": "RUN:instance:episode:step, the observation of a recorded step"},
            "expect": {**names, "description": "exactly these rules are injected (entry ids or rule ids; [] for none)"},
            "must": {**names, "description": "these rules are injected (others may be too)"},
            "must_not": {**names, "description": "none of these rules is injected"},
        },
        "oneOf": [{"required": ["context"]}, {"required": ["trace"]}],
        "anyOf": [{"required": ["expect"]}, {"required": ["must"]}, {"required": ["must_not"]}],
        "allOf": [{"if": {"required": ["expect"]},
                   "then": {"not": {"anyOf": [{"required": ["must"]}, {"required": ["must_not"]}]}}}],
    }
    return {
        "$schema": SCHEMA_DIALECT,
        "$id": "https://forge-agents.invalid/schemas/rulebook-tests.schema.json",
        "title": "FORGE rule tests",
        "description": "Cases for `forge rulebook test`: which rules a decision context must receive.",
        "type": "object",
        "additionalProperties": False,
        "required": ["cases"],
        "properties": {"version": {"const": FORMAT_VERSION}, "cases": {"type": "array", "minItems": 1, "items": case}},
    }


SCHEMAS = {"rulebook.schema.json": rule_file_schema, "rulebook-tests.schema.json": tests_file_schema}
