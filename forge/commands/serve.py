"""`forge serve`: expose a configured provider as an OpenAI-compatible (and Gemini-style) HTTP endpoint.

Any OpenAI client can then talk to it (`base_url=http://HOST:PORT/v1`), and google-genai too
(`HttpOptions(base_url="http://HOST:PORT")`). Calls go through the same retries, timeouts,
concurrency limit and (if enabled) fault injection as in-process calls.

It answers as the API it emulates: a request that API would refuse (a parameter a reasoning model does
not take, a schema strict mode or Gemini refuses, a thinking budget out of range) gets the API's status
and error body; reasoning and thinking, a prompt prefix cache and their usage fields are emulated
(forge.llm.serve.emulation).

The server spends the operator's provider key on behalf of its clients, so it serves only the models
configured for the provider (or those named with --model), caps max_tokens, bounds body size and open
connections, and refuses a non-loopback address unless clients must present a key.
"""

from __future__ import annotations

import argparse
import signal

from forge.commands.common import add_config_arguments, config_from_args, console
from forge.config import LEARNER_ROLES, ROLES, ConfigError, ProviderKind, StructuredOutput
from forge.llm.serve.policy import DEFAULT_MAX_BODY_BYTES, DEFAULT_MAX_CONNECTIONS, bind_refusal


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve", help="serve a configured provider over the OpenAI chat API (and Gemini's generateContent)"
    )
    add_config_arguments(parser)
    parser.add_argument("--port", type=int, required=True, help="TCP port (0: any free port, printed at start)")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default: loopback only; any other needs --require-key-env)")
    parser.add_argument("--provider", default=None, help="a name under `providers` (default: models.default.provider)")
    parser.add_argument(
        "--require-key-env",
        default=None,
        metavar="VAR",
        help="clients must present the key held in environment variable VAR (Bearer or x-goog-api-key)",
    )
    parser.add_argument(
        "--model", action="append", default=None, metavar="NAME",
        help="serve this model name (repeatable; default: the models configured for the provider)",
    )
    parser.add_argument(
        "--max-tokens", type=int, default=None, metavar="N",
        help="cap on max_tokens per answer (default: the largest max_tokens configured for the served models)",
    )
    parser.add_argument("--max-body-bytes", type=int, default=DEFAULT_MAX_BODY_BYTES, metavar="N",
                        help=f"larger request bodies get 413 (default {DEFAULT_MAX_BODY_BYTES})")
    parser.add_argument("--max-connections", type=int, default=DEFAULT_MAX_CONNECTIONS, metavar="N",
                        help=f"connections beyond this many open get 503 (default {DEFAULT_MAX_CONNECTIONS})")
    parser.set_defaults(func=run)


def _stop_on_sigterm(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def run(args: argparse.Namespace) -> int:
    from forge.llm.registry import build_provider
    from forge.llm.serve import ModelServer
    from forge.llm.types import SURROGATE_OWNER, api_key_from_env

    refusal = bind_refusal(args.host, args.require_key_env is not None)
    if refusal is not None:
        raise ConfigError(f"--host: {refusal}")
    cfg = config_from_args(args)
    name = args.provider or cfg.models.default.provider
    if name not in cfg.providers:
        raise ConfigError(f"--provider: {name!r} is not among providers ({', '.join(cfg.providers)})")
    configured = [cfg.models.for_role(r) for r in ROLES + LEARNER_ROLES if cfg.models.for_role(r).provider == name]
    models = sorted(set(args.model or [m.model for m in configured]))
    if not models:
        raise ConfigError(f"--provider: no model is configured for provider {name!r}; name one with --model")
    max_tokens = args.max_tokens or max([m.max_tokens for m in configured] or [512])
    provider = build_provider(name, cfg)
    # The surrogate (also one served by another `forge serve` upstream) says so on the wire, so clients label it.
    surrogate = cfg.providers[name].kind == ProviderKind.surrogate or cfg.providers[name].serves_surrogate
    required_key = api_key_from_env(args.require_key_env, "serve") if args.require_key_env else None
    server = ModelServer(
        provider, host=args.host, port=args.port, models=models, required_key=required_key,
        max_tokens=max_tokens, max_body_bytes=args.max_body_bytes, max_connections=args.max_connections,
        # A provider that decodes under a schema gets the client's; the surrogate cannot (it answers in text).
        pass_schema=cfg.providers[name].structured_output != StructuredOutput.none,
        owned_by=SURROGATE_OWNER if surrogate else "forge",
    )
    signal.signal(signal.SIGTERM, _stop_on_sigterm)  # `docker stop`, `kill`: shut down as cleanly as Ctrl-C
    # A process started in the background by a non-interactive shell (`forge serve &` in a script, CI)
    # inherits SIGINT ignored, and Python then installs no Ctrl-C handler: stop on SIGINT regardless.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    server.start()
    try:  # Ctrl-C at any point after the start, the banner included, stops cleanly
        kind = cfg.providers[name].kind
        what = "the surrogate model (a scripted stand-in, not an LLM)" if surrogate else f"a {kind} endpoint"
        console.print(f"forge serve: provider {name!r}, {what}")
        console.print(f"  OpenAI API: {server.openai_base_url}   Gemini API: {server.url}/v1beta   models: {', '.join(models)}")
        console.print(
            f"  limits: max_tokens {max_tokens}, body {args.max_body_bytes} bytes, {args.max_connections} connections; "
            f"key {'required' if required_key else 'not required (loopback only)'}"
        )
        console.print("  Ctrl-C stops.")
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0
