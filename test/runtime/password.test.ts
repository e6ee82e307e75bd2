import { describe, expect, it } from 'vitest';
import { hashPassword, passwordInfo, verifyPassword } from '../../runtime/features/password.js';

// Made by PHP 8.2's password_hash over hash_hmac('sha256', password, pepper), as the original does.
const PHP_SECRET = '$2y$10$4OaGf/V5JzIlLIVQzXF7xuG0VGaYkg0PtIz9vahTYxII.r97Ctns2'; // 'secret', pepper ''
const PHP_NUL = '$2y$04$H4s.d2miS2QAumLUU2pawey2F5Wr5unthFRPQMvwOTDWTpq7gGc4m'; // 'pässwörd\0with nul', pepper 'pepper'

describe('passwords', () => {
  it('verifies hashes made by PHP password_hash (the original framework, empty pepper)', async () => {
    expect(await verifyPassword('secret', PHP_SECRET)).toBe(true);
    expect(await verifyPassword('Secret', PHP_SECRET)).toBe(false);
    expect(await verifyPassword('pässwörd\0with nul', PHP_NUL, 'pepper')).toBe(true);
    expect(await verifyPassword('pässwörd\0with nul', PHP_NUL, '')).toBe(false);
    expect(await verifyPassword('pässwörd', PHP_NUL, 'pepper')).toBe(false);
  });

  it('hashes as $2y$ with the cost asked for, and reports it', async () => {
    const hash = await hashPassword('secret', 4);
    expect(hash).toMatch(/^\$2y\$04\$[./A-Za-z0-9]{53}$/);
    expect(await verifyPassword('secret', hash)).toBe(true);
    expect(passwordInfo(hash)).toEqual({ algo: '2y', algoName: 'bcrypt', options: { cost: 4 } });
    expect(passwordInfo('plain')).toEqual({ algo: null, algoName: 'unknown', options: {} });
  });

  it('accepts $2b$ and $2a$ forms of the same hash, and refuses anything else', async () => {
    const hash = await hashPassword('x', 4);
    expect(await verifyPassword('x', `$2b$${hash.slice(4)}`)).toBe(true);
    expect(await verifyPassword('x', `$2a$${hash.slice(4)}`)).toBe(true);
    expect(await verifyPassword('x', `$2x$${hash.slice(4)}`)).toBe(false);
    expect(await verifyPassword('x', 'not a hash')).toBe(false);
  });

  it('long passwords are not truncated at 72 bytes, and NUL bytes count', async () => {
    const long = 'a'.repeat(100);
    const hash = await hashPassword(long, 4);
    expect(await verifyPassword(`${'a'.repeat(99)}b`, hash)).toBe(false);
    expect(await verifyPassword(long, hash)).toBe(true);
    const nul = await hashPassword('abc\0def', 4);
    expect(await verifyPassword('abc', nul)).toBe(false);
    expect(await verifyPassword('abc\0def', nul)).toBe(true);
  });

  it('a pepper changes the hash: a hash made with one does not verify with another', async () => {
    const hash = await hashPassword('secret', 4, 'pepper-a');
    expect(await verifyPassword('secret', hash, 'pepper-a')).toBe(true);
    expect(await verifyPassword('secret', hash, 'pepper-b')).toBe(false);
  });

  it('refuses a cost outside 4–31', async () => {
    await expect(hashPassword('x', 3)).rejects.toThrow(/cost must be 4–31/);
  });

  it('lets the event loop run while hashing', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    await hashPassword('secret', 11);
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(3);
  });
});
