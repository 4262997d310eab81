import type { OpenAPIRegistry } from '../../platform/http/openapi';
import type { Routes } from '../../platform/http/routes';
import { EventList, eventCatalogue, eventSchemas, ListEventsQuery } from './events.schemas';
import { listEvents } from './events.service';

export function eventRoutes(routes: Routes, deps: Parameters<typeof listEvents>[0]): void {
  routes.add(
    {
      method: 'get',
      path: '/events',
      summary:
        'List the organisation’s events, oldest first, for clients that poll instead of receiving webhooks',
      description:
        'Events are listed in the order they became visible. Keep the answer’s `nextCursor` and pass it as `cursor` next time: no event is ever skipped, also one whose change committed after a later one’s (an event is listed once every transaction older than its own has finished, normally within milliseconds). Filters: `type` (comma-separated) and `since`.',
      tags: ['Events'],
      permission: 'read',
      query: ListEventsQuery,
      response: EventList,
    },
    ({ ctx, query }) => listEvents(deps, ctx, query),
  );
}

/** Registers every event type in the OpenAPI document's `webhooks` section (OpenAPI 3.1). */
export function registerEventWebhooks(registry: OpenAPIRegistry): void {
  for (const { type, schema } of eventSchemas) {
    registry.registerWebhook({
      method: 'post',
      path: type,
      summary: eventCatalogue[type].summary,
      description:
        'Sent to every enabled webhook subscribed to this type (or `*`), signed per Standard Webhooks: headers `webhook-id` (the event id), `webhook-timestamp` and `webhook-signature`. Answer any 2xx within 10 s; anything else is retried (docs/webhooks.md).',
      tags: ['Webhook events'],
      request: { body: { content: { 'application/json': { schema } } } },
      responses: { 200: { description: 'Any 2xx acknowledges the delivery' } },
    });
  }
}
