// The customers module's public entry: what other modules may use.
export { type CustomerRecord, customerRepository } from './customers.repository';
export { customerRoutes } from './customers.router';
export { Customer } from './customers.schemas';
export { getCustomer, getCustomersById, listCustomers, recordCustomerEvent } from './customers.service';
export { seedContacts } from './seed.service';
