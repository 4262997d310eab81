-- The public link's lookup also answers the action's type and status, so that the contact's pages choose
-- how to lock the action (a share lock for an opened campaign, else a row lock) without reading it twice.
DROP FUNCTION actiondesk_find_action(text);
--> statement-breakpoint
CREATE FUNCTION actiondesk_find_action(p_code text)
RETURNS TABLE (organisation_id uuid, session_request_id uuid, type text, status text)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT s.organisation_id, s.id, s.type, s.status FROM session_requests s WHERE s.code = p_code
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_find_action(text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_find_action(text) TO actiondesk_app;
