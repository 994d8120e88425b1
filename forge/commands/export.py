"""`forge export agent RUN_DIR [--instance I] [--out DIR]`: a run's champion as a CAGE-2 blue agent.

Writes a bundle (forge.cage2.agent): `agent.py` with `ForgeChampionAgent` (get_action / end_episode),
the champion's frozen memory and the run's configuration. Load it in CAGE-2's evaluation script with
`agent = ForgeChampionAgent()`, or run the package's loop on it with `scripts/cage2_official_eval.py`.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from forge.commands.common import console
from forge.errors import UsageError


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("export", help="export a run's champion for use outside FORGE")
    kinds = parser.add_subparsers(dest="kind", required=True)
    agent = kinds.add_parser("agent", help="the champion as a CAGE-2 blue agent (get_action / end_episode)")
    agent.add_argument("run_dir", metavar="RUN_DIR")
    agent.add_argument("--instance", help="the instance whose memory to export (default: the ledger's champion)")
    agent.add_argument("--out", help="bundle directory (default: RUN_DIR/export/agent-<instance>)")
    agent.add_argument("config", nargs="*", metavar="KEY=VALUE",
                       help="overrides on the run's config for the agent, e.g. models.default.provider=local")
    agent.set_defaults(func=_agent)


def _agent(args: argparse.Namespace) -> int:
    from forge.cage2.agent import AGENT_CLASS, write_bundle
    from forge.wiring import model_label, open_run_memory

    bad = [o for o in args.config if "=" not in o]
    if bad:
        raise UsageError(f"override {bad[0]!r} is not of the form key=value")
    found = open_run_memory(args.run_dir, args.instance, args.config)
    snapshot = found.snapshot()
    out = Path(args.out) if args.out else found.run.path / "export" / f"agent-{found.instance}"
    write_bundle(out, found.cfg, snapshot, source=found.key)
    console.print(f"[bold]Exported[/bold] {found.key} ({found.chosen_by}): memory {snapshot.digest[:12]} "
                  f"({len(snapshot)} items), model {model_label(found.cfg)}", soft_wrap=True)
    console.print(f"bundle: {out}  (class {AGENT_CLASS} in agent.py; "
                  f"run the package's loop on it: python scripts/cage2_official_eval.py {out})", soft_wrap=True)
    return 0
