// A jest reporter that keeps each test file's time of the last run in
// node_modules/.cache/actiondesk-tests/timings.json (and timings-<database>-node<major>.json), for
// `npm run test:slowest` (`npm run test:slowest -- 10 timings-server-node24.json` reads the other).
const fs = require('node:fs');
const path = require('node:path');

class TimingsReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
    this.files = [];
    this.startedAt = Date.now();
  }

  onTestResult(_test, result) {
    this.files.push({
      file: path.relative(this.rootDir, result.testFilePath),
      seconds: (result.perfStats.end - result.perfStats.start) / 1000,
      tests: result.numPassingTests + result.numFailingTests,
      failed: result.numFailingTests > 0 || Boolean(result.testExecError),
    });
  }

  onRunComplete() {
    const dir = path.join(this.rootDir, 'node_modules/.cache/actiondesk-tests');
    fs.mkdirSync(dir, { recursive: true });
    const run = {
      finishedAt: new Date().toISOString(),
      wallSeconds: (Date.now() - this.startedAt) / 1000,
      database: process.env.DATABASE_URL ? 'server' : 'embedded',
      node: process.version,
      files: this.files.sort((a, b) => b.seconds - a.seconds),
    };
    const text = `${JSON.stringify(run, null, 2)}\n`;
    // The last run, and the last run of each database and Node version (CI makes one of each).
    fs.writeFileSync(path.join(dir, 'timings.json'), text);
    fs.writeFileSync(
      path.join(dir, `timings-${run.database}-node${process.versions.node.split('.')[0]}.json`),
      text,
    );
  }
}

module.exports = TimingsReporter;
