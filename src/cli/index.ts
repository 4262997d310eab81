import { parseArgs } from 'node:util';
import { SingleBar } from 'cli-progress';
import { ConfigError, loadConfig } from '../config';
import { bootstrapOrganisation } from '../modules/admin';
import { seedContacts } from '../modules/customers';
import { seedTemplates } from '../modules/questionlists';
import { systemClock } from '../platform/clock';
import type { Database } from '../platform/db/database';
import { openConfiguredDatabase } from '../platform/db/open';
import { isId } from '../platform/ids';

const usage = `Usage: npm run cli -- <command> [options]

Commands:
  bootstrap --org <name> --email <admin e-mail> [--name <admin name>] [--json]
      Creates an organisation, an administrator, a default portfolio and an API key.
  seed --org <organisationId> [--contacts <N>]
      Adds the demo questionnaire templates the organisation does not have yet (nl, fr, en) and,
      with --contacts, N realistic demo contacts to its default portfolio.

The database is the one the service uses: DATABASE_URL, or the embedded one in DATA_DIR (which must not
be held by a running server).`;

class UsageError extends Error {}

async function withDatabase<T>(purpose: string, fn: (db: Database) => Promise<T>): Promise<T> {
  const database = await openConfiguredDatabase(loadConfig(), purpose);
  try {
    return await fn(database);
  } finally {
    await database.close();
  }
}

async function bootstrap(args: string[]): Promise<void> {
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
  const result = await withDatabase('cli bootstrap', (database) =>
    bootstrapOrganisation(
      { database, clock: systemClock },
      { organisation: values.org!.trim(), email: values.email!, name: values.name },
    ),
  );
  if (values.json) {
    process.stdout.write(`${JSON.stringify(result)}\n`);
    return;
  }
  process.stdout.write(
    `Organisation  ${result.organisationId}\nAdministrator ${result.userId}\nPortfolio     ${result.portfolioId}\n` +
      `API key       ${result.apiKey}\n\nThe API key is shown only now: store it safely.\n`,
  );
}

async function seed(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { org: { type: 'string' }, contacts: { type: 'string' } } });
  if (!values.org || !isId(values.org))
    throw new UsageError('seed: --org <organisationId> is required (an id)');
  const count = values.contacts === undefined ? 0 : Number(values.contacts);
  if (!Number.isInteger(count) || count < (values.contacts === undefined ? 0 : 1) || count > 10_000_000) {
    throw new UsageError('seed: --contacts must be a whole number from 1 to 10000000');
  }
  await withDatabase('cli seed', async (database) => {
    const deps = { database, clock: systemClock };
    const templates = await seedTemplates(deps, values.org!);
    process.stdout.write(
      `Added ${templates.added.length} question lists${templates.added.length ? ` (${templates.added.join(', ')})` : ''}` +
        `${templates.existing.length ? `; already present: ${templates.existing.join(', ')}` : ''}\n`,
    );
    if (count === 0) return;
    const bar = new SingleBar({
      stream: process.stderr,
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
    process.stdout.write(`Added ${result.created} contacts to portfolio ${result.portfolioId}\n`);
  });
}

async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'bootstrap':
      return bootstrap(rest);
    case 'seed':
      return seed(rest);
    case undefined:
    case 'help':
    case '--help':
      process.stdout.write(`${usage}\n`);
      return;
    default:
      throw new UsageError(`Unknown command '${command}'`);
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`actiondesk: ${message}\n`);
  if (err instanceof UsageError) process.stderr.write(`\n${usage}\n`);
  process.exitCode = err instanceof UsageError || err instanceof ConfigError ? 2 : 1;
});
