DROP INDEX "jobs_due_idx";--> statement-breakpoint
CREATE INDEX "jobs_pending_idx" ON "jobs" USING btree ("run_at") WHERE "jobs"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "jobs_lease_idx" ON "jobs" USING btree ("locked_until") WHERE "jobs"."status" = 'running';--> statement-breakpoint
-- The same claim as before (migration 0004), read through the two indexes: jobs whose lease ran out
-- first, then due pending jobs, oldest first. Jobs running now are in neither index's way.
CREATE OR REPLACE FUNCTION actiondesk_claim_jobs(p_now timestamptz, p_limit integer, p_lease_seconds integer)
RETURNS TABLE (id uuid, organisation_id uuid, kind text, subject_id uuid, payload jsonb, attempts integer,
               max_attempts integer, lease_token uuid)
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  WITH expired AS (
    SELECT c.id FROM jobs c
     WHERE c.status = 'running' AND c.locked_until <= p_now
     ORDER BY c.locked_until
     LIMIT p_limit
     FOR UPDATE SKIP LOCKED
  ), pending AS (
    SELECT c.id FROM jobs c
     WHERE c.status = 'pending' AND c.run_at <= p_now
     ORDER BY c.run_at
     LIMIT p_limit
     FOR UPDATE SKIP LOCKED
  ), due AS (
    SELECT x.id FROM (SELECT e.id, 0 AS o FROM expired e UNION ALL SELECT p.id, 1 FROM pending p) x
     ORDER BY x.o
     LIMIT p_limit
  )
  UPDATE jobs j
     SET status = 'running', attempts = j.attempts + 1, lease_token = gen_random_uuid(),
         locked_until = p_now + make_interval(secs => p_lease_seconds)
    FROM due
   WHERE j.id = due.id
  RETURNING j.id, j.organisation_id, j.kind, j.subject_id, j.payload, j.attempts, j.max_attempts, j.lease_token
$$;
--> statement-breakpoint
-- Queue tables (jobs, events, webhook deliveries) are read and written by id, many rows at a time, in
-- bursts that planner statistics lag behind: a fresh burst in one organisation looks like one row, and
-- the planner then used the row-level security condition on organisation_id as an index condition and
-- scanned the whole organisation instead of looking the ids up (thousands of buffers per statement).
-- On these tables the policy compares organisation_id as text: the same isolation, never an index
-- condition. Queries that mean to read an organisation's rows say so with their own organisation_id
-- condition, which indexes serve.
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['jobs', 'events', 'webhook_deliveries'] LOOP
    EXECUTE format('DROP POLICY tenant_isolation ON %I', t);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I TO actiondesk_app '
      'USING (organisation_id::text = actiondesk_current_org()::text) '
      'WITH CHECK (organisation_id::text = actiondesk_current_org()::text)', t);
  END LOOP;
END
$$;
