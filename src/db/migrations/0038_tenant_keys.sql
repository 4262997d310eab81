-- Every tenant table's primary and unique keys include organisation_id, so the schema can be
-- distributed by organisation (Citus: docs/scaling.md).
--
-- 1. Primary keys become (organisation_id, id). They take over from the (organisation_id, id) unique
--    constraints that the composite foreign keys pointed at, so there is no extra index to write. The
--    queue tables (jobs, events, webhook_deliveries) keep a plain index on id: their rows are found by
--    id alone, and there row-level security is never an index condition (migration 0011).
-- 2. The credentials looked up before an organisation is known (API key prefixes, link codes, OAuth
--    client ids, token, code and password-link hashes) were unique across organisations. Their unique
--    keys now include organisation_id, and credential_keys keeps the values unique across
--    organisations and says which organisation holds each one: triggers write it, and the lookup
--    functions read it first and then look in that organisation. A value already taken raises the
--    unique violation of the table's own constraint, as before.
CREATE TABLE "credential_keys" (
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"organisation_id" uuid NOT NULL,
	CONSTRAINT "credential_keys_pkey" PRIMARY KEY("kind","value")
);
--> statement-breakpoint
REVOKE ALL ON credential_keys FROM PUBLIC;
--> statement-breakpoint
DO $$
DECLARE
  t text;
  fk record;
  tables text[] := ARRAY['api_keys', 'audit_events', 'campaign_visitors', 'customers', 'events', 'files',
    'jobs', 'oauth_clients', 'oauth_codes', 'oauth_tokens', 'password_tokens', 'portfolios',
    'question_lists', 'session_request_events', 'session_requests', 'sessions', 'setups', 'signers',
    'sso_identities', 'sso_providers', 'users', 'webhook_deliveries', 'webhook_endpoints'];
BEGIN
  -- The foreign keys that point at these tables depend on the keys being replaced: drop them and add
  -- them again, unchanged, once the primary keys are in place.
  CREATE TEMP TABLE actiondesk_saved_fks ON COMMIT DROP AS
    SELECT c.conrelid::regclass::text AS tbl, c.conname, pg_get_constraintdef(c.oid) AS def
      FROM pg_constraint c
     WHERE c.contype = 'f' AND c.confrelid::regclass::text = ANY (tables);
  FOR fk IN SELECT * FROM actiondesk_saved_fks LOOP
    EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', fk.tbl, fk.conname);
  END LOOP;
  FOREACH t IN ARRAY tables LOOP
    EXECUTE format('ALTER TABLE %I DROP CONSTRAINT IF EXISTS %I', t, t || '_org_id_key');
    EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', t, t || '_pkey');
    EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I PRIMARY KEY (organisation_id, id)', t, t || '_pkey');
  END LOOP;
  FOR fk IN SELECT * FROM actiondesk_saved_fks LOOP
    EXECUTE format('ALTER TABLE %s ADD CONSTRAINT %I %s', fk.tbl, fk.conname, fk.def);
  END LOOP;
END
$$;
--> statement-breakpoint
CREATE INDEX "events_id_idx" ON "events" USING btree ("id");--> statement-breakpoint
CREATE INDEX "jobs_id_idx" ON "jobs" USING btree ("id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_id_idx" ON "webhook_deliveries" USING btree ("id");--> statement-breakpoint
DROP INDEX "oauth_clients_client_id_key";--> statement-breakpoint
DROP INDEX "oauth_codes_hash_key";--> statement-breakpoint
DROP INDEX "oauth_tokens_hash_key";--> statement-breakpoint
DROP INDEX "session_requests_code_key";--> statement-breakpoint
DROP INDEX "signers_code_key";--> statement-breakpoint
DROP INDEX "password_tokens_hash_key";--> statement-breakpoint
DROP INDEX "api_keys_prefix_key";--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_clients_client_id_key" ON "oauth_clients" USING btree ("organisation_id","client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_codes_hash_key" ON "oauth_codes" USING btree ("organisation_id","code_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_tokens_hash_key" ON "oauth_tokens" USING btree ("organisation_id","token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "session_requests_code_key" ON "session_requests" USING btree ("organisation_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "signers_code_key" ON "signers" USING btree ("organisation_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "password_tokens_hash_key" ON "password_tokens" USING btree ("organisation_id","token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_prefix_key" ON "api_keys" USING btree ("organisation_id","prefix");--> statement-breakpoint
-- Keeps credential_keys in step with a tenant table. Arguments: the column, and the name of the table's
-- unique constraint to report when the value is taken (in any organisation).
CREATE FUNCTION actiondesk_credential_key() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  v_kind text := TG_TABLE_NAME || '.' || TG_ARGV[0];
  v_old text;
  v_new text;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    v_old := to_jsonb(OLD) ->> TG_ARGV[0];
  END IF;
  IF TG_OP <> 'DELETE' THEN
    v_new := to_jsonb(NEW) ->> TG_ARGV[0];
  END IF;
  IF TG_OP = 'UPDATE' AND v_old IS NOT DISTINCT FROM v_new AND OLD.organisation_id = NEW.organisation_id THEN
    RETURN NEW;
  END IF;
  IF v_old IS NOT NULL THEN
    DELETE FROM credential_keys
     WHERE kind = v_kind AND value = v_old AND organisation_id = OLD.organisation_id;
  END IF;
  IF v_new IS NOT NULL THEN
    INSERT INTO credential_keys (kind, value, organisation_id)
    VALUES (v_kind, v_new, NEW.organisation_id)
    ON CONFLICT DO NOTHING;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'duplicate key value violates unique constraint "%"', TG_ARGV[1]
        USING ERRCODE = 'unique_violation', CONSTRAINT = TG_ARGV[1], TABLE = TG_TABLE_NAME,
              COLUMN = TG_ARGV[0], DETAIL = format('The %s is already taken.', TG_ARGV[0]);
    END IF;
  END IF;
  RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
END
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_credential_key() FROM PUBLIC;
--> statement-breakpoint
DO $$
DECLARE
  k text[];
BEGIN
  FOREACH k SLICE 1 IN ARRAY ARRAY[
    ['api_keys', 'prefix', 'api_keys_prefix_key'],
    ['session_requests', 'code', 'session_requests_code_key'],
    ['signers', 'code', 'signers_code_key'],
    ['password_tokens', 'token_hash', 'password_tokens_hash_key'],
    ['oauth_clients', 'client_id', 'oauth_clients_client_id_key'],
    ['oauth_tokens', 'token_hash', 'oauth_tokens_hash_key'],
    ['oauth_codes', 'code_hash', 'oauth_codes_hash_key']
  ] LOOP
    EXECUTE format(
      'INSERT INTO credential_keys (kind, value, organisation_id) SELECT %L, %I, organisation_id FROM %I',
      k[1] || '.' || k[2], k[2], k[1]);
    EXECUTE format(
      'CREATE TRIGGER %I AFTER INSERT OR DELETE OR UPDATE OF %I, organisation_id ON %I '
      'FOR EACH ROW EXECUTE FUNCTION actiondesk_credential_key(%L, %L)',
      k[1] || '_credential_key', k[2], k[1], k[2], k[3]);
  END LOOP;
END
$$;
--> statement-breakpoint
-- The lookups before an organisation is known: credential_keys names the organisation, and the row is
-- then found by a key that includes it.
CREATE OR REPLACE FUNCTION actiondesk_find_api_key(p_prefix text)
RETURNS TABLE (key_id uuid, organisation_id uuid, user_id uuid, secret_hash text, user_status text,
               user_groups text[], auth_version integer)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT k.id, k.organisation_id, k.user_id, k.secret_hash, u.status, u.groups, u.auth_version
  FROM credential_keys l
  JOIN api_keys k ON k.organisation_id = l.organisation_id AND k.prefix = l.value
  JOIN users u ON u.organisation_id = k.organisation_id AND u.id = k.user_id
  WHERE l.kind = 'api_keys.prefix' AND l.value = p_prefix AND k.revoked_at IS NULL
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION actiondesk_find_action(p_code text)
RETURNS TABLE (organisation_id uuid, session_request_id uuid, type text, status text, signer_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT g.organisation_id, g.session_request_id, s.type, s.status, g.id
    FROM credential_keys l
    JOIN signers g ON g.organisation_id = l.organisation_id AND g.code = l.value
    JOIN session_requests s ON s.organisation_id = g.organisation_id AND s.id = g.session_request_id
   WHERE l.kind = 'signers.code' AND l.value = p_code
  UNION ALL
  SELECT s.organisation_id, s.id, s.type, s.status, NULL::uuid
    FROM credential_keys l
    JOIN session_requests s ON s.organisation_id = l.organisation_id AND s.code = l.value
   WHERE l.kind = 'session_requests.code' AND l.value = p_code
     AND NOT EXISTS (SELECT 1 FROM credential_keys x WHERE x.kind = 'signers.code' AND x.value = p_code)
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION actiondesk_find_oauth_client(p_client_id text)
RETURNS TABLE (id uuid, organisation_id uuid, type text, secret_hash text, grants text[], scopes text[],
               redirect_uris text[], service_user_id uuid, disabled_at timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT c.id, c.organisation_id, c.type, c.secret_hash, c.grants, c.scopes, c.redirect_uris,
         c.service_user_id, c.disabled_at
  FROM credential_keys l
  JOIN oauth_clients c ON c.organisation_id = l.organisation_id AND c.client_id = l.value
  WHERE l.kind = 'oauth_clients.client_id' AND l.value = p_client_id
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION actiondesk_find_oauth_code(p_hash text)
RETURNS TABLE (id uuid, organisation_id uuid, client_id uuid, user_id uuid, redirect_uri text,
               redirect_uri_given boolean, scopes text[], code_challenge text, code_challenge_method text,
               expires_at timestamptz, used_at timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT k.id, k.organisation_id, k.client_id, k.user_id, k.redirect_uri, k.redirect_uri_given, k.scopes,
         k.code_challenge, k.code_challenge_method, k.expires_at, k.used_at
  FROM credential_keys l
  JOIN oauth_codes k ON k.organisation_id = l.organisation_id AND k.code_hash = l.value
  WHERE l.kind = 'oauth_codes.code_hash' AND l.value = p_hash
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION actiondesk_find_oauth_token(p_hash text)
RETURNS TABLE (token_id uuid, organisation_id uuid, client_id uuid, user_id uuid, kind text, scopes text[],
               expires_at timestamptz, revoked_at timestamptz, client_disabled_at timestamptz,
               user_status text, user_groups text[], auth_version integer, family_id uuid,
               created_at timestamptz, last_used_at timestamptz, public_client_id text, user_kind text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT t.id, t.organisation_id, t.client_id, t.user_id, t.kind, t.scopes, t.expires_at, t.revoked_at,
         c.disabled_at, u.status, u.groups, u.auth_version, t.family_id, t.created_at, t.last_used_at,
         c.client_id, u.kind
  FROM credential_keys l
  JOIN oauth_tokens t ON t.organisation_id = l.organisation_id AND t.token_hash = l.value
  JOIN oauth_clients c ON c.organisation_id = t.organisation_id AND c.id = t.client_id
  JOIN users u ON u.organisation_id = t.organisation_id AND u.id = t.user_id
  WHERE l.kind = 'oauth_tokens.token_hash' AND l.value = p_hash
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION actiondesk_find_password_token(p_hash text)
RETURNS TABLE (token_id uuid, organisation_id uuid, user_id uuid, expires_at timestamptz,
               used_at timestamptz)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT t.id, t.organisation_id, t.user_id, t.expires_at, t.used_at
  FROM credential_keys l
  JOIN password_tokens t ON t.organisation_id = l.organisation_id AND t.token_hash = l.value
  WHERE l.kind = 'password_tokens.token_hash' AND l.value = p_hash
$$;
