"""Run the package's own CAGE-2 evaluation loop (csle_cyborg/evaluation/evaluation.py) on a blue agent.

    python scripts/cage2_official_eval.py runs/<session>/export/agent-i00 --episodes 5
    python scripts/cage2_official_eval.py BlueReactRemoveAgent --episodes 100

AGENT is a bundle written by `forge export agent` or the name of one of the package's blue agents.
The loop runs as shipped (forge/env/package_evaluation.py says what is supplied to make it run here);
episode i of every cell starts from the seed `forge evaluate --protocol cage2` uses for its episode i,
so the two can be compared figure by figure. It prints the loop's own output and its results file.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("agent", metavar="AGENT", help="a `forge export agent` bundle directory, or a package blue agent name")
    parser.add_argument("--episodes", type=int, default=100, help="episodes per cell (the package's MAX_EPS is 100)")
    parser.add_argument("--seed", type=int, default=0, help="base seed of the episode seeds (protocol.seed)")
    parser.add_argument("--out", default="runs/cage2-official", help="directory for the loop's results file")
    args = parser.parse_args(argv)

    from forge.cage2.protocol import protocol_seeds
    from forge.env.package_agents import PACKAGE_BLUE_AGENTS, RawBlueAgent, package_blue_agent
    from forge.env.package_evaluation import run_package_loop

    if Path(args.agent).is_dir():
        from forge.cage2.agent import load_bundle_agent

        agent = load_bundle_agent(args.agent)
        print(f"agent: {type(agent).__name__} from {args.agent} (model: {agent.label})")
    elif args.agent in PACKAGE_BLUE_AGENTS:
        agent = RawBlueAgent(package_blue_agent(args.agent))
        print(f"agent: the package's {args.agent}")
    else:
        parser.error(f"AGENT {args.agent!r} is neither a bundle directory nor one of {', '.join(PACKAGE_BLUE_AGENTS)}")
    run = run_package_loop(agent, args.episodes, protocol_seeds(args.seed, args.episodes), Path(args.out))
    print(run.output)
    print(f"results file: {run.results_file}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
