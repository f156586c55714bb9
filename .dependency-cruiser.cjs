// The import rules of the house (docs/development.md, "The map"). `npm run lint` checks them; a rule broken fails it.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Files that import each other cannot be read, tested or moved one at a time.',
      from: { path: '^(src|portal|sdk)/' },
      to: { circular: true },
    },
    {
      name: 'plumbing-knows-no-capability',
      severity: 'error',
      comment:
        'http/, db/, lib/, services/ and the root files (config, context, clock, time) serve every capability and ' +
        'import none: app.ts hands them what they need (a credential resolver, a predicate).',
      from: { path: '^src/(http|db|lib|services)/|^src/(config|context|clock|time)\\.ts$' },
      to: { path: '^src/modules/' },
    },
    {
      name: 'routes-are-entry-points',
      severity: 'error',
      comment: "A capability never imports another's routes: routes are wired by app.ts alone.",
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/([^/]+)/.+\\.routes\\.ts$', pathNot: '^src/modules/$1/' },
    },
    {
      name: 'repositories-stay-home',
      severity: 'error',
      comment:
        "A capability's SQL is its own: another capability asks its service. The one exception is the games " +
        "table's shared playtime fragment and shard rule (games/playtime.repository.ts), read by play and dev.",
      from: { path: '^src/modules/([^/]+)/' },
      to: {
        path: '^src/modules/([^/]+)/.+\\.repository\\.ts$',
        pathNot: ['^src/modules/$1/', '^src/modules/games/playtime\\.repository\\.ts$'],
      },
    },
    {
      name: 'portal-and-sdk-are-browser-code',
      severity: 'error',
      comment: 'The portal and the SDK run in the browser: they never import the service.',
      from: { path: '^(portal|sdk)/' },
      to: { path: '^src/' },
    },
    {
      name: 'no-test-code-in-the-product',
      severity: 'error',
      from: { path: '^(src|portal|sdk)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^test/|\\.test\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
    exclude: { path: '^(dist|node_modules|packages/client/src/schema\\.ts)' },
  },
};
