"""`forge serve`: expose a configured provider as an OpenAI-compatible (and Gemini-style) HTTP endpoint.

Any OpenAI client can then talk to it (`base_url=http://HOST:PORT/v1`), and google-genai too
(`HttpOptions(base_url="http://HOST:PORT")`). Calls go through the same retries, timeouts,
concurrency limit and (if enabled) fault injection as in-process calls.
"""

from __future__ import annotations

import argparse
import ipaddress
import signal
import sys

from forge.commands.common import add_config_arguments, config_from_args, console
from forge.config import LEARNER_ROLES, ROLES, ConfigError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve", help="serve a configured provider over the OpenAI chat API (and Gemini's generateContent)"
    )
    add_config_arguments(parser)
    parser.add_argument("--port", type=int, required=True, help="TCP port (0: any free port, printed at start)")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default: loopback only)")
    parser.add_argument("--provider", default=None, help="a name under `providers` (default: models.default.provider)")
    parser.add_argument(
        "--require-key-env",
        default=None,
        metavar="VAR",
        help="clients must present the key held in environment variable VAR (Bearer or x-goog-api-key)",
    )
    parser.set_defaults(func=run)


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _stop_on_sigterm(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def run(args: argparse.Namespace) -> int:
    from forge.llm.registry import build_provider
    from forge.llm.server import ModelServer
    from forge.llm.types import ProviderError, api_key_from_env

    cfg = config_from_args(args)
    name = args.provider or cfg.models.default.provider
    if name not in cfg.providers:
        raise ConfigError(f"--provider: {name!r} is not among providers ({', '.join(cfg.providers)})")
    try:
        provider = build_provider(name, cfg)
        required_key = api_key_from_env(args.require_key_env, "serve") if args.require_key_env else None
    except ProviderError as exc:
        print(f"forge serve: {exc}", file=sys.stderr)
        return 1
    models = sorted({cfg.models.for_role(r).model for r in ROLES + LEARNER_ROLES if cfg.models.for_role(r).provider == name})
    server = ModelServer(provider, host=args.host, port=args.port, models=models, required_key=required_key)
    server.start()
    kind = cfg.providers[name].kind
    what = "the surrogate model (a scripted stand-in, not an LLM)" if kind == "surrogate" else f"a {kind} endpoint"
    console.print(f"forge serve: provider {name!r}, {what}")
    console.print(f"  OpenAI API: {server.openai_base_url}   Gemini API: {server.url}/v1beta   models: {', '.join(models)}")
    if required_key is None and not _is_loopback(args.host):
        console.print(f"  [yellow]warning:[/] {args.host} is not loopback and no --require-key-env is set: anyone who can reach it can use the provider")
    console.print("  Ctrl-C stops.")
    signal.signal(signal.SIGTERM, _stop_on_sigterm)  # `docker stop`, `kill`: shut down as cleanly as Ctrl-C
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0
