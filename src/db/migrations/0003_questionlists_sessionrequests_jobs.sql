-- The composite foreign key of session_requests needs this key first.
ALTER TABLE "customers" ADD CONSTRAINT "customers_org_id_key" UNIQUE("organisation_id","id");
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"subject_id" uuid,
	"payload" jsonb NOT NULL,
	"status" text NOT NULL,
	"run_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer NOT NULL,
	"lease_token" uuid,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"finished_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "question_list_versions" (
	"organisation_id" uuid NOT NULL,
	"question_list_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"supported_languages" text[] NOT NULL,
	"content" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "question_list_versions_pkey" PRIMARY KEY("organisation_id","question_list_id","version")
);
--> statement-breakpoint
CREATE TABLE "question_lists" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"name" text NOT NULL,
	"slug" text NOT NULL,
	"description" text NOT NULL,
	"supported_languages" text[] NOT NULL,
	"has_report_spec" boolean NOT NULL,
	"active" boolean NOT NULL,
	"version" integer NOT NULL,
	"content" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "question_lists_org_id_key" UNIQUE("organisation_id","id"),
	CONSTRAINT "question_lists_org_slug_key" UNIQUE("organisation_id","slug")
);
--> statement-breakpoint
CREATE TABLE "session_request_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "session_request_events_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"organisation_id" uuid NOT NULL,
	"session_request_id" uuid NOT NULL,
	"from_status" text,
	"to_status" text NOT NULL,
	"actor" text NOT NULL,
	"user_id" uuid,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "session_requests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"organisation_id" uuid NOT NULL,
	"code" text NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"customer_id" uuid,
	"question_list_ids" uuid[] NOT NULL,
	"question_list_versions" integer[] NOT NULL,
	"document" jsonb,
	"language" text NOT NULL,
	"message" text,
	"expires_at" timestamp with time zone,
	"notify_email" boolean NOT NULL,
	"notify_sms" boolean NOT NULL,
	"reminder1_days" integer,
	"reminder2_days" integer,
	"created_by" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	"opened_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"closed_at" timestamp with time zone,
	CONSTRAINT "session_requests_org_id_key" UNIQUE("organisation_id","id")
);
--> statement-breakpoint
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_list_versions" ADD CONSTRAINT "question_list_versions_list_fk" FOREIGN KEY ("organisation_id","question_list_id") REFERENCES "public"."question_lists"("organisation_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "question_lists" ADD CONSTRAINT "question_lists_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_request_events" ADD CONSTRAINT "session_request_events_request_fk" FOREIGN KEY ("organisation_id","session_request_id") REFERENCES "public"."session_requests"("organisation_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_requests" ADD CONSTRAINT "session_requests_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "session_requests" ADD CONSTRAINT "session_requests_customer_fk" FOREIGN KEY ("organisation_id","customer_id") REFERENCES "public"."customers"("organisation_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("run_at") WHERE "jobs"."status" IN ('pending', 'running');--> statement-breakpoint
CREATE INDEX "jobs_org_subject_idx" ON "jobs" USING btree ("organisation_id","subject_id");--> statement-breakpoint
CREATE INDEX "question_lists_org_active_idx" ON "question_lists" USING btree ("organisation_id","name") WHERE "question_lists"."active";--> statement-breakpoint
CREATE INDEX "session_request_events_request_idx" ON "session_request_events" USING btree ("organisation_id","session_request_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "session_requests_code_key" ON "session_requests" USING btree ("code");--> statement-breakpoint
CREATE INDEX "session_requests_org_created_idx" ON "session_requests" USING btree ("organisation_id","created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "session_requests_org_updated_idx" ON "session_requests" USING btree ("organisation_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "session_requests_org_customer_idx" ON "session_requests" USING btree ("organisation_id","customer_id");--> statement-breakpoint
CREATE INDEX "session_requests_org_status_idx" ON "session_requests" USING btree ("organisation_id","status");--> statement-breakpoint
