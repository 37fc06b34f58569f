import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { sha256Hex, hexBytes } from '../../src/sha256.js';

test('sha256Hex agrees with the FIPS vectors and Node for every padding length', () => {
  const enc = new TextEncoder();
  assert.equal(sha256Hex(new Uint8Array()), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  assert.equal(sha256Hex(enc.encode('abc')), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  for (let n = 0; n < 200; n++) {
    const data = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff);
    assert.equal(sha256Hex(data), createHash('sha256').update(data).digest('hex'), `${n} bytes`);
  }
});

test('a commitment is SHA-256 of the seed bytes then the salt bytes', () => {
  // The server's own test vector (server/src/fairness.rs).
  const bytes = hexBytes('0000000000000001' + '000102030405060708090a0b0c0d0e0f');
  assert.ok(bytes);
  assert.equal(sha256Hex(bytes), '5c4fa852ca7e5b038da091b2cbb36c41df33c70fd9afffdebffc61edb938cc16');
  assert.equal(hexBytes('abc'), null);
  assert.equal(hexBytes('zz'), null);
});
