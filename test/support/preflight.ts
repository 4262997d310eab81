import { spawnSync } from 'node:child_process';
import { chromiumPath } from './browser';

/** Installs every system package the tests and scripts use that is missing (the README gives it too). */
export const INSTALL_COMMAND = 'sudo bash scripts/install-prerequisites.sh';

interface Tool {
  name: string;
  /** What uses it, for the message. */
  usedBy: string;
  /** The Debian package that has it. */
  pkg: string;
  found(): boolean;
}

const onPath = (command: string) => () => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

const tools: Tool[] = [
  {
    name: 'Chromium',
    usedBy: 'the browser tests (*.browser.test.ts)',
    pkg: 'chromium',
    found: () => {
      try {
        chromiumPath(); // an existing path, or it throws
        return true;
      } catch {
        return false;
      }
    },
  },
  { name: 'pdfsig', usedBy: 'the signing tests', pkg: 'poppler-utils', found: onPath('pdfsig') },
  { name: 'promtool', usedBy: 'the metrics tests', pkg: 'prometheus', found: onPath('promtool') },
];

/** On a PostgreSQL server run, the transfer tests dump and restore with PostgreSQL's own tools. */
const serverTools: Tool[] = [
  {
    name: 'pg_dump',
    usedBy: 'the transfer tests on a server',
    pkg: 'postgresql-client',
    found: onPath('pg_dump'),
  },
  {
    name: 'pg_restore',
    usedBy: 'the transfer tests on a server',
    pkg: 'postgresql-client',
    found: onPath('pg_restore'),
  },
];

/**
 * The tools the suite runs, checked before any test: a missing one stops the run at once with its name,
 * what needs it and the command that installs it, instead of failing tests one by one.
 */
export function missingTools(onServer: boolean): string | null {
  return missingMessage([...tools, ...(onServer ? serverTools : [])].filter((t) => !t.found()));
}

/** What the run says when these tools are missing (null: none is). */
export function missingMessage(missing: Pick<Tool, 'name' | 'usedBy' | 'pkg'>[]): string | null {
  if (missing.length === 0) return null;
  const lines = missing.map((t) => `  - ${t.name} (Debian package ${t.pkg}), for ${t.usedBy}`);
  const packages = [...new Set(missing.map((t) => t.pkg))];
  return [
    missing.length === 1
      ? 'The test suite needs a tool this machine does not have:'
      : 'The test suite needs tools this machine does not have:',
    ...lines,
    `Install ${missing.length === 1 ? 'it' : 'them'} with: ${INSTALL_COMMAND}`,
    `(or only the package${packages.length === 1 ? '' : 's'}: sudo apt-get install -y --no-install-recommends ${packages.join(' ')})`,
    ...(missing.some((t) => t.name === 'Chromium')
      ? ['Chromium elsewhere than /usr/bin/chromium: set CHROMIUM_PATH.']
      : []),
  ].join('\n');
}
