// A jest reporter that keeps each test file's time of the last run in
// node_modules/.cache/actiondesk-tests/timings.json, for `npm run test:slowest`.
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
    fs.writeFileSync(path.join(dir, 'timings.json'), `${JSON.stringify(run, null, 2)}\n`);
  }
}

module.exports = TimingsReporter;
