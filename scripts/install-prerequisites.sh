#!/usr/bin/env bash
# Installs the system packages the tests and scripts use, skipping those already installed (then it
# costs well under a second and needs no network): Chromium (browser tests), poppler-utils (pdfsig
# checks signed PDFs), OpenSSL (the signing tests' local CA and time-stamping authority), Prometheus's promtool (checks /metrics), PostgreSQL (the server run, and the
# failure and scale scripts) with its client tools, HAProxy and PgBouncer (the scale script).
# Usage, on Debian or Ubuntu: sudo bash scripts/install-prerequisites.sh
set -euo pipefail
packages=(chromium poppler-utils openssl postgresql postgresql-client haproxy pgbouncer prometheus)

missing=()
with_recommends=()
for p in "${packages[@]}"; do
  if [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" != "install ok installed" ]; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "System packages: all ${#packages[@]} installed already"
  exit 0
fi
echo "System packages: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
for p in "${missing[@]}"; do
  # The prometheus package's recommends would pull in a whole monitoring stack: promtool is all we use.
  if [ "$p" = prometheus ]; then
    apt-get install -y -qq --no-install-recommends prometheus >/dev/null
  else
    with_recommends+=("$p")
  fi
done
if [ ${#with_recommends[@]} -gt 0 ]; then apt-get install -y -qq "${with_recommends[@]}" >/dev/null; fi
