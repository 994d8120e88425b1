"""`forge providers check [CONFIG]`: before money is spent, one minimal request per configured role in the
exact shape the session sends, and an estimate of the session's cost (forge.preflight).

Per role it prints: accepted, or refused with the API's message; latency; tokens by kind (prompt, of
which cached; completion, of which reasoning); the cost of the call at the role's prices and where the
prices come from. Then the session estimate: calls x tokens x prices over the session's plan, from the
config and one dry step (the surrogate answering every role, offline), as a low-high interval. Exit 2
when a role is refused. `forge run --preflight` runs it first and stops on a refusal.
"""

from __future__ import annotations

import argparse
import json

from rich.table import Table

from forge.commands.common import add_config_arguments, config_from_args, console
from forge.errors import ForgeError

PREFLIGHT_REFUSED_EXIT = 2


class PreflightRefused(ForgeError):
    """A role's request was refused (or could not be sent): the session would fail on it."""


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("providers", help="check the configured model providers before a session")
    commands = parser.add_subparsers(dest="providers_command", required=True)
    check = commands.add_parser(
        "check", help="one minimal request per role in the session's exact shape; tokens, cost, session estimate")
    check.add_argument("--role", action="append", default=[], metavar="ROLE",
                       help="check only this role (repeatable; default: every role)")
    check.add_argument("--no-estimate", action="store_true", help="skip the dry step and the session estimate")
    check.add_argument("--json", action="store_true", help="print the results as JSON")
    add_config_arguments(check)
    check.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    cfg = config_from_args(args)
    preflight(cfg, roles=args.role or None, estimate=not args.no_estimate, as_json=args.json)
    return 0


def preflight(cfg, *, roles=None, estimate: bool = True, as_json: bool = False) -> None:
    """Check every role (print the tables); PreflightRefused when any is refused."""
    from forge.preflight import ALL_ROLES, check_roles, dry_step, estimate_session, offline, refused, summary_dict

    unknown = [r for r in roles or () if r not in ALL_ROLES]
    if unknown:
        raise PreflightRefused(f"--role {unknown[0]!r} is not a role ({', '.join(ALL_ROLES)})")
    where = "offline (in-process or loopback endpoints only)" if offline(cfg) else "against the configured endpoints"
    with console.status(f"preflight: one request per role, {where}..."):
        checks = check_roles(cfg, roles or ALL_ROLES)
    session = None
    if estimate and not refused(checks):
        with console.status("preflight: one dry step (the surrogate answers every role, offline)..."):
            session = estimate_session(cfg, dry_step(cfg), checks)
    if as_json:
        console.print_json(json.dumps(summary_dict(checks, session)))
    else:
        from forge.wiring import model_caveat

        console.print(checks_table(checks, where))
        if session is not None:
            console.print(estimate_table(session, cfg))
        caveat = model_caveat(cfg)
        if caveat:  # the surrogate's label, or the local model's caveat: these are no LLM's figures
            console.print(f"[yellow]{caveat}[/yellow]")
    bad = refused(checks)
    if bad:
        first = bad[0]
        raise PreflightRefused(f"preflight: {len(bad)} of {len(checks)} roles refused; {first.request.role} "
                               f"({first.request.provider}, {first.request.model}): {first.message}")


def _tokens(usage) -> str:
    prompt = f"{usage.prompt_tokens}" + (f" ({usage.cached_prompt_tokens} cached)" if usage.cached_prompt_tokens else "")
    completion = f"{usage.completion_tokens}" + (f" ({usage.reasoning_tokens} reasoning)" if usage.reasoning_tokens else "")
    return f"{prompt} / {completion}"


def checks_table(checks, where: str) -> Table:
    from forge.preflight import describe_strict

    table = Table(title=f"providers check: one request per role, as the session sends it ({where})")
    for column in ("role", "provider / model", "reply format", "result", "latency", "tokens in / out", "USD per call", "prices"):
        table.add_column(column, justify="right" if column in ("latency", "USD per call") else "left")
    for c in checks:
        result = ("[green]" if c.accepted else "[red]") + ("accepted" if c.accepted else "REFUSED") + "[/]"
        if c.message and c.message != "accepted":
            result += f": {c.message[:160]}"
        table.add_row(c.request.role, f"{c.request.provider} / {c.request.model}", describe_strict(c), result,
                      f"{c.latency_s * 1000:.0f} ms" if c.accepted else "-", _tokens(c.usage) if c.accepted else "-",
                      f"${c.cost_usd:.6f}" if c.accepted else "-", _price_text(c.price))
    table.caption = ("tokens: prompt (of which cached) / completion (of which reasoning); USD at the role's prices: "
                     "the config's, else the dated table (forge/llm/prices.py), else not counted")
    return table


def _price_text(price) -> str:
    if price.source == "none":
        return "not counted (no price)"
    return (f"{price.source}: in {price.input:g}, cached {price.cached:g}, out {price.output:g}, "
            f"reasoning {price.thinking:g} $/M")


def estimate_table(session, cfg) -> Table:
    from forge.llm.prices import TABLE_DATE

    table = Table(title=f"session estimate ({cfg.protocol.condition.value}, {cfg.protocol.num_instances} instances x "
                        f"{cfg.protocol.num_stages} stages, {cfg.env.max_steps}-step episodes): low - high")
    for column in ("role", "calls", "prompt tokens / call", "completion tokens / call", "USD"):
        table.add_column(column, justify="left" if column == "role" else "right")
    for r in session.roles:
        if not r.calls[1]:
            continue
        table.add_row(r.role, _range(r.calls, "{:.0f}"), _range(r.prompt_tokens, "{:.0f}"),
                      _range(r.completion_tokens, "{:.0f}"), _range(r.usd, "${:.4f}"))
    low, high = session.usd
    table.add_row("[bold]session[/bold]", "", "", "", f"[bold]${low:.4f} - ${high:.4f}[/bold]")
    table.caption = (f"defender steps {_range(session.steps, '{:.0f}')}, learner calls on "
                     f"{_range(session.learnings, '{:.0f}')} failed attempts (x2 with a re-prompt); calls per step "
                     f"and prompts from {session.dry_steps} dry step(s) (high: the most a step can call); prompt tokens scaled by the endpoint's own count "
                     f"(x{session.token_scale:.2f}); high: full memory ({cfg.memory.rules_capacity} rules), replies at "
                     f"max_tokens; the compiler (rulebook export) is not counted; prices as of {TABLE_DATE} unless "
                     f"configured. An estimate with its interval, not a quote.")
    return table


def _range(values, fmt: str) -> str:
    low, high = values
    return fmt.format(low) if abs(high - low) < 1e-12 else f"{fmt.format(low)} - {fmt.format(high)}"
