-- Live since migration 0054_usage (to change it: src/db/functions/README.md).
--
-- What each live organisation did in [p_from, p_to), for `npm run cli -- usage` (billing-like counts):
-- actions created, sent and completed, and signatures given. Test organisations (test mode, issue 31)
-- are never counted: their work has no value to bill.
CREATE OR REPLACE FUNCTION actiondesk_usage(p_from timestamptz, p_to timestamptz)
RETURNS TABLE (organisation_id uuid, name text, actions_created bigint, actions_sent bigint,
               actions_completed bigint, signatures bigint)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT o.id, o.name,
         (SELECT count(*) FROM session_requests r
           WHERE r.organisation_id = o.id AND r.created_at >= p_from AND r.created_at < p_to),
         (SELECT count(*) FROM session_requests r
           WHERE r.organisation_id = o.id AND r.sent_at >= p_from AND r.sent_at < p_to),
         (SELECT count(*) FROM session_requests r
           WHERE r.organisation_id = o.id AND r.completed_at >= p_from AND r.completed_at < p_to),
         (SELECT count(*) FROM signers s
           WHERE s.organisation_id = o.id AND s.signed_at >= p_from AND s.signed_at < p_to)
    FROM organisations o
   WHERE o.live_organisation_id IS NULL
   ORDER BY o.name, o.id
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_usage(timestamptz, timestamptz) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_usage(timestamptz, timestamptz) TO actiondesk_app;
