// The adviser's desk: the staff pages.
export { deskRoutes } from './desk.router';
export { userPageRoutes } from './users.router';
