// The house's import rules, checked by `npm run check:imports` (the first step of `npm test`).
// Each rule's name is what a violation prints; its comment says why the rule exists.
// test/core/import-rules.test.ts breaks each rule in a scratch copy and expects this check to refuse it.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'renderer-imports-only-contract-and-shared',
      comment:
        'The renderer (src/) runs in a browser window: of the rest it may import only the contract ' +
        '(electron/contract.ts and electron/contract/) and the shared rules (electron/shared/). ' +
        'Everything else it reaches through the bridge.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(electron|server)/', pathNot: '^electron/(contract(\\.ts$|/)|shared/)' },
    },
    {
      name: 'shells-enter-core-through-services',
      comment:
        'The shells (electron/main, preload, web) call the core through electron/core/services.ts only; what they need of the core is handed on there.',
      severity: 'error',
      from: { path: '^electron/(main|preload|web)/' },
      to: { path: '^electron/core/', pathNot: '^electron/core/services\\.ts$' },
    },
    {
      name: 'shells-import-only-their-own-files',
      comment:
        'A shell imports the contract, services.ts, its own folder, the demo workshop it passes to services and the port helper it listens with: not the renderer, not another shell, not the rest of the server.',
      severity: 'error',
      from: { path: '^electron/(main|preload|web)/' },
      to: {
        path: '^(src/|server/|electron/(main|preload|web)/)',
        pathNot: '^(electron/$1/|server/(demo-workshop|listen)\\.ts$)',
      },
    },
    {
      name: 'wire-types-only-in-api',
      comment:
        "core/api is the one place that knows the wire: its zod schemas and *Wire types stay there, and everything past it uses the project's own types.",
      severity: 'error',
      from: { pathNot: '^electron/core/api/' },
      to: { path: '^electron/core/api/wire/' },
    },
    {
      name: 'sql-only-in-db',
      comment:
        'SQL is written in core/db only: features get a Store of repositories and transactions, never a connection, a statement or better-sqlite3.',
      severity: 'error',
      from: { path: '^electron/', pathNot: '^electron/core/db/' },
      to: {
        path: '(^electron/core/db/(open|statements|pictures)\\.ts$|^electron/core/db/migrations/|(^|/)node_modules/better-sqlite3/|^better-sqlite3$)',
      },
    },
    {
      name: 'core-imports-no-shell-renderer-or-server',
      comment:
        'electron/core is platform-free Node: it never imports Electron, a shell, the renderer or the reference server (the shells pass it what it needs).',
      severity: 'error',
      from: { path: '^electron/core/' },
      to: { path: '(^electron/(main|preload|web)/|^src/|^server/|(^|/)node_modules/electron/|^electron$)' },
    },
    {
      name: 'shared-rules-are-pure',
      comment:
        'electron/shared/ holds rules both the core and the renderer run: it imports nothing but itself and the contract (no Node, no DOM, no packages).',
      severity: 'error',
      from: { path: '^electron/shared/' },
      to: { pathNot: '^electron/(shared/|contract(\\.ts$|/))' },
    },
    {
      name: 'contract-imports-nothing',
      comment:
        'The contract (electron/contract.ts and its feature files in electron/contract/) is types and constants ' +
        'that every side imports; it imports nothing but itself: no schema, no package, no rule of the core.',
      severity: 'error',
      from: { path: '^electron/contract(\\.ts$|/)' },
      to: { pathNot: '^electron/contract/' },
    },
    {
      name: 'server-plays-another-party',
      comment: 'The reference server plays the site: it shares no code with the app it serves.',
      severity: 'error',
      from: { path: '^server/' },
      to: { path: '^(electron|src)/' },
    },
    {
      name: 'outbox-knows-no-kinds',
      comment:
        'core/outbox is a queue of any kind of action: chains, order, in-flight marks, backoff, send times. The kinds, their handlers and what they touch belong to their features (worklog/, quiz/), which register them (outbox/action-kind.ts): the outbox imports no feature, nor the repositories and the site calls that are theirs.',
      severity: 'error',
      from: { path: '^electron/core/outbox/' },
      to: {
        path: '^electron/core/((worklog|quiz|library|sync)/|db/repos/(sessions|quizzes|conflicts|guides)-repo\\.ts$|api/(work-log|quizzes|user-media|users|guides)-api\\.ts$)',
      },
    },
    {
      name: 'barcode-reader-in-one-place',
      comment:
        "The scanner's barcode reader (zxing-wasm and its .wasm) is imported by src/lib/barcode-reader.ts only, which the Scan button loads when it opens: the rest of the window never carries the reader, and its .wasm is always the app's own copy (locateFile there), never the library's CDN.",
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/lib/barcode-reader\\.ts$' },
      to: { path: '(^|/)node_modules/zxing-wasm/' },
    },
    {
      name: 'no-circular-imports',
      comment: 'Files that import each other in a loop have no order a newcomer can read them in.',
      severity: 'error',
      from: { path: '^(electron|src|server)/' },
      to: { circular: true },
    },
  ],
  options: {
    // Type-only imports count: a *Wire type named outside core/api breaks a rule as much as a schema.
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(out|test)/' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.vue', '.js', '.mjs', '.cjs', '.json'],
      conditionNames: ['import', 'require', 'node', 'default'],
      exportsFields: ['exports'],
      mainFields: ['module', 'main', 'types'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
