import type * as Prettier from 'prettier/standalone';
import type { Plugin } from 'prettier';
import type { Chunk, ListEntry } from './emit/_chunk.js';
import { fits } from './emit/_print.js';
import { requireCached } from './code-cache.js';

/** The prettier options of generated code: fixed, so output does not depend on the app's setup. */
const OPTIONS = { parser: 'typescript', printWidth: 100, singleQuote: true } as const;

// Formatted code by its source, so a rebuild (watch mode) formats only the chunks that changed.
const cache = new Map<string, Promise<string>>();
const CACHE_MAX = 256;

/** Formats generated TypeScript. */
export function formatSource(source: string): Promise<string> {
  let formatted = cache.get(source);
  if (!formatted) {
    const { format, plugins } = prettier();
    formatted = format(source, { ...OPTIONS, plugins });
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value!);
    cache.set(source, formatted);
    formatted.catch(() => cache.delete(source));
  }
  return formatted;
}

/**
 * Assembles the module: code chunks go through prettier (consecutive ones together), printed
 * chunks are kept, and a list entry that does not fit is formatted alone.
 */
export async function formatChunks(chunks: readonly Chunk[]): Promise<string> {
  const out: string[] = [];
  let pending: string[] = [];
  const flush = async () => {
    if (pending.length) out.push((await formatSource(pending.join('\n\n'))).trimEnd());
    pending = [];
  };
  for (const chunk of chunks) {
    if (chunk.kind === 'code') {
      if (chunk.text.trim() !== '') pending.push(chunk.text);
      continue;
    }
    await flush();
    if (chunk.kind === 'printed') {
      if (chunk.text !== '') out.push(chunk.text);
      continue;
    }
    if (chunk.entries.length === 0) {
      out.push(chunk.empty);
      continue;
    }
    const entries = await Promise.all(
      chunk.entries.map((entry) =>
        printEntry(entry, chunk.terminator ?? ',', chunk.open, chunk.close),
      ),
    );
    out.push(`${chunk.open}\n${entries.join('\n')}\n${chunk.close}`);
  }
  await flush();
  return `${out.join('\n\n')}\n`;
}

// --- internal ---

let loaded: { format: typeof Prettier.format; plugins: Plugin[] } | undefined;

/**
 * Prettier's standalone build and the two plugins TypeScript needs, CommonJS with the code
 * cache, loaded when first used (`course --version` never formats): about half the CPU of
 * importing prettier's ES modules and formatting a first chunk, a tenth of a second per build.
 */
function prettier(): NonNullable<typeof loaded> {
  const load = (id: string) => requireCached(id, import.meta.url);
  return (loaded ??= {
    format: (load('prettier/standalone') as typeof Prettier).format,
    plugins: [load('prettier/plugins/typescript'), load('prettier/plugins/estree')] as Plugin[],
  });
}

async function printEntry(
  entry: ListEntry,
  terminator: string,
  open: string,
  close: string,
): Promise<string> {
  const text = `${entry.text}${terminator}`;
  if (!entry.loose && fits(text)) return text;
  const formatted = await formatSource(`${open}\n${text}\n${close}`);
  const lines = formatted.trimEnd().split('\n');
  return lines.slice(open.split('\n').length, lines.length - close.split('\n').length).join('\n');
}
