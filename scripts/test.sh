#!/usr/bin/env bash
# Set up if needed, then run the whole test suite (real CybORG, Ray, MLflow, Redis, HTTP).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
# Python caches the bytecode of what it imports, unless PYTHONDONTWRITEBYTECODE is set (some images set it):
# then every process, each Ray worker and each `forge` started, compiles ray, mlflow, CybORG and FORGE from
# source again (measured: 7-9 s CPU to import them from source, 3.4-4.5 s from bytecode).
unset PYTHONDONTWRITEBYTECODE
# Three worker processes on two cores: much of the suite waits (Ray start-up, served latency, subprocesses),
# so a third process keeps the cores busy. Each worker takes one test at a time, longest first
# (tests/conftest.py orders them), so no worker is left with a queue of long ones. Module fixtures (a local
# Ray, the fault matrix's reference) are made again where a worker's tests change module.
# FORGE_TEST_WORKERS=0 runs in one process.
exec .venv/bin/python -m pytest -n "${FORGE_TEST_WORKERS:-3}" --dist load --maxschedchunk 1 "$@"
