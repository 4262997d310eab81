CREATE TABLE "sso_providers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"issuer" text NOT NULL,
	"tenant_id" text,
	"client_id" text NOT NULL,
	"client_secret_sealed" text NOT NULL,
	"secret_updated_at" timestamp with time zone NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"allowed_domains" text[] DEFAULT '{}'::text[] NOT NULL,
	"jit_group" text,
	"created_by" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sso_providers_org_id_key" UNIQUE("organisation_id","id")
);
--> statement-breakpoint
ALTER TABLE "sso_providers" ADD CONSTRAINT "sso_providers_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sso_providers_org_created_idx" ON "sso_providers" USING btree ("organisation_id","created_at");--> statement-breakpoint
SELECT actiondesk_make_tenant_table('sso_providers');
