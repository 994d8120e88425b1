"""The whole product's configuration: typed dataclasses, YAML files, dotlist overrides.

A config file is YAML whose keys mirror `ForgeConfig`. A file may name one parent with
`extends: other.yaml` (resolved relative to the file); the parent is merged first. Command-line
overrides are OmegaConf dotlists (`env.max_steps=50`). Every merge is checked against the dataclasses,
so an unknown key or a wrong type fails with a `ConfigError` naming the key and the file it came from.
What the types cannot say (ranges, roles, provider names) each section checks beside its fields
(`problems`); `ForgeConfig.problems` collects them, and loading raises one `ConfigError` naming them all.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Optional

from forge.env.attackers import NAMES as ATTACKER_NAMES
from forge.errors import ForgeError
from forge.llm.kinds import PROVIDER_CLASSES
from forge.plumbing.redact import mask_urls_in, masked_fields

if TYPE_CHECKING:
    from omegaconf import DictConfig

# OmegaConf and PyYAML are imported where a file or an override is read, not here: every module that
# names a role imports this one, and a command run with the defaults (`forge rulebook query`) should not
# pay for them at its cold start (scripts/bench/rulebook_query.py times the cold CLI).

ROLES = ("planner", "analyst", "action_chooser")
LEARNER_ROLES = ("reflector", "exemplifier", "compiler")


class ConfigError(ForgeError, ValueError):
    """A configuration problem; the message names the key and the source (file or override)."""


# The attackers `env.red_agent` may name: the rows of forge/env/attackers.py (RedAgent.b_line, ...).
RedAgent = enum.Enum("RedAgent", [(name, name) for name in ATTACKER_NAMES], type=str, module=__name__)


class Arm(str, enum.Enum):
    """An experiment arm (the paper's "condition"; `protocol.condition` in YAML). Not a rule's condition
    (`forge.rulebook.language.grammar.Condition`)."""

    zero_shot = "zero_shot"
    reflexion = "reflexion"
    forge = "forge"
    forge_no_grad = "forge_no_grad"


class Representation(str, enum.Enum):
    rules = "rules"
    examples = "examples"
    mixed = "mixed"


class Feedback(str, enum.Enum):
    """What the learners read about a failure. paper: the trajectory (what the defender observed and did),
    the failing step, its reward and the threshold. privileged: also CybORG's per-host reward breakdown
    and red's true access at the failing step, which the defender never observes."""

    paper = "paper"
    privileged = "privileged"


class RulePhrasing(str, enum.Enum):
    varied = "varied"
    grammar = "grammar"


class StoreKind(str, enum.Enum):
    sqlite = "sqlite"
    redis = "redis"


class RecordMode(str, enum.Enum):
    off = "off"
    record = "record"  # call the model, keep every request and reply
    replay = "replay"  # answer only from the record; a request not in it is an error (zero model calls)
    read_through = "read_through"  # answer from the record where it can, call (and record) the rest


class Injection(str, enum.Enum):
    full = "full"
    rulebook = "rulebook"
    none = "none"


# The choices below are StrEnums: they format as their value (an f-string gives "openai", not
# "ProviderKind.openai"), so endpoint keys, banners and messages read as the plain strings did.


# The client a provider config gets: the rows of forge/llm/kinds.py (ProviderKind.openai, ...). In code,
# an in-process kind registered with `register_in_process_provider` (a test stub) may stand in; a config
# file names one of these.
ProviderKind = enum.StrEnum("ProviderKind", [(kind, kind) for kind in PROVIDER_CLASSES], module=__name__)


class StructuredOutput(enum.StrEnum):
    """How an endpoint spells constrained decoding; `none` for endpoints without it (forge.llm.openai_provider,
    forge.llm.gemini_provider)."""

    none = "none"
    json_schema = "json_schema"  # OpenAI (strict), Ollama: response_format json_schema; Gemini: response_json_schema
    json_object = "json_object"  # llama.cpp's server: response_format {"type": "json_object", "schema": ...}
    vllm = "vllm"  # vLLM >= 0.12: the extra parameter {"structured_outputs": {"json": schema}}
    openapi = "openapi"  # Gemini's response_schema (an OpenAPI 3.0 subset)


class Reasoning(enum.StrEnum):
    """Whether an OpenAI model takes the reasoning models' parameters (max_completion_tokens, no sampling
    settings, no stop sequences): `auto` by its family (o1, o3, o4, gpt-5), or `on` / `off` for every model."""

    auto = "auto"
    on = "on"
    off = "off"


REASONING_EFFORTS = ("none", "minimal", "low", "medium", "high", "xhigh")  # OpenAI's reasoning_effort values
THINKING_LEVELS = ("minimal", "low", "medium", "high")  # Gemini 3's thinking_level values


class EmbeddingKind(enum.StrEnum):
    local = "local"  # a local encoder (`rulebook.encoder`)
    openai = "openai"  # an OpenAI-compatible embeddings endpoint (`rulebook.embedding_provider`)


def _unknown_roles(key: str, roles: Iterable[str]) -> list[str]:
    return [f"{key}: unknown role {role!r} (roles: {', '.join(ROLES)})" for role in roles if role not in ROLES]


@dataclass
class EnvConfig:
    red_agent: RedAgent = RedAgent.b_line
    max_steps: int = 30

    def problems(self, key: str) -> list[str]:
        return [f"{key}.max_steps must be >= 1, got {self.max_steps}"] if self.max_steps < 1 else []


@dataclass
class ModelPrice:
    """One model's prices (USD per million tokens) where they differ from the provider's (ProviderConfig)."""

    price_in_per_mtok: Optional[float] = None
    price_out_per_mtok: Optional[float] = None
    price_cached_in_per_mtok: Optional[float] = None
    price_reasoning_per_mtok: Optional[float] = None


@dataclass
class ProviderConfig:
    """One model endpoint. `kind` picks the client; keys are read from the variable `api_key_env`."""

    kind: ProviderKind = ProviderKind.surrogate
    base_url: Optional[str] = None
    api_key_env: Optional[str] = None
    timeout_s: float = 60.0
    max_retries: int = 6
    # Retries shared by all calls of this provider in one process: a token bucket of `retry_budget`
    # retries refilled at `retry_budget_refill_per_s` (0: a lifetime count). A storm is bounded by the
    # bucket; a long session with transient errors below the refill rate never runs out.
    retry_budget: int = 200
    retry_budget_refill_per_s: float = 1.0
    backoff_initial_s: float = 0.5
    backoff_max_s: float = 30.0
    # Calls in flight at once: per process, and (in a Ray session) across all workers of the session for
    # this endpoint (kind + base_url), enforced by the session's limiter (forge.llm.limiter).
    max_concurrency: int = 8
    requests_per_minute: Optional[int] = None  # per endpoint, across the session (None: no rate cap)
    # The longest a call waits for a session slot on this endpoint; then it fails naming who holds them.
    slot_wait_s: float = 600.0
    # Prices (USD per million tokens) for the session budget and the cost figures, by kind of token. Unset:
    # the per-model table (forge/llm/prices.py, dated, with its source) for OpenAI and Gemini models, else 0.
    # Set here they hold for every model of this provider; `prices.<model>` sets them for one model.
    price_in_per_mtok: Optional[float] = None
    price_out_per_mtok: Optional[float] = None
    price_cached_in_per_mtok: Optional[float] = None  # prompt tokens served from the prefix cache; unset: as input
    price_reasoning_per_mtok: Optional[float] = None  # reasoning / thinking tokens; unset: as output
    prices: dict[str, ModelPrice] = field(default_factory=dict)
    # Reasoning models (OpenAI): whether a model takes max_completion_tokens and no sampling settings,
    # and how hard it thinks (`reasoning_effort`; None: the model's default).
    reasoning: Reasoning = Reasoning.auto
    reasoning_effort: Optional[str] = None
    # Thinking models (Gemini): `thinking_budget` tokens (0: off where the model allows it, -1: the model
    # decides; None: the model's default) or, for Gemini 3, `thinking_level`; `include_thoughts` asks for
    # the thought summaries (kept out of the reply; their tokens are billed either way).
    thinking_budget: Optional[int] = None
    thinking_level: Optional[str] = None
    include_thoughts: bool = False
    # Constrained decoding: each role's JSON schema goes out in the endpoint's spelling (StructuredOutput):
    # `json_schema` (OpenAI strict, Ollama; Gemini's response_json_schema), `json_object` (llama.cpp's
    # server), `vllm` (vLLM's structured_outputs), `openapi` (Gemini's response_schema); `none` (not "off",
    # which YAML reads as false) for endpoints without it. The agents read JSON and text replies alike.
    structured_output: StructuredOutput = StructuredOutput.none
    # What every result made with this provider must say about it (e.g. a tiny integration model).
    caveat: Optional[str] = None
    # The endpoint serves FORGE's surrogate model (`forge serve`), so its results are surrogate results and are
    # labelled so. Read from the endpoint itself when a command starts (forge.wiring.with_served_labels).
    serves_surrogate: bool = False

    def problems(self, key: str) -> list[str]:
        found = []
        if self.retry_budget < 0 or self.retry_budget_refill_per_s < 0:
            found.append(f"{key}: retry_budget and retry_budget_refill_per_s must not be negative")
        for where, prices in [(key, self), *((f"{key}.prices.{model}", p) for model, p in self.prices.items())]:
            negative = [name for name in ModelPrice.__dataclass_fields__ if (getattr(prices, name) or 0) < 0]
            if negative:
                found.append(f"{where}: {', '.join(negative)} must not be negative")
        if self.reasoning_effort is not None and self.reasoning_effort not in REASONING_EFFORTS:
            found.append(f"{key}.reasoning_effort must be one of {', '.join(REASONING_EFFORTS)}, got {self.reasoning_effort!r}")
        if self.thinking_level is not None and self.thinking_level not in THINKING_LEVELS:
            found.append(f"{key}.thinking_level must be one of {', '.join(THINKING_LEVELS)}, got {self.thinking_level!r}")
        if self.thinking_budget is not None and self.thinking_budget < -1:
            found.append(f"{key}.thinking_budget must be -1 (the model decides), 0 (off) or a number of tokens, "
                         f"got {self.thinking_budget}")
        if self.thinking_budget is not None and self.thinking_level is not None:
            found.append(f"{key}: set thinking_budget or thinking_level, not both (Gemini refuses the pair)")
        if self.requests_per_minute is not None and self.requests_per_minute < 1:
            found.append(f"{key}.requests_per_minute must be >= 1 (or unset), got {self.requests_per_minute}")
        if self.slot_wait_s <= 0:
            found.append(f"{key}.slot_wait_s must be > 0, got {self.slot_wait_s}")
        return found


@dataclass
class ModelConfig:
    provider: str = "surrogate"
    model: str = "forge-surrogate-1"
    temperature: float = 0.0
    max_tokens: int = 512


@dataclass
class ModelsConfig:
    """The default model, and optional per-role replacements (None: use `default`)."""

    default: ModelConfig = field(default_factory=ModelConfig)
    planner: Optional[ModelConfig] = None
    analyst: Optional[ModelConfig] = None
    action_chooser: Optional[ModelConfig] = None
    reflector: Optional[ModelConfig] = None
    exemplifier: Optional[ModelConfig] = None
    compiler: Optional[ModelConfig] = None

    def problems(self, key: str, providers: Iterable[str]) -> list[str]:
        providers = list(providers)
        return [f"{key}.{role}.provider: {model.provider!r} is not among providers ({', '.join(providers)})"
                for role in ("default",) + ROLES + LEARNER_ROLES
                if (model := getattr(self, role)) is not None and model.provider not in providers]

    def for_role(self, role: str) -> ModelConfig:
        if role not in ROLES + LEARNER_ROLES:
            raise ConfigError(f"models: unknown role {role!r}; roles are {', '.join(ROLES + LEARNER_ROLES)}")
        return getattr(self, role) or self.default


@dataclass
class SurrogateConfig:
    """The scripted stand-in model (no model API is reachable here). Always labelled a surrogate."""

    seed: int = 0
    compliance: float = 0.85  # probability of following a learned rule whose condition matches
    latency_ms: float = 0.0
    latency_jitter_ms: float = 0.0
    reflector_error_rate: float = 0.2  # how often, as a learner, it prescribes a weaker fix than Restore
    lessons_per_failure: int = 1  # lessons it draws per failure (the costliest host first; its compromise, then its exploit)
    generalise: bool = True  # a lesson for a host whose sibling has the same rule becomes a rule for the class
    lesson_roles: int = 1  # roles each lesson is written for, of those allowed (action_chooser first, then planner)
    # How it words the rules it writes: `varied` (a seeded choice of natural phrasings, the grammar among
    # them, so every session exercises the free-text path) or `grammar` (always `When X shows Y, then Z.`).
    rule_phrasing: RulePhrasing = RulePhrasing.varied

    def problems(self, key: str) -> list[str]:
        return [] if 0.0 <= self.compliance <= 1.0 else [f"{key}.compliance must be in [0, 1], got {self.compliance}"]


@dataclass
class FaultConfig:
    """Seeded fault injection around a provider (tests and reliability runs)."""

    enabled: bool = False
    seed: int = 0
    transient_error_rate: float = 0.0
    timeout_rate: float = 0.0
    malformed_rate: float = 0.0
    empty_rate: float = 0.0


@dataclass
class AgentConfig:
    max_tool_calls_per_step: int = 3
    history_steps: int = 4  # the Planner sees a bounded window of recent steps, never the whole episode
    persistent_knowledge: dict[str, str] = field(default_factory=dict)  # role -> user-set text

    def problems(self, key: str) -> list[str]:
        return _unknown_roles(f"{key}.persistent_knowledge", self.persistent_knowledge)


@dataclass
class MemoryConfig:
    store: StoreKind = StoreKind.sqlite
    redis_url: str = "redis://127.0.0.1:6379/0"
    rules_capacity: int = 100
    examples_capacity: int = 50
    near_duplicate_threshold: float = 0.9
    injection: Injection = Injection.full


@dataclass
class LearnerConfig:
    feedback: Feedback = Feedback.paper


@dataclass
class ProtocolConfig:
    condition: Arm = Arm.forge  # the experiment arm; the YAML key keeps the paper's word
    representation: Representation = Representation.rules
    num_instances: int = 10
    num_stages: int = 6
    max_attempts: int = 3  # k_A
    success_attempts: int = 1  # clean episodes that end a stage's training early
    tau: float = -1.1
    thresholds: list[float] = field(default_factory=list)  # multi-threshold triggering; empty: [tau]
    theta: float = -15.0
    checkpoint_runs: int = 3  # episodes per checkpoint: one episode is too noisy to rank or graduate on
    num_evaluation_runs: int = 5
    agents_to_improve: list[str] = field(default_factory=lambda: list(ROLES))
    seed: int = 0

    def problems(self, key: str) -> list[str]:
        return _unknown_roles(f"{key}.agents_to_improve", self.agents_to_improve) + [
            f"{key}.{name} must be >= 1"
            for name in ("num_instances", "num_stages", "max_attempts", "num_evaluation_runs", "checkpoint_runs")
            if getattr(self, name) < 1]


@dataclass
class RayConfig:
    address: Optional[str] = None  # None: RAY_ADDRESS if set, else a local ray.init()
    # CPU Ray reserves per worker process (a worker's instances wait on their models together).
    num_cpus_per_instance: float = 0.1
    # Instances hosted per worker process, each in its own thread; 0: automatic (workers/packing.py:
    # at least 2 x cluster CPUs processes, at least 4, instances spread evenly over them).
    instances_per_worker: int = 0
    max_restarts: int = 2
    stage_retries: int = 2
    # A model call's session slot is a lease its worker renews every slot_lease_s / 3 while the call
    # lives: a worker that dies without the driver noticing frees its slots within slot_lease_s.
    slot_lease_s: float = 30.0
    # Chaos testing, never set in real runs (syntax in workers/chaos.py). `chaos_kill`: worker processes
    # that exit once, e.g. "i01@2" (stage 2 training), "i01@checkpoint:1", "i00@evaluation";
    # `chaos_driver_exit`: the driver exits once at a phase boundary, e.g. "after_apply@1", "evaluation".
    chaos_kill: Optional[str] = None
    chaos_driver_exit: Optional[str] = None

    def problems(self, key: str) -> list[str]:
        return [] if self.slot_lease_s > 0 else [f"{key}.slot_lease_s must be > 0, got {self.slot_lease_s}"]


@dataclass
class TrackingConfig:
    enabled: bool = True
    # None: $MLFLOW_TRACKING_URI if set, else one store for every session under the runs directory
    # (sqlite:///<runs_dir>/mlflow.db, artifacts in <runs_dir>/mlartifacts); the experiment is run.study.
    tracking_uri: Optional[str] = None


@dataclass
class BudgetConfig:
    """A session's spending limits, counted across all workers (None: no limit). When one is reached the
    session stops cleanly with status budget_exhausted; `forge resume RUN_DIR budget.max_usd=...` continues."""

    max_prompt_tokens: Optional[int] = None
    max_completion_tokens: Optional[int] = None
    max_usd: Optional[float] = None

    def problems(self, key: str) -> list[str]:
        return [f"{key}.{name} must not be negative, got {value}"
                for name in ("max_prompt_tokens", "max_completion_tokens", "max_usd")
                if (value := getattr(self, name)) is not None and value < 0]


@dataclass
class RulebookConfig:
    embedding: EmbeddingKind = EmbeddingKind.local
    # the local encoder (forge/rulebook/retrieval/embed.py says why the default): minilm-onnx-int8 | minilm-onnx |
    # minilm-static | tokenlearn-static | minilm-int8 | minilm (the last two need the `torch` extra).
    # Vectors are stored per encoder and never compared across them.
    encoder: str = "minilm-onnx-int8"
    embedding_model: str = "all-MiniLM-L6-v2"  # the model of rulebook.embedding=openai
    embedding_provider: Optional[str] = None
    rrf_k: int = 60
    node_weight: float = 0.7
    # The floor for semantic rules (no trigger predicate): calibrated on free text with the decision-context
    # benchmark (scripts/bench/dc_bench.py --calibrate; the README's rulebook section has the figures).
    # Rules with a predicate are judged by the gate on meaning instead.
    relevance_floor: float = 0.4
    # Retired: a guarded rule's unexpressed rest was once judged by its cosine to the context (p50 0.46 where
    # it fitted vs 0.39 where not: it separated little); it is now judged by what it claims, three-valued
    # (guard.guard_claims). The key stays so that the configurations runs keep on record still load.
    guard_floor: float = 0.15
    max_rules_per_injection: int = 5
    # The rulebook: a .db file (SQLite) or a redis:// URL. None: a session's own (`rulebook_location`):
    # <run_dir>/rulebook.db, or the session's Redis; outside a session, <runs_dir>/rulebook.db.
    store: Optional[str] = None
    condition_gate: bool = True  # a rule with a trigger predicate is injected only when the context meets it
    context_window: int = 4  # decision contexts in the accumulated context (queries and trigger nodes)
    aftermath_window: int = 3  # an injection's outcome: did a failure fire in the next k steps
    efficacy_min_count: int = 5  # decision points per side (followed / not) before a rule gets a verdict
    efficacy_min_episodes: int = 5  # rulebook episodes before a never-triggered rule is called inert
    # ablation pairs (same seed, rule withheld or not) before a verdict: the smallest size from which the
    # verdict's sign-flip test gives at most 8% verdicts without an effect and 80% with half an SD of one, in
    # every family of tests/test_efficacy_coverage.py (with margin: every simulation seed picks it).
    # The one source of the figure (forge.rulebook.outcomes.efficacy.MIN_PAIRS reads it).
    efficacy_min_pairs: int = 40
    ablation_max_rules: int = 4  # `forge evaluate` rulebook mode: the most-triggered rules replayed withheld (0 = none)

    def problems(self, key: str) -> list[str]:
        found = []
        if self.ablation_max_rules < 0:
            found.append(f"{key}.ablation_max_rules must not be negative, got {self.ablation_max_rules}")
        for name in ("aftermath_window", "efficacy_min_count", "efficacy_min_episodes", "efficacy_min_pairs"):
            if getattr(self, name) < 1:
                found.append(f"{key}.{name} must be >= 1, got {getattr(self, name)}")
        return found


SESSION_RULEBOOK = "rulebook.db"


def rulebook_location(cfg: "ForgeConfig", run_path: Optional[str | Path] = None) -> str:
    """Where a rulebook lives: `rulebook.store` when one is named; else the session's own, in its run
    directory (its Redis with memory.store=redis, where workers may run on other machines), so no session
    reads another's rules; outside a session, the operator's book <runs_dir>/rulebook.db."""
    if cfg.rulebook.store:
        return cfg.rulebook.store
    if run_path is not None:
        return cfg.memory.redis_url if cfg.memory.store is StoreKind.redis else str(Path(run_path) / SESSION_RULEBOOK)
    return str(Path(cfg.run.runs_dir) / SESSION_RULEBOOK)


@dataclass
class RecordConfig:
    """Sessions on record (forge.llm.record): model calls kept content-addressed for exact replay."""

    mode: RecordMode = RecordMode.off
    # None: SQLite beside the study's MLflow database (<runs_dir>/calls.db), or, with memory.store=redis,
    # the memory's Redis server. Otherwise a SQLite path or a redis:// URL.
    store: Optional[str] = None


@dataclass
class RunConfig:
    runs_dir: str = "runs"
    # Where run directories are kept, if not in runs_dir: a path, file:// or s3:// URI (forge.plumbing.storage).
    # A remote one is written from a local working copy as the session goes.
    storage: Optional[str] = None
    name: Optional[str] = None
    study: str = "forge"  # the MLflow experiment all sessions of one study log to, side by side
    # The arm of a study this session belongs to (a condition, or a sweep point such as "forge
    # protocol.tau=-2"); set by `forge run --sessions/--sweep`; sessions of one arm are compared together.
    arm: Optional[str] = None


@dataclass
class ForgeConfig:
    env: EnvConfig = field(default_factory=EnvConfig)
    providers: dict[str, ProviderConfig] = field(
        default_factory=lambda: {"surrogate": ProviderConfig(kind=ProviderKind.surrogate)}
    )
    models: ModelsConfig = field(default_factory=ModelsConfig)
    surrogate: SurrogateConfig = field(default_factory=SurrogateConfig)
    faults: FaultConfig = field(default_factory=FaultConfig)
    agent: AgentConfig = field(default_factory=AgentConfig)
    memory: MemoryConfig = field(default_factory=MemoryConfig)
    protocol: ProtocolConfig = field(default_factory=ProtocolConfig)
    learner: LearnerConfig = field(default_factory=LearnerConfig)
    ray: RayConfig = field(default_factory=RayConfig)
    tracking: TrackingConfig = field(default_factory=TrackingConfig)
    budget: BudgetConfig = field(default_factory=BudgetConfig)
    rulebook: RulebookConfig = field(default_factory=RulebookConfig)
    run: RunConfig = field(default_factory=RunConfig)
    record: RecordConfig = field(default_factory=RecordConfig)

    def problems(self) -> list[str]:
        """What the types alone cannot say, every section's checks (each beside its fields) in one list."""
        return [*self.env.problems("env"), *self.protocol.problems("protocol"),
                *self.models.problems("models", self.providers),
                *(p for name, provider in self.providers.items() for p in provider.problems(f"providers.{name}")),
                *self.ray.problems("ray"), *self.budget.problems("budget"), *self.agent.problems("agent"),
                *self.rulebook.problems("rulebook"), *self.surrogate.problems("surrogate")]


def _merge(base: DictConfig, update: Any, source: str) -> DictConfig:
    from omegaconf import OmegaConf
    from omegaconf.errors import OmegaConfBaseException

    try:
        return OmegaConf.merge(base, update)  # type: ignore[return-value]
    except OmegaConfBaseException as exc:
        key = getattr(exc, "full_key", None) or "?"
        reason = str(exc).splitlines()[0]
        raise ConfigError(f"{source}: bad key {key!r}: {reason}") from None


# Keys that moved, old -> new: configs saved by earlier versions (a run directory's config.yaml) must
# still load, so that resume, evaluate and export keep working on what was learned before the move.
_MOVED_KEYS = {("tracking", "experiment"): ("run", "study")}


def _upgrade(data: dict) -> dict:
    for (old_section, old_key), (new_section, new_key) in _MOVED_KEYS.items():
        section = data.get(old_section)
        if isinstance(section, dict) and old_key in section:
            value = section.pop(old_key)
            target = data.setdefault(new_section, {})
            if isinstance(target, dict):
                target.setdefault(new_key, value)
    return data


def _read_yaml(path: Path, seen: tuple[Path, ...]) -> list[tuple[str, dict]]:
    """The file and its `extends` ancestors, oldest first, as (source name, mapping) pairs."""
    import yaml

    path = path.resolve()
    if path in seen:
        raise ConfigError(f"{path}: `extends` cycle through {', '.join(str(p) for p in seen)}")
    if not path.is_file():
        raise ConfigError(f"config file not found: {path}")
    try:
        data = yaml.safe_load(path.read_text()) or {}
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: the top level must be a mapping, got {type(data).__name__}")
    data = _upgrade(data)
    parent = data.pop("extends", None)
    chain: list[tuple[str, dict]] = []
    if parent is not None:
        if not isinstance(parent, str):
            raise ConfigError(f"{path}: bad key 'extends': expected a file name, got {parent!r}")
        chain = _read_yaml(path.parent / parent, seen + (path,))
    return chain + [(str(path), data)]


def load_config(*files: str | Path, overrides: list[str] | tuple[str, ...] = ()) -> ForgeConfig:
    """Defaults, then each file (with its `extends` chain), then the dotlist overrides."""
    if not files and not overrides:
        return _checked_typed(ForgeConfig())  # the defaults: the same object without OmegaConf's merge
    from omegaconf import OmegaConf

    cfg: DictConfig = OmegaConf.structured(ForgeConfig)
    for file in files:
        for source, data in _read_yaml(Path(file), ()):
            cfg = _merge(cfg, data, source)
    for item in overrides:
        if "=" not in item:
            raise ConfigError(f"command line: override {item!r} is not of the form key=value")
        cfg = _merge(cfg, OmegaConf.from_dotlist([item]), f"command line override {item!r}")
    return _checked(cfg)


def _checked(cfg: DictConfig) -> ForgeConfig:
    """The typed configuration, or one ConfigError naming every bad key."""
    from omegaconf import OmegaConf

    return _checked_typed(OmegaConf.to_object(cfg))  # type: ignore[arg-type]


def _checked_typed(typed: ForgeConfig) -> ForgeConfig:
    problems = typed.problems()
    if problems:
        raise ConfigError("invalid configuration: " + "; ".join(problems))
    return typed


def to_yaml(cfg: ForgeConfig) -> str:
    from omegaconf import OmegaConf

    return OmegaConf.to_yaml(OmegaConf.structured(cfg))


def to_saved_yaml(cfg: ForgeConfig) -> str:
    """The YAML a run directory keeps: `to_yaml` with credentials inside URLs masked (forge.plumbing.redact).

    Identical to `to_yaml` for a configuration without credentials."""
    from omegaconf import OmegaConf

    plain = OmegaConf.to_container(OmegaConf.structured(cfg), enum_to_str=True)
    return OmegaConf.to_yaml(OmegaConf.create(mask_urls_in(plain)))


def masked_credentials(cfg: ForgeConfig) -> list[str]:
    """Keys whose URL lost its credentials when saved: a resumed session must be given them again."""
    return masked_fields(to_flat_dict(cfg))


def to_flat_dict(cfg: ForgeConfig) -> dict[str, Any]:
    """`section.key` -> value, for MLflow params. Secrets never live in the config (only env var names)."""
    from omegaconf import OmegaConf

    flat: dict[str, Any] = {}

    def walk(prefix: str, node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                walk(f"{prefix}.{key}" if prefix else str(key), value)
        else:
            flat[prefix] = node

    walk("", OmegaConf.to_container(OmegaConf.structured(cfg), enum_to_str=True))
    return flat


def from_yaml(text: str, source: str = "saved config") -> ForgeConfig:
    import yaml
    from omegaconf import OmegaConf

    data = yaml.safe_load(text) or {}
    cfg = _merge(OmegaConf.structured(ForgeConfig), _upgrade(data) if isinstance(data, dict) else data, source)
    return _checked(cfg)
