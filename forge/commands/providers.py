"""`forge providers check [CONFIG]`: before money is spent, one minimal request per configured role in the
exact shape the session sends, and an estimate of the session's cost (forge.runs.preflight).

Per role it prints: accepted, or refused with the API's message; latency; tokens by kind (prompt, of
which cached; completion, of which reasoning); the cost of the call at the role's prices and where the
prices come from. Then the session estimate: calls x tokens x prices over the session's plan, from the
config and one dry step (the surrogate answering every role, offline), as a low-high interval. Exit 2
when a role is refused. `forge run --preflight` runs it first and stops on a refusal.
"""

from __future__ import annotations

import argparse

from forge.commands.common import add_config_arguments, config_from_args, preflight


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
