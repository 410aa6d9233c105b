import { checkoutForm, operations, setMember, ValidationError, type CheckoutFormFields, type ValidationProblem } from '@gw/types';
import { DecodeError } from './decode-error.ts';
import { readDecodeInput, type DecodeInput, type DecodeOptions } from './decode-options.ts';
import { escapeHtmlAttribute, isHtmlAttributeText } from './html-escape.ts';
import { tokenizeHtml, type HtmlStartTag, type HtmlToken } from './html-tokenizer.ts';

/** One hidden field or one `allParams` parameter: name and value, in document order. */
export type FormEntry = readonly [name: string, value: string];

/** `allParams` as sent, and parsed as `application/x-www-form-urlencoded` (UNKNOWNS U21). */
export interface CheckoutAllParams {
  readonly raw: string;
  /** The first value of each parameter. */
  readonly params: Readonly<Record<string, string>>;
  /** Every parameter in order, repeated names kept. */
  readonly entries: readonly FormEntry[];
}

/** What `decodeCheckoutPage` reads from the page returned by `/v1/checkout`. */
export interface CheckoutPage {
  /** The form's `action`, entity-decoded but not resolved against any address (`''` when absent). */
  readonly action: string;
  /** The form's method, upper case (`POST`; `GET` when absent or unknown, as in HTML). */
  readonly method: string;
  /** The first value of every hidden field. */
  readonly fields: CheckoutFormFields;
  /** Every hidden field in document order, repeated names kept. */
  readonly entries: readonly FormEntry[];
  /** The `allParams` field parsed, or null when the form has none. */
  readonly allParams: CheckoutAllParams | null;
  /** True when a script or an `onload` handler submits the form without the shopper. */
  readonly autoSubmit: boolean;
}

/** Options of `encodeCheckoutPage`. */
export interface EncodeCheckoutPageOptions {
  /** The address the form posts to. */
  readonly action: string;
  /** The `id` of the form element; default `gw-checkout`. */
  readonly formId?: string;
}

const ALL_PARAMS = checkoutForm.allParamsField;
const FORM_METHODS = new Set(['get', 'post', 'dialog']);
const SCRIPT_TYPES = /^(?:(?:text|application)\/(?:x-)?(?:java|ecma)script|module)$/i;
const SUBMIT_CALL = /\b(?:submit|requestSubmit)\s*(?:\.\s*(?:call|apply)\s*)?\(/;

interface FormCandidate {
  readonly tag: HtmlStartTag;
  readonly entries: FormEntry[];
}

function firstValues(entries: readonly FormEntry[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of entries) if (!Object.hasOwn(out, name)) setMember(out, name, value);
  return out;
}

/** Blanks JavaScript comments and string contents, so a `submit()` in a comment or a message does not count. */
export function stripScriptNoise(script: string): string {
  let out = '';
  let i = 0;
  const n = script.length;
  while (i < n) {
    const ch = script[i] as string;
    if (ch === '"' || ch === "'" || ch === '`') {
      let j = i + 1;
      // Quotes end at the line's end too, so a stray apostrophe cannot swallow the rest of the script.
      while (j < n && script[j] !== ch && (ch === '`' || script[j] !== '\n')) j += script[j] === '\\' ? 2 : 1;
      out += ch + ch;
      i = j + 1;
    } else if (ch === '/' && script[i + 1] === '/') {
      const end = script.indexOf('\n', i);
      i = end === -1 ? n : end;
    } else if (ch === '/' && script[i + 1] === '*') {
      const end = script.indexOf('*/', i + 2);
      i = end === -1 ? n : end + 2;
    } else {
      out += ch;
      i++;
    }
  }
  return out;
}

function isScriptExecuted(tag: HtmlStartTag): boolean {
  const type = tag.attributes.get('type');
  return type === undefined || type.trim() === '' || SCRIPT_TYPES.test(type.trim());
}

/** A hidden field in document order with its owner: the open form, or the form its `form` attribute names. */
interface FieldCandidate {
  readonly owner: FormCandidate | null;
  readonly formId: string | undefined;
  readonly entry: FormEntry;
}

/** Gives each field to its form; a `form` attribute names the first form with that id (one map, not a search per field). */
function joinFields(forms: readonly FormCandidate[], fields: readonly FieldCandidate[]): void {
  const formsById = new Map<string, FormCandidate>();
  for (const candidate of forms) {
    const id = candidate.tag.attributes.get('id');
    if (id !== undefined && !formsById.has(id)) formsById.set(id, candidate);
  }
  for (const { owner, formId, entry } of fields) {
    const target = formId === undefined ? owner : formsById.get(formId);
    target?.entries.push(entry);
  }
}

/** Reads the tokens: every form with its hidden fields, and whether a script or an `onload` handler submits one. */
function readForms(tokens: readonly HtmlToken[]): { forms: FormCandidate[]; autoSubmit: boolean } {
  const forms: FormCandidate[] = [];
  const fields: FieldCandidate[] = [];
  let open: FormCandidate | null = null;
  let autoSubmit = false;
  let scriptTag: HtmlStartTag | null = null;
  for (const token of tokens) {
    if (token.type === 'raw') {
      if (token.element === 'script' && scriptTag && isScriptExecuted(scriptTag) && SUBMIT_CALL.test(stripScriptNoise(token.text))) autoSubmit = true;
      continue;
    }
    if (token.type === 'end') {
      if (token.name === 'form') open = null;
      continue;
    }
    scriptTag = token.name === 'script' ? token : null;
    const onload = token.attributes.get('onload');
    if (onload !== undefined && SUBMIT_CALL.test(stripScriptNoise(onload))) autoSubmit = true;
    if (token.name === 'form') {
      // As in HTML, a form start tag inside an open form is ignored.
      if (!open) {
        open = { tag: token, entries: [] };
        forms.push(open);
      }
    } else if (token.name === 'input') {
      const name = token.attributes.get('name');
      if (name === undefined || token.attributes.get('type')?.trim().toLowerCase() !== 'hidden') continue;
      fields.push({ owner: open, formId: token.attributes.get('form'), entry: [name, token.attributes.get('value') ?? ''] });
    }
  }
  joinFields(forms, fields);
  return { forms, autoSubmit };
}

/** `allParams` parsed as `application/x-www-form-urlencoded`, or null when the form has none. */
function parseAllParams(raw: string | undefined): CheckoutAllParams | null {
  if (raw === undefined) return null;
  const entries = [...new URLSearchParams(raw)] as FormEntry[];
  return { raw, params: firstValues(entries), entries };
}

/** Decodes the checkout page: the form's action and method, its hidden fields, `allParams` and the auto-submit. */
export function decodeCheckoutPage(html: DecodeInput, options?: DecodeOptions): CheckoutPage {
  const { forms, autoSubmit } = readForms(tokenizeHtml(readDecodeInput(html, options, 'html')));
  const form = forms.find((candidate) => candidate.entries.length > 0) ?? forms[0];
  if (!form) throw new DecodeError({ format: 'html', failure: 'no-form', path: 'form' }, 'the page has no <form>');
  const method = form.tag.attributes.get('method')?.trim().toLowerCase() ?? 'get';
  return {
    action: form.tag.attributes.get('action') ?? '',
    method: (FORM_METHODS.has(method) ? method : 'get').toUpperCase(),
    fields: firstValues(form.entries) as CheckoutFormFields,
    entries: form.entries,
    allParams: parseAllParams(form.entries.find(([name]) => name === ALL_PARAMS)?.[1]),
    autoSubmit,
  };
}

function toEntries(fields: CheckoutFormFields | readonly FormEntry[]): FormEntry[] {
  if (Array.isArray(fields)) return [...(fields as readonly FormEntry[])];
  return Object.entries(fields as Record<string, unknown>).filter((entry): entry is [string, string] => entry[1] !== undefined) as FormEntry[];
}

/**
 * Builds an auto-submitting checkout page carrying `fields` as hidden inputs (for the sandbox). `allParams` is
 * computed from the other fields, URL-encoded in their order, when the fields do not carry it (UNKNOWNS U21).
 */
export function encodeCheckoutPage(fields: CheckoutFormFields | readonly FormEntry[], options: EncodeCheckoutPageOptions): string {
  const entries = toEntries(fields);
  const formId = options.formId ?? 'gw-checkout';
  const problems: ValidationProblem[] = [];
  const check = (field: string, value: unknown, what: string): void => {
    const pointer = '/' + field.replace(/\[(\d+)\]/g, '/$1');
    if (typeof value !== 'string') problems.push({ pointer, field, keyword: 'type', message: `${what} must be a string` });
    else if (!isHtmlAttributeText(value))
      problems.push({ pointer, field, keyword: 'htmlChar', message: `${what} contains NUL or a lone surrogate, which HTML cannot carry` });
  };
  check('action', options.action, 'the action');
  check('formId', formId, 'the form id');
  entries.forEach((entry, index) => {
    check(`fields[${index}]`, Array.isArray(entry) ? entry[0] : undefined, 'the field name');
    check(`fields[${index}]`, Array.isArray(entry) ? entry[1] : undefined, 'the field value');
  });
  if (problems.length) throw new ValidationError(operations.checkout.name, operations.checkout.responseSchema, problems);
  if (!entries.some(([name]) => name === ALL_PARAMS)) entries.push([ALL_PARAMS, new URLSearchParams(entries as [string, string][]).toString()]);

  const id = escapeHtmlAttribute(formId);
  const inputs = entries.map(([name, value]) => `<input type="hidden" name="${escapeHtmlAttribute(name)}" value="${escapeHtmlAttribute(value)}">`).join('\n');
  // HTMLFormElement.prototype.submit, because a field named `submit` would shadow form.submit().
  return `<!DOCTYPE html>
<html>
<head><meta charset="utf-8"><title>Redirecting to payment</title></head>
<body>
<form id="${id}" action="${escapeHtmlAttribute(options.action)}" method="post">
${inputs}
<noscript><button type="submit">Continue</button></noscript>
</form>
<script>HTMLFormElement.prototype.submit.call(document.getElementById(${JSON.stringify(formId).replace(/</g, '\\u003c')}));</script>
</body>
</html>
`;
}
