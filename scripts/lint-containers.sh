#!/usr/bin/env bash
# Lints the Dockerfile (dockerfile-utils: it prints problems but exits 0, so its output decides) and the
# compose file (dclint, warnings included). No Docker engine is needed.
set -euo pipefail
cd "$(dirname "$0")/.."
problems=$(npx --no-install dockerfile-utils lint Dockerfile)
if [ -n "$problems" ]; then
  printf 'Dockerfile:\n%s\n' "$problems"
  exit 1
fi
npx --no-install dclint --max-warnings 0 docker-compose.yml
echo "Dockerfile and docker-compose.yml: no problems"
