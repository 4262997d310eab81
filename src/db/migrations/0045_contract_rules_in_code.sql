-- The rules that shape what integrators receive leave the database for the code that records events
-- (docs/decisions/0008-events-fan-out-in-code.md): an event's webhook deliveries and their jobs are
-- written in the statement that records it (src/modules/webhooks/fan-out.repository.ts), and the removal
-- of an action or a session is announced by the code that removes it (src/platform/events/removals.ts).
-- The triggers keep the bookkeeping only: change order, counters, credential keys, the audit row.
DROP TRIGGER events_fan_out ON events;
--> statement-breakpoint
DROP FUNCTION actiondesk_fan_out_event();
--> statement-breakpoint
DROP TRIGGER announce_removal ON session_requests;
--> statement-breakpoint
DROP TRIGGER announce_removal ON sessions;
--> statement-breakpoint
DROP FUNCTION actiondesk_announce_removal();
