import { formatLocation } from '../errors.js';
import type { ClassImport, CompiledApp, RouteRecord } from '../types.js';
import { code, printed, type Chunk } from './_chunk.js';
import type { EmitContext } from './_context.js';
import { Interned } from './_intern.js';
import { matchesNormalOnly } from './normal-only.js';
import { fits, str } from './_print.js';

/**
 * The route entries as JSON rows (runtime `RouteRow`), one per line, with the code they refer
 * to — hoisted closures and classes — in two lists by position. The runtime builds an entry
 * on first use.
 */
export function emitTable(
  app: CompiledApp,
  context: EmitContext,
  closureOrder: readonly number[],
): Chunk[] {
  const closureAt = new Map(closureOrder.map((id, position) => [id, position]));
  const verbSets = new Interned<string[]>();
  const files = new Interned<string>();
  const methods = new Interned<[number, string, string]>();
  const classes = new Interned<string>();
  const stacks = new Interned<unknown>();
  const classOf = (ref: { class: ClassImport }): number =>
    classes.add(context.classLocal(ref.class));
  const rows = app.routes.map((route) => {
    const stack = stacks.add([
      route.middleware.map((m) => [classOf(m), m.args]),
      route.handlers.map(classOf),
    ]);
    const [file, line, column] = formatLocation(route.source, app.root).split(/:(?=\d+:\d+$)|:/);
    const handler = route.handler;
    const label =
      handler.kind === 'closure' ? `closure ${file!.split('/').pop()}:${line}` : route.handlerLabel;
    const call =
      handler.kind === 'closure'
        ? closureAt.get(handler.closure)!
        : -1 - methods.add([classOf(handler), handler.method, label]);
    const row = [
      verbSets.add(route.verbs),
      route.url,
      call,
      Number(line),
      Number(column),
      files.add(file!),
      arity(route),
      stack,
      route.name ?? 0,
      route.domain?.pattern ?? 0,
      // The usual label (`closure file:line`, or the method's) is made again at run time.
      route.handlerLabel === label ? 0 : route.handlerLabel,
      // 1: the route may match a path that is not normal (see `matchesNormalOnly`).
      matchesNormalOnly(route) ? 0 : 1,
    ];
    // Fields left out at the end are 0.
    while (row.at(-1) === 0) row.pop();
    return row;
  });
  const data = {
    count: rows.length,
    verbs: verbSets.values,
    files: files.values,
    stacks: stacks.values,
    methods: methods.values,
  };
  const lines = rows.map((row) => JSON.stringify(row)).join('\n');
  return [
    list('const $classes = [', classes.values),
    code(
      `const $routes = new RouteList(${str(JSON.stringify(data))}, ${str(lines)}, $closures, $classes);`,
    ),
  ];
}

// --- internal ---

/** Domain parameters, URL parameters, then setMatch captures (CONTRACT 5.2). */
function arity(route: RouteRecord): number {
  return (route.domain?.params.length ?? 0) + route.params.length + (route.match?.captures ?? 0);
}

function list(open: string, items: readonly string[]): Chunk {
  // Prettier keeps an array on one line when it fits, else one element per line.
  const line = `${open}${items.join(', ')}];`;
  if (fits(line)) return printed(line);
  return {
    kind: 'list',
    open,
    close: '];',
    empty: `${open}];`,
    entries: items.map((text) => ({ text: `  ${text}` })),
  };
}
