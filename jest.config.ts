import type { Config } from 'jest';

const config: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { target: 'es2022' }, module: { type: 'commonjs', ignoreDynamic: true } },
    ],
  },
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  reporters: ['default', '<rootDir>/test/support/timings-reporter.cjs'],
  // Each test file boots its own embedded PostgreSQL (several seconds of WebAssembly start-up).
  testTimeout: 60_000,
  maxWorkers: 2,
};

export default config;
