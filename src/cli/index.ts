import { ConfigError, loadEnvFile } from '../config';
import { runCli } from './run';

// The process entry: ./.env (if any) under the real environment, then the command; see run.ts.
async function main(): Promise<number> {
  try {
    loadEnvFile();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`actiondesk: ${err.message}\n`);
    return 2;
  }
  return runCli(process.argv.slice(2), { env: process.env, stdout: process.stdout, stderr: process.stderr });
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`actiondesk: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
