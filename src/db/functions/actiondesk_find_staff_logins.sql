-- Live since migration 0024_password_sign_in (to change it: src/db/functions/README.md).
--
-- The staff accounts with this e-mail that may sign in with a password, in every organisation (the
-- organisation is not known before the password is checked). SECURITY DEFINER; returns only what the
-- sign-in needs: with whether the organisation allows password sign-in and the user's groups
-- (administrators keep it: break-glass).
CREATE OR REPLACE FUNCTION actiondesk_find_staff_logins(p_email text)
RETURNS TABLE (organisation_id uuid, organisation_name text, user_id uuid, user_name text,
               password_hash text, user_status text, user_groups text[], password_sign_in boolean)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT u.organisation_id, o.name, u.id, u.name, u.password_hash, u.status, u.groups, o.password_sign_in
  FROM users u JOIN organisations o ON o.id = u.organisation_id
  WHERE lower(u.email) = lower(p_email) AND u.kind = 'staff'
  ORDER BY o.created_at, u.organisation_id
  LIMIT 20
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_find_staff_logins(text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_find_staff_logins(text) TO actiondesk_app;
