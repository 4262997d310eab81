// The customers module's public entry: what other modules may use.
export { type CustomerRecord, customerRepository } from './customers.repository';
