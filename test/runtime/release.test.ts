import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Course } from 'course-router';
import { defineRoutes, RouteList } from 'course-router/internal';

const runtimeVersion = (
  JSON.parse(readFileSync('runtime/package.json', 'utf8')) as { version: string }
).version;
const compilerVersion = (
  JSON.parse(readFileSync('compiler/package.json', 'utf8')) as { version: string }
).version;

function generated(compiledBy: string | undefined) {
  const none = () => undefined;
  return defineRoutes(new RouteList([], {}, ''), {
    match: none,
    allowed: () => [],
    names: {},
    ...(compiledBy === undefined ? {} : { compiledBy }),
  });
}

describe('a generated module and the runtime belong to one release', () => {
  it('runtime and compiler are released together', () => {
    expect(compilerVersion).toBe(runtimeVersion);
  });

  it('starts a module built by this release', () => {
    expect(() => Course.start(generated(runtimeVersion))).not.toThrow();
  });

  it('refuses a module of another release, naming both and course build', () => {
    expect(() => Course.start(generated('0.0.9'))).toThrow(
      `course: the generated module was built by course-compiler 0.0.9, but this is course-router ${runtimeVersion}: run \`course build\` to rebuild it with this release`,
    );
  });

  it('refuses a module from before modules named their release', () => {
    expect(() => Course.start(generated(undefined))).toThrow(
      /built by course-compiler an earlier release, but this is course-router/,
    );
  });
});
