-- Live since migration 0038_tenant_keys (to change it: src/db/functions/README.md).
--
-- Resolves a public action code to its organisation, before any organisation is known (the public
-- link): credential_keys names the organisation, and the action is then found by a key that includes
-- it. A code is an action's link or a signer's own link: the lookup answers the signer too (null for
-- actions without signers). It also answers the action's type and status, so that the contact's pages
-- choose how to lock the action (a share lock for an opened campaign, else a row lock) without reading
-- it twice; the action itself is then read inside its organisation.
CREATE OR REPLACE FUNCTION actiondesk_find_action(p_code text)
RETURNS TABLE (organisation_id uuid, session_request_id uuid, type text, status text, signer_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT g.organisation_id, g.session_request_id, s.type, s.status, g.id
    FROM credential_keys l
    JOIN signers g ON g.organisation_id = l.organisation_id AND g.code = l.value
    JOIN session_requests s ON s.organisation_id = g.organisation_id AND s.id = g.session_request_id
   WHERE l.kind = 'signers.code' AND l.value = p_code
  UNION ALL
  SELECT s.organisation_id, s.id, s.type, s.status, NULL::uuid
    FROM credential_keys l
    JOIN session_requests s ON s.organisation_id = l.organisation_id AND s.code = l.value
   WHERE l.kind = 'session_requests.code' AND l.value = p_code
     AND NOT EXISTS (SELECT 1 FROM credential_keys x WHERE x.kind = 'signers.code' AND x.value = p_code)
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_find_action(text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_find_action(text) TO actiondesk_app;
