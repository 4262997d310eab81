CREATE INDEX "customers_org_updated_idx" ON "customers" USING btree ("organisation_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "sessions_org_created_idx" ON "sessions" USING btree ("organisation_id","created_at","id");--> statement-breakpoint
CREATE INDEX "sessions_org_updated_idx" ON "sessions" USING btree ("organisation_id","updated_at","id");