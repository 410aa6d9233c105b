// TLS for a test cluster: a CA, a server certificate it signs for 127.0.0.1 and localhost, and an unrelated CA, made with the openssl CLI.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdtempSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chownToPostgres } from './host.ts';

/** The files a TLS cluster's clients are given: PEM CA certificates, one that signed the server's certificate and one that did not. */
export interface ClusterTls {
  readonly caFile: string;
  readonly wrongCaFile: string;
}

/** What `makeTlsFiles` leaves in its dir (readable by anyone): the CAs, and the server's certificate and key. */
export interface TlsFiles extends ClusterTls {
  readonly dir: string;
  readonly certFile: string;
  readonly keyFile: string;
}

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

function openssl(dir: string, args: readonly string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

/** Makes a self-signed CA `name`.crt (with its key `name`.key) in `dir`. */
function makeCa(dir: string, name: string): string {
  const ext = ['-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'];
  openssl(dir, ['req', '-x509', ...EC_KEY, '-keyout', `${name}.key`, '-out', `${name}.crt`, '-days', '3650', '-subj', `/CN=gw test ${name}`, ...ext]);
  return join(dir, `${name}.crt`);
}

/** Makes server.crt (CN localhost, SAN IP:127.0.0.1 and DNS:localhost) and server.key in `dir`, signed by the CA `ca`. */
function makeServerCert(dir: string, ca: string): void {
  openssl(dir, ['req', '-new', ...EC_KEY, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost']);
  const ext = [
    'subjectAltName=IP:127.0.0.1,DNS:localhost',
    'basicConstraints=CA:FALSE',
    'keyUsage=critical,digitalSignature,keyEncipherment',
    'extendedKeyUsage=serverAuth',
  ];
  writeFileSync(join(dir, 'server.ext'), ext.join('\n') + '\n');
  const serial = `0x${randomBytes(8).toString('hex')}`;
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    `${ca}.crt`,
    '-CAkey',
    `${ca}.key`,
    '-set_serial',
    serial,
    '-days',
    '3650',
    '-extfile',
    'server.ext',
    '-out',
    'server.crt',
  ]);
}

/** Makes, in a new temp dir, a CA, a server certificate and key it signs, and a second, unrelated CA. */
export function makeTlsFiles(): TlsFiles {
  const dir = mkdtempSync(join(tmpdir(), 'gw-pg-tls-'));
  chmodSync(dir, 0o755);
  const caFile = makeCa(dir, 'ca');
  const wrongCaFile = makeCa(dir, 'wrong-ca');
  makeServerCert(dir, 'ca');
  return { dir, caFile, wrongCaFile, certFile: join(dir, 'server.crt'), keyFile: join(dir, 'server.key') };
}

/** Puts the server's certificate and key in `dataDir` (owned by postgres, 0600), has TCP from 127.0.0.1 use TLS; returns the server's `-c` options. */
export function installServerTls(dataDir: string, files: TlsFiles): string {
  const cert = join(dataDir, 'server.crt');
  const key = join(dataDir, 'server.key');
  for (const [from, to] of [
    [files.certFile, cert],
    [files.keyFile, key],
  ] as const) {
    copyFileSync(from, to);
    chownToPostgres(to);
    chmodSync(to, 0o600);
  }
  requireTlsOnTcp(dataDir);
  return `-c ssl=on -c ssl_cert_file=${cert} -c ssl_key_file=${key}`;
}

/** Rewrites `dataDir`'s pg_hba.conf: the local socket as before (trust), TCP from 127.0.0.1 with TLS only. */
function requireTlsOnTcp(dataDir: string): void {
  const lines = [
    '# TYPE    DATABASE     USER  ADDRESS       METHOD',
    'local     all          all                 trust',
    'local     replication  all                 trust',
    'hostssl   all          all   127.0.0.1/32  trust',
    'hostnossl all          all   127.0.0.1/32  reject',
  ];
  writeFileSync(join(dataDir, 'pg_hba.conf'), lines.join('\n') + '\n');
}
