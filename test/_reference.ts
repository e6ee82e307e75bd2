/**
 * A small, obviously correct matcher to check the generated one against: every route in
 * registration order, one regex each, built here independently of the compiler.
 */
export interface RefRoute {
  verb: string;
  url: string;
  where?: Record<string, string>;
}

/** The first route matching `verb` and `path` (normalised), with its parameters, or undefined. */
export function referenceMatch(
  routes: readonly RefRoute[],
  verb: string,
  path: string,
): { index: number; params: (string | undefined)[] } | undefined {
  for (let index = 0; index < routes.length; index++) {
    const route = routes[index]!;
    const accepts = route.verb === verb || (verb === 'HEAD' && route.verb === 'GET');
    if (!accepts) continue;
    let regex = compiled.get(route);
    if (!regex) compiled.set(route, (regex = toRegex(route)));
    const m = regex.exec(path);
    if (m) return { index, params: m.slice(1) };
  }
  return undefined;
}

const compiled = new WeakMap<RefRoute, RegExp>();

function toRegex(route: RefRoute): RegExp {
  let source = '';
  const url = route.url;
  let i = 0;
  while (i < url.length) {
    if (url[i] !== '{') {
      source += url[i]!.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
      i++;
      continue;
    }
    const close = url.indexOf('}', i);
    const inner = url.slice(i + 1, close);
    const optional = inner.endsWith('?');
    const name = optional ? inner.slice(0, -1) : inner;
    const regex = route.where?.[name] ?? '\\w+';
    // The separator just written belongs to an optional parameter.
    const separator = /\\?[/.-]$/.exec(source)?.[0] ?? '';
    if (optional && separator) source = source.slice(0, -separator.length);
    source += optional ? `(?:${separator}(${regex}))?` : `(${regex})`;
    i = close + 1;
  }
  if (source === '') source = '\\/';
  return new RegExp(`^${source}\\/?$`);
}

/** Every verb some route accepts for `path` (GET routes answer HEAD too), for `405` and `Allow`. */
export function referenceAllowed(routes: readonly RefRoute[], path: string): string[] {
  const verbs = new Set<string>();
  for (const route of routes) {
    if (!toRegex(route).test(path)) continue;
    verbs.add(route.verb);
    if (route.verb === 'GET') verbs.add('HEAD');
  }
  return [...verbs].sort();
}
