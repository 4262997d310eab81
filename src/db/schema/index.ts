export * from './customers';
export * from './jobs';
export * from './questionlists';
export * from './sessionrequests';
export * from './tenancy';
