import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { formatSource } from 'course-compiler/format';
import pluralize from 'pluralize';
import { PACKAGE_DIR } from './_package.js';

const TEMPLATES = path.join(PACKAGE_DIR, 'templates');
const NAME = /^[A-Z][A-Za-z0-9]*$/;

/** A problem the user can fix, printed without a stack (exit 1). */
export class CliError extends Error {}

/** Checks a class name: PascalCase letters and digits. */
export function checkName(name: string | undefined, what: string): string {
  if (!name || !NAME.test(name)) {
    throw new CliError(
      `invalid ${what} name ${JSON.stringify(name ?? '')}: use PascalCase letters and digits, e.g. ${pascal(name ?? '') || 'Post'}`,
    );
  }
  return name;
}

/** `Post` → `posts`, `BlogPost` → `blog_posts`, `Person` → `people`: the last word made plural. */
export function tableName(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .split('_');
  words.push(pluralize(words.pop()!));
  return words.join('_');
}

/**
 * Writes a file from `cli/templates/<template>`, `%%token%%`s filled and formatted with
 * prettier. Never overwrites: an existing file is an error.
 */
export async function scaffold(
  file: string,
  template: string,
  tokens: Record<string, string>,
): Promise<void> {
  if (existsSync(file)) throw new CliError(`${file} already exists; it was left as it is`);
  const text = fillTemplate(template, tokens);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, await formatSource(text));
}

/** The text of `cli/templates/<template>` with its `%%token%%`s filled. */
export function fillTemplate(template: string, tokens: Record<string, string>): string {
  let text = readFileSync(path.join(TEMPLATES, template), 'utf8');
  for (const [token, value] of Object.entries(tokens))
    text = text.replaceAll(`%%${token}%%`, value);
  return text;
}

/** Deletes generated files after one confirmation: `--yes`, or a "y" typed on a terminal. */
export async function remove(files: readonly string[], yes: boolean): Promise<void> {
  const missing = files.find((file) => !existsSync(file));
  if (missing) throw new CliError(`${missing} does not exist`);
  const list = files.join(', ');
  if (!yes) {
    if (!process.stdin.isTTY)
      throw new CliError(`refusing to delete ${list} without a terminal; pass --yes`);
    const rl = createInterface({ input: process.stdin, output: process.stdout });
    const answer = await rl.question(`Delete ${list}? This cannot be undone. [y/N] `);
    rl.close();
    if (!/^y(es)?$/i.test(answer.trim())) throw new CliError('nothing deleted');
  }
  for (const file of files) rmSync(file);
}

/**
 * The import path of `to` from the file `from`, by its `.js` name as ESM TypeScript wants, or
 * by its `.ts` one in an app that imports so (`importExtension: '.ts'`: Bun, Deno, Workers).
 */
export function importPath(from: string, to: string, extension: '.js' | '.ts' = '.js'): string {
  const relative = path
    .relative(path.dirname(from), to)
    .split(path.sep)
    .join('/')
    .replace(/\.ts$/, extension);
  return relative.startsWith('.') ? relative : `./${relative}`;
}

// --- internal ---

/** `blog-post` → `BlogPost`, `user` → `User`; `''` when nothing of it can be kept. */
function pascal(name: string): string {
  const words = name.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const out = words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
  return /^[A-Z]/.test(out) ? out : '';
}
