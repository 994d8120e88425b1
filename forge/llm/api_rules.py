"""What the OpenAI chat completions and Gemini generateContent requests must be, by model. Pure.

Written from the APIs' documentation (the reference pages and the SDKs' own docstrings), in our words.
The providers build their requests by these rules and check the result before sending it (a request
the API would refuse is never sent); `forge serve` refuses, with the API's status and error shape, what
they refuse. Each refusal names the parameter, as the APIs do.

OpenAI: reasoning models (the o-series and gpt-5 families) take `max_completion_tokens` (which counts
their reasoning too), never `max_tokens`; no sampling settings (`temperature` other than its default 1,
`top_p`, penalties, `logprobs`, `logit_bias`); no `stop` (o3, o4-mini); and `reasoning_effort`, which
other models refuse. At most 4 stop sequences. `response_format` is `text`, `json_object` (then the
messages must say "JSON") or `json_schema` with a `name` of at most 64 letters, digits, `_` or `-`,
whose schema strict mode checks (forge.llm.schema_rules).

Gemini: a schema needs `response_mime_type: application/json`, and `response_schema` and
`response_json_schema` exclude each other. Thinking (`thinking_config`): 2.5 Pro thinks 128-32768
tokens and cannot stop; 2.5 Flash 0-24576; 2.5 Flash-Lite 512-24576 or 0; -1 lets the model decide;
`thinking_level` is Gemini 3's and excludes `thinking_budget`; models before 2.5 do not think.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping, Optional

from forge.llm.schema_rules import (
    OPENAI_NAME_PATTERN,
    gemini_json_schema_problems,
    gemini_openapi_problems,
    openai_strict_problems,
)

OPENAI_REASONING_FAMILIES = ("o1", "o3", "o4", "gpt-5")
OPENAI_SAMPLING = ("top_p", "presence_penalty", "frequency_penalty", "logprobs", "top_logprobs", "logit_bias")
OPENAI_MAX_STOP = 4
OPENAI_RESPONSE_FORMATS = ("text", "json_object", "json_schema")


@dataclass(frozen=True)
class ApiRefusal:
    """One reason an API refuses a request: HTTP status, message, and (OpenAI) the parameter and code."""

    message: str
    param: Optional[str] = None
    code: Optional[str] = None
    status: int = 400


def _model_name(model: str) -> str:
    """The model's own name: without a router's vendor prefix (`openai/gpt-5`) or Gemini's `models/`."""
    return model.removeprefix("models/").rsplit("/", 1)[-1].lower()


def openai_reasoning_model(model: str, setting: str = "auto") -> bool:
    """Whether `model` takes the reasoning models' parameters: by `setting` ("on"/"off"), else by family."""
    if setting in ("on", "off"):
        return setting == "on"
    name = _model_name(model)
    return any(name == family or name.startswith((family + "-", family + ".")) for family in OPENAI_REASONING_FAMILIES)


def _unsupported(name: str, hint: str = "") -> ApiRefusal:
    return ApiRefusal(f"Unsupported parameter: '{name}' is not supported with this model.{hint}", name,
                      "unsupported_parameter")


def _messages_text(body: Mapping[str, Any]) -> str:
    parts = []
    for message in body.get("messages") or []:
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, str):
            parts.append(content)
        elif isinstance(content, list):
            parts += [p.get("text", "") for p in content if isinstance(p, dict)]
    return "\n".join(parts)


def openai_request_refusals(body: Mapping[str, Any], reasoning: bool) -> list[ApiRefusal]:
    """Why OpenAI's chat completions would refuse `body` for a model that is (or is not) a reasoning one."""
    found: list[ApiRefusal] = []
    if reasoning:
        if body.get("max_tokens") is not None:
            found.append(_unsupported("max_tokens", " Use 'max_completion_tokens' instead."))
        temperature = body.get("temperature")
        if temperature is not None and temperature != 1:
            found.append(ApiRefusal(f"Unsupported value: 'temperature' does not support {temperature} with this model. "
                                    f"Only the default (1) value is supported.", "temperature", "unsupported_value"))
        found += [_unsupported(name) for name in OPENAI_SAMPLING if body.get(name) is not None]
        if body.get("stop") is not None:
            found.append(_unsupported("stop"))
    elif body.get("reasoning_effort") is not None:
        found.append(_unsupported("reasoning_effort"))
    stop = body.get("stop")
    if isinstance(stop, list) and len(stop) > OPENAI_MAX_STOP:
        found.append(ApiRefusal(f"'stop' takes at most {OPENAI_MAX_STOP} sequences, got {len(stop)}", "stop"))
    for name in ("max_tokens", "max_completion_tokens"):
        value = body.get(name)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            found.append(ApiRefusal(f"Invalid '{name}': must be an integer of at least 1, got {value!r}", name,
                                    "invalid_value"))
    found += _response_format_refusals(body)
    return found


def _response_format_refusals(body: Mapping[str, Any]) -> list[ApiRefusal]:
    fmt = body.get("response_format")
    if fmt is None:
        return []
    kind = fmt.get("type") if isinstance(fmt, dict) else None
    if kind not in OPENAI_RESPONSE_FORMATS:
        return [ApiRefusal(f"Invalid value for 'response_format.type': {kind!r}; expected one of "
                           f"{', '.join(OPENAI_RESPONSE_FORMATS)}", "response_format.type", "invalid_value")]
    # OpenAI's JSON mode; llama.cpp's spelling carries a "schema" and has no such rule.
    if kind == "json_object" and "schema" not in fmt and "json" not in _messages_text(body).lower():
        return [ApiRefusal("'messages' must contain the word 'json' in some form to use 'response_format' of type "
                           "'json_object'", "messages", None)]
    if kind != "json_schema":
        return []
    spec = fmt.get("json_schema")
    if not isinstance(spec, dict) or not isinstance(spec.get("name"), str) \
            or not re.match(OPENAI_NAME_PATTERN, spec["name"]):
        return [ApiRefusal("'response_format.json_schema.name' is required: 1 to 64 letters, digits, '_' or '-'",
                           "response_format.json_schema.name", "invalid_value")]
    schema = spec.get("schema")
    if not isinstance(schema, dict):
        return [ApiRefusal("'response_format.json_schema.schema' must be a JSON schema object",
                           "response_format.json_schema.schema", "invalid_value")]
    if spec.get("strict") is True:
        return [ApiRefusal(f"Invalid schema for response_format '{spec['name']}': {problem}", "response_format", None)
                for problem in openai_strict_problems(schema)[:1]]
    return []


# -- Gemini --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ThinkingRange:
    """A Gemini family's thinking budget: tokens from `low` to `high`, -1 (dynamic), and 0 when it may stop."""

    low: int
    high: int
    can_stop: bool
    levels: bool = False  # Gemini 3: thinking_level (and a budget, but not both)


# Longest prefix first: gemini-2.5-flash-lite before gemini-2.5-flash.
GEMINI_THINKING: tuple[tuple[str, Optional[ThinkingRange]], ...] = (
    ("gemini-2.5-flash-lite", ThinkingRange(512, 24576, True)),
    ("gemini-2.5-flash", ThinkingRange(1, 24576, True)),
    ("gemini-2.5-pro", ThinkingRange(128, 32768, False)),
    ("gemini-3", ThinkingRange(128, 32768, False, levels=True)),
    ("gemini-2.0", None),
    ("gemini-1.5", None),
)


def gemini_thinking(model: str) -> Optional[ThinkingRange]:
    """The thinking range of `model` (None: it does not think). A later Gemini (`gemini-<n>...`) the table
    does not list is taken as a thinking one with the widest documented range; any other name does not think."""
    name = _model_name(model)
    for prefix, thinking in GEMINI_THINKING:
        if name.startswith(prefix):
            return thinking
    return ThinkingRange(0, 32768, True, levels=True) if re.match(r"gemini-\d", name) else None


def gemini_request_refusals(body: Mapping[str, Any], model: str) -> list[ApiRefusal]:
    """Why generateContent would refuse `body` (camelCase or snake_case keys) for `model`."""
    found: list[ApiRefusal] = []
    gen = body.get("generationConfig") or body.get("generation_config") or {}

    def pick(camel: str, snake: str) -> Any:
        return gen.get(camel, gen.get(snake))

    schema, json_schema = pick("responseSchema", "response_schema"), pick("responseJsonSchema", "response_json_schema")
    mime = pick("responseMimeType", "response_mime_type")
    if schema is not None and json_schema is not None:
        found.append(ApiRefusal("response_schema and response_json_schema cannot both be set"))
    if (schema is not None or json_schema is not None) and mime not in ("application/json", "text/x.enum"):
        found.append(ApiRefusal(f"a response schema needs response_mime_type application/json, got {mime!r}"))
    if schema is not None:
        found += [ApiRefusal(p) for p in gemini_openapi_problems(schema)]
    if json_schema is not None:
        found += [ApiRefusal(f"Invalid response_json_schema: {p}") for p in gemini_json_schema_problems(json_schema)]
    thinking = pick("thinkingConfig", "thinking_config")
    if thinking:
        found += _thinking_refusals(thinking, model)
    return found


def _thinking_refusals(config: Mapping[str, Any], model: str) -> list[ApiRefusal]:
    budget = config.get("thinkingBudget", config.get("thinking_budget"))
    level = config.get("thinkingLevel", config.get("thinking_level"))
    allowed = gemini_thinking(model)
    if allowed is None:
        return [ApiRefusal(f"Thinking is not supported by model {_model_name(model)}")] \
            if budget not in (None, 0) or level is not None or config.get("includeThoughts", config.get("include_thoughts")) else []
    if level is not None and budget is not None:
        return [ApiRefusal("thinking_budget and thinking_level cannot both be set")]
    if level is not None and not allowed.levels:
        return [ApiRefusal(f"thinking_level is not supported by model {_model_name(model)}; use thinking_budget")]
    if budget is None or budget == -1:
        return []
    if budget == 0:
        return [] if allowed.can_stop else [ApiRefusal("Budget 0 is invalid. This model only works in thinking mode.")]
    if not allowed.low <= budget <= allowed.high:
        return [ApiRefusal(f"The thinking budget {budget} is invalid. Please choose a value between "
                           f"{allowed.low} and {allowed.high}.")]
    return []
