-- Session ids were stored as they are in the cookie: every staff browser signs in again once.
DELETE FROM "staff_sessions";--> statement-breakpoint
ALTER TABLE "staff_sessions" ADD COLUMN "organisation_id" uuid;--> statement-breakpoint
ALTER TABLE "staff_sessions" ADD COLUMN "user_id" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "sessions_ended_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "staff_sessions_user_idx" ON "staff_sessions" USING btree ("organisation_id","user_id");;--> statement-breakpoint
-- When sessions end is not a change of the user's record: "sign out everywhere" is recorded as
-- user.signed_out (admin module), deactivation and new groups as the changes they are.
DROP TRIGGER audit_rows ON users;
--> statement-breakpoint
SELECT actiondesk_audit_table('users', 'user', 'password_hash', 'auth_version,updated_at,password_changed_at,change_txid,sessions_ended_at');
