-- Row-level security for the tables of migration 0003 (see 0002 for the policy).
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['question_lists', 'question_list_versions', 'session_requests',
                           'session_request_events', 'jobs'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I TO actiondesk_app '
      'USING (organisation_id = actiondesk_current_org()) '
      'WITH CHECK (organisation_id = actiondesk_current_org())', t);
  END LOOP;
END
$$;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON question_lists, question_list_versions, session_requests,
  session_request_events, jobs TO actiondesk_app;
--> statement-breakpoint
GRANT USAGE ON SEQUENCE session_request_events_seq_seq TO actiondesk_app;
--> statement-breakpoint
-- Claims due jobs of every organisation for one worker: each claimed job gets a fresh lease token and
-- is hidden from other workers until the lease ends (a worker that dies mid-job loses it then).
-- SECURITY DEFINER because a worker serves all organisations; it returns only what running a job needs,
-- and the job itself then runs in a transaction of its own organisation.
CREATE FUNCTION actiondesk_claim_jobs(p_now timestamptz, p_limit integer, p_lease_seconds integer)
RETURNS TABLE (id uuid, organisation_id uuid, kind text, subject_id uuid, payload jsonb, attempts integer,
               max_attempts integer, lease_token uuid)
LANGUAGE sql VOLATILE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  UPDATE jobs j
     SET status = 'running', attempts = j.attempts + 1, lease_token = gen_random_uuid(),
         locked_until = p_now + make_interval(secs => p_lease_seconds)
    FROM (SELECT c.id FROM jobs c
           WHERE (c.status = 'pending' AND c.run_at <= p_now)
              OR (c.status = 'running' AND c.locked_until <= p_now)
           ORDER BY c.run_at
           LIMIT p_limit
           FOR UPDATE SKIP LOCKED) due
   WHERE j.id = due.id
  RETURNING j.id, j.organisation_id, j.kind, j.subject_id, j.payload, j.attempts, j.max_attempts, j.lease_token
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_claim_jobs(timestamptz, integer, integer) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_claim_jobs(timestamptz, integer, integer) TO actiondesk_app;
--> statement-breakpoint
-- Resolves a public action code to its organisation, before any organisation is known (the public
-- link). Returns only the two ids; the action itself is then read inside its organisation.
CREATE FUNCTION actiondesk_find_action(p_code text)
RETURNS TABLE (organisation_id uuid, session_request_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT s.organisation_id, s.id FROM session_requests s WHERE s.code = p_code
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_find_action(text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_find_action(text) TO actiondesk_app;
