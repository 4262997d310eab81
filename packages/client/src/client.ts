import {
  type GroupedMethods,
  groupedMethods,
  type OperationMethods,
  operationMethods,
} from './generated/methods.js';
import { type ClientOptions, Transport } from './transport.js';

/** The API by group (`client.customers.list()`), and every operation by its operationId (`client.call`). */
export type ActionDeskClient = GroupedMethods & {
  /** Every operation under its operationId: `client.call.listCustomers()`. */
  readonly call: OperationMethods;
};

/**
 * A client of one ActionDesk service, with an API key or OAuth client credentials:
 * `createClient({ baseUrl: 'https://desk.example.com', apiKey: process.env.ACTIONDESK_API_KEY })`.
 */
export function createClient(options: ClientOptions): ActionDeskClient {
  const transport = new Transport(options);
  const call = operationMethods(transport);
  return { ...groupedMethods(transport, call), call };
}
