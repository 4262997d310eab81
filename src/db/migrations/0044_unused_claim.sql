-- The claim without a worker name (migration 0037) was kept for instances of the release before 0037
-- while they ran beside new ones during a rolling deploy. Every release since names its worker
-- (platform/jobs/jobs.repository.ts), and nothing calls the three-argument claim any more.
DROP FUNCTION actiondesk_claim_jobs(timestamptz, integer, integer);
