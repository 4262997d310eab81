CREATE TABLE "session_versions" (
	"organisation_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"language" text NOT NULL,
	"answers" jsonb NOT NULL,
	"responses" jsonb NOT NULL,
	"documents" jsonb NOT NULL,
	"submitted_at" timestamp with time zone NOT NULL,
	CONSTRAINT "session_versions_pkey" PRIMARY KEY("organisation_id","session_id","version")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"session_request_id" uuid NOT NULL,
	"customer_id" uuid,
	"language" text NOT NULL,
	"answers" jsonb NOT NULL,
	"responses" jsonb NOT NULL,
	"documents" jsonb NOT NULL,
	"version" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sessions_org_id_key" UNIQUE("organisation_id","id"),
	CONSTRAINT "sessions_org_request_key" UNIQUE("organisation_id","session_request_id")
);
--> statement-breakpoint
ALTER TABLE "session_requests" ADD COLUMN "draft" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "session_versions" ADD CONSTRAINT "session_versions_session_fk" FOREIGN KEY ("organisation_id","session_id") REFERENCES "public"."sessions"("organisation_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_request_fk" FOREIGN KEY ("organisation_id","session_request_id") REFERENCES "public"."session_requests"("organisation_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sessions_org_customer_idx" ON "sessions" USING btree ("organisation_id","customer_id");
--> statement-breakpoint
DO $$
DECLARE t text;
BEGIN
  FOREACH t IN ARRAY ARRAY['sessions', 'session_versions'] LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format(
      'CREATE POLICY tenant_isolation ON %I TO actiondesk_app '
      'USING (organisation_id = actiondesk_current_org()) '
      'WITH CHECK (organisation_id = actiondesk_current_org())', t);
  END LOOP;
END
$$;
--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON sessions, session_versions TO actiondesk_app;
