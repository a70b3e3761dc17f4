/**
 * The import graph of the server, the web app, the infra and the tests (CONVENTIONS.md "Dependency
 * direction"): `depcruise --config .dependency-cruiser.cjs functions shared session-runner infra web/src tests`.
 * Its TypeScript parser needs typescript <7 beside dependency-cruiser (the project's own is 7).
 */
const ENTRY = '^functions/(http|jobs|ws)/[^/]+\\.ts$';
/** handlers that never reach realtime nor the ticket service, so need no domain handlers */
const NO_STARTUP = '^functions/jobs/(company-cleanup|search-index|seed)\\.ts$';

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'startup-only-where-needed',
      comment: 'a handler listed in NO_STARTUP that starts reaching realtime must import #lib/startup',
      severity: 'error',
      from: { path: NO_STARTUP },
      to: { path: '^functions/lib/realtime\\.ts$', reachable: true },
    },
  ],
  required: [
    {
      name: 'entry-loads-startup',
      comment:
        'a Lambda entry registers the domain handlers on realtime and the ticket service (functions/lib/startup.ts)',
      severity: 'error',
      module: { path: ENTRY, pathNot: ['\\.test\\.ts$', NO_STARTUP] },
      to: { path: '^functions/lib/startup\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.js', '.mjs'],
    },
  },
};
