import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/config';

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

  it('when SIGNED_COPY_ATTACH_MAX_SIZE is set, then signed copies up to it are attached; unset, up to 5 MB; a bad size is refused naming it', () => {
    expect(loadConfig({}).signedCopyAttachMaxBytes).toBe(5 * 1024 * 1024);
    expect(loadConfig({ SIGNED_COPY_ATTACH_MAX_SIZE: '1kb' }).signedCopyAttachMaxBytes).toBe(1024);
    expect(loadConfig({ SIGNED_COPY_ATTACH_MAX_SIZE: '12MB' }).signedCopyAttachMaxBytes).toBe(
      12 * 1024 * 1024,
    );
    expect(loadConfig({ SIGNED_COPY_ATTACH_MAX_SIZE: '0b' }).signedCopyAttachMaxBytes).toBe(0);
    for (const size of ['5', '5 mb', '-1kb', '1.5mb', '2gb'])
      expect(() => loadConfig({ SIGNED_COPY_ATTACH_MAX_SIZE: size })).toThrow(
        /^Invalid configuration:\n {2}SIGNED_COPY_ATTACH_MAX_SIZE: must be a size such as 512kb or 5mb$/,
      );
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

  const productionKeys = {
    NODE_ENV: 'production',
    ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 7).toString('base64')}`,
  };

  it('when WEBHOOK_ALLOW_PRIVATE or WEBHOOK_ALLOW_HTTP is set in production, then the start is refused naming them', () => {
    expect(loadConfig(productionKeys).webhooks).toMatchObject({ allowHttp: false, allowPrivate: false });
    expect(() => loadConfig({ ...productionKeys, WEBHOOK_ALLOW_PRIVATE: 'true' })).toThrow(
      /^Invalid configuration:\n {2}WEBHOOK_ALLOW_PRIVATE: is a development switch and is refused in production/,
    );
    expect(() => loadConfig({ ...productionKeys, WEBHOOK_ALLOW_HTTP: 'true' })).toThrow(
      /^Invalid configuration:\n {2}WEBHOOK_ALLOW_HTTP: is a development switch and is refused in production/,
    );
    expect(() =>
      loadConfig({
        ...productionKeys,
        ENCRYPTION_KEYS: '',
        WEBHOOK_ALLOW_HTTP: 'true',
        WEBHOOK_ALLOW_PRIVATE: 'true',
      }),
    ).toThrow(
      /^Invalid configuration:\n {2}ENCRYPTION_KEYS: is required in production.*\n {2}WEBHOOK_ALLOW_HTTP: .*\n {2}WEBHOOK_ALLOW_PRIVATE: /,
    );
    // Saying false is saying nothing; outside production the switches work.
    expect(loadConfig({ ...productionKeys, WEBHOOK_ALLOW_PRIVATE: 'false' }).webhooks.allowPrivate).toBe(
      false,
    );
    for (const NODE_ENV of ['development', 'test'])
      expect(
        loadConfig({ NODE_ENV, WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' }).webhooks,
      ).toMatchObject({ allowHttp: true, allowPrivate: true });
  });

  it('when SSO_PRIVATE_NETWORKS lists loopback or private networks, then they are kept, normalised', () => {
    expect(loadConfig({}).sso.privateNetworks).toEqual([]);
    expect(
      loadConfig({ SSO_PRIVATE_NETWORKS: ' 10.1.0.0/16, fd12:0::/48,127.0.0.0/8,::1/128,100.64.0.0/10,' }).sso
        .privateNetworks,
    ).toEqual(['10.1.0.0/16', 'fd12::/48', '127.0.0.0/8', '::1/128', '100.64.0.0/10']);
  });

  it.each([
    ['banana', 'banana is not a network in CIDR notation (such as 10.1.0.0/16 or fd12::/48)'],
    ['10.1.0.0', '10.1.0.0 is not a network in CIDR notation'],
    ['10.1.0.0/33', '10.1.0.0/33 is not a network in CIDR notation'],
    ['fd12::/129', 'fd12::/129 is not a network in CIDR notation'],
    ['10.1.2.3/16', '10.1.2.3/16 has address bits past its /16 prefix (the network is 10.1.0.0/16)'],
    ['10.1.0.0/16,8.8.8.0/24', '8.8.8.0/24 is not a loopback or private network'],
    ['0.0.0.0/0', '0.0.0.0/0 is not a loopback or private network'],
    ['10.0.0.0/7', '10.0.0.0/7 is not a loopback or private network'],
    ['169.254.0.0/16', '169.254.0.0/16 is not a loopback or private network'],
    ['fe80::/10', 'fe80::/10 is not a loopback or private network'],
    ['::/0', '::/0 is not a loopback or private network'],
  ])('when SSO_PRIVATE_NETWORKS is %s, then the start is refused saying why', (value, why) => {
    expect(() => loadConfig({ SSO_PRIVATE_NETWORKS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ SSO_PRIVATE_NETWORKS: value })).toThrow(
      `Invalid configuration:\n  SSO_PRIVATE_NETWORKS: ${why}`,
    );
  });

  it('when the former SSO_ALLOW_PRIVATE=true is set, then the start is refused pointing to SSO_PRIVATE_NETWORKS', () => {
    for (const NODE_ENV of ['development', 'production', 'test'])
      expect(() => loadConfig({ ...productionKeys, NODE_ENV, SSO_ALLOW_PRIVATE: 'true' })).toThrow(
        /^Invalid configuration:\n {2}SSO_ALLOW_PRIVATE: is replaced by SSO_PRIVATE_NETWORKS, .*127\.0\.0\.0\/8,::1\/128/,
      );
    expect(loadConfig({ SSO_ALLOW_PRIVATE: 'false' }).sso.privateNetworks).toEqual([]);
  });

  it('when a qualified signing provider is named, then the start is refused naming the variable, since none is built in', () => {
    expect(loadConfig({}).qualifiedSigning).toBeNull();
    expect(() => loadConfig({ QUALIFIED_SIGNING_PROVIDER: 'itsme' })).toThrow(
      /QUALIFIED_SIGNING_PROVIDER: no provider named "itsme" is available \(none is built in\)/,
    );
  });
});
