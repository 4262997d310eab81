// The respondent module's public entry: the contact's pages behind the public link /action/<code>.

export { sessionReportHandler, sessionReportJob } from './report.job';
export { respondentRoutes } from './respondent.router';
