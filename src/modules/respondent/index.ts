// The respondent module's public entry: the contact's pages behind the public link /action/<code>.
export { AddressLimiter } from './respondent.limiter';
export { type RespondentRouteDeps, respondentRoutes } from './respondent.router';
