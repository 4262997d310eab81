CREATE TABLE "audit_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"actor_type" text NOT NULL,
	"actor_user_id" uuid,
	"actor_credential_id" text,
	"actor_label" text,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text NOT NULL,
	"summary" jsonb NOT NULL,
	"request_id" text,
	CONSTRAINT "audit_events_org_id_key" UNIQUE("organisation_id","id")
);
--> statement-breakpoint
ALTER TABLE "sso_providers" ADD COLUMN "directory_sync" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sso_providers" ADD COLUMN "directory_url" text;--> statement-breakpoint
ALTER TABLE "sso_providers" ADD COLUMN "group_mapping" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "sso_providers" ADD COLUMN "sync_names" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sso_providers" ADD COLUMN "last_sync_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sso_providers" ADD COLUMN "last_sync_outcome" jsonb;--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_events_org_at_idx" ON "audit_events" USING btree ("organisation_id","at","id");--> statement-breakpoint
CREATE INDEX "audit_events_org_target_idx" ON "audit_events" USING btree ("organisation_id","target_type","target_id","at");--> statement-breakpoint
SELECT actiondesk_make_tenant_table('audit_events');
