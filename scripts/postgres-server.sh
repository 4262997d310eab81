#!/usr/bin/env bash
# Starts Debian's PostgreSQL on 127.0.0.1:5432 (installing it if needed) and creates a fresh database
# owned by a login role that may create roles (the migrations create the actiondesk_app role) and
# databases (the test suite gives each test file a copy of a migrated template database).
# Usage: bash scripts/postgres-server.sh [database]   (default: actiondesk_test); run as root.
# Prints the DATABASE_URL to use on its last line.
set -euo pipefail
db="${1:-actiondesk_test}"

if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq postgresql >/dev/null
fi
ver=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
if ! pg_lsclusters -h | awk '{print $1" "$2}' | grep -qx "$ver main"; then
  pg_createcluster "$ver" main >/dev/null
fi
if ! pg_lsclusters -h | awk -v v="$ver" '$1==v && $2=="main" {print $4}' | grep -qx online; then
  pg_ctlcluster "$ver" main start
fi
for _ in $(seq 1 30); do
  pg_isready -q -h 127.0.0.1 -p 5432 && break
  sleep 1
done

su postgres -c "psql -q -v ON_ERROR_STOP=1" >/dev/null <<SQL
SET client_min_messages = warning;
DO \$\$ BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'actiondesk') THEN
    CREATE ROLE actiondesk LOGIN PASSWORD 'actiondesk' CREATEROLE CREATEDB;
  END IF;
  ALTER ROLE actiondesk CREATEDB;
END \$\$;
-- The test harness drops its databases WITH (FORCE): that must end every session still in them, an
-- autovacuum worker's too, which only a member of pg_signal_backend may do.
GRANT pg_signal_backend TO actiondesk;
DROP DATABASE IF EXISTS ${db} WITH (FORCE);
CREATE DATABASE ${db} OWNER actiondesk;
SQL
echo "postgres://actiondesk:actiondesk@127.0.0.1:5432/${db}"
