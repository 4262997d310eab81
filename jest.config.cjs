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
  // A worker's heap grows by 25–30 MB with every test file it runs and never gives it back: each file's
  // modules live in a vm context, and Node keeps a context alive once code in it was compiled with a
  // dynamic import() callback, which jest passes for ES module support (nodejs/node#42080,
  // jestjs/jest#14605). Garbage collection then walks an ever larger heap (and on Node 20 every promise
  // visits every AsyncLocalStorage the earlier files made). A worker past this size after a file is
  // replaced by a fresh one: 20 HTTP test files in one worker took 64 s with this limit, 94 s without.
  workerIdleMemoryLimit: '300MB',
};
