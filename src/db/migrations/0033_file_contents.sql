CREATE TABLE "file_contents" (
	"organisation_id" uuid NOT NULL,
	"file_id" uuid NOT NULL,
	"part" integer NOT NULL,
	"data" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "file_contents_organisation_id_file_id_part_pk" PRIMARY KEY("organisation_id","file_id","part")
);
--> statement-breakpoint
ALTER TABLE "file_contents" ADD CONSTRAINT "file_contents_organisation_id_organisations_id_fk" FOREIGN KEY ("organisation_id") REFERENCES "public"."organisations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Documents are compressed already (PDF streams): kept out of line without another compression pass.
ALTER TABLE "file_contents" ALTER COLUMN "data" SET STORAGE EXTERNAL;
--> statement-breakpoint
SELECT actiondesk_make_tenant_table('file_contents');
