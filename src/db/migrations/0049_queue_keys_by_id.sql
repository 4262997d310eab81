-- The queue tables (events, jobs, webhook deliveries) are keyed by (id, organisation_id) now, id first,
-- as migration 0047 did for four unique keys: a row is found by its id whatever the planner believes
-- of its organisation's share, so the separate id indexes go (one index fewer per insert), and the
-- workarounds of migrations 0010 and 0011 are undone:
-- - their policies compare organisation_id as a uuid again. The planner then knows the policy's
--   condition and a query's own "organisation_id = X" are one and the same (an equivalence class):
--   it estimated the two as independent before, multiplied their default selectivities, expected one
--   row for an organisation with 41,000 events, and read all of them to sort them for the events page;
-- - organisation_id has statistics again, so an organisation's share is known.
-- test/database.test.ts, "lookups by primary key" and "pages in index order", holds both.
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_event_fk";--> statement-breakpoint
DROP INDEX "events_id_idx";--> statement-breakpoint
DROP INDEX "jobs_id_idx";--> statement-breakpoint
DROP INDEX "webhook_deliveries_id_idx";--> statement-breakpoint
ALTER TABLE "events" DROP CONSTRAINT "events_pkey";--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_pkey" PRIMARY KEY("id","organisation_id");--> statement-breakpoint
ALTER TABLE "jobs" DROP CONSTRAINT "jobs_pkey";--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_pkey" PRIMARY KEY("id","organisation_id");--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_pkey";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY("id","organisation_id");--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_fk" FOREIGN KEY ("organisation_id","event_id") REFERENCES "public"."events"("organisation_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['jobs', 'events', 'webhook_deliveries'] LOOP
    EXECUTE format('DROP POLICY tenant_isolation ON %I', t);
    PERFORM actiondesk_make_tenant_table(t::regclass);
    EXECUTE format('ALTER TABLE %I ALTER COLUMN organisation_id SET STATISTICS -1', t);
  END LOOP;
END
$$;
