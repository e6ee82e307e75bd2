/**
 * A small, obviously correct matcher to check the generated one against: every route in
 * registration order, one regex each, built here independently of the compiler. As CONTRACT
 * §5.1 has it, the regex finds the structure on the normalised path (`%2F` and `%25` still
 * encoded, so `%2F` splits nothing); then each value is decoded and must pass its parameter's
 * regex, or the route does not match.
 */
export interface RefRoute {
  verb: string;
  url: string;
  where?: Record<string, string>;
}

/**
 * The first route matching `verb` and `path` (normalised), with its parameters decoded, or
 * undefined.
 */
export function referenceMatch(
  routes: readonly RefRoute[],
  verb: string,
  path: string,
): { index: number; params: (string | undefined)[] } | undefined {
  for (let index = 0; index < routes.length; index++) {
    const route = routes[index]!;
    const accepts = route.verb === verb || (verb === 'HEAD' && route.verb === 'GET');
    if (!accepts) continue;
    const params = paramsOf(route, path);
    if (params) return { index, params };
  }
  return undefined;
}

/** A value of a normalised path fully decoded: what a parameter's regex and callback see. */
function decodedValue(value: string): string {
  return value.replace(/%2[Ff5]/g, (e) => (e[2] === '5' ? '%' : '/'));
}

const compiled = new WeakMap<RefRoute, { path: RegExp; values: RegExp[] }>();

/** The decoded parameters of `path` for `route`, or undefined when it does not match. */
function paramsOf(route: RefRoute, path: string): (string | undefined)[] | undefined {
  let regexes = compiled.get(route);
  if (!regexes) compiled.set(route, (regexes = toRegexes(route)));
  const m = regexes.path.exec(path);
  if (!m) return undefined;
  const params = m.slice(1).map((v) => (v === undefined ? v : decodedValue(v)));
  const passes = params.every((v, k) => v === undefined || regexes.values[k]!.test(v));
  return passes ? params : undefined;
}

/** The route's regex over the path, and each parameter's own, anchored. */
function toRegexes(route: RefRoute): { path: RegExp; values: RegExp[] } {
  const values: RegExp[] = [];
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
    values.push(new RegExp(`^(?:${regex})$`));
    // The separator just written belongs to an optional parameter.
    const separator = /\\?[/.-]$/.exec(source)?.[0] ?? '';
    if (optional && separator) source = source.slice(0, -separator.length);
    source += optional ? `(?:${separator}(${regex}))?` : `(${regex})`;
    i = close + 1;
  }
  if (source === '') source = '\\/';
  return { path: new RegExp(`^${source}\\/?$`), values };
}

/** Every verb some route accepts for `path` (GET routes answer HEAD too), for `405` and `Allow`. */
export function referenceAllowed(routes: readonly RefRoute[], path: string): string[] {
  const verbs = new Set<string>();
  for (const route of routes) {
    if (!paramsOf(route, path)) continue;
    verbs.add(route.verb);
    if (route.verb === 'GET') verbs.add('HEAD');
  }
  return [...verbs].sort();
}
