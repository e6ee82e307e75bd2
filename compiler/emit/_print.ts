/**
 * Printing data the way prettier prints it (printWidth 100, single quotes, trailing commas),
 * so that the large, regular parts of the generated module need no formatting pass: prettier
 * on a 1,000-route table costs seconds, printing it costs milliseconds. A test checks that
 * generated modules are prettier fixpoints.
 */

/** The print width of generated code. */
export const WIDTH = 100;

/** A string literal as prettier writes it: single quotes unless that means more escapes. */
export function str(value: string): string {
  const raw = JSON.stringify(value).slice(1, -1);
  if (count(value, "'") > count(value, '"')) return `"${raw}"`;
  return `'${raw.replace(/\\(.)|(')/gs, (m: string, escaped?: string, quote?: string) =>
    escaped === '"' ? '"' : quote ? "\\'" : m,
  )}'`;
}

/** An object key: bare when it is an identifier, else a string literal. */
export function key(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : str(name);
}

/** An array of strings on one line (`['GET', 'HEAD']`). */
export function strings(values: readonly string[]): string {
  return `[${values.map(str).join(', ')}]`;
}

/** Whether every line of `text` fits the print width. */
export function fits(text: string): boolean {
  return text.split('\n').every((line) => line.length <= WIDTH);
}

/** A regex literal for `source`: `/` and line terminators escaped, validated. */
export function regexLiteral(source: string, flags = ''): string {
  new RegExp(source, flags);
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const ch = source[i]!;
    if (ch === '\\') {
      out += ch + (source[i + 1] ?? '');
      i++;
    } else if (ch === '/') out += '\\/';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\u2028' || ch === '\u2029') out += `\\u${ch.charCodeAt(0).toString(16)}`;
    else out += ch;
  }
  return `/${out}/${flags}`;
}

// --- internal ---

function count(text: string, ch: string): number {
  let n = 0;
  for (const c of text) if (c === ch) n++;
  return n;
}
