// The vitest JSON reports the test scripts leave in a package: `.vitest-report.json` (the Node 24 run),
// `.vitest-report.node22.json` (the Node 22 run), `.vitest-report.<part>.json` (a part of the Node 24 run that the test
// queue runs on its own, scripts/test-tasks.ts).
import { readdirSync } from 'node:fs';

const REPORT = /^\.vitest-report(?:\.(.+))?\.json$/;

/** The report files in `dir`, sorted, each with its part (`undefined` for the Node 24 run, `node22`, or a part's name). */
export function vitestReports(dir: string): { file: string; part: string | undefined }[] {
  return readdirSync(dir)
    .sort()
    .flatMap((file) => {
      const match = REPORT.exec(file);
      return match ? [{ file, part: match[1] }] : [];
    });
}
