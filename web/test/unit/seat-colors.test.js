// Every seat of the largest table gets a color of its own, named in each language.
import { test } from 'node:test';
import assert from 'node:assert/strict';

/** @type {any} */ (globalThis).document = { documentElement: {} };
const { SEAT_COLORS, SEAT_COLOR_NAMES } = await import('../../src/games/index.js');

// Big Cityz seats six.
const MOST_SEATS = 6;

test('every seat of a six-seat table has its own color and name', () => {
  assert.ok(SEAT_COLORS.length >= MOST_SEATS);
  assert.equal(new Set(SEAT_COLORS).size, SEAT_COLORS.length);
  for (const names of Object.values(SEAT_COLOR_NAMES)) {
    assert.equal(names.length, SEAT_COLORS.length);
    assert.equal(new Set(names).size, names.length);
  }
});
