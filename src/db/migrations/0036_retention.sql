CREATE INDEX "audit_events_at_idx" ON "audit_events" USING btree ("at");--> statement-breakpoint
CREATE INDEX "events_created_idx" ON "events" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "jobs_finished_idx" ON "jobs" USING btree ("finished_at") WHERE "jobs"."status" <> 'pending' AND "jobs"."status" <> 'running';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_finished_idx" ON "webhook_deliveries" USING btree ("updated_at") WHERE "webhook_deliveries"."status" <> 'pending';--> statement-breakpoint
-- The retention sweep (docs/operations.md#retention): removes, across every organisation, at most
-- p_limit rows of each kind per call (short transactions; the worker calls again while a call removes
-- as many as allowed): finished jobs older than p_jobs_before; finished webhook deliveries last changed
-- before p_events_before, and events older than it that no delivery still names (an event waiting for
-- a delivery stays); audit records older than p_audit_before; expired idempotency keys and staff
-- sessions; file parts of uploads that never got their file (a process that ended mid-upload), after a
-- day. A NULL bound keeps that kind for ever. One sweep runs at a time, whichever instance calls.
-- An action's messages (notification jobs) are its history (GET /sessionrequests/{id} notifications):
-- they go with the action, not with job retention. Whatever the caller asks, nothing younger than a
-- day is removed (the bounds are capped by the database's own clock), so that the app role cannot
-- empty the audit trail through this function.
CREATE FUNCTION actiondesk_prune(p_now timestamptz, p_jobs_before timestamptz, p_events_before timestamptz,
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
    DELETE FROM audit_events WHERE id IN (
      SELECT a.id FROM audit_events a WHERE a.at < least(p_audit_before, now() - interval '1 day') LIMIT p_limit);
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
--> statement-breakpoint
-- The queue for the metrics, read through the two partial indexes (pending by run_at, running by lease)
-- instead of a scan of every job kept.
CREATE OR REPLACE FUNCTION actiondesk_job_queue(p_now timestamptz)
RETURNS TABLE (kind text, state text, jobs bigint, oldest_due_seconds double precision)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT j.kind, CASE WHEN j.run_at <= p_now THEN 'due' ELSE 'scheduled' END, count(*),
         max(extract(epoch FROM p_now - j.run_at)::double precision) FILTER (WHERE j.run_at <= p_now)
    FROM jobs j WHERE j.status = 'pending'
   GROUP BY 1, 2
  UNION ALL
  SELECT j.kind, 'running', count(*), NULL::double precision
    FROM jobs j WHERE j.status = 'running' AND j.locked_until IS NOT NULL
   GROUP BY 1
$$;
