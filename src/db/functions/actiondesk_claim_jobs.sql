-- Live since migration 0037_job_claimant (to change it: src/db/functions/README.md).
--
-- Claims due jobs of every organisation for one worker: each claimed job gets a fresh lease token and
-- is hidden from other workers until the lease ends (a worker that dies mid-job loses it then).
-- SECURITY DEFINER because a worker serves all organisations; it returns only what running a job needs,
-- and the job itself then runs in a transaction of its own organisation.
-- Read through the two indexes: jobs whose lease ran out first, then due pending jobs, oldest first.
-- Jobs running now are in neither index's way.
-- The claim records which worker process holds each job (p_worker, random per process). A claim whose
-- answer was lost (the connection dropped while it committed) leaves jobs running under a lease nobody
-- knows; the worker that made it hands them back as soon as the database answers again
-- (actiondesk_release_unheld) instead of leaving them until their lease ends.
CREATE OR REPLACE FUNCTION actiondesk_claim_jobs(p_now timestamptz, p_limit integer, p_lease_seconds integer, p_worker text)
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
         locked_until = p_now + make_interval(secs => p_lease_seconds), claimed_by = p_worker
    FROM due
   WHERE j.id = due.id
  RETURNING j.id, j.organisation_id, j.kind, j.subject_id, j.payload, j.attempts, j.max_attempts, j.lease_token,
            j.request_id
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_claim_jobs(timestamptz, integer, integer, text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_claim_jobs(timestamptz, integer, integer, text) TO actiondesk_app;
