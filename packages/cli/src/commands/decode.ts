import type { Command } from 'commander';
import { decodeCheckoutPage, decodeRespon } from '@gw/xml-codec';
import { say } from '../output.ts';
import { readInput } from '../read-input.ts';
import type { CommandContext } from './command-context.ts';

/** `gw decode respon FILE` and `gw decode checkout FILE`: print the decoded record as JSON. */
export function registerDecode(program: Command, { io }: CommandContext): void {
  const decode = program.command('decode').description('decode a respon XML document or a checkout HTML page into JSON');
  decode
    .command('respon')
    .argument('<file>', 'the XML document, or - for standard input')
    .description('decode the XML answer of /v1/authorise (card or alternative method)')
    .action(async (file: string) => {
      say(io, JSON.stringify(decodeRespon(await readInput(io, file)), null, 2));
    });
  decode
    .command('checkout')
    .argument('<file>', 'the HTML page, or - for standard input')
    .description('decode the auto-submitting page of /v1/checkout: action, method, hidden fields, allParams')
    .action(async (file: string) => {
      say(io, JSON.stringify(decodeCheckoutPage(await readInput(io, file)), null, 2));
    });
}
