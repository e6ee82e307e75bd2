import { compile, formatLocation, loadConfig, type RouteRecord } from 'course-compiler';
import { printDiagnostics, type Output } from '../output.js';

/** Options of `course routes`. */
export interface RoutesCommandOptions {
  root: string;
  json?: boolean;
}

/** `course routes [--root DIR] [--json]`: the normalised route table. */
export async function runRoutes(options: RoutesCommandOptions, out: Output): Promise<number> {
  const config = await loadConfig(options.root);
  const { app, warnings } = await compile(config);
  if (options.json) {
    out.info(
      JSON.stringify(
        app.routes.map((r) => toJson(r, config.root)),
        null,
        2,
      ),
    );
    return 0;
  }
  printDiagnostics(warnings, config.root, out);
  const rows = app.routes.map((r) => [
    r.verbs.includes('*') ? 'ANY' : r.verbs.join('|'),
    (r.domain ? `//${r.domain.pattern}` : '') +
      r.url +
      (r.match ? `  ~ /${r.match.source}/${r.match.flags}` : ''),
    r.name ?? '',
    r.handlerLabel,
    r.middleware.map((m) => m.label).join(', '),
    formatLocation(r.source, config.root),
  ]);
  const header = ['METHOD', 'URL', 'NAME', 'HANDLER', 'MIDDLEWARE', 'SOURCE'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  for (const row of [header, ...rows])
    out.info(
      row
        .map((cell, i) => cell.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    );
  out.info(`${rows.length} routes`);
  return 0;
}

function toJson(route: RouteRecord, root: string): Record<string, unknown> {
  return {
    methods: route.verbs,
    url: route.url,
    domain: route.domain?.pattern,
    match: route.match && `/${route.match.source}/${route.match.flags}`,
    name: route.name,
    handler: route.handlerLabel,
    parameters: [...(route.domain?.params ?? []), ...route.params].map((p) => ({
      name: p.name,
      optional: p.optional,
      regex: p.regex,
    })),
    middleware: route.middleware.map((m) => m.label),
    handlers: route.handlers.map((h) => h.label),
    source: formatLocation(route.source, root),
  };
}
