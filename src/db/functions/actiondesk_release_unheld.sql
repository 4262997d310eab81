-- Live since migration 0037_job_claimant (to change it: src/db/functions/README.md).
--
-- Jobs running under p_worker's name whose lease it does not hold (p_held): due again at once, the
-- attempt that never started not counted. Answers their ids. Through the lease index.
CREATE OR REPLACE FUNCTION actiondesk_release_unheld(p_now timestamptz, p_worker text, p_held uuid[])
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
