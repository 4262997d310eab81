import { missingMessage } from '../support/preflight';

// What `npm test` says before any test when a tool it runs is missing (test/support/preflight.ts):
// each missing tool, what needs it, and the commands that install it.

const chromium = { name: 'Chromium', usedBy: 'the browser tests (*.browser.test.ts)', pkg: 'chromium' };
const promtool = { name: 'promtool', usedBy: 'the metrics tests', pkg: 'prometheus' };
const pgDump = { name: 'pg_dump', usedBy: 'the transfer tests on a server', pkg: 'postgresql-client' };
const pgRestore = { name: 'pg_restore', usedBy: 'the transfer tests on a server', pkg: 'postgresql-client' };

describe('the preflight message', () => {
  it('when nothing is missing, then there is no message', () => {
    expect(missingMessage([])).toBeNull();
  });

  it('when one tool is missing, then it names that tool, its package and both install commands', () => {
    expect(missingMessage([promtool])).toBe(
      [
        'The test suite needs a tool this machine does not have:',
        '  - promtool (Debian package prometheus), for the metrics tests',
        'Install it with: sudo bash scripts/install-prerequisites.sh',
        '(or only the package: sudo apt-get install -y --no-install-recommends prometheus)',
      ].join('\n'),
    );
  });

  it('when Chromium is among several missing tools, then each is named, a package once, and CHROMIUM_PATH is offered', () => {
    expect(missingMessage([chromium, pgDump, pgRestore])).toBe(
      [
        'The test suite needs tools this machine does not have:',
        '  - Chromium (Debian package chromium), for the browser tests (*.browser.test.ts)',
        '  - pg_dump (Debian package postgresql-client), for the transfer tests on a server',
        '  - pg_restore (Debian package postgresql-client), for the transfer tests on a server',
        'Install them with: sudo bash scripts/install-prerequisites.sh',
        '(or only the packages: sudo apt-get install -y --no-install-recommends chromium postgresql-client)',
        'Chromium elsewhere than /usr/bin/chromium: set CHROMIUM_PATH.',
      ].join('\n'),
    );
  });
});
