-- A sync's first page finds the oldest change transaction among the rows changed since a moment
-- (keyset.ts): the change-time indexes carry change_txid, so that is read from the index alone.
DROP INDEX "customers_org_updated_idx";
--> statement-breakpoint
CREATE INDEX "customers_org_updated_idx" ON "customers" USING btree ("organisation_id","updated_at","id") INCLUDE ("change_txid");
--> statement-breakpoint
DROP INDEX "session_requests_org_updated_idx";
--> statement-breakpoint
CREATE INDEX "session_requests_org_updated_idx" ON "session_requests" USING btree ("organisation_id","updated_at","id") INCLUDE ("change_txid");
--> statement-breakpoint
DROP INDEX "sessions_org_updated_idx";
--> statement-breakpoint
CREATE INDEX "sessions_org_updated_idx" ON "sessions" USING btree ("organisation_id","updated_at","id") INCLUDE ("change_txid");
--> statement-breakpoint
CREATE INDEX "webhook_deliveries_org_updated_idx" ON "webhook_deliveries" USING btree ("organisation_id","updated_at") INCLUDE ("change_txid");
