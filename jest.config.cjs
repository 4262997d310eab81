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
  // A safety net for a case that hangs, not a speed limit: cases wait for what they expect
  // (test/support/until.ts), so this bound is generous enough for a machine busy with other work.
  testTimeout: 180_000,
  // Three workers on the 2-core machine: test files wait on processes, browsers and receivers at
  // times, and a third worker fills those gaps (458 s → 384 s for the embedded suite, measured).
  maxWorkers: 3,
};
