/**
 * What the generated files came from. Every value is typed `string`: they change with each spec edit or generator
 * upgrade, and a type that named them would make every such change look like a removal in the API report.
 */
export interface SpecManifest {
  /** The spec file, relative to the repository root. */
  readonly spec: string;
  /** SHA-256 of the spec's text, hex. */
  readonly specSha256: string;
  /** The OpenAPI version the spec declares. */
  readonly openapi: string;
  /** The spec's `info.title`. */
  readonly title: string;
  /** The spec's `info.version`. */
  readonly version: string;
  /** The generators and their versions. */
  readonly generators: Readonly<Record<string, string>>;
}
