// The events module's public entry: what other modules may use.
export { eventRoutes, registerEventWebhooks } from './events.router';
export { Event } from './events.schemas';
export { toEvent } from './events.service';
