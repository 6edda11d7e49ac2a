import { configDefaults, defineConfig } from 'vitest/config';

// Two projects: `unit` (pure logic, and integration against the real reference server over real HTTP
// and real SQLite files) and `e2e` (Chromium through the web shell; needs `npm run build` first), which
// also holds test/commands: the README's commands run as written, busy ports, the packed app. Its files
// run one at a time (they start servers, browsers and builds). test/security holds the attacks of issue 14:
// over real HTTP in `unit`, in Chromium (`*.e2e.test.ts`) in `e2e`.
export default defineConfig({
  test: {
    pool: 'forks',
    projects: [
      {
        test: {
          name: 'unit',
          include: [
            'test/core/**/*.test.ts',
            'test/server/**/*.test.ts',
            'test/renderer/**/*.test.ts',
            'test/shared/**/*.test.ts',
            'test/shell/**/*.test.ts',
            'test/fault/**/*.test.ts',
            'test/security/**/*.test.ts',
          ],
          exclude: [...configDefaults.exclude, 'test/security/**/*.e2e.test.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
          globalSetup: ['test/helpers/openapi-check-global.ts'],
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts', 'test/commands/**/*.test.ts', 'test/security/**/*.e2e.test.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          globalSetup: ['test/helpers/openapi-check-global.ts'],
          fileParallelism: false,
        },
      },
    ],
  },
});
