// The public API report of each package, written by API Extractor 7 (its bundled TypeScript reads the TS 5
// declarations tsc emits) from the package's built entry point (dist/index.d.ts), with the settings in
// api-extractor.json. The report is `packages/<p>/api/<p>.api.md`; report-diff.ts compares two of them.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CompilerState, Extractor, ExtractorConfig, ExtractorLogLevel, type ExtractorMessage } from '@microsoft/api-extractor';

/** A package whose API is reported: its name and folder. */
export interface ReportedPackage {
  readonly name: string;
  readonly dir: string;
}

const BASE_CONFIG = join(import.meta.dirname, 'api-extractor.json');

/** Where a package's report is kept in the repository. */
export function reportPath(pkg: ReportedPackage): string {
  return join(pkg.dir, 'api', `${pkg.name.split('/').pop()}.api.md`);
}

/** Thrown when API Extractor cannot read a package's declarations; the message lists what it said. */
export class ApiReportError extends Error {
  override readonly name = 'ApiReportError';
}

function describeMessage(message: ExtractorMessage): string {
  const where = message.sourceFilePath ? ` (${message.sourceFilePath}:${message.sourceFileLine ?? '?'})` : '';
  return `${message.messageId}: ${message.text}${where}`;
}

const hasNodeTypes = (pkg: ReportedPackage): boolean => existsSync(join(pkg.dir, 'node_modules/@types/node'));

// The base settings with this package's folder and a scratch folder for the report API Extractor writes.
function configFor(pkg: ReportedPackage, scratch: string): ExtractorConfig {
  const configObject = ExtractorConfig.loadFile(BASE_CONFIG);
  configObject.projectFolder = pkg.dir;
  configObject.mainEntryPointFilePath = join(pkg.dir, 'dist/index.d.ts');
  configObject.apiReport = { ...configObject.apiReport!, reportFolder: scratch, reportTempFolder: scratch };
  // Node's types when the package depends on them (its declarations import node:http, node:stream, ...).
  const overrideTsconfig = configObject.compiler!.overrideTsconfig as { compilerOptions: { types: string[] } };
  overrideTsconfig.compilerOptions.types = hasNodeTypes(pkg) ? ['node'] : [];
  return ExtractorConfig.prepare({ configObject, configObjectFullPath: BASE_CONFIG, packageJsonFullPath: join(pkg.dir, 'package.json') });
}

function entryOf(pkg: ReportedPackage): string {
  const entry = join(pkg.dir, 'dist/index.d.ts');
  if (!existsSync(entry)) throw new ApiReportError(`${pkg.name}: ${entry} is missing; build first (\`pnpm build\`)`);
  return entry;
}

// One package's report, from a compiler state shared by all (one TypeScript program reads every package once).
function invoke(pkg: ReportedPackage, config: ExtractorConfig, compilerState: CompilerState): string {
  const errors: string[] = [];
  const refuse = (): never => {
    throw new ApiReportError(`${pkg.name}: API Extractor could not report ${entryOf(pkg)}:\n${errors.map((e) => `  ${e}`).join('\n')}`);
  };
  try {
    const result = Extractor.invoke(config, {
      localBuild: true,
      compilerState,
      messageCallback: (message) => {
        // Everything is handled here: the caller prints the problems, nothing else goes to the console.
        message.handled = true;
        if (message.logLevel === ExtractorLogLevel.Error || message.logLevel === ExtractorLogLevel.Warning) errors.push(describeMessage(message));
      },
    });
    if (!result.succeeded || errors.length > 0) refuse();
  } catch (error) {
    if (error instanceof ApiReportError) throw error;
    // An analysis that stops on a declaration it cannot follow ("Unable to follow symbol") after its compiler errors.
    errors.push((error as Error).message.split('\n')[0]!);
    refuse();
  }
  return readFileSync(config.reportTempFilePath, 'utf8');
}

/**
 * The API reports of `packages` (built), by package name, as API Extractor writes them; throws ApiReportError on any
 * error it reports (a declaration it cannot read, a compiler error).
 */
export function buildReports(packages: readonly ReportedPackage[]): Map<string, string> {
  if (packages.length === 0) return new Map();
  const entries = packages.map(entryOf);
  const scratch = mkdtempSync(join(tmpdir(), 'gw-api-report-'));
  try {
    const configs = packages.map((pkg) => configFor(pkg, join(scratch, pkg.name.split('/').pop()!)));
    // The program is made with one package's settings: one that loads Node's types when any package has them.
    const compilerState = CompilerState.create(configs[Math.max(0, packages.findIndex(hasNodeTypes))]!, { additionalEntryPoints: entries });
    return new Map(packages.map((pkg, i) => [pkg.name, invoke(pkg, configs[i]!, compilerState)]));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The report kept in the repository for `pkg`, or null when there is none yet. */
export function readReport(pkg: ReportedPackage): string | null {
  const path = reportPath(pkg);
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
}
