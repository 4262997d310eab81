CREATE TABLE "seal_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"sealed_p12" text NOT NULL,
	"sealed_passphrase" text NOT NULL,
	"subject" text NOT NULL,
	"fingerprint" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
GRANT SELECT, INSERT ON seal_keys TO actiondesk_app;
