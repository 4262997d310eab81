-- A job remembers the request whose transaction made it (also the jobs made by triggers, such as
-- webhook deliveries), so that the worker's log lines for it carry that request's id. Added without a
-- default first, then given one: existing rows stay NULL and the table is not rewritten.
ALTER TABLE "jobs" ADD COLUMN "request_id" text;
--> statement-breakpoint
ALTER TABLE "jobs" ALTER COLUMN "request_id" SET DEFAULT (nullif(current_setting('app.request', true), '')::jsonb ->> 'id');
--> statement-breakpoint
-- The claim answers the request id too (its result type changes, so the function is made anew).
DROP FUNCTION actiondesk_claim_jobs(timestamptz, integer, integer);
--> statement-breakpoint
CREATE FUNCTION actiondesk_claim_jobs(p_now timestamptz, p_limit integer, p_lease_seconds integer)
RETURNS TABLE (id uuid, organisation_id uuid, kind text, subject_id uuid, payload jsonb, attempts integer,
               max_attempts integer, lease_token uuid, request_id text)
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
  RETURNING j.id, j.organisation_id, j.kind, j.subject_id, j.payload, j.attempts, j.max_attempts, j.lease_token,
            j.request_id
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_claim_jobs(timestamptz, integer, integer) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_claim_jobs(timestamptz, integer, integer) TO actiondesk_app;
--> statement-breakpoint
-- The queue of every organisation, for the metrics (the app role sees no job outside a tenant
-- transaction): jobs by kind and state, and how long the oldest due one has waited. Pending jobs are
-- read through jobs_pending_idx and running ones through jobs_lease_idx.
CREATE FUNCTION actiondesk_job_queue(p_now timestamptz)
RETURNS TABLE (kind text, state text, jobs bigint, oldest_due_seconds double precision)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT j.kind,
         CASE WHEN j.status = 'running' THEN 'running' WHEN j.run_at <= p_now THEN 'due' ELSE 'scheduled' END,
         count(*),
         max(extract(epoch FROM p_now - j.run_at)::double precision) FILTER (WHERE j.status = 'pending' AND j.run_at <= p_now)
    FROM jobs j
   WHERE j.status IN ('pending', 'running')
   GROUP BY 1, 2
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_job_queue(timestamptz) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_job_queue(timestamptz) TO actiondesk_app;
