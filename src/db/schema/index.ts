export * from './campaigns';
export * from './customers';
export * from './files';
export * from './jobs';
export * from './questionlists';
export * from './sessionrequests';
export * from './sessions';
export * from './tenancy';
