-- Workers in other processes hear of a job due now at once (LISTEN actiondesk_jobs) instead of at their
-- next poll: an API-only instance's new invitations are sent by a worker-only instance within
-- milliseconds. The notification is sent at commit (never for a rolled-back job), once per transaction
-- however many jobs it wrote (identical notifications are merged). Jobs due later are found by polling.
CREATE FUNCTION actiondesk_notify_jobs() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('actiondesk_jobs', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER jobs_notify AFTER INSERT OR UPDATE OF status, run_at ON jobs
  FOR EACH ROW WHEN (NEW.status = 'pending' AND NEW.run_at <= now() + interval '1 second')
  EXECUTE FUNCTION actiondesk_notify_jobs();
