// `gw completion bash|zsh|fish` prints a script that completes gw's commands, subcommands and flags, made from the
// program itself: each script is run by its real shell (zsh and fish when installed) and asked what it offers.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gw } from './io.ts';

/** The path of `shell` when installed, else null. */
function installed(shell: string): string | null {
  const found = spawnSync('sh', ['-c', `command -v ${shell}`], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : null;
}

/** `gw completion <shell>`, written to a file. */
async function scriptFile(shell: string): Promise<string> {
  const run = await gw(['completion', shell]);
  expect(run.status, run.err).toBe(0);
  const file = join(mkdtempSync(join(tmpdir(), 'gw-completion-')), `gw.${shell}`);
  writeFileSync(file, run.out);
  return file;
}

/** What bash's completion offers for each command line (the last word being completed), one list per line. */
function bashOffers(script: string, lines: string[][]): string[][] {
  const calls = lines.map((words) => `offer ${words.map((w) => `'${w}'`).join(' ')}`).join('\n');
  const program = `source '${script}'\noffer() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _gw; echo "\${COMPREPLY[*]}"; }\n${calls}\n`;
  const run = spawnSync('bash', ['--norc', '--noprofile', '-c', program], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  return run.stdout
    .split('\n')
    .slice(0, lines.length)
    .map((line) => line.split(' ').filter(Boolean));
}

/** The flags `gw <command> --help` lists. */
async function helpFlags(command: string[]): Promise<string[]> {
  const run = await gw([...command, '--help']);
  return [...run.out.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)/gm)].map((m) => m[1]!);
}

const zsh = installed('zsh');
const fish = installed('fish');

describe('gw completion', () => {
  it('prints a script for bash, zsh and fish, and refuses another shell with exit 2', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const run = await gw(['completion', shell]);
      expect(run.status, shell).toBe(0);
      expect(run.out, shell).toContain(`gw completion ${shell}`);
      expect(run.out, shell).toContain('batch');
    }
    const other = await gw(['completion', 'powershell']);
    expect(other.status).toBe(2);
    expect(other.err).toContain('bash, zsh, fish');
  });

  it('bash completes commands, subcommands, flags after arguments, and the choices of an argument', async () => {
    const script = await scriptFile('bash');
    const [command, flag, subcommand, shells, afterValue, version, helpFor] = bashOffers(script, [
      ['gw', 'ba'],
      ['gw', 'batch', 'capture', 'f.csv', '--led'],
      ['gw', 'ledger', 'm'],
      ['gw', 'completion', ''],
      ['gw', 'batch', '--journal', 'batch', '--res'],
      ['gw', '--ver'],
      ['gw', 'help', 'ba'],
    ]);
    expect(command).toEqual(['batch']);
    expect(flag).toContain('--ledger');
    expect(flag).not.toContain('--port');
    expect(subcommand).toEqual(['migrate']);
    expect(shells).toEqual(['bash', 'zsh', 'fish']);
    expect(afterValue).toEqual(['--resume', '--results']); // "batch" after --journal is its value, not a command
    expect(version).toEqual(['--version']);
    expect(helpFor).toEqual(['batch']);
  });

  it('bash offers every flag each command lists in its help, and nothing else', async () => {
    const script = await scriptFile('bash');
    const commands = [
      ['batch'],
      ['sandbox'],
      ['call'],
      ['listen'],
      ['proxy'],
      ['trigger'],
      ['demo'],
      ['spec', 'drift'],
      ['spec', 'check'],
      ['ledger', 'migrate'],
      ['notifications', 'list'],
    ];
    const offered = bashOffers(
      script,
      commands.map((command) => ['gw', ...command, '--']),
    );
    for (const [i, command] of commands.entries()) {
      expect(offered[i]!.toSorted(), command.join(' ')).toEqual((await helpFlags(command)).toSorted());
    }
  });

  it.skipIf(zsh === null)('zsh: the script parses and its completion function offers commands and flags (skipped when zsh is not installed)', async () => {
    const script = await scriptFile('zsh');
    expect(spawnSync(zsh!, ['-n', script]).status).toBe(0);
    // Outside a completion widget, zsh's completion builtins are stood in for by functions printing what they get.
    const program = `compdef() {}; _describe() { print -r -- "\${(@)\${(P)4}%%:*}"; }; compadd() { print -r -- "\${(@P)2}"; }; _files() { print files; }
source '${script}'
offer() { words=("$@"); CURRENT=$#; PREFIX=\${words[CURRENT]}; _gw; }
offer gw ba; offer gw batch capture f.csv --led; offer gw completion ''; offer gw batch --journal ''`;
    const run = spawnSync(zsh!, ['-f', '-c', program], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const [commands, flags, shells, value] = run.stdout.split('\n').map((line) => line.split(' '));
    expect(commands).toContain('batch');
    expect(flags).toContain('--ledger');
    expect(shells).toEqual(['bash', 'zsh', 'fish']);
    expect(value).toEqual(['files']);
  });

  it.skipIf(fish === null)('fish: the script parses and `complete -C` offers commands and flags (skipped when fish is not installed)', async () => {
    const script = await scriptFile('fish');
    expect(spawnSync(fish!, ['--no-execute', script]).status).toBe(0);
    const offer = (line: string) => {
      const run = spawnSync(fish!, ['--no-config', '-c', `source '${script}'; complete -C '${line}'`], { encoding: 'utf8' });
      expect(run.stderr).toBe('');
      return run.stdout
        .split('\n')
        .filter(Boolean)
        .map((entry) => entry.split('\t')[0]);
    };
    expect(offer('gw ba')).toEqual(['batch']);
    expect(offer('gw batch capture f.csv --led')).toContain('--ledger');
    expect(offer('gw completion ')).toEqual(['bash', 'fish', 'zsh']);
  });
});
