CREATE TABLE "events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "events_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"txid" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	"type" text NOT NULL,
	"subject_id" uuid,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "events_org_id_key" UNIQUE("organisation_id","id")
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"endpoint_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"subject_id" uuid,
	"event_seq" bigint NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_attempt_at" timestamp with time zone,
	"response_status" integer,
	"response_body" text,
	"duration_ms" integer,
	"last_error" text,
	"request" jsonb,
	"history" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "webhook_deliveries_org_id_key" UNIQUE("organisation_id","id")
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"url" text NOT NULL,
	"description" text,
	"events" text[] NOT NULL,
	"enabled" boolean NOT NULL,
	"disabled_reason" text,
	"secrets" jsonb NOT NULL,
	"failing_since" timestamp with time zone,
	"created_by" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "webhook_endpoints_org_id_key" UNIQUE("organisation_id","id")
);
--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_fk" FOREIGN KEY ("organisation_id","endpoint_id") REFERENCES "public"."webhook_endpoints"("organisation_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_fk" FOREIGN KEY ("organisation_id","event_id") REFERENCES "public"."events"("organisation_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "events_org_order_idx" ON "events" USING btree ("organisation_id","txid","seq");--> statement-breakpoint
CREATE INDEX "events_org_type_order_idx" ON "events" USING btree ("organisation_id","type","txid","seq");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_org_endpoint_idx" ON "webhook_deliveries" USING btree ("organisation_id","endpoint_id","created_at","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_org_event_idx" ON "webhook_deliveries" USING btree ("organisation_id","event_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_pending_subject_idx" ON "webhook_deliveries" USING btree ("organisation_id","subject_id","endpoint_id","event_seq") WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_endpoints_org_created_idx" ON "webhook_endpoints" USING btree ("organisation_id","created_at","id");--> statement-breakpoint
SELECT actiondesk_make_tenant_table('events');
--> statement-breakpoint
SELECT actiondesk_make_tenant_table('webhook_endpoints');
--> statement-breakpoint
SELECT actiondesk_make_tenant_table('webhook_deliveries');
--> statement-breakpoint
GRANT USAGE ON SEQUENCE events_seq_seq TO actiondesk_app;
--> statement-breakpoint
-- Queue tables are read and written by id, many rows at a time, and an organisation's share of them
-- swings with every burst. Statistics on organisation_id only mislead the planner there: a burst in a
-- new organisation (absent from the sampled values) is estimated at one row, and the planner then scans
-- the whole organisation instead of looking ids up. Without them it uses a fixed, modest estimate.
ALTER TABLE jobs ALTER COLUMN organisation_id SET STATISTICS 0;
--> statement-breakpoint
ALTER TABLE events ALTER COLUMN organisation_id SET STATISTICS 0;
--> statement-breakpoint
ALTER TABLE webhook_deliveries ALTER COLUMN organisation_id SET STATISTICS 0;
--> statement-breakpoint
-- Fans an event out to the organisation's webhook endpoints that subscribe to its type, in the
-- transaction that writes the event, so a committed change always has its deliveries: one delivery
-- and one delivery job per enabled endpoint; for an endpoint the service disabled after 3 days of
-- failures, a delivery recorded as cancelled (to redeliver once it is enabled again) and no job. Runs as
-- the caller (row-level security applies: the event's organisation is the caller's).
--
-- Order: a delivery behind an earlier pending one of the same subject to the same endpoint waits (the
-- earlier one wakes it when it finishes, and after a minute it looks again by itself). The check locks
-- the earlier deliveries (FOR SHARE): an attempt being recorded meanwhile either finishes first, and is
-- then seen as no longer pending, or waits for this transaction and then wakes what it wrote
-- (webhooks.repository.ts, wakeNext).
-- The job's kind and attempts must match webhookDeliveryJob (modules/webhooks); a test checks that they do.
CREATE FUNCTION actiondesk_fan_out_event() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  WITH d AS (
    INSERT INTO webhook_deliveries (id, organisation_id, endpoint_id, event_id, event_type, subject_id,
                                    event_seq, status, next_attempt_at, last_error, created_at, updated_at)
    SELECT gen_random_uuid(), NEW.organisation_id, w.id, NEW.id, NEW.type, NEW.subject_id, NEW.seq,
           CASE WHEN w.enabled THEN 'pending' ELSE 'cancelled' END,
           CASE WHEN NOT w.enabled THEN NULL
                WHEN NEW.subject_id IS NOT NULL AND EXISTS (
                  SELECT 1 FROM webhook_deliveries p
                   WHERE p.organisation_id = NEW.organisation_id AND p.subject_id = NEW.subject_id
                     AND p.endpoint_id = w.id AND p.status = 'pending'
                     FOR SHARE)
                THEN NEW.created_at + interval '1 minute' ELSE NEW.created_at END,
           CASE WHEN w.enabled THEN NULL
                ELSE 'the webhook was disabled after failing for 3 days: redeliver once it is enabled again' END,
           NEW.created_at, NEW.created_at
      FROM webhook_endpoints w
     WHERE w.organisation_id = NEW.organisation_id
       AND (w.enabled OR w.disabled_reason IS NOT NULL)
       AND ('*' = ANY(w.events) OR NEW.type = ANY(w.events))
    RETURNING id, status, next_attempt_at
  )
  INSERT INTO jobs (id, organisation_id, kind, subject_id, payload, status, run_at, max_attempts, created_at)
  SELECT gen_random_uuid(), NEW.organisation_id, 'webhook-delivery', d.id, '{}'::jsonb, 'pending',
         d.next_attempt_at, 8, NEW.created_at
    FROM d WHERE d.status = 'pending';
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER events_fan_out AFTER INSERT ON events FOR EACH ROW EXECUTE FUNCTION actiondesk_fan_out_event();
