#!/usr/bin/env bash
# Installs what is missing, builds the wasm core and serves the tutorial / playground on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
RELPOS_SKIP_BROWSER=1 bash scripts/setup.sh
bash scripts/build.sh wasm
exec npx vite --host 127.0.0.1 --port "${PORT:-5173}"
