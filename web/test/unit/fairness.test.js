import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commitmentCheck } from '../../src/fairness.js';

const sealed = {
  seed: '0000000000000001',
  salt: '000102030405060708090a0b0c0d0e0f',
  commitment: '5c4fa852ca7e5b038da091b2cbb36c41df33c70fd9afffdebffc61edb938cc16',
};

test('a record whose seed and salt hash to its commitment matches', () => {
  assert.equal(commitmentCheck(sealed), 'matches');
  assert.equal(commitmentCheck({ ...sealed, commitment: sealed.commitment.toUpperCase() }), 'matches');
});

test('another seed, salt or commitment differs', () => {
  assert.equal(commitmentCheck({ ...sealed, seed: '0000000000000002' }), 'differs');
  assert.equal(commitmentCheck({ ...sealed, salt: '100102030405060708090a0b0c0d0e0f' }), 'differs');
  assert.equal(commitmentCheck({ ...sealed, commitment: '0'.repeat(64) }), 'differs');
  assert.equal(commitmentCheck({ ...sealed, seed: 1 }), 'differs', 'a seed as a number is not what was hashed');
  assert.equal(commitmentCheck({ ...sealed, salt: 'zz' }), 'differs');
  assert.equal(commitmentCheck({ seed: sealed.seed, commitment: sealed.commitment }), 'differs', 'a commitment without its salt');
});

test('a record from before commitments has none', () => {
  assert.equal(commitmentCheck({ seed: 12345 }), 'absent');
});
