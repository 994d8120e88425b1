#!/usr/bin/env bash
# Set up if needed, then run the main job on the embedded defaults (no API key, no server to start).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# Python caches the bytecode of what it imports, unless PYTHONDONTWRITEBYTECODE is set (some images set it):
# then every process, each Ray worker and each `forge` started, compiles ray, mlflow, CybORG and FORGE from
# source again (measured: 7-9 s CPU to import them from source, 3.4-4.5 s from bytecode).
unset PYTHONDONTWRITEBYTECODE
# 6 sessions per condition: FORGE's sessions are its independent unit, and session k of every condition runs on
# the same seeds, so each pair of conditions is decided by a sign-flip test over 6 paired differences, the
# fewest that can reach p < 0.05 (4 pairs cannot: their smallest p is 0.125).
exec .venv/bin/forge run configs/demo.yaml --baseline zero_shot --baseline reflexion --sessions 6 "$@"
