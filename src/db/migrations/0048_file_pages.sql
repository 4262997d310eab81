-- Issue 29: a PDF file's pages as the signing page shows them (size, text, image), drawn ahead by the
-- file-pages job when an action with a document is created, shared by every instance; goes with its file.
CREATE TABLE "file_pages" (
	"organisation_id" uuid NOT NULL,
	"file_id" uuid NOT NULL,
	"page" integer NOT NULL,
	"width" double precision NOT NULL,
	"height" double precision NOT NULL,
	"text" text NOT NULL,
	"image_width" integer,
	"image" "bytea",
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "file_pages_pkey" PRIMARY KEY("organisation_id","file_id","page")
);
--> statement-breakpoint
ALTER TABLE "file_pages" ADD CONSTRAINT "file_pages_file_fk" FOREIGN KEY ("organisation_id","file_id") REFERENCES "public"."files"("organisation_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- PNG images are compressed already: kept out of line without another compression pass.
ALTER TABLE "file_pages" ALTER COLUMN "image" SET STORAGE EXTERNAL;
--> statement-breakpoint
SELECT actiondesk_make_tenant_table('file_pages');
