import { formatLocation } from '../errors.js';
import type { ClassImport, CompiledApp, RouteRecord } from '../types.js';
import { code, printed, type Chunk } from './_chunk.js';
import type { EmitContext } from './_context.js';
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
  const verbSets: string[][] = [];
  const verbIndex = new Map<string, number>();
  const files: string[] = [];
  const fileIndex = new Map<string, number>();
  const methods: [number, string, string][] = [];
  const methodIndex = new Map<string, number>();
  const indexOf = <T>(map: Map<string, number>, list: T[], key: string, value: T): number => {
    let index = map.get(key);
    if (index === undefined) map.set(key, (index = list.push(value) - 1));
    return index;
  };
  const classes: string[] = [];
  const classIndex = new Map<string, number>();
  const classOf = (ref: { class: ClassImport }): number => {
    const local = context.classLocal(ref.class);
    let index = classIndex.get(local);
    if (index === undefined) classIndex.set(local, (index = classes.push(local) - 1));
    return index;
  };
  const stacks: unknown[] = [];
  const stackIndex = new Map<string, number>();
  const rows = app.routes.map((route) => {
    const stack = JSON.stringify([
      route.middleware.map((m) => [classOf(m), m.args]),
      route.handlers.map(classOf),
    ]);
    let position = stackIndex.get(stack);
    if (position === undefined)
      stackIndex.set(stack, (position = stacks.push(JSON.parse(stack)) - 1));
    const [file, line, column] = formatLocation(route.source, app.root).split(/:(?=\d+:\d+$)|:/);
    const handler = route.handler;
    const label =
      handler.kind === 'closure' ? `closure ${file!.split('/').pop()}:${line}` : route.handlerLabel;
    const call =
      handler.kind === 'closure'
        ? closureAt.get(handler.closure)!
        : -1 -
          indexOf(methodIndex, methods, JSON.stringify([classOf(handler), handler.method, label]), [
            classOf(handler),
            handler.method,
            label,
          ]);
    const row = [
      indexOf(verbIndex, verbSets, route.verbs.join(' '), route.verbs),
      route.url,
      call,
      Number(line),
      Number(column),
      indexOf(fileIndex, files, file!, file!),
      arity(route),
      position,
      route.name ?? 0,
      route.domain?.pattern ?? 0,
      // The usual label (`closure file:line`, or the method's) is made again at run time.
      route.handlerLabel === label ? 0 : route.handlerLabel,
    ];
    // Fields left out at the end are 0.
    while (row.at(-1) === 0) row.pop();
    return row;
  });
  const data = { count: rows.length, verbs: verbSets, files, stacks, methods };
  const lines = rows.map((row) => JSON.stringify(row)).join('\n');
  return [
    list('const $classes = [', classes),
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
