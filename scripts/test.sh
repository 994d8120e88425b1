#!/usr/bin/env bash
# Set up if needed, then run the whole test suite (real CybORG, Ray, MLflow, Redis, HTTP).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec .venv/bin/python -m pytest "$@"
