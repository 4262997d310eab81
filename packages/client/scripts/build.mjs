// npm run build -w @actiondesk/client — dist/esm (import) and dist/cjs (require), each with its .d.ts,
// compiled by tsc from the same sources; then both are loaded to check they export the same API.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const dist = path.join(dir, 'dist');

fs.rmSync(dist, { recursive: true, force: true });
for (const [config, type] of [
  ['tsconfig.esm.json', 'module'],
  ['tsconfig.cjs.json', 'commonjs'],
]) {
  execFileSync(process.execPath, [tsc, '-p', config], { cwd: dir, stdio: 'inherit' });
  // Each tree says how Node reads its .js files, whatever the package's own "type".
  const out = path.join(dist, type === 'module' ? 'esm' : 'cjs');
  fs.writeFileSync(path.join(out, 'package.json'), `${JSON.stringify({ type })}\n`);
}

const { version } = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
const esm = await import(pathToFileURL(path.join(dist, 'esm/index.js')).href);
const cjs = createRequire(import.meta.url)(path.join(dist, 'cjs/index.js'));
const names = (m) =>
  Object.keys(m)
    .filter((k) => k !== 'default' && k !== '__esModule')
    .sort()
    .join(' ');
if (names(esm) !== names(cjs)) throw new Error(`ESM exports ${names(esm)}\nCJS exports ${names(cjs)}`);
for (const m of [esm, cjs]) {
  if (m.VERSION !== version) throw new Error(`src/version.ts says ${m.VERSION}, package.json ${version}`);
  const client = m.createClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'adk_x' });
  if (typeof client.customers.list !== 'function' || typeof client.call.createCustomer !== 'function')
    throw new Error('the built client lacks its methods');
}
console.log(
  `@actiondesk/client ${version}: dist/esm and dist/cjs export ${names(esm).split(' ').length} names`,
);
