import { readFileSync } from 'node:fs';
import path from 'node:path';
import { build, type MatcherThresholds } from 'course-compiler';
import { expect } from 'vitest';
import type { Case } from './_case.js';
import { writeApp } from '../_utils.js';

/** A shape of the generated matcher, and the thresholds that force it. */
export interface Shape {
  name: string;
  thresholds: MatcherThresholds;
  statics: 'decision tree' | 'hashed table';
  dynamic: 'generated code' | 'shared walker';
}

// Past any app of the cases: the small form whatever their number.
const ALWAYS = Number.MAX_SAFE_INTEGER;

/** The four shapes: static paths by tree or table, dynamic routes by code or walker. */
export const SHAPES: Shape[] = [
  shape('decision tree', 'generated code'),
  shape('hashed table', 'generated code'),
  shape('decision tree', 'shared walker'),
  shape('hashed table', 'shared walker'),
];

/** The apps the cases are grouped in, each with its cases in order. */
export function appsOf(cases: readonly Case[]): Map<string, Case[]> {
  const apps = new Map<string, Case[]>();
  for (const c of cases) apps.set(c.app, [...(apps.get(c.app) ?? []), c]);
  return apps;
}

/**
 * Writes an app of `cases` and builds it in `shape` with the real compiler; returns its folder
 * and generated module. Two anchor routes come first, so that every app has a static path and
 * a dynamic route, and each threshold of `shape` takes effect.
 */
export async function buildShape(
  cases: readonly Case[],
  shape: Shape,
): Promise<{ dir: string; code: string }> {
  const dir = writeApp({ 'routes.ts': routeFile(cases), 'said.ts': SAID });
  const result = await build({ root: dir, thresholds: shape.thresholds });
  expect(result.written).toBe(true);
  return { dir, code: readFileSync(path.join(dir, 'generated/routes.gen.ts'), 'utf8') };
}

/** Asserts that a generated module is the shape it was built as. */
export function expectShape(code: string, shape: Shape): void {
  const tree = code.includes('switch (path.length)');
  const table = code.includes('$static.find(path, method)');
  const inline = code.includes('function $n0(');
  const walker = code.includes('walkTree($tree');
  expect({ tree, table }).toEqual({
    tree: shape.statics === 'decision tree',
    table: shape.statics === 'hashed table',
  });
  expect({ inline, walker }).toEqual({
    inline: shape.dynamic === 'generated code',
    walker: shape.dynamic === 'shared walker',
  });
}

/** The requests the anchor routes answer, in every app. */
export const ANCHORS = ['/shape-anchor', '/shape-anchor/7'];

// --- internal ---

function shape(statics: Shape['statics'], dynamic: Shape['dynamic']): Shape {
  const thresholds = {
    staticTreeMax: statics === 'hashed table' ? 0 : ALWAYS,
    inlineMax: dynamic === 'shared walker' ? 0 : ALWAYS,
  };
  return { name: `${statics} + ${dynamic}`, thresholds, statics, dynamic };
}

// The callback of every route: its id and what it received (`said` of `_case.ts`).
const SAID = `export const said = (id: string, params: unknown[]): string =>
  id + ' ' + JSON.stringify(params);
`;

function routeFile(cases: readonly Case[]): string {
  const lines = [
    `import { Course } from 'course-router';`,
    `import { said } from './said.js';`,
    '',
    route('anchor', `get('/shape-anchor')`),
    route('anchor', `get('/shape-anchor/{n}')`),
  ];
  const ids = new Set<string>();
  for (const c of cases) {
    const routes = Object.entries(c.routes).map(([id, definition]) => {
      if (ids.has(id)) throw new Error(`route id ${id} twice in app ${c.app}`);
      ids.add(id);
      return route(id, definition);
    });
    lines.push('', `// ${c.name}`);
    if (c.group === undefined) lines.push(...routes);
    else lines.push(`Course.group(${c.group}, () => {`, ...routes, '});');
  }
  return `${lines.join('\n')}\n`;
}

/** `get('/a/{b}').where(…)` as a route-file statement whose callback answers `said(id, …)`. */
function route(id: string, definition: string): string {
  const call = /^(\w+)\(([^)]*)\)(.*)$/s.exec(definition);
  if (!call) throw new Error(`not a route definition: ${definition}`);
  const [, verb, args, chain] = call;
  return `Course.${verb}(${args}, (...p: unknown[]) => said(${JSON.stringify(id)}, p))${chain};`;
}
