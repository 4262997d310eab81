// The client's suite (`npm test -w @actiondesk/client`, or `npm run client:test` at the root): against the
// real service started in-process on the embedded database, with the root suite's global setup (it
// builds dist/ and prepares the migrated database image the harness loads). Not part of the root
// `npm test`, whose roots are test/ only.
const path = require('node:path');

/** @type {import('jest').Config} */
module.exports = {
  rootDir: path.resolve(__dirname, '../..'),
  testEnvironment: 'node',
  roots: ['<rootDir>/packages/client/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { target: 'es2022' }, module: { type: 'commonjs', ignoreDynamic: true } },
    ],
  },
  // The client's sources import each other as `./x.js` (what Node's ESM needs); here they are `.ts`.
  resolver: '<rootDir>/packages/client/test/support/resolver.cjs',
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  testTimeout: 180_000,
  maxWorkers: 2,
};
