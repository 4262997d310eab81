CREATE TABLE "oauth_authorization_requests" (
	"organisation_id" uuid NOT NULL,
	"request_hash" text NOT NULL,
	"user_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"redirect_uri" text NOT NULL,
	"redirect_uri_given" boolean NOT NULL,
	"scopes" text[] NOT NULL,
	"state" text,
	"code_challenge" text,
	"code_challenge_method" text,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	CONSTRAINT "oauth_authorization_requests_pkey" PRIMARY KEY("organisation_id","request_hash")
);
--> statement-breakpoint
ALTER TABLE "oauth_authorization_requests" ADD CONSTRAINT "oauth_authorization_requests_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_authorization_requests" ADD CONSTRAINT "oauth_authorization_requests_client_fk" FOREIGN KEY ("organisation_id","client_id") REFERENCES "public"."oauth_clients"("organisation_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_authorization_requests" ADD CONSTRAINT "oauth_authorization_requests_user_fk" FOREIGN KEY ("organisation_id","user_id") REFERENCES "public"."users"("organisation_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "oauth_authorization_requests_expires_idx" ON "oauth_authorization_requests" USING btree ("expires_at");--> statement-breakpoint
SELECT actiondesk_make_tenant_table('oauth_authorization_requests');
--> statement-breakpoint
-- The retention sweep also removes the consent pages' authorization requests once they expired
-- (answered or not: a used one is kept only until then). The rest is as in migration 0039.
CREATE OR REPLACE FUNCTION actiondesk_prune(p_now timestamptz, p_jobs_before timestamptz, p_events_before timestamptz,
                                 p_audit_before timestamptz, p_limit integer)
RETURNS TABLE (what text, removed bigint)
LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
  n bigint;
BEGIN
  IF NOT pg_try_advisory_xact_lock(472038612) THEN
    RETURN;
  END IF;
  IF p_jobs_before IS NOT NULL THEN
    DELETE FROM jobs WHERE id IN (
      SELECT j.id FROM jobs j
       WHERE j.status <> 'pending' AND j.status <> 'running' AND j.kind <> 'notification'
         AND j.finished_at < least(p_jobs_before, now() - interval '1 day')
       LIMIT p_limit);
    GET DIAGNOSTICS n = ROW_COUNT;
    what := 'jobs'; removed := n; RETURN NEXT;
  END IF;
  IF p_events_before IS NOT NULL THEN
    DELETE FROM webhook_deliveries WHERE id IN (
      SELECT d.id FROM webhook_deliveries d
       WHERE d.status <> 'pending' AND d.updated_at < least(p_events_before, now() - interval '1 day')
       LIMIT p_limit);
    GET DIAGNOSTICS n = ROW_COUNT;
    what := 'webhook_deliveries'; removed := n; RETURN NEXT;
    DELETE FROM events WHERE id IN (
      SELECT e.id FROM events e
       WHERE e.created_at < least(p_events_before, now() - interval '1 day')
         AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d
                          WHERE d.organisation_id = e.organisation_id AND d.event_id = e.id)
       LIMIT p_limit);
    GET DIAGNOSTICS n = ROW_COUNT;
    what := 'events'; removed := n; RETURN NEXT;
  END IF;
  IF p_audit_before IS NOT NULL THEN
    DELETE FROM audit_events WHERE (organisation_id, id) IN (
      SELECT a.organisation_id, a.id FROM audit_events a
       WHERE a.at < least(p_audit_before, now() - interval '1 day') LIMIT p_limit);
    GET DIAGNOSTICS n = ROW_COUNT;
    what := 'audit_events'; removed := n; RETURN NEXT;
  END IF;
  DELETE FROM idempotency_keys WHERE ctid IN (
    SELECT k.ctid FROM idempotency_keys k WHERE k.expires_at < least(p_now, now()) LIMIT p_limit);
  GET DIAGNOSTICS n = ROW_COUNT;
  what := 'idempotency_keys'; removed := n; RETURN NEXT;
  DELETE FROM staff_sessions WHERE sid IN (
    SELECT s.sid FROM staff_sessions s WHERE s.expire < least(p_now, now()) LIMIT p_limit);
  GET DIAGNOSTICS n = ROW_COUNT;
  what := 'staff_sessions'; removed := n; RETURN NEXT;
  DELETE FROM oauth_authorization_requests WHERE (organisation_id, request_hash) IN (
    SELECT r.organisation_id, r.request_hash FROM oauth_authorization_requests r
     WHERE r.expires_at < least(p_now, now()) LIMIT p_limit);
  GET DIAGNOSTICS n = ROW_COUNT;
  what := 'oauth_authorization_requests'; removed := n; RETURN NEXT;
  DELETE FROM file_contents WHERE ctid IN (
    SELECT c.ctid FROM file_contents c
     WHERE c.created_at < least(p_now, now()) - interval '1 day'
       AND NOT EXISTS (SELECT 1 FROM files f WHERE f.organisation_id = c.organisation_id AND f.id = c.file_id)
     LIMIT p_limit);
  GET DIAGNOSTICS n = ROW_COUNT;
  what := 'file_contents'; removed := n; RETURN NEXT;
END
$$;

