// The whole suite (`npm test`): unit tests in test/unit, HTTP tests over a real database, browser and
// process tests. Plain JavaScript, so jest loads it without compiling TypeScript first.
const transform = {
  '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs', ignoreDynamic: true } }],
};

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform,
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  reporters: ['default', '<rootDir>/test/support/timings-reporter.cjs'],
  // A generous bound for a file's slowest case on a loaded machine; cases wait for what they expect
  // (test/support/until.ts), never for a fixed time.
  testTimeout: 60_000,
  maxWorkers: 2,
};
