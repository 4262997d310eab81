CREATE TABLE "rate_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"reset_at" timestamp with time zone NOT NULL,
	"hits" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "api_rate_limit" integer;--> statement-breakpoint
ALTER TABLE "organisations" ADD CONSTRAINT "organisations_api_rate_limit_check" CHECK ("api_rate_limit" IS NULL OR "api_rate_limit" BETWEEN 1 AND 1000000);
--> statement-breakpoint
-- Not a tenant table (found by key before any organisation is known); holds no organisation's data.
GRANT SELECT, INSERT, UPDATE, DELETE ON rate_counters TO actiondesk_app;
