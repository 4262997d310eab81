-- Issue 32: an organisation's own seal, a PKCS#12 bundle an administrator uploads, sealed with
-- ENCRYPTION_KEYS; what its certificate says is kept beside it in clear (the API shows it, and the expiry
-- warning is planned from not_after). One per organisation; the service's seal when there is none.
CREATE TABLE "organisation_seals" (
	"organisation_id" uuid PRIMARY KEY NOT NULL,
	"id" uuid NOT NULL,
	"sealed_p12" text NOT NULL,
	"sealed_passphrase" text NOT NULL,
	"subject" text NOT NULL,
	"issuer" text NOT NULL,
	"serial_number" text NOT NULL,
	"fingerprint" text NOT NULL,
	"not_before" timestamp with time zone NOT NULL,
	"not_after" timestamp with time zone NOT NULL,
	"expiry_warned_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organisation_seals" ADD CONSTRAINT "organisation_seals_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
SELECT actiondesk_make_tenant_table('organisation_seals');
--> statement-breakpoint
SELECT actiondesk_audit_table('organisation_seals', 'organisation_seal', 'sealed_p12,sealed_passphrase', 'expiry_warned_at');
