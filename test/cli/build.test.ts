import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { format } from 'prettier';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApp } from '../../bench/generate-app.js';
import { cli } from '../_cli-session.js';
import { removeApp, ROOT, runCli, writeApp, writeFile } from '../_utils.js';

const ROUTES = `import { Course } from 'course-router';\nCourse.get('/', () => 'one').name('home');\n`;

// What the process owns (exit codes, --check, --json, the summary line, a route file's leftovers)
// runs the real CLI; the compiler's messages and outputs run through the run's CLI servers (`cli`).
let dir: string;
const out = () => path.join(dir, 'generated/routes.gen.ts');
const closures = () => path.join(dir, 'generated/routes.closures.gen.ts');

beforeAll(() => {
  dir = writeApp({ 'routes.ts': ROUTES });
});
afterAll(() => removeApp(dir));

describe('course build', () => {
  it('--check fails before the first build, writing nothing', async () => {
    const result = await runCli(['build', '--root', dir, '--check']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /^\S*routes\.gen\.ts and \S*routes\.closures\.gen\.ts are missing: run `course build`/,
    );
    expect(() => statSync(out())).toThrow();
  });

  it('builds, with one summary line', async () => {
    const result = await runCli(['build', '--root', dir]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^wrote .*routes\.gen\.ts and .*routes\.closures\.gen\.ts: 1 route from 1 file in \d+ ms\n$/,
    );
  });

  it('is deterministic and leaves an unchanged output untouched', async () => {
    const before = readFileSync(out(), 'utf8');
    const mtime = statSync(out()).mtimeMs;
    const result = await runCli(['build', '--root', dir]);
    expect(result.stdout).toMatch(/^unchanged /);
    expect(readFileSync(out(), 'utf8')).toBe(before);
    expect(statSync(out()).mtimeMs).toBe(mtime);
    expect(before).not.toContain(dir);
    expect(before.split('\n')[0]).toBe('/* eslint-disable */');
  });

  it('--check passes when current and fails after a route file changes', async () => {
    expect((await runCli(['build', '--root', dir, '--check'])).code).toBe(0);
    writeFile(dir, 'routes.ts', ROUTES.replace("'one'", "'two'"));
    const stale = await runCli(['build', '--root', dir, '--check']);
    expect(stale.code).toBe(1);
    expect(readFileSync(closures(), 'utf8')).toContain("'one'");
  });

  it('--strict fails the build on a warning, as on an error; without it, the build passes', async () => {
    const app = writeApp({
      'routes.ts': `import { Course } from 'course-router';
Course.group({ prefix: '/teams/{team}' }, () => {
  Course.get('/players/{id}', (id: string) => id);
});
`,
    });
    try {
      // The module is written all the same (as tsc emits despite its errors), and the last line says so.
      const strict = await runCli(['build', '--root', app, '--strict']);
      expect(strict.code).toBe(1);
      expect(strict.stderr).toMatch(
        /warning E_HANDLER: the closure: its parameter id receives \{team\} of the group prefix[\s\S]*build failed: 1 warning, which --strict counts as errors \(\S*routes\.gen\.ts and \S*routes\.closures\.gen\.ts written all the same, as a warning allows\)\n$/,
      );
      expect(strict.stdout).toMatch(/^wrote /);
      expect(existsSync(path.join(app, 'generated/routes.gen.ts'))).toBe(true);
      const plain = await runCli(['build', '--root', app]);
      expect([plain.code, plain.stderr]).toEqual([0, expect.stringMatching(/warning E_HANDLER/)]);
      // Nothing written this time: the verdict alone.
      const again = await runCli(['build', '--root', app, '--strict']);
      expect([again.code, again.stderr]).toEqual([
        1,
        expect.stringMatching(/build failed: 1 warning, which --strict counts as errors\n$/),
      ]);
      expect((await runCli(['build', '--root', app, '--check', '--strict'])).code).toBe(1);
      const json = await runCli(['build', '--root', app, '--json', '--strict']);
      expect([json.code, JSON.parse(json.stdout).ok]).toEqual([1, false]);
    } finally {
      removeApp(app);
    }
  });

  it('--json reports the build for tools', async () => {
    const result = await runCli(['build', '--root', dir, '--json']);
    expect(JSON.parse(result.stdout)).toMatchObject({
      ok: true,
      routes: 1,
      files: 1,
      warnings: [],
    });
  });

  it('a CommonJS app is told, in one sentence, to set "type": "module"', async () => {
    const app = writeApp({ 'routes.ts': ROUTES });
    try {
      writeFile(app, 'package.json', JSON.stringify({ name: 'app', type: 'commonjs' }, null, 2));
      const result = await cli(['build', '--root', app]);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(
        /^package\.json:3:1: error E_CONFIG: the app is CommonJS \("type": "commonjs"\), and route files are ES modules\n {2}hint: set "type": "module" in package\.json \(npm pkg set type=module\)/,
      );
      expect(result.stderr).not.toMatch(/data:|E_CALLBACK/);
    } finally {
      removeApp(app);
    }
  });

  it('honours course.config.ts (routes file and output path)', async () => {
    const app = writeApp({
      'course.config.ts': `export default { routes: 'web.ts', out: 'out/table.gen.ts' };\n`,
      'web.ts': ROUTES,
    });
    try {
      expect((await cli(['build', '--root', app])).code).toBe(0);
      expect(readFileSync(path.join(app, 'out/table.gen.ts'), 'utf8')).toContain('"home"');
      expect(readFileSync(path.join(app, 'out/table.closures.gen.ts'), 'utf8')).toContain("'one'");
    } finally {
      removeApp(app);
    }
  });

  it('a course.config.ts with a misspelt key, a wrong value or a syntax error is a located E_CONFIG', async () => {
    const app = writeApp({
      'course.config.ts': `export default {\n  rotes: 'web.ts',\n  out: 5,\n};\n`,
      'routes.ts': ROUTES,
    });
    try {
      const bad = await failedBuild(app);
      expect(bad).toContain(
        'course.config.ts:2:3: error E_CONFIG: unknown configuration key "rotes"',
      );
      expect(bad).toContain('hint: did you mean routes?');
      expect(bad).toContain(
        'course.config.ts:3:3: error E_CONFIG: "out" must be a non-empty string',
      );
      writeFile(app, 'course.config.ts', 'export default (;\n');
      expect(await failedBuild(app)).toContain(
        'course.config.ts:1:17: error E_CONFIG: syntax error: Unexpected ";"',
      );
    } finally {
      removeApp(app);
    }
  });

  it('whatever a route file leaves behind, the build ends when done and never ends unnoticed', async () => {
    const HEAD = `import { Course } from 'course-router';\nCourse.get('/', () => 'x');\n`;
    const cases: [string, number, string][] = [
      ['setInterval(() => {}, 1000);', 0, ''],
      ['process.exit(0);', 1, 'course: stopped before the command finished'],
      ['await new Promise(() => {});', 1, 'course: stopped before the command finished'],
      ["Promise.reject(new Error('boom'));", 1, 'course: boom (thrown outside any route call'],
      // The timer fires while the build waits on the route file (the rest of a build may run
      // without giving a timer its turn, and a timer left for after the build never runs).
      [
        "setTimeout(() => { throw new Error('late'); }, 10); await new Promise((done) => setTimeout(done, 50));",
        1,
        'course: late (thrown outside',
      ],
      ['Course.get(null as never, () => 1);', 1, 'routes.ts:3:8: error E_PATTERN: the URL is null'],
      ["Course.get('/' + 'a'.repeat(9000), () => 1);", 1, 'error E_PATTERN: the URL "/aaa'],
    ];
    // One app and one build each, side by side.
    await Promise.all(
      cases.map(async ([line, code, said]) => {
        const app = writeApp({ 'routes.ts': HEAD + line + '\n' });
        try {
          const result = await runCli(['build', '--root', app]);
          expect(result.code, line).toBe(code);
          if (said) expect(result.stderr, line).toContain(said);
          else expect(result.stdout, line).toMatch(/^wrote /);
          // One line, not a stack or megabytes of a regex.
          expect(result.stderr.length, line).toBeLessThan(1000);
        } finally {
          removeApp(app);
        }
      }),
    );
  });

  it('an app with no route file is an error, not an empty build', async () => {
    const app = writeApp({ 'course.config.ts': `export default { routes: 'web.ts' };\n` });
    try {
      expect(await failedBuild(app)).toContain(
        'no route files: neither web.ts nor routers/ exists',
      );
    } finally {
      removeApp(app);
    }
  });

  // Seven builds one after the other: time for them on a loaded machine.
  it(
    'keeps closures in a module beside the output, which --check covers and a build removes when stale',
    { timeout: 180_000 },
    async () => {
      const app = writeApp({
        'routes.ts': ROUTES,
        'app/Components/Controller/Home.ts':
          'export class Home {\n  index() {\n    return 1;\n  }\n}\n',
      });
      const main = path.join(app, 'generated/routes.gen.ts');
      const sibling = path.join(app, 'generated/routes.closures.gen.ts');
      const check = () => cli(['build', '--root', app, '--check']);
      try {
        expect((await cli(['build', '--root', app])).code).toBe(0);
        expect(readFileSync(sibling, 'utf8')).toContain("0: () => 'one'");
        // A hand edit of the closures module is out of date; a build puts it back.
        writeFileSync(sibling, readFileSync(sibling, 'utf8').replace("'one'", "'edited'"));
        const edited = await check();
        expect([edited.code, edited.stderr]).toEqual([
          1,
          expect.stringMatching(/^\S*routes\.closures\.gen\.ts is out of date/),
        ]);
        await cli(['build', '--root', app]);
        expect(readFileSync(sibling, 'utf8')).toContain("'one'");
        // No closure, no closures module: the build removes it, and the module stops importing it.
        writeFile(app, 'routes.ts', ROUTES.replace("() => 'one'", "'Home@index'"));
        const built = await cli(['build', '--root', app]);
        expect(built.stdout).toMatch(/^wrote \S*routes\.gen\.ts: 1 route /);
        expect(existsSync(sibling)).toBe(false);
        expect(readFileSync(main, 'utf8')).not.toContain('routes.closures.gen');
        // One left behind is stale: --check names it, a build removes it.
        writeFileSync(sibling, 'export const closures = {};\n');
        const stale = await check();
        expect([stale.code, stale.stderr]).toEqual([
          1,
          expect.stringMatching(/^\S*routes\.closures\.gen\.ts is out of date/),
        ]);
        expect((await cli(['build', '--root', app])).code).toBe(0);
        expect(existsSync(sibling)).toBe(false);
        expect((await check()).code).toBe(0);
        // A closure again: both modules to write, both to commit.
        writeFile(app, 'routes.ts', ROUTES);
        const both = await check();
        expect([both.code, both.stderr]).toEqual([
          1,
          expect.stringMatching(
            /is missing; \S*routes\.gen\.ts is out of date: .* commit them\n?$/,
          ),
        ]);
      } finally {
        removeApp(app);
      }
    },
  );

  it('a generated 300-route app builds to a prettier fixpoint', async () => {
    const app = generateApp(`${dir}-300`, 300);
    try {
      expect((await cli(['build', '--root', app.dir])).code).toBe(0);
      // The demo's closures module too: the 300 routes have none.
      for (const file of [
        path.join(app.dir, 'generated/routes.gen.ts'),
        path.join(ROOT, 'generated/routes.closures.gen.ts'),
      ]) {
        const code = readFileSync(file, 'utf8');
        const options = { parser: 'typescript', printWidth: 100, singleQuote: true } as const;
        expect(await format(code, options), file).toBe(code);
      }
    } finally {
      removeApp(app.dir);
    }
  });

  it('the demo app generated module in the repository is current', async () => {
    const result = await runCli(['build', '--check'], ROOT);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });
});

/** What `course build` in `app` prints to stderr; the build must fail. */
async function failedBuild(app: string): Promise<string> {
  const result = await cli(['build', '--root', app]);
  expect(result.code, result.stdout).toBe(1);
  return result.stderr;
}
