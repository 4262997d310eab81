CREATE TABLE "setups" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"session_request_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	CONSTRAINT "setups_org_id_key" UNIQUE("organisation_id","id")
);
--> statement-breakpoint
ALTER TABLE "setups" ADD CONSTRAINT "setups_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "setups_org_created_idx" ON "setups" USING btree ("organisation_id","created_at");--> statement-breakpoint
SELECT actiondesk_make_tenant_table('setups');
