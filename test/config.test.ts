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
      listenUrl: 'postgres://u:p@localhost/db',
      migrationUrl: null,
    });
  });

  it('when DATABASE_LISTEN_URL is set, then workers listen there while queries go through DATABASE_URL', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u:p@pgbouncer:6432/db',
      DATABASE_LISTEN_URL: 'postgres://u:p@db:5432/db',
    });
    expect(config.database).toMatchObject({
      url: 'postgres://u:p@pgbouncer:6432/db',
      listenUrl: 'postgres://u:p@db:5432/db',
    });
  });

  it('when FILE_STORAGE is unset, then the storage follows the database; s3 takes its settings', () => {
    expect(loadConfig({}).files).toMatchObject({ kind: 'auto' });
    expect(loadConfig({ FILE_STORAGE: 'disk' }).files).toMatchObject({ kind: 'disk' });
    expect(
      loadConfig({
        FILE_STORAGE: 's3',
        S3_ENDPOINT: 'https://s3.eu-west-1.amazonaws.com',
        S3_BUCKET: 'desk-files',
        S3_ACCESS_KEY_ID: 'AKIA',
        S3_SECRET_ACCESS_KEY: 'secret',
        S3_PREFIX: 'prod/',
        S3_PATH_STYLE: 'false',
      }).files,
    ).toMatchObject({
      kind: 's3',
      s3: {
        endpoint: 'https://s3.eu-west-1.amazonaws.com',
        bucket: 'desk-files',
        region: 'us-east-1',
        prefix: 'prod/',
        pathStyle: false,
        timeoutMs: 30_000,
      },
    });
  });

  it('when SHUTDOWN_GRACE_SECONDS is set, then it bounds the graceful stop', () => {
    expect(loadConfig({}).shutdownGraceMs).toBe(25_000);
    expect(loadConfig({ SHUTDOWN_GRACE_SECONDS: '5' }).shutdownGraceMs).toBe(5_000);
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://localhost/x' }, 'DATABASE_URL'],
    [{ BASE_URL: 'https://desk.example.com/' }, 'BASE_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ BODY_LIMIT: 'huge' }, 'BODY_LIMIT'],
    [{ DATABASE_POOL_SIZE: '0' }, 'DATABASE_POOL_SIZE'],
    [{ DATABASE_LISTEN_URL: 'http://db' }, 'DATABASE_LISTEN_URL'],
    [{ FILE_STORAGE: 'ftp' }, 'FILE_STORAGE'],
    [{ S3_BUCKET: 'Not_A_Bucket' }, 'S3_BUCKET'],
    [{ S3_PREFIX: 'no-slash' }, 'S3_PREFIX'],
    [{ SHUTDOWN_GRACE_SECONDS: '0' }, 'SHUTDOWN_GRACE_SECONDS'],
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
