import { styleText } from 'node:util';
import Table from 'cli-table3';
import type { CliIo } from './io.ts';

type Style = Parameters<typeof styleText>[0];

/** True when colour may be used on `stream`: a terminal, and neither NO_COLOR nor a dumb terminal. */
export function colourOn(io: CliIo, stream: CliIo['stdout'] = io.stdout): boolean {
  return Boolean(stream.isTTY) && io.env.NO_COLOR === undefined && io.env.TERM !== 'dumb';
}

/** Styles text for a terminal; plain text anywhere else. */
export function paint(io: CliIo, style: Style, text: string, stream: CliIo['stdout'] = io.stdout): string {
  return colourOn(io, stream) ? styleText(style, text, { validateStream: false }) : text;
}

/** A readable table (box drawing on a terminal, plain columns otherwise). */
export function table(io: CliIo, head: string[], rows: (string | number)[][]): string {
  const plain = !colourOn(io);
  const t = new Table({
    head: head.map((h) => paint(io, 'bold', h)),
    style: { head: [], border: [], compact: plain },
    ...(plain
      ? {
          chars: {
            top: '',
            'top-mid': '',
            'top-left': '',
            'top-right': '',
            bottom: '',
            'bottom-mid': '',
            'bottom-left': '',
            'bottom-right': '',
            left: '',
            'left-mid': '',
            mid: '',
            'mid-mid': '',
            right: '',
            'right-mid': '',
            middle: '  ',
          },
        }
      : {}),
  });
  for (const row of rows) t.push(row.map(String));
  return t.toString();
}

/** Writes a line to stdout. */
export function say(io: CliIo, text = ''): void {
  io.stdout.write(`${text}\n`);
}

/** Writes a line to stderr. */
export function warn(io: CliIo, text: string): void {
  io.stderr.write(`${text}\n`);
}
