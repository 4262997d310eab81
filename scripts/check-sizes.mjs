// The size rules of docs/architecture.md, run by `npm run lint`: no file in src/ over 400 lines, no
// function over 150. `node scripts/check-sizes.mjs --list N` lists every function over N lines instead.
import fs from 'node:fs';
import ts from 'typescript';
import { typescriptSources } from './support/typescript-sources.mjs';

const MAX_FILE = 400;
const MAX_FUNCTION = 150;
const listAt = process.argv[2] === '--list' ? Number(process.argv[3] ?? 100) : undefined;

const files = typescriptSources('src');

const problems = [];
const functions = [];
for (const file of files) {
  const text = fs.readFileSync(file, 'utf8');
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  if (lines > MAX_FILE) problems.push(`${file}: ${lines} lines (at most ${MAX_FILE})`);
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const length = end - start + 1;
      const name = node.name?.getText(source) ?? nameOfParent(node, source);
      functions.push({ file, line: start + 1, name, length });
      if (length > MAX_FUNCTION)
        problems.push(`${file}:${start + 1}: function ${name} is ${length} lines (at most ${MAX_FUNCTION})`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

function nameOfParent(node, source) {
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.name)
    return parent.name.getText(source);
  return '(anonymous)';
}

if (listAt !== undefined) {
  for (const f of functions.filter((f) => f.length > listAt).sort((a, b) => b.length - a.length))
    console.log(`${String(f.length).padStart(4)}  ${f.file}:${f.line}  ${f.name}`);
  process.exit(0);
}
if (problems.length > 0) {
  console.error(`Too large (split by concern: docs/architecture.md#sizes):\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(
  `✔ sizes: ${files.length} files in src/ at most ${MAX_FILE} lines, functions at most ${MAX_FUNCTION}`,
);
