import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { register } from 'tsx/esm/api';
import { beginRecording, endRecording } from '../runtime/dsl/recorder.js';
import type { Recording, SourceLocation } from '../runtime/dsl/types.js';
import type { ResolvedConfig } from './config.js';
import { RouteDefinitionError } from './errors.js';

/** What evaluating the route files produced. */
export interface LoadResult {
  recording: Recording;
  /** The route files, in evaluation order. */
  files: string[];
}

/**
 * Evaluates `routes.ts`, then `routers/**` in path order, recording every DSL call.
 * A route file that throws becomes an `E_LOAD` error at the throwing line.
 */
export async function loadRoutes(config: ResolvedConfig): Promise<LoadResult> {
  const files = routeFiles(config);
  const recording = beginRecording();
  for (const file of files) recording.files.add(file);
  // A fresh namespace per build: edited route files and what they import are evaluated anew.
  const api = register({ namespace: `course-build-${Date.now()}-${Math.random()}` });
  try {
    for (const file of files) {
      try {
        await api.import(pathToFileURL(file).href, import.meta.url);
      } catch (error) {
        throw loadError(error, file, files);
      }
    }
  } finally {
    endRecording();
    await api.unregister();
  }
  return { recording, files };
}

/** The route files of an app: the main file, then `routers/**` sorted by path. */
export function routeFiles(config: ResolvedConfig): string[] {
  const files: string[] = [];
  if (existsSync(config.routesFile)) files.push(config.routesFile);
  if (existsSync(config.routersDir)) {
    const found = readdirSync(config.routersDir, { recursive: true, encoding: 'utf8' })
      .filter((f) => /\.(?:ts|mts|js|mjs)$/.test(f) && !f.endsWith('.d.ts'))
      .map((f) => path.join(config.routersDir, f))
      .sort();
    files.push(...found);
  }
  return files;
}

// --- internal ---

function loadError(error: unknown, file: string, files: string[]): RouteDefinitionError {
  const message = error instanceof Error ? error.message : String(error);
  const loc = (error instanceof Error && frameIn(error.stack ?? '', files)) || {
    file,
    line: 1,
    column: 1,
  };
  return new RouteDefinitionError('E_LOAD', `evaluating the route file failed: ${message}`, loc);
}

function frameIn(stack: string, files: string[]): SourceLocation | undefined {
  for (const line of stack.split('\n')) {
    for (const file of files) {
      const at = line.indexOf(file);
      if (at === -1) continue;
      const m = /:(\d+):(\d+)/.exec(line.slice(at + file.length));
      if (m) return { file, line: Number(m[1]), column: Number(m[2]) };
    }
  }
  return undefined;
}
