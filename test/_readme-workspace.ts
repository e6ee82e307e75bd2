import { copyFileSync, existsSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { NO_COMPILER, packedTarballs, run, startServer, type Running } from './_install.js';
import { expectedPrint } from './_readme.js';
import { ROOT } from './_utils.js';

// The README's shell blocks run as a user pastes them, in a workspace folder whose `course` is
// this repository (a folder of links to its files, so that `..` from it is the workspace). Each
// line runs in bash in the folder the previous `cd` left, and must succeed. Three lines stand
// for what this test run did already, and are checked to be exactly those commands:
// - `npm install` in the repository: the run itself needs it (it built the packages);
// - `npm pack --workspaces --pack-destination DIR`: the run packs once (`packedTarballs`) and the
//   tarballs are copied to DIR, which must exist, as npm requires;
// - `npm install knex better-sqlite3`: better-sqlite3 would compile SQLite for about a minute
//   where no prebuilt binary can be downloaded (as here); the repository's installed copies of
//   both are linked instead, after checking that the line is the one `course-router/db` names
//   when they are missing.
// A server that a block leaves running listens on PORT, a free port: `127.0.0.1:3000` in a
// command is that port.

/** A user's folder, the shell's state in it, and the server a block left running. */
export class Workspace {
  readonly env: NodeJS.ProcessEnv;
  /** Files written from README blocks: what `npx tsx FILE` must print. */
  readonly prints = new Map<string, string[]>();
  /** What the last shell block printed on stdout. */
  lastOutput = '';
  #server: Running | undefined;

  constructor(
    readonly root: string,
    readonly port: number,
  ) {
    this.env = { ...NO_COMPILER, PORT: String(port), NO_COLOR: '1' };
    const repository = path.join(root, 'course');
    mkdirSync(repository);
    for (const entry of readdirSync(ROOT).filter((name) => name !== '.git'))
      symlinkSync(path.join(ROOT, entry), path.join(repository, entry));
  }

  /** Remembers what a file written from the README says it prints. */
  wrote(file: string, text: string): void {
    const lines = expectedPrint(text);
    if (lines) this.prints.set(path.resolve(file), lines);
  }

  /** Runs a shell block pasted in `dir`; with `serves`, its last line keeps serving. */
  async block(dir: string, text: string, serves: boolean): Promise<void> {
    let cwd = path.resolve(this.root, dir);
    const lines = text.split('\n').filter((line) => line.trim() !== '');
    this.lastOutput = '';
    for (const [i, line] of lines.entries()) {
      const cd = /^cd (\S+)$/.exec(line);
      if (cd) {
        cwd = path.resolve(cwd, cd[1]!);
        expect(existsSync(cwd), line).toBe(true);
      } else if (serves && i === lines.length - 1) {
        await this.stop();
        this.#server = await startServer('bash', ['-c', line], {
          cwd,
          env: this.env,
          port: this.port,
        });
      } else {
        this.lastOutput += await this.#command(line, cwd);
      }
    }
  }

  /** Stops the server a block left running. */
  async stop(): Promise<void> {
    await this.#server?.stop();
    this.#server = undefined;
  }

  async #command(line: string, cwd: string): Promise<string> {
    const repository = path.join(this.root, 'course');
    if (cwd === repository && line === 'npm install') {
      expect(existsSync(path.join(ROOT, 'cli/dist/index.js')), 'the repository is built').toBe(
        true,
      );
      return '';
    }
    const pack = /^npm pack --workspaces --pack-destination (\S+)$/.exec(line);
    if (cwd === repository && pack) {
      const packs = await packedTarballs();
      const destination = path.resolve(cwd, pack[1]!);
      for (const file of readdirSync(packs))
        copyFileSync(path.join(packs, file), path.join(destination, file));
      return '';
    }
    if (line === 'npm install knex better-sqlite3') return this.#linkDatabase(line, cwd);
    const command = line.replaceAll('127.0.0.1:3000', `127.0.0.1:${this.port}`);
    const result = await run('bash', ['-c', command], {
      cwd,
      env: this.env,
      maxBuffer: 1 << 24,
      timeout: 300_000,
    }).catch((error: { stdout: string; stderr: string }) => {
      throw new Error(`${line} (in ${cwd}) failed:\n${error.stdout}\n${error.stderr}`);
    });
    const script = /^npx tsx (\S+)$/.exec(line);
    const printed = script && this.prints.get(path.resolve(cwd, script[1]!));
    if (printed) expect(result.stdout.split('\n').slice(0, -1), line).toEqual(printed);
    return result.stdout;
  }

  async #linkDatabase(line: string, app: string): Promise<string> {
    const script =
      "import('course-router/db').then((db) => db.connect({ client: 'better-sqlite3', connection: { filename: ':memory:' } })).catch((error) => console.log(error.message));";
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      cwd: app,
    });
    expect(stdout.trim()).toBe(
      `course: course-router/db needs the package "knex", which is not installed: ${line}`,
    );
    for (const name of ['knex', 'better-sqlite3'])
      symlinkSync(path.join(ROOT, 'node_modules', name), path.join(app, 'node_modules', name));
    return '';
  }
}
