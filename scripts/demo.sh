#!/usr/bin/env bash
# Set up if needed, then run the main job on the embedded defaults (no API key, no server to start).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec .venv/bin/forge run configs/demo.yaml --baseline zero_shot --baseline reflexion "$@"
