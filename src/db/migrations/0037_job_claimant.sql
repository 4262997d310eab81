ALTER TABLE "jobs" ADD COLUMN "claimed_by" text;--> statement-breakpoint
-- The claim records which worker process holds each job (p_worker, random per process). A claim whose
-- answer was lost (the connection dropped while it committed) leaves jobs running under a lease nobody
-- knows; the worker that made it hands them back as soon as the database answers again
-- (actiondesk_release_unheld) instead of leaving them until their lease ends.
DROP FUNCTION actiondesk_claim_jobs(timestamptz, integer, integer);
--> statement-breakpoint
CREATE FUNCTION actiondesk_claim_jobs(p_now timestamptz, p_limit integer, p_lease_seconds integer, p_worker text)
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
--> statement-breakpoint
-- Jobs running under p_worker's name whose lease it does not hold (p_held): due again at once, the
-- attempt that never started not counted. Answers their ids. Through the lease index.
CREATE FUNCTION actiondesk_release_unheld(p_now timestamptz, p_worker text, p_held uuid[])
RETURNS TABLE (id uuid)
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  UPDATE jobs j
     SET status = 'pending', run_at = p_now, attempts = greatest(j.attempts - 1, 0),
         lease_token = NULL, locked_until = NULL, claimed_by = NULL
   WHERE j.status = 'running' AND j.locked_until IS NOT NULL AND j.claimed_by = p_worker
     AND NOT (j.lease_token = ANY (p_held))
  RETURNING j.id
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_release_unheld(timestamptz, text, uuid[]) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_release_unheld(timestamptz, text, uuid[]) TO actiondesk_app;
--> statement-breakpoint
-- The claim as instances of the previous release make it (no worker name), for as long as they run
-- beside new ones during a rolling deploy.
CREATE FUNCTION actiondesk_claim_jobs(p_now timestamptz, p_limit integer, p_lease_seconds integer)
RETURNS TABLE (id uuid, organisation_id uuid, kind text, subject_id uuid, payload jsonb, attempts integer,
               max_attempts integer, lease_token uuid, request_id text)
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT * FROM actiondesk_claim_jobs(p_now, p_limit, p_lease_seconds, NULL::text)
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_claim_jobs(timestamptz, integer, integer) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_claim_jobs(timestamptz, integer, integer) TO actiondesk_app;
