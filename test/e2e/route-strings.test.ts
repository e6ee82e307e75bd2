import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { send, servedApp } from '../_utils.js';

// Route-file strings that would end a JS string, template, comment or line if copied as they are.
const ROUTES = String.raw`import { Course } from 'course-router';

Course.get('/q/a${'`'}b', () => 'tick').name('t${'`'}${'$'}{process.exit(7)}${'`'}');
Course.get("/q/c'd\"e", () => 'quotes').name("n'\"\\");
Course.get('/q/f*/g', () => 'comment').name('*/ x /*');
Course.get('/q/\u2028h', () => 'separator').name('line\u2028sep');
Course.get('/q/{p}', (p: string) => 'p=' + p).where('p', '[${'`'}$]{1,3}').name('</script>');
Course.get('/__proto__', () => 'proto path');
`;

const app = servedApp({ 'routes.ts': ROUTES });

describe('strings from route files enter the generated module as data', () => {
  it('a backtick, ${, quotes, */, a line separator and __proto__ reach no code', async () => {
    const answers = [];
    for (const target of ['/q/a%60b', "/q/c'd%22e", '/q/f*/g', '/q/%E2%80%A8h', '/q/%60$']) {
      answers.push((await send(app.served, 'GET', target)).body);
    }
    expect(answers).toEqual(['tick', 'quotes', 'comment', 'separator', 'p=`$']);
    expect((await send(app.served, 'GET', '/__proto__')).body).toBe('proto path');
    const names = app.served.app.table.routes.map((route) => route.name);
    expect(names).toEqual([
      't`${process.exit(7)}`',
      'n\'"\\',
      '*/ x /*',
      'line\u2028sep',
      '</script>',
      undefined,
    ]);
  });

  it('each route stays on its own line, comments included', () => {
    const code = readFileSync(path.join(app.dir, 'generated/routes.gen.ts'), 'utf8');
    // A line separator is a line break in a comment; inside a string literal JS takes it as it is.
    const comments = code.split('\n').map((line) => line.split('//')[1] ?? '');
    expect(comments.filter((comment) => /[\u2028\u2029]/.test(comment))).toEqual([]);
    expect(code).toContain('// GET /q/ h line sep');
    expect(
      code.split('\n').filter((line) => line.startsWith('[') && line.includes('"GET"')),
    ).toHaveLength(6);
  });
});
