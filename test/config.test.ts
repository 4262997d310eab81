import path from 'node:path';
import { ConfigError, loadConfig } from '../src/config';

describe('configuration', () => {
  it('when nothing is set, then the defaults run on the embedded database in ./data on port 3000', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      baseUrl: 'http://localhost:3000',
      database: { kind: 'embedded', dataDir: path.resolve('data/pgdata') },
      bodyLimit: '1mb',
      logLevel: 'info',
    });
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('when PORT is set, then BASE_URL follows it unless given', () => {
    expect(loadConfig({ PORT: '8080' }).baseUrl).toBe('http://localhost:8080');
    expect(loadConfig({ PORT: '8080', BASE_URL: 'https://desk.example.com' }).baseUrl).toBe(
      'https://desk.example.com',
    );
  });

  it('when DATABASE_URL is set, then the server database is used with the pool size', () => {
    expect(
      loadConfig({ DATABASE_URL: 'postgres://u:p@localhost/db', DATABASE_POOL_SIZE: '7' }).database,
    ).toEqual({
      kind: 'server',
      url: 'postgres://u:p@localhost/db',
      poolSize: 7,
      limits: { connectTimeoutMs: 5000, statementTimeoutMs: 30000, maxWaiting: 200 },
    });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://localhost/x' }, 'DATABASE_URL'],
    [{ BASE_URL: 'https://desk.example.com/' }, 'BASE_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ BODY_LIMIT: 'huge' }, 'BODY_LIMIT'],
    [{ DATABASE_POOL_SIZE: '0' }, 'DATABASE_POOL_SIZE'],
  ])('when %o, then the error names %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(new RegExp(`^Invalid configuration:\\n  ${variable}: `));
  });

  it('when a qualified signing provider is named, then the start is refused naming the variable, since none is built in', () => {
    expect(loadConfig({}).qualifiedSigning).toBeNull();
    expect(() => loadConfig({ QUALIFIED_SIGNING_PROVIDER: 'itsme' })).toThrow(
      /QUALIFIED_SIGNING_PROVIDER: no provider named "itsme" is available \(none is built in\)/,
    );
  });
});
