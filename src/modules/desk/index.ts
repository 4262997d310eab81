// The adviser's desk: the staff pages.
export { deskRoutes, staffUserOf } from './desk.router';
export { userPageRoutes } from './users.router';
