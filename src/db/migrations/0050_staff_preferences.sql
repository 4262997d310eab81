-- Issue 30: a staff user's own settings on the desk. `language`: the staff pages' language (null: the
-- browser's); `notify`: the adviser's e-mails about their actions (each event, a daily digest, none).
ALTER TABLE "users" ADD COLUMN "language" text CONSTRAINT "users_language_check" CHECK ("language" IN ('nl', 'fr', 'en'));--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "notify" text DEFAULT 'each' NOT NULL CONSTRAINT "users_notify_check" CHECK ("notify" IN ('each', 'digest', 'none'));
