-- Live since migration 0036_retention (to change it: src/db/functions/README.md).
--
-- The queue of every organisation, for the metrics (the app role sees no job outside a tenant
-- transaction): jobs by kind and state, and how long the oldest due one has waited. Read through the
-- two partial indexes (pending by run_at, running by lease) instead of a scan of every job kept.
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
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_job_queue(timestamptz) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_job_queue(timestamptz) TO actiondesk_app;
