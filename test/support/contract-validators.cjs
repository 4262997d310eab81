'use strict';
// The contract checker's compiled response schemas (see contract.ts), made once per state of the sources
// rather than once per test file. Jest gives every test file a module registry and a vm context of its
// own, so an Ajv loaded through it would be loaded, fed the OpenAPI document and made to compile each
// schema again in every file (100–400 ms a file). contract.ts loads this file with Node's own require
// (module.createRequire), outside that registry, so what it keeps lives as long as the jest worker:
// - in memory, the validators compiled or loaded so far, per document;
// - on disk, each validator as Ajv's standalone code, which any worker of this run or a later one loads
//   instead of compiling (under the directory of the state of the sources, which the global setup
//   removes when the sources change).
// Everything kept in memory is made here — documents parsed from their text, references built from
// strings — because an object from a test file's context would keep that whole context alive.

const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const Ajv2020 = require('ajv/dist/2020').default;
const standaloneCode = require('ajv/dist/standalone').default;
const addFormats = require('ajv-formats');

const OPTIONS = { strict: false, allErrors: false, validateFormats: true, validateSchema: false };
/** What a kept validator's code depends on besides its document and reference. */
const MAKER = `ajv ${require('ajv/package.json').version} ${JSON.stringify(OPTIONS)}`;
/** Documents kept in memory at once: the suite's apps serve a dozen, most files use one or two. */
const MAX_DOCUMENTS = 6;

/** Per document (by the hash of its text): its validators, and an Ajv holding it once one is compiled. */
const documents = new Map();

function entryFor(key) {
  let entry = documents.get(key);
  if (entry) documents.delete(key);
  else entry = { ajv: undefined, validators: new Map() };
  // Most recently used last, so the first key is the one to drop.
  documents.set(key, entry);
  if (documents.size > MAX_DOCUMENTS) documents.delete(documents.keys().next().value);
  return entry;
}

/** Runs standalone code (a CommonJS module exporting the function) and answers the function. */
function load(code) {
  const module = { exports: {} };
  new Function('require', 'module', 'exports', code)(require, module, module.exports);
  return module.exports;
}

/**
 * The validator of the schema at `ref` (`doc#/…`, a JSON pointer into the document) of the document
 * `documentText()` answers, whose sha-256 is `key`; `cacheDir` keeps the code (none: memory only).
 */
exports.validatorFor = (key, documentText, ref, cacheDir) => {
  const entry = entryFor(key);
  let validate = entry.validators.get(ref);
  if (validate) return validate;
  const file = cacheDir
    ? path.join(
        cacheDir,
        `${createHash('sha256').update(`${MAKER}\n${key}\n${ref}`).digest('hex').slice(0, 32)}.js`,
      )
    : undefined;
  try {
    if (file) validate = load(fs.readFileSync(file, 'utf8'));
  } catch {
    validate = undefined;
  }
  if (!validate) {
    if (!entry.ajv) {
      entry.ajv = new Ajv2020({ ...OPTIONS, code: { source: Boolean(file) } });
      addFormats(entry.ajv);
      entry.ajv.addSchema(JSON.parse(documentText()), 'doc');
    }
    validate = entry.ajv.compile({ $ref: String(ref) });
    if (file) {
      fs.mkdirSync(cacheDir, { recursive: true });
      // Written beside, then renamed: another worker reading it at the same time sees all of it or none.
      const temp = `${file}.${process.pid}`;
      fs.writeFileSync(temp, standaloneCode(entry.ajv, validate));
      fs.renameSync(temp, file);
    }
  }
  entry.validators.set(ref, validate);
  return validate;
};

/** Drops every validator held in memory (what a new worker starts with): for the checker's own test. */
exports.forget = () => documents.clear();
