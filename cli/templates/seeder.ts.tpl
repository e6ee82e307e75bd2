import type { Knex } from 'knex';

/** Fills `%%table%%`; run with `course seed`. Add the rows the app starts with below. */
export async function seed(knex: Knex): Promise<void> {
  await knex('%%table%%').del();
  const rows: Record<string, unknown>[] = [];
  if (rows.length > 0) await knex('%%table%%').insert(rows);
}
