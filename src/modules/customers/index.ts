// The customers module's public entry: what other modules may use.

export {
  contactDataOf,
  contactEmail,
  contactFirstName,
  contactKeys,
  contactLabel,
  contactName,
  contactPhone,
  searchOfPhone,
} from './contact-fields';
export {
  contactByEmail,
  contactById,
  insertContact,
  matchContacts,
  thirdpartyIdTaken,
  updateContact,
} from './contacts.service';

export { customerRoutes } from './customers.router';
export { Customer } from './customers.schemas';
export {
  createCustomer,
  getCustomer,
  getCustomersById,
  listCustomers,
  updateCustomer,
} from './customers.service';
export { seedContacts } from './seed.service';
