export * from './customers';
export * from './tenancy';
