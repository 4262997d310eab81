/**
 * Module boundaries, checked by `npm run lint` (see docs/architecture.md):
 * - only repositories, src/platform/db and src/db touch the tables (src/db/schema) and SQL (drizzle-orm);
 *   type-only imports are allowed (they run nothing);
 * - a module reaches another only through that module's public entry, src/modules/<m>/index.ts;
 * - the platform never reaches up into modules, and nothing imports the server entry;
 * - the texts and date formatting (src/i18n) stand beneath both: they import neither;
 * - routers never touch repositories or the database platform, repositories never touch express;
 * - a module's entry exports no repository: other modules call its named use cases and reads;
 * - services (use cases) know no HTTP: no express, not even its types; routers hand them plain data;
 * - no import cycles.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Import cycles make load order matter and modules impossible to reason about alone.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'tables-only-in-repositories',
      severity: 'error',
      comment: 'Only repositories (and the database platform) read or write tables.',
      from: { path: '^src/', pathNot: ['\\.repository\\.ts$', '^src/platform/db/', '^src/db/'] },
      // enums.ts holds the closed sets of values columns take (languages, statuses): constants, no tables.
      to: { path: '^src/db/schema', pathNot: '^src/db/schema/enums\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'sql-only-in-repositories',
      severity: 'error',
      comment: 'SQL (drizzle-orm: the sql tag, query builders, operators) is written in repositories only.',
      from: { path: '^src/', pathNot: ['\\.repository\\.ts$', '^src/platform/db/', '^src/db/'] },
      to: { path: '(^|/)node_modules/drizzle-orm/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'modules-through-their-entry',
      severity: 'error',
      comment: 'A module reaches another only through src/modules/<other>/index.ts.',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/[^/]+/', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index\\.ts$'] },
    },
    {
      name: 'entries-from-outside-modules',
      severity: 'error',
      comment: 'Code outside the modules (app, worker, CLI) uses a module through its entry too.',
      from: { path: '^src/', pathNot: '^src/modules/' },
      to: { path: '^src/modules/[^/]+/', pathNot: '^src/modules/[^/]+/index\\.ts$' },
    },
    {
      name: 'platform-stays-down',
      severity: 'error',
      comment: 'The platform is what modules stand on; it never imports a module or the app.',
      from: { path: '^src/platform/' },
      to: { path: ['^src/modules/', '^src/app\\.ts$', '^src/worker\\.ts$', '^src/cli/'] },
    },
    {
      name: 'i18n-stays-down',
      severity: 'error',
      comment:
        'src/i18n holds wording and date formatting only: modules and the platform word things with it, so it ' +
        'imports no module, no platform file and nothing that wires a process (type-only imports count too).',
      from: { path: '^src/i18n/' },
      to: {
        path: [
          '^src/modules/',
          '^src/platform/',
          '^src/app\\.ts$',
          '^src/worker\\.ts$',
          '^src/services\\.ts$',
          '^src/server\\.ts$',
          '^src/config',
          '^src/cli/',
        ],
      },
    },
    {
      name: 'nothing-imports-the-server',
      severity: 'error',
      from: {},
      to: { path: '^src/server\\.ts$' },
    },
    {
      name: 'routers-use-services',
      severity: 'error',
      comment: 'A router calls use cases; it never touches a repository.',
      from: { path: '\\.router\\.ts$' },
      to: { path: '\\.repository\\.ts$' },
    },
    {
      name: 'entries-export-no-repository',
      severity: 'error',
      comment:
        'A module owns its tables: its entry exports named use cases and reads taking (tx, ctx, …), ' +
        'never a repository (row types may be exported: type-only imports run nothing).',
      from: { path: '^src/modules/[^/]+/index\\.ts$' },
      to: { path: '\\.repository\\.ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'routers-know-no-database',
      severity: 'error',
      comment:
        'A router turns requests into use-case calls: transactions and queries belong to services ' +
        '(a type such as Database in its deps is allowed).',
      from: { path: '\\.router\\.ts$' },
      to: { path: '^src/platform/db/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'services-know-no-http',
      severity: 'error',
      comment:
        'A use case takes plain data (a form, a query, the browser’s pending sign-ins), never an HTTP ' +
        'request or response: the router adapts them. Type-only imports count too.',
      from: { path: '\\.service\\.ts$' },
      to: {
        path: [
          '(^|/)node_modules/(express|express-session|@types/express|@types/express-session)/',
          '^src/platform/web/(cookies|csrf|headers|sessions)\\.ts$',
        ],
      },
    },
    {
      name: 'repositories-know-no-http',
      severity: 'error',
      from: { path: '\\.repository\\.ts$' },
      to: { path: ['(^|/)node_modules/express/', '^src/platform/http/'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
