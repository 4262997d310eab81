// The input rule of docs/architecture.md, run by `npm run lint`: outside the platform's HTTP and browser
// plumbing (src/platform/http, src/platform/web), no code reads a request's body or query itself
// (`req.body`, `req.query`, `req['body']`, `const { body } = req`): a route or page declares their zod
// schemas (`body`, `query`, `form`, a form endpoint's `fields`) and its handler gets them parsed.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { typescriptSources } from './support/typescript-sources.mjs';

const ALLOWED = ['src/platform/http/', 'src/platform/web/'];
const RAW = new Set(['body', 'query']);

const files = typescriptSources('src');

/** True for `req` and `….req` (a handler's input): the name every router gives the express request. */
const isRequest = (node) =>
  (ts.isIdentifier(node) && node.text === 'req') ||
  (ts.isPropertyAccessExpression(node) && node.name.text === 'req');

const problems = [];
const checked = files.filter((f) => !ALLOWED.some((dir) => f.split(path.sep).join('/').startsWith(dir)));
for (const file of checked) {
  const text = fs.readFileSync(file, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const report = (node, what) => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    problems.push(`${file}:${line}: reads ${what} itself`);
  };
  const visit = (node) => {
    if (ts.isPropertyAccessExpression(node) && isRequest(node.expression) && RAW.has(node.name.text))
      report(node, `req.${node.name.text}`);
    if (
      ts.isElementAccessExpression(node) &&
      isRequest(node.expression) &&
      ts.isStringLiteralLike(node.argumentExpression) &&
      RAW.has(node.argumentExpression.text)
    )
      report(node, `req['${node.argumentExpression.text}']`);
    if (
      ts.isVariableDeclaration(node) &&
      node.initializer &&
      isRequest(node.initializer) &&
      ts.isObjectBindingPattern(node.name)
    ) {
      for (const element of node.name.elements) {
        const name = (element.propertyName ?? element.name).getText(source);
        if (RAW.has(name)) report(element, `req.${name}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
}

if (problems.length > 0) {
  console.error(
    `Raw request input (declare a zod schema on the route: docs/architecture.md#input):\n  ${problems.join('\n  ')}`,
  );
  process.exit(1);
}
console.log(
  `✔ input: ${checked.length} files outside src/platform/{http,web} read no raw req.body or req.query`,
);
