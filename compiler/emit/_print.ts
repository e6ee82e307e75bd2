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

/**
 * A call whose last argument is a table of `rows` (`rawRows`), as prettier prints it: hugging
 * the template when it is the only argument, else one argument per line.
 */
export function rowsCall(callee: string, args: readonly string[], rows: readonly string[]): string {
  const table = `String.raw\`${rawRows(rows)}\``;
  if (args.length === 0) return `${callee}(${table})`;
  return `${callee}(\n${[...args, table].map((arg) => `  ${arg},`).join('\n')}\n)`;
}

/**
 * The body of a `String.raw` template holding `rows` (JSON texts), one per line after a line
 * break, so that a reader sees one row a line: a backtick, `${` and the line separators JSON
 * leaves as they are are written as JSON escapes, which mean the same to `JSON.parse`.
 */
export function rawRows(rows: readonly string[]): string {
  const text = rows
    .join('\n')
    .replace(/[`\u2028\u2029]|\$\{/g, (c) =>
      c === '${' ? '$\\u007b' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
  return `\n${text}\n`;
}

// --- internal ---

function count(text: string, ch: string): number {
  let n = 0;
  for (const c of text) if (c === ch) n++;
  return n;
}
