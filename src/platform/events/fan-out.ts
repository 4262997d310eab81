import type { SQL } from 'drizzle-orm';

/**
 * What recording events also writes, in the same statement (docs/decisions/0008-events-fan-out-in-code.md):
 * the webhooks module's deliveries and their jobs. Given the name of the WITH entry that holds the
 * events just recorded (columns `id`, `organisation_id`, `type`, `subject_id`, `seq`, `created_at`, in
 * `seq` order), it answers further WITH entries (`name AS (INSERT …)`) that read from it. PostgreSQL
 * does not nest data-modifying WITH clauses, so the entries are flat; their names start with `fan_out_`.
 */
export type EventFanOut = (recorded: SQL) => SQL[];

let registered: EventFanOut | undefined;

/**
 * Sets what every event recorded from now on fans out to, once per process: the composition root
 * (`createServices`) gives the webhooks module's. The platform cannot import a module, so the module's
 * fan-out is handed down here.
 */
export function fanOutEventsTo(fanOut: EventFanOut): void {
  registered = fanOut;
}

/**
 * The registered fan-out. Recording an event without one throws: a committed change must always have
 * its deliveries, so a process that forgot to register one fails at its first event, not silently.
 */
export function eventFanOut(): EventFanOut {
  if (!registered)
    throw new Error('no event fan-out registered: createServices (or fanOutEventsTo) gives the webhooks one');
  return registered;
}
