-- Live since migration 0042_oauth_authorization_requests (to change it: src/db/functions/README.md).
--
-- The retention sweep (docs/operations.md#retention): removes, across every organisation, at most
-- p_limit rows of each kind per call (short transactions; the worker calls again while a call removes
-- as many as allowed): finished jobs older than p_jobs_before; finished webhook deliveries last changed
-- before p_events_before, and events older than it that no delivery still names (an event waiting for
-- a delivery stays); audit records older than p_audit_before; expired idempotency keys and staff
-- sessions; the consent pages' authorization requests once they expired (answered or not: a used one
-- is kept only until then); file parts of uploads that never got their file (a process that ended
-- mid-upload), after a day. A NULL bound keeps that kind for ever. One sweep runs at a time, whichever
-- instance calls.
-- An action's messages (notification jobs) are its history (GET /sessionrequests/{id} notifications):
-- they go with the action, not with job retention. Whatever the caller asks, nothing younger than a
-- day is removed (the bounds are capped by the database's own clock), so that the app role cannot
-- empty the audit trail through this function.
-- Audit records are found by their primary key, (organisation_id, id) since migration 0038: by id
-- alone, each batch would scan the whole audit trail (jobs, events and deliveries keep plain id indexes).
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
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_prune(timestamptz, timestamptz, timestamptz, timestamptz, integer) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_prune(timestamptz, timestamptz, timestamptz, timestamptz, integer) TO actiondesk_app;
