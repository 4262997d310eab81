// Jest resolves the client's `./x.js` imports to its `./x.ts` sources; everything else as usual.
const path = require('node:path');

const client = path.resolve(__dirname, '../..');

module.exports = (request, options) => {
  try {
    return options.defaultResolver(request, options);
  } catch (err) {
    if (!/^\.{1,2}\/.*\.js$/.test(request) || !options.basedir.startsWith(client)) throw err;
    return options.defaultResolver(request.replace(/\.js$/, '.ts'), options);
  }
};
