-- A unique key that starts with organisation_id ties with the primary key (organisation_id, id) for an
-- organisation the statistics have not seen, and the planner took it: every foreign-key check and lookup
-- by id then read all of the organisation's rows. The looked-up value goes first now; the keys stay the
-- same (test/database.test.ts, "lookups by primary key").
DROP INDEX "oauth_clients_client_id_key";--> statement-breakpoint
DROP INDEX "oauth_codes_hash_key";--> statement-breakpoint
DROP INDEX "session_requests_code_key";--> statement-breakpoint
DROP INDEX "signers_code_key";--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_clients_client_id_key" ON "oauth_clients" USING btree ("client_id","organisation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "oauth_codes_hash_key" ON "oauth_codes" USING btree ("code_hash","organisation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "session_requests_code_key" ON "session_requests" USING btree ("code","organisation_id");--> statement-breakpoint
CREATE UNIQUE INDEX "signers_code_key" ON "signers" USING btree ("code","organisation_id");