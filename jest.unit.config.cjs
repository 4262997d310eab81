// The fast tier (`npm run test:unit`): pure unit tests in test/unit, no database, no server, no build.
// `npm test` (jest.config.cjs) runs them too, beside the HTTP tests.
const { transform } = require('./jest.config.cjs');

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test/unit'],
  testMatch: ['**/*.test.ts'],
  transform,
  testTimeout: 10_000,
};
