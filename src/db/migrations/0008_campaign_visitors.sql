CREATE TABLE "campaign_visitors" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"session_request_id" uuid NOT NULL,
	"token_hash" text NOT NULL,
	"customer_id" uuid NOT NULL,
	"draft" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"submitted_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "campaign_visitors_org_id_key" UNIQUE("organisation_id","id")
);
--> statement-breakpoint
ALTER TABLE "sessions" DROP CONSTRAINT "sessions_org_request_key";--> statement-breakpoint
ALTER TABLE "session_requests" ADD COLUMN "portfolio_id" uuid;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "visitor_id" uuid;--> statement-breakpoint
ALTER TABLE "campaign_visitors" ADD CONSTRAINT "campaign_visitors_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_visitors" ADD CONSTRAINT "campaign_visitors_request_fk" FOREIGN KEY ("organisation_id","session_request_id") REFERENCES "public"."session_requests"("organisation_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_visitors" ADD CONSTRAINT "campaign_visitors_customer_fk" FOREIGN KEY ("organisation_id","customer_id") REFERENCES "public"."customers"("organisation_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_visitors_token_key" ON "campaign_visitors" USING btree ("organisation_id","session_request_id","token_hash");--> statement-breakpoint
CREATE INDEX "campaign_visitors_org_customer_idx" ON "campaign_visitors" USING btree ("organisation_id","customer_id");--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_visitor_fk" FOREIGN KEY ("organisation_id","visitor_id") REFERENCES "public"."campaign_visitors"("organisation_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "customers_org_portfolio_email_idx" ON "customers" USING btree ("organisation_id","portfolio_id",lower("data"->>'Email'));--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_org_request_key" ON "sessions" USING btree ("organisation_id","session_request_id") WHERE "sessions"."visitor_id" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "sessions_org_visitor_key" ON "sessions" USING btree ("organisation_id","visitor_id") WHERE "sessions"."visitor_id" is not null;--> statement-breakpoint
CREATE INDEX "sessions_org_request_idx" ON "sessions" USING btree ("organisation_id","session_request_id");--> statement-breakpoint
SELECT actiondesk_make_tenant_table('campaign_visitors');
