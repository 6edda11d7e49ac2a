import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { DESCRIPTION_ENV, REQUEST_CHECK_ENV, type RequestProblem } from '../../server/testing/request-check.ts';

// vitest's globalSetup for both projects (vitest.config.ts): switches the reference server's request check
// on for every test file of the run (server/testing/request-check.ts), through the workers' environment,
// which the servers they start as child processes inherit. After the last file, any request the check
// wrote down fails the run: the teardown sets the exit code (vitest 4.1 logs an error thrown there and
// exits 0 all the same) and throws, so the problems are printed with the run's errors.

/** How many problems the failure names; the rest stay in the kept file. */
const SHOWN = 20;

export default function setup(project: TestProject): () => void {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `fieldguide-openapi-${project.name}-`));
  const log = path.join(dir, 'requests.jsonl');
  fs.writeFileSync(log, '');
  // The project's env (read when its workers start; vitest leaves it unset), not process.env, which the
  // other project's setup would overwrite when both run in one vitest.
  project.config.env = {
    ...project.config.env,
    [REQUEST_CHECK_ENV]: log,
    [DESCRIPTION_ENV]: path.join(project.config.root, 'test/fixtures/ifixit-openapi/requests-2.0.json'),
  };
  return () => {
    const lines = fs.readFileSync(log, 'utf8').split('\n').filter(Boolean);
    if (lines.length === 0) {
      fs.rmSync(dir, { recursive: true, force: true });
      return;
    }
    const problems = lines.map((line) => JSON.parse(line) as RequestProblem);
    const shown = problems.slice(0, SHOWN).map((problem) => {
      const query = new URLSearchParams(problem.query).toString();
      const asked = `${problem.method} ${problem.path}${query ? `?${query}` : ''}`;
      return `- ${asked} (${problem.test}): ${JSON.stringify(problem.errors)}`;
    });
    process.exitCode = 1;
    throw new Error(
      `${problems.length} request(s) of the ${project.name} tests are not what iFixit's OpenAPI description allows ` +
        `(all of them in ${log}):\n${shown.join('\n')}`,
    );
  };
}
