import type { Config } from 'jest';

/**
 * The fast tier (`npm run test:unit`): pure unit tests in test/unit, no database, no server, no build.
 * `npm test` (jest.config.ts) runs them too, beside the HTTP tests.
 */
const config: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test/unit'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { target: 'es2022' }, module: { type: 'commonjs', ignoreDynamic: true } },
    ],
  },
  testTimeout: 10_000,
};

export default config;
