-- Issue 30: the organisation's own face to its contacts — the name they see, the colour of buttons and
-- links, the e-mails' sender name and reply-to address, the SMS sender id — and whether a signer confirms
-- a one-time code before declining. Every column is optional: null keeps the organisation's name and the
-- product's look. The organisations table's audit trigger records each change.
ALTER TABLE "organisations" ADD COLUMN "brand_name" text CONSTRAINT "organisations_brand_name_check" CHECK ("brand_name" IS NULL OR length("brand_name") BETWEEN 1 AND 100);--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "brand_colour" text CONSTRAINT "organisations_brand_colour_check" CHECK ("brand_colour" ~ '^#[0-9a-f]{6}$');--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "mail_sender_name" text CONSTRAINT "organisations_mail_sender_name_check" CHECK ("mail_sender_name" IS NULL OR length("mail_sender_name") BETWEEN 1 AND 100);--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "mail_reply_to" text CONSTRAINT "organisations_mail_reply_to_check" CHECK ("mail_reply_to" ~ '^[^@[:space:]]+@[^@[:space:]]+$' AND length("mail_reply_to") <= 320);--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "sms_sender" text CONSTRAINT "organisations_sms_sender_check" CHECK ("sms_sender" ~ '^[A-Za-z0-9 ]{1,11}$' AND "sms_sender" ~ '[A-Za-z]');--> statement-breakpoint
ALTER TABLE "organisations" ADD COLUMN "require_code_to_decline" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- The logo, apart from the organisation's row (reading the organisation never reads the image). Its id is
-- random and new with every upload: the logo's public, cacheable address cannot be guessed from another
-- organisation's, and changes with the image.
CREATE TABLE "organisation_logos" (
	"organisation_id" uuid PRIMARY KEY NOT NULL,
	"id" text NOT NULL,
	"content_type" text NOT NULL CONSTRAINT "organisation_logos_content_type_check" CHECK ("content_type" IN ('image/png', 'image/jpeg')),
	"size" integer NOT NULL CONSTRAINT "organisation_logos_size_check" CHECK ("size" BETWEEN 1 AND 204800),
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "organisation_logos_bytes_check" CHECK (octet_length("bytes") = "size")
);
--> statement-breakpoint
ALTER TABLE "organisation_logos" ADD CONSTRAINT "organisation_logos_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- PNG and JPEG are compressed already: kept out of line without another compression pass.
ALTER TABLE "organisation_logos" ALTER COLUMN "bytes" SET STORAGE EXTERNAL;
--> statement-breakpoint
SELECT actiondesk_make_tenant_table('organisation_logos');
--> statement-breakpoint
SELECT actiondesk_audit_table('organisation_logos', 'organisation_logo', 'bytes', '');
