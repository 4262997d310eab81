CREATE TABLE "signers" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"session_request_id" uuid NOT NULL,
	"customer_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"code" text NOT NULL,
	"status" text NOT NULL,
	"invited_at" timestamp with time zone,
	"opened_at" timestamp with time zone,
	"code_hash" text,
	"code_expires_at" timestamp with time zone,
	"code_attempts" integer DEFAULT 0 NOT NULL,
	"code_channel" text,
	"code_sent_at" timestamp with time zone,
	"code_verified_at" timestamp with time zone,
	"browser_hash" text,
	"browser_until" timestamp with time zone,
	"signed_at" timestamp with time zone,
	"declined_at" timestamp with time zone,
	"decline_reason" text,
	"signature" jsonb,
	"evidence" jsonb,
	"trail" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "signers_org_id_key" UNIQUE("organisation_id","id")
);
--> statement-breakpoint
ALTER TABLE "session_requests" ADD COLUMN "signature_level" text;--> statement-breakpoint
ALTER TABLE "session_requests" ADD COLUMN "signing_order" text;--> statement-breakpoint
ALTER TABLE "signers" ADD CONSTRAINT "signers_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signers" ADD CONSTRAINT "signers_request_fk" FOREIGN KEY ("organisation_id","session_request_id") REFERENCES "public"."session_requests"("organisation_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "signers" ADD CONSTRAINT "signers_customer_fk" FOREIGN KEY ("organisation_id","customer_id") REFERENCES "public"."customers"("organisation_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "signers_code_key" ON "signers" USING btree ("code");--> statement-breakpoint
CREATE UNIQUE INDEX "signers_request_position_key" ON "signers" USING btree ("organisation_id","session_request_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "signers_request_customer_key" ON "signers" USING btree ("organisation_id","session_request_id","customer_id");--> statement-breakpoint
CREATE INDEX "signers_org_customer_idx" ON "signers" USING btree ("organisation_id","customer_id");--> statement-breakpoint
SELECT actiondesk_make_tenant_table('signers');
--> statement-breakpoint
-- Signing actions made before signers existed: their contact becomes the one signer, on the action's link.
UPDATE session_requests SET signature_level = 'simple', signing_order = 'parallel'
 WHERE type IN ('quicksign', 'multisigning');
--> statement-breakpoint
INSERT INTO signers (id, organisation_id, session_request_id, customer_id, position, code, status, created_at, updated_at)
SELECT gen_random_uuid(), s.organisation_id, s.id, s.customer_id, 0, s.code,
       CASE WHEN s.status = 'completed' THEN 'signed' ELSE 'pending' END, s.created_at, s.updated_at
  FROM session_requests s
 WHERE s.type IN ('quicksign', 'multisigning') AND s.customer_id IS NOT NULL;
--> statement-breakpoint
-- A code is an action's link or a signer's own link: the lookup answers the signer too (null for
-- actions without signers).
DROP FUNCTION actiondesk_find_action(text);
--> statement-breakpoint
CREATE FUNCTION actiondesk_find_action(p_code text)
RETURNS TABLE (organisation_id uuid, session_request_id uuid, type text, status text, signer_id uuid)
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
  SELECT g.organisation_id, g.session_request_id, s.type, s.status, g.id
    FROM signers g
    JOIN session_requests s ON s.organisation_id = g.organisation_id AND s.id = g.session_request_id
   WHERE g.code = p_code
  UNION ALL
  SELECT s.organisation_id, s.id, s.type, s.status, NULL::uuid
    FROM session_requests s
   WHERE s.code = p_code
     AND NOT EXISTS (SELECT 1 FROM signers g WHERE g.code = p_code)
$$;
--> statement-breakpoint
REVOKE ALL ON FUNCTION actiondesk_find_action(text) FROM PUBLIC;
--> statement-breakpoint
GRANT EXECUTE ON FUNCTION actiondesk_find_action(text) TO actiondesk_app;
