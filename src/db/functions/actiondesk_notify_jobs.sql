-- Live since migration 0034_jobs_notify (to change it: src/db/functions/README.md).
--
-- Workers in other processes hear of a job due now at once (LISTEN actiondesk_jobs) instead of at their
-- next poll: an API-only instance's new invitations are sent by a worker-only instance within
-- milliseconds. The notification is sent at commit (never for a rolled-back job), once per transaction
-- however many jobs it wrote (identical notifications are merged). Jobs due later are found by polling.
CREATE OR REPLACE FUNCTION actiondesk_notify_jobs() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('actiondesk_jobs', '');
  RETURN NULL;
END
$$;
