"""A preflight before money is spent: one minimal request per configured role, in the exact shape the
session sends (model, parameters, reply schema), and an estimate of the session's cost.

`check_roles(cfg)` sends each role's request through the same client the session uses (the bare one:
no retries, no fault injection) and reports: accepted, or refused with the API's message (a request the
API would refuse is refused here without being sent); latency; tokens by kind; cost per call.

`dry_step(cfg)` plays one step of the defender (and one learner call per learner, on a failure made of
that step) with the surrogate standing in for every role, so the prompts are the ones the product
builds, and counts calls and prompt tokens per role. No network: the surrogate is in-process.

`estimate_session(cfg, dry, checks)` multiplies: calls per role over the session's plan x tokens per
call x the role's prices, as an interval: the low end counts the episodes that always run whole
(checkpoints, evaluation) and the smallest training; the high end every attempt to its last step, every
learner call re-prompted, prompts carrying a full memory, replies at max_tokens.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Optional, Sequence
from urllib.parse import urlsplit

from agents.defender import PLANNER_STOP, Defender
from agents.learners import MAX_RULE_CHARS, Exemplifier, Reflector
from agents.react import TOOLS
from agents.schemas import action_chooser_schema, analyst_schema, exemplifier_schema, planner_schema, reflector_schema
from forge.config import LEARNER_ROLES, ROLES, Arm, ForgeConfig, ProviderKind, Representation, StructuredOutput
from forge.llm.kinds import NETWORK_KINDS
from forge.llm.prices import Price, price_for
from forge.llm.registry import build_client
from forge.llm.schema_rules import openai_form
from forge.failure.snapshot import FailureSnapshot, StepRecord
from forge.failure.trigger import FailureEvent
from forge.llm.accounting import ModelClient, UsageLedger
from forge.llm.serve.policy import is_loopback
from forge.llm.surrogate import SurrogateProvider
from forge.llm.types import Completion, Message, Provider, ProviderError, TransientProviderError, Usage, approx_tokens
from forge.memory import EMPTY_SNAPSHOT
from forge.rulebook.authoring.compile import COMPILER_SCHEMA
from forge.wiring import injection_factory_for

ALL_ROLES = ROLES + LEARNER_ROLES
CHECK_SEED = 7
# A rule in memory at its longest (agents.learners.MAX_RULE_CHARS characters), in tokens.
RULE_TOKENS = MAX_RULE_CHARS // 4


def role_schema(cfg: ForgeConfig, role: str) -> dict[str, Any]:
    """The reply schema the session sends for `role` (the planner's first turn, with tools left)."""
    roles = list(cfg.protocol.agents_to_improve)
    if role == "planner":
        return planner_schema(TOOLS)
    if role == "analyst":
        return analyst_schema()
    if role == "action_chooser":
        return action_chooser_schema()
    if role == "reflector":
        return reflector_schema(roles, 3)
    if role == "exemplifier":
        return exemplifier_schema(roles, 3)
    return COMPILER_SCHEMA


@dataclass(frozen=True)
class RoleRequest:
    role: str
    provider: str
    model: str
    messages: tuple[Message, ...]
    temperature: float
    max_tokens: int
    stop: Optional[tuple[str, ...]]
    schema: Optional[dict]
    spelling: str


def role_request(cfg: ForgeConfig, role: str) -> RoleRequest:
    """The minimal request for `role`: its model, temperature, max_tokens, stop sequences and schema as
    the session sends them, around a two-line prompt."""

    model = cfg.models.for_role(role)
    spelling = cfg.providers[model.provider].structured_output
    structured = spelling != StructuredOutput.none
    ask = "Reply in JSON with the smallest answer your reply format allows." if structured else "Reply with one word: OK."
    messages = (Message("system", f"FORGE preflight check of the {role} role. {ask}"),
                Message("user", f"Preflight: is this request accepted? {ask}"))
    return RoleRequest(role, model.provider, model.model, messages, model.temperature, model.max_tokens,
                       tuple(PLANNER_STOP) if role == "planner" else None,
                       role_schema(cfg, role) if structured else None, str(spelling))


@dataclass
class RoleCheck:
    request: RoleRequest
    accepted: bool = False
    message: str = ""  # the API's message when refused, else what became of the reply
    latency_s: float = 0.0
    usage: Usage = field(default_factory=Usage)
    finish: Optional[str] = None
    price: Price = field(default_factory=Price)
    strict: Optional[bool] = None  # OpenAI json_schema: whether the schema went strict
    strict_why: str = ""
    transient: bool = False  # refused for a passing reason (unreachable, 429, 5xx): not the request's fault

    @property
    def cost_usd(self) -> float:
        return self.price.cost_usd(self.usage)


def check_roles(cfg: ForgeConfig, roles: Sequence[str] = ALL_ROLES,
                client_for: Callable[[str, ForgeConfig], Provider] = build_client) -> list[RoleCheck]:
    """One request per role through the bare client of its provider (clients shared by provider)."""
    clients: dict[str, Provider] = {}
    checks = []
    try:
        for role in roles:
            request = role_request(cfg, role)
            check = RoleCheck(request, price=price_for(cfg.providers[request.provider], request.model))
            if request.schema is not None and request.spelling == StructuredOutput.json_schema \
                    and cfg.providers[request.provider].kind == ProviderKind.openai:
                form = openai_form(request.schema)
                check.strict, check.strict_why = form.strict, "; ".join(form.why[:1])
            try:
                if request.provider not in clients:
                    clients[request.provider] = client_for(request.provider, cfg)
                extra = {"schema": request.schema} if request.schema is not None else {}
                started = time.perf_counter()
                completion = clients[request.provider].complete(
                    list(request.messages), model=request.model, temperature=request.temperature,
                    max_tokens=request.max_tokens, seed=CHECK_SEED, stop=list(request.stop) if request.stop else None,
                    **extra)
                check.latency_s = time.perf_counter() - started
                _read(check, completion)
            except ProviderError as exc:
                check.message = str(exc).splitlines()[0]
                check.transient = isinstance(exc, TransientProviderError)
            checks.append(check)
    finally:
        for client in clients.values():
            close = getattr(client, "close", None)
            if close is not None:
                close()
    return checks


def _read(check: RoleCheck, completion: Completion) -> None:
    check.accepted = True
    check.usage = completion.usage
    check.finish = completion.finish_reason
    if completion.finish_reason == "refusal":
        check.message = f"accepted, but the model refused: {(completion.refusal or '')[:120]}"
    elif completion.finish_reason == "length":
        check.message = "accepted; the reply was cut at max_tokens" + (
            " (its reasoning used the budget)" if completion.usage.reasoning_tokens and not completion.text else "")
    else:
        check.message = "accepted"


# -- the dry step and the estimate --------------------------------------------------------------------


@dataclass
class DryStep:
    """Per role: model calls per defender step (learners: per learning), prompt tokens per call (for a
    learner: with a one-step and with a whole-episode trajectory); `steps` played to see every role."""

    calls: dict[str, float] = field(default_factory=dict)
    prompt_tokens: dict[str, tuple[float, float]] = field(default_factory=dict)
    steps: int = 0


class _DryProvider:
    """The surrogate standing in for every role, taking (and ignoring) reply schemas."""

    name = "dry"

    def __init__(self, inner: Provider) -> None:
        self.inner = inner

    def complete(self, messages, *, model, temperature=0.0, max_tokens=512, seed=None, stop=None, schema=None):
        return self.inner.complete(messages, model=model, temperature=temperature, max_tokens=max_tokens, seed=seed,
                                   stop=stop)


def dry_step(cfg: ForgeConfig, seed: int = 0, max_steps: int = 5) -> DryStep:
    """Defender steps until every defender role has been called (at most `max_steps`: the Analyst is
    called only when the Planner asks for an analysis), then one call per learner, with the surrogate
    answering every role (offline)."""
    from forge.env import Cage2Env  # lazy: CybORG's import only for the dry step


    dry = _DryProvider(SurrogateProvider("dry", cfg.surrogate))
    ledger = UsageLedger()
    clients = {role: ModelClient(role, dry, cfg.models.for_role(role), ledger,
                                 structured=cfg.providers[cfg.models.for_role(role).provider].structured_output
                                 != StructuredOutput.none) for role in ALL_ROLES}
    env = Cage2Env(red_agent=cfg.env.red_agent.value, max_steps=cfg.env.max_steps)
    defender = Defender(clients, injection_factory_for(cfg, clients=clients)(EMPTY_SNAPSHOT), cfg.agent, cfg.env.max_steps)
    env.reset(seed=seed)
    defender.start_episode(env, seed)
    out = DryStep()
    while out.steps < min(max_steps, cfg.env.max_steps):
        decision = defender.act(env)
        _, reward, *_ = env.step(decision.action)
        defender.record_outcome(reward)
        out.steps += 1
        if set(ROLES) <= set(ledger.totals_by_role()):
            break
    for role, usage in ledger.totals_by_role().items():
        out.calls[role] = usage.calls / out.steps
        out.prompt_tokens[role] = (usage.prompt_tokens / usage.calls,) * 2 if usage.calls else (0.0, 0.0)
    record = StepRecord(1, decision.observation, "", decision.action_text, reward, "", decision.fallback)
    event = (FailureEvent(1, reward, cfg.protocol.tau),)
    learner_roles = list(cfg.protocol.agents_to_improve)
    for learner_class, role, capacity in ((Reflector, "reflector", cfg.memory.rules_capacity),
                                          (Exemplifier, "exemplifier", cfg.memory.examples_capacity)):
        sizes = []
        for steps in (1, cfg.env.max_steps):
            failure = FailureSnapshot("dry", "dry", "dry", 1, 1, seed, cfg.env.max_steps, event, (record,) * steps,
                                      {}, {}, "", cfg.models.for_role(role).model)
            ledger.reset()
            learner_class(clients[role], learner_roles, capacity).learn(failure, EMPTY_SNAPSHOT, seed=seed)
            first = next((r for r in ledger.records() if r.role == role), None)
            sizes.append(float(first.prompt_tokens) if first else 0.0)
        out.calls[role] = 1.0
        out.prompt_tokens[role] = (sizes[0], sizes[1])
    return out


@dataclass
class RoleEstimate:
    role: str
    calls: tuple[float, float]
    prompt_tokens: tuple[float, float]  # per call
    completion_tokens: tuple[float, float]  # per call
    usd: tuple[float, float]
    price: Price


@dataclass
class SessionEstimate:
    steps: tuple[float, float]  # defender steps over the session
    learnings: tuple[float, float]  # failed attempts that call the learners
    roles: list[RoleEstimate]
    token_scale: float  # the endpoint's token count over characters/4, measured on the checks' prompts
    dry_steps: int = 1

    @property
    def usd(self) -> tuple[float, float]:
        return (sum(r.usd[0] for r in self.roles), sum(r.usd[1] for r in self.roles))


def session_plan(cfg: ForgeConfig) -> tuple[tuple[float, float], tuple[float, float]]:
    """(defender steps, learnings) over the session as (low, high). Checkpoints and the evaluation always
    play whole episodes; training plays 1..max_attempts attempts per instance and stage, each 1..max_steps
    steps, and a failed attempt calls the learners (zero_shot: no training)."""
    p, steps = cfg.protocol, cfg.env.max_steps
    evaluation = p.num_instances * p.num_evaluation_runs * steps
    if p.condition is Arm.zero_shot:
        return (evaluation, evaluation), (0.0, 0.0)
    stages_low = p.num_stages if p.condition is Arm.forge_no_grad else 1  # nobody graduates / all graduate at once
    checkpoints = (p.num_instances * stages_low * p.checkpoint_runs * steps,
                   p.num_instances * p.num_stages * p.checkpoint_runs * steps)
    training = (p.num_instances * stages_low * 1, p.num_instances * p.num_stages * p.max_attempts * steps)
    learnings = (0.0, float(p.num_instances * p.num_stages * p.max_attempts))
    return ((evaluation + checkpoints[0] + training[0], evaluation + checkpoints[1] + training[1]), learnings)


def estimate_session(cfg: ForgeConfig, dry: DryStep, checks: Sequence[RoleCheck] = ()) -> SessionEstimate:
    """calls x tokens x prices per role, low and high (module docstring)."""
    (steps_low, steps_high), (learn_low, learn_high) = session_plan(cfg)
    checked = {c.request.role: c for c in checks}
    scale = _token_scale(checks)
    representation = cfg.protocol.representation
    learning = {"reflector": representation in (Representation.rules, Representation.mixed),
                "exemplifier": representation in (Representation.examples, Representation.mixed)}
    memory_tokens = cfg.memory.rules_capacity * RULE_TOKENS
    roles = []
    for role in ALL_ROLES:
        model = cfg.models.for_role(role)
        price = checked[role].price if role in checked else price_for(cfg.providers[model.provider], model.model)
        if role in ROLES:
            per_step = dry.calls.get(role, 0.0)
            most = max(per_step, _most_calls_per_step(cfg, role))
            calls = (per_step * steps_low, most * steps_high)
            base = dry.prompt_tokens.get(role, (0.0, 0.0))[0] * scale
            full_memory = memory_tokens if role in cfg.protocol.agents_to_improve and cfg.protocol.condition is not Arm.zero_shot else 0
            prompt = (base, base + full_memory)
        elif role in learning:
            calls = (learn_low, 2 * learn_high) if learning[role] else (0.0, 0.0)  # one corrective re-prompt each
            low, high = dry.prompt_tokens.get(role, (0.0, 0.0))
            prompt = (low * scale, high * scale)
        else:  # the compiler: at `forge rulebook export` and with rulebook injection, not in a session's plan
            calls, prompt = (0.0, 0.0), (0.0, 0.0)
        seen = checked.get(role)
        observed = float(seen.usage.completion_tokens) if seen is not None and seen.accepted else 0.0
        completion = (min(observed, model.max_tokens), float(model.max_tokens))
        usd = tuple(calls[i] * price.cost_usd(Usage(round(prompt[i]), round(completion[i]))) for i in (0, 1))
        roles.append(RoleEstimate(role, calls, prompt, completion, usd, price))  # type: ignore[arg-type]
    return SessionEstimate((steps_low, steps_high), (learn_low, learn_high), roles, scale, dry.steps)


def _most_calls_per_step(cfg: ForgeConfig, role: str) -> float:
    """The most calls a step can make of a defender role: every tool call, the answer and one correction
    for the Planner; one per tool call for the Analyst and the ActionChooser."""
    tools = cfg.agent.max_tool_calls_per_step
    return float(tools + 2 if role == "planner" else tools)


def _token_scale(checks: Sequence[RoleCheck]) -> float:
    """The endpoint's prompt tokens over characters / 4 on the checks' own prompts (1 when unknown)."""
    counted = sum(c.usage.prompt_tokens for c in checks if c.accepted)
    estimated = sum(sum(approx_tokens(m.content) for m in c.request.messages) for c in checks if c.accepted)
    return counted / estimated if counted and estimated else 1.0


def refused(checks: Sequence[RoleCheck]) -> list[RoleCheck]:
    return [c for c in checks if not c.accepted]


def describe_strict(check: RoleCheck) -> str:
    if check.strict is None:
        return check.request.spelling
    return "json_schema strict" if check.strict else f"json_schema strict: false ({check.strict_why[:60]})"


def summary_dict(checks: Sequence[RoleCheck], estimate: Optional[SessionEstimate]) -> dict[str, Any]:
    """The preflight as plain data (for --json and tests)."""
    rows = [{"role": c.request.role, "provider": c.request.provider, "model": c.request.model,
             "accepted": c.accepted, "message": c.message, "latency_s": round(c.latency_s, 3),
             "tokens": {"prompt": c.usage.prompt_tokens, "cached_prompt": c.usage.cached_prompt_tokens,
                        "completion": c.usage.completion_tokens, "reasoning": c.usage.reasoning_tokens},
             "cost_usd": round(c.cost_usd, 8), "price_source": c.price.source, "schema": describe_strict(c)}
            for c in checks]
    out: dict[str, Any] = {"roles": rows}
    if estimate is not None:
        out["estimate"] = {"steps": estimate.steps, "learnings": estimate.learnings, "usd": estimate.usd,
                           "token_scale": round(estimate.token_scale, 3),
                           "roles": {r.role: {"calls": r.calls, "prompt_tokens": r.prompt_tokens,
                                              "completion_tokens": r.completion_tokens, "usd": r.usd} for r in estimate.roles}}
    return out


def offline(cfg: ForgeConfig) -> bool:
    """Whether every configured role's endpoint is this machine (loopback) or in-process."""


    for role in ALL_ROLES:
        provider = cfg.providers[cfg.models.for_role(role).provider]
        if provider.kind in NETWORK_KINDS:
            host = urlsplit(provider.base_url or "").hostname
            if not host or not is_loopback(host):
                return False
    return True
