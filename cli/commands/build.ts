import { existsSync } from 'node:fs';
import path from 'node:path';
import { build, BuildError, formatLocation, type RouteDefinitionError } from 'course-compiler';
import { count, printDiagnostics, type Output } from '../output.js';

/** Options of `course build`. */
export interface BuildCommandOptions {
  root: string;
  check?: boolean;
  quiet?: boolean;
  json?: boolean;
  /** Warnings fail the build (exit 1), as errors do: for CI. */
  strict?: boolean;
}

/** `course build [--root DIR] [--check] [--strict]`: returns the exit code. */
export async function runBuild(options: BuildCommandOptions, out: Output): Promise<number> {
  // On a terminal, a build that takes more than a moment says it is working.
  const progress =
    out.color && !options.json ? setTimeout(() => out.error('building…'), 800) : undefined;
  let result: Awaited<ReturnType<typeof build>>;
  try {
    result = await build({ root: options.root, check: options.check });
  } catch (error) {
    if (options.json && error instanceof BuildError) {
      out.info(
        JSON.stringify({ ok: false, errors: error.errors.map((e) => located(e, error.root)) }),
      );
      return 1;
    }
    throw error;
  } finally {
    clearTimeout(progress);
  }
  // With --strict, a warning fails the build as an error does (the module is written all the same).
  const failed = options.strict === true && result.warnings.length > 0;
  if (options.json) {
    out.info(
      JSON.stringify({
        ok: !(options.check && result.changed) && !failed,
        output: result.config.outFile,
        closures: result.closures === undefined ? null : result.closuresFile,
        changed: result.changed,
        written: result.written,
        routes: result.app.routes.length,
        files: result.files.length,
        milliseconds: Math.round(result.milliseconds),
        warnings: result.warnings.map((w) => located(w, result.config.root)),
      }),
    );
    return (options.check && result.changed) || failed ? 1 : 0;
  }
  printDiagnostics(result.warnings, result.config.root, out);
  const file = outputs(result);
  // Said last, after what was written: the last line is the build's verdict.
  const verdict = (written: string) =>
    failed
      ? out.error(
          `build failed: ${count(result.warnings.length, 'warning')}, which --strict counts as errors${written}`,
        )
      : undefined;
  if (options.check) {
    if (result.changed) {
      const missing = result.stale.filter((file) => !existsSync(file));
      const outdated = result.stale.filter((file) => existsSync(file));
      const said = [
        ...(missing.length > 0 ? [`${listed(missing)} ${verbFor(missing)} missing`] : []),
        ...(outdated.length > 0 ? [`${listed(outdated)} ${verbFor(outdated)} out of date`] : []),
      ];
      out.error(
        `${said.join('; ')}: run \`course build\` and commit ${result.stale.length > 1 ? 'them' : 'it'}`,
      );
      return 1;
    }
    const verb = result.closures === undefined ? 'is' : 'are';
    if (!options.quiet)
      out.info(`${file} ${verb} up to date (${count(result.app.routes.length, 'route')})`);
    verdict('');
    return failed ? 1 : 0;
  }
  if (!options.quiet) {
    const verb = result.written ? 'wrote' : 'unchanged';
    out.info(
      `${verb} ${file}: ${count(result.app.routes.length, 'route')} from ${count(result.files.length, 'file')} in ${Math.round(result.milliseconds)} ms`,
    );
  }
  // A warning does not stop the module being written, as tsc emits despite its errors.
  verdict(result.written ? ` (${file} written all the same, as a warning allows)` : '');
  return failed ? 1 : 0;
}

/** The generated files, as a path from here: the module, and its closures when there are any. */
export function outputs(result: {
  config: { outFile: string };
  closures?: string;
  closuresFile: string;
}): string {
  const files = [
    result.config.outFile,
    ...(result.closures === undefined ? [] : [result.closuresFile]),
  ];
  return listed(files);
}

function listed(files: readonly string[]): string {
  return files.map(shown).join(' and ');
}

function verbFor(files: readonly string[]): string {
  return files.length > 1 ? 'are' : 'is';
}

function shown(file: string): string {
  return path.relative(process.cwd(), file) || file;
}

function located(problem: RouteDefinitionError, root: string): Record<string, unknown> {
  return {
    code: problem.code,
    message: problem.message,
    hint: problem.hint,
    location: formatLocation(problem.loc, root),
  };
}
