import path from 'node:path';
import { parseArgs } from 'node:util';
import { SingleBar } from 'cli-progress';
import { type Config, ConfigError, loadConfig } from '../config';
import { passwordLinkByEmail, setPasswordByEmail, signInFailuresRetention } from '../modules/accounts';
import { seedContacts } from '../modules/customers';
import { CreateOAuthClientInput, createClient } from '../modules/oauth';
import {
  bootstrapOrganisation,
  deleteOrganisation,
  exportOrganisation,
  monthPeriod,
  OffboardingError,
  usageReport,
} from '../modules/organisations';
import { seedTemplates } from '../modules/questionlists';
import { setSignInSettings } from '../modules/sso';
import { openConfiguredDatabase } from '../platform/db/open';
import { exportDatabase, importDatabase } from '../platform/db/transfer';
import { fieldPath } from '../platform/http/validation';
import { systemClock } from '../platform/kernel/clock';
import { systemContext } from '../platform/kernel/context';
import { isId } from '../platform/kernel/ids';
import { createLogger } from '../platform/ops/logger';
import { sweepRetention } from '../platform/ops/retention';
import { createServices, type Services } from '../services';
import { usage } from './usage';

/** Where a CLI run reads its configuration and writes its output: the process's, or a test's. */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  /** Where secrets are read from (a password); the process's standard input by default. */
  stdin?: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

class UsageError extends Error {}

/** Runs `fn` with the services a server would have (src/services.ts), over the configured database. */
async function withServices<T>(
  config: Config,
  purpose: string,
  fn: (services: Services) => Promise<T>,
): Promise<T> {
  const database = await openConfiguredDatabase(config, purpose);
  const services = createServices(config, database, systemClock, createLogger('silent'));
  try {
    return await fn(services);
  } finally {
    await services.close();
    await database.close();
  }
}

async function bootstrap(args: string[], io: CliIo): Promise<void> {
  const { values } = parseArgs({
    args,
    options: {
      org: { type: 'string' },
      email: { type: 'string' },
      name: { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  if (!values.org?.trim()) throw new UsageError('bootstrap: --org <name> is required');
  if (!values.email || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(values.email)) {
    throw new UsageError('bootstrap: --email must be an e-mail address');
  }
  const result = await withServices(loadConfig(io.env), 'cli bootstrap', (services) =>
    bootstrapOrganisation(services, {
      organisation: values.org!.trim(),
      email: values.email!,
      name: values.name,
    }),
  );
  if (values.json) {
    io.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  io.stdout.write(
    `Organisation  ${result.organisationId}\nAdministrator ${result.userId}\nPortfolio     ${result.portfolioId}\n` +
      `API key       ${result.apiKey}\n\nThe API key is shown only now: store it safely.\n`,
  );
}

async function seed(args: string[], io: CliIo): Promise<void> {
  const { values } = parseArgs({ args, options: { org: { type: 'string' }, contacts: { type: 'string' } } });
  if (!values.org || !isId(values.org))
    throw new UsageError('seed: --org <organisationId> is required (an id)');
  const count = values.contacts === undefined ? 0 : Number(values.contacts);
  if (!Number.isInteger(count) || count < (values.contacts === undefined ? 0 : 1) || count > 10_000_000) {
    throw new UsageError('seed: --contacts must be a whole number from 1 to 10000000');
  }
  await withServices(loadConfig(io.env), 'cli seed', async (deps) => {
    const templates = await seedTemplates(deps, values.org!);
    io.stdout.write(
      `Added ${templates.added.length} question lists${templates.added.length ? ` (${templates.added.join(', ')})` : ''}` +
        `${templates.existing.length ? `; already present: ${templates.existing.join(', ')}` : ''}\n`,
    );
    if (count === 0) return;
    const bar = new SingleBar({
      stream: io.stderr,
      format: 'Seeding contacts [{bar}] {percentage}% | {value}/{total} | {eta_formatted} left',
      noTTYOutput: true,
      notTTYSchedule: 5000,
    });
    bar.start(count, 0);
    let result: Awaited<ReturnType<typeof seedContacts>>;
    try {
      result = await seedContacts(deps, values.org!, count, (done) => bar.update(done));
    } finally {
      bar.stop();
    }
    io.stdout.write(`Added ${result.created} contacts to portfolio ${result.portfolioId}\n`);
  });
}

async function readFirstLine(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) {
    text += String(chunk);
    if (text.includes('\n') || text.length > 4096) break;
  }
  return text.split(/\r?\n/)[0] ?? '';
}

async function user(args: string[], io: CliIo): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== 'set-password' && sub !== 'password-link') {
    throw new UsageError('user: set-password or password-link');
  }
  const { values } = parseArgs({
    args: rest,
    options: { org: { type: 'string' }, email: { type: 'string' } },
  });
  if (!values.org || !isId(values.org))
    throw new UsageError(`user ${sub}: --org <organisationId> is required (an id)`);
  if (!values.email?.includes('@')) throw new UsageError(`user ${sub}: --email <staff e-mail> is required`);
  const config = loadConfig(io.env);
  const password = sub === 'set-password' ? await readFirstLine(io.stdin ?? process.stdin) : '';
  if (sub === 'set-password' && !password)
    throw new UsageError('user set-password: give the password on standard input');
  await withServices(config, `cli user ${sub}`, async (deps) => {
    if (sub === 'set-password') {
      await setPasswordByEmail(deps, values.org!, values.email!, password);
      io.stdout.write(`Password set for ${values.email}\n`);
    } else {
      const sent = await passwordLinkByEmail(deps, values.org!, values.email!);
      io.stdout.write(`Link for ${values.email} queued; it works until ${sent.expiresAt}\n`);
    }
  });
}

const words = (text: string | undefined) => (text ?? '').split(/[\s,]+/).filter(Boolean);

async function oauthClient(args: string[], io: CliIo): Promise<void> {
  const [sub, ...rest] = args;
  if (sub !== 'create') throw new UsageError('oauth-client: create');
  const { values } = parseArgs({
    args: rest,
    options: {
      org: { type: 'string' },
      name: { type: 'string' },
      scopes: { type: 'string' },
      grants: { type: 'string' },
      type: { type: 'string' },
      'redirect-uri': { type: 'string', multiple: true },
      'service-user': { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  if (!values.org || !isId(values.org))
    throw new UsageError('oauth-client create: --org <organisationId> is required (an id)');
  const parsed = CreateOAuthClientInput.safeParse({
    name: values.name ?? '',
    type: values.type ?? 'confidential',
    scopes: words(values.scopes),
    grants: words(values.grants),
    redirectUris: values['redirect-uri'] ?? [],
    ...(values['service-user'] ? { serviceUserId: values['service-user'] } : {}),
  });
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${fieldPath(i.path) || 'input'}: ${i.message}`);
    throw new UsageError(`oauth-client create: ${problems.join('; ')}`);
  }
  const created = await withServices(loadConfig(io.env), 'cli oauth-client', (services) =>
    createClient(services, systemContext(values.org!, new Date(), 'command line'), parsed.data),
  );
  if (values.json) {
    io.stdout.write(
      `${JSON.stringify({ clientId: created.clientId, clientSecret: created.clientSecret })}\n`,
    );
    return;
  }
  io.stdout.write(
    `Client id     ${created.clientId}\nClient secret ${created.clientSecret ?? '(none: a public client uses PKCE)'}\n` +
      `Scopes        ${created.scopes.join(' ')}\nGrants        ${created.grants.join(' ')}\n\n` +
      'The secret is shown only now: store it safely.\n',
  );
}

async function org(args: string[], io: CliIo): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === 'export' || sub === 'delete') return offboard(sub, rest, io);
  if (sub !== 'password-sign-in') throw new UsageError('org: password-sign-in, export or delete');
  const { values } = parseArgs({
    args: rest,
    options: { org: { type: 'string' }, on: { type: 'boolean' }, off: { type: 'boolean' } },
  });
  if (!values.org || !isId(values.org))
    throw new UsageError('org password-sign-in: --org <organisationId> is required (an id)');
  if (values.on === values.off) throw new UsageError('org password-sign-in: give --on or --off');
  const config = loadConfig(io.env);
  const result = await withServices(config, 'cli org', (services) =>
    setSignInSettings(services, systemContext(values.org!, new Date(), 'command line'), {
      passwordSignIn: values.on === true,
    }),
  );
  io.stdout.write(`Password sign-in is ${result.passwordSignIn ? 'on' : 'off'} for ${values.org}\n`);
}

async function offboard(sub: 'export' | 'delete', args: string[], io: CliIo): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { org: { type: 'string' }, out: { type: 'string' }, confirm: { type: 'string' } },
  });
  if (!values.org || !isId(values.org))
    throw new UsageError(`org ${sub}: --org <organisationId> is required (an id)`);
  if (sub === 'export' && !values.out) throw new UsageError('org export: --out <directory> is required');
  if (sub === 'delete' && !values.confirm)
    throw new UsageError('org delete: --confirm <organisation name> is required');
  const config = loadConfig(io.env);
  await withServices(config, `cli org ${sub}`, async (deps) => {
    if (sub === 'export') {
      const manifest = await exportOrganisation(deps, values.org!, path.resolve(values.out!), new Date());
      const rows = Object.values(manifest.tables).reduce((a, b) => a + b, 0);
      io.stdout.write(
        `Exported ${manifest.organisationName} (${manifest.organisationId}) to ${path.resolve(values.out!)}: ` +
          `${rows} rows in ${Object.keys(manifest.tables).length} tables, ${manifest.files.count} files (${manifest.files.bytes} bytes)` +
          `${manifest.files.missing.length > 0 ? `; ${manifest.files.missing.length} files had no bytes stored` : ''}\n`,
      );
      return;
    }
    const gone = await deleteOrganisation(deps, values.org!, values.confirm!);
    io.stdout.write(
      `Deleted ${gone.name} (${values.org}): ${Object.entries(gone.counts)
        .map(([what, n]) => `${n} ${what}`)
        .join(', ')}; ${gone.filesRemoved} stored files removed\n`,
    );
    if (gone.filesNotRemoved.length > 0) {
      io.stderr.write(
        `actiondesk: ${gone.filesNotRemoved.length} stored files could not be removed (remove them from the file store): ${gone.filesNotRemoved.join(' ')}\n`,
      );
      throw new Error('some stored files were not removed');
    }
  });
}

async function transferOut(args: string[], io: CliIo): Promise<void> {
  const { values } = parseArgs({ args, options: { out: { type: 'string' } } });
  if (!values.out) throw new UsageError('export: --out <directory> is required');
  const config = loadConfig(io.env);
  const out = path.resolve(values.out);
  const manifest = await withServices(config, 'cli export', ({ database, storage }) =>
    exportDatabase(database, storage, out, new Date()),
  );
  const rows = Object.values(manifest.tables).reduce((a, b) => a + b, 0);
  io.stdout.write(
    `Exported ${rows} rows in ${Object.keys(manifest.tables).length} tables and ${manifest.files.count} files (${manifest.files.bytes} bytes) to ${out}\n`,
  );
  if (manifest.files.missing.length > 0)
    io.stderr.write(
      `actiondesk: ${manifest.files.missing.length} files had no bytes in the file store (listed in manifest.json): ${manifest.files.missing.join(' ')}\n`,
    );
}

async function transferIn(args: string[], io: CliIo): Promise<void> {
  const { values } = parseArgs({
    args,
    options: { from: { type: 'string' }, 'files-only': { type: 'boolean' } },
  });
  if (!values.from) throw new UsageError('import: --from <export directory> is required');
  const config = loadConfig(io.env);
  const from = path.resolve(values.from);
  const result = await withServices(config, 'cli import', ({ database, storage }) =>
    importDatabase(database, storage, from, {
      filesOnly: values['files-only'] === true,
    }),
  );
  const rows = Object.values(result.tables).reduce((a, b) => a + b, 0);
  io.stdout.write(
    `Imported ${rows} rows in ${Object.keys(result.tables).length} tables and ${result.files} files (${result.bytes} bytes) from ${from}\n`,
  );
}

async function prune(args: string[], io: CliIo): Promise<void> {
  const { values } = parseArgs({ args, options: { json: { type: 'boolean' } } });
  const config = loadConfig(io.env);
  const removed = await withServices(config, 'cli prune', ({ database }) =>
    sweepRetention(database, new Date(), config.retention, undefined, [signInFailuresRetention]),
  );
  if (values.json) {
    io.stdout.write(`${JSON.stringify(removed)}\n`);
    return;
  }
  const kept = (days: number | null) => (days === null ? 'kept for ever' : `older than ${days} days`);
  io.stdout.write(
    `Retention: jobs ${kept(config.retention.jobsDays)}, events ${kept(config.retention.eventsDays)}, audit ${kept(config.retention.auditDays)}\n` +
      Object.entries(removed)
        .map(([what, n]) => `  ${what.padEnd(20)} ${n} removed\n`)
        .join(''),
  );
}

async function usageCounts(args: string[], io: CliIo): Promise<void> {
  const { values } = parseArgs({ args, options: { month: { type: 'string' }, json: { type: 'boolean' } } });
  const month = values.month ?? new Date().toISOString().slice(0, 7);
  const period = monthPeriod(month);
  if (!period) throw new UsageError(`--month must be a month as YYYY-MM, not '${month}'`);
  const config = loadConfig(io.env);
  const rows = await withServices(config, 'cli usage', ({ database }) =>
    usageReport(database, period.from, period.to),
  );
  if (values.json) {
    io.stdout.write(`${JSON.stringify({ month, organisations: rows })}\n`);
    return;
  }
  const head = ['organisation', 'id', 'created', 'sent', 'completed', 'signatures'];
  const lines = rows.map((r) =>
    [r.name, r.organisationId, r.actionsCreated, r.actionsSent, r.actionsCompleted, r.signatures].map(String),
  );
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const line = (cells: string[]) =>
    `${cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')}\n`;
  io.stdout.write(
    `Usage in ${month} (UTC), live organisations only; actions:\n${line(head)}${lines.map(line).join('')}`,
  );
}

async function dispatch(argv: string[], io: CliIo): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'bootstrap':
      return bootstrap(rest, io);
    case 'seed':
      return seed(rest, io);
    case 'user':
      return user(rest, io);
    case 'oauth-client':
      return oauthClient(rest, io);
    case 'org':
      return org(rest, io);
    case 'prune':
      return prune(rest, io);
    case 'usage':
      return usageCounts(rest, io);
    case 'export':
      return transferOut(rest, io);
    case 'import':
      return transferIn(rest, io);
    case undefined:
    case 'help':
    case '--help':
      io.stdout.write(`${usage}\n`);
      return;
    default:
      throw new UsageError(`Unknown command '${command}'`);
  }
}

/**
 * Runs one operator command and resolves to its exit code: 0 done, 2 bad arguments or configuration,
 * 1 anything else (the message is on stderr). Never exits the process, so tests call it in-process.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    await dispatch(argv, io);
    return 0;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    io.stderr.write(`actiondesk: ${message}\n`);
    if (err instanceof UsageError) io.stderr.write(`\n${usage}\n`);
    return err instanceof UsageError || err instanceof ConfigError
      ? 2
      : err instanceof OffboardingError
        ? 1
        : 1;
  }
}
