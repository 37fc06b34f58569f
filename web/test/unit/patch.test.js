import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyPatch, parsePointer } from '../../src/patch.js';

test('add, replace and remove on objects and arrays', () => {
  const doc = { a: 1, list: [1, 2, 3], nested: { x: 'y' } };
  const out = applyPatch(doc, [
    { op: 'replace', path: '/a', value: 2 },
    { op: 'add', path: '/list/1', value: 9 },
    { op: 'add', path: '/list/-', value: 4 },
    { op: 'remove', path: '/list/0' },
    { op: 'add', path: '/nested/z', value: { deep: [true] } },
    { op: 'remove', path: '/nested/x' },
  ]);
  assert.deepEqual(out, { a: 2, list: [9, 2, 3, 4], nested: { z: { deep: [true] } } });
});

test('pointer escapes and root replacement', () => {
  assert.deepEqual(parsePointer('/a~1b/c~0d'), ['a/b', 'c~d']);
  const out = applyPatch({ 'a/b': 1 }, [{ op: 'replace', path: '/a~1b', value: 5 }]);
  assert.deepEqual(out, { 'a/b': 5 });
  assert.deepEqual(applyPatch({ old: true }, [{ op: 'replace', path: '', value: [1] }]), [1]);
});

test('values are copied, not shared with the patch', () => {
  const value = { cells: [1] };
  const out = applyPatch({}, [{ op: 'add', path: '/v', value }]);
  value.cells.push(2);
  assert.deepEqual(out.v.cells, [1]);
});

test('move, copy and test', () => {
  const out = applyPatch({ a: [1, 2], b: {} }, [
    { op: 'copy', from: '/a/0', path: '/b/first' },
    { op: 'move', from: '/a/1', path: '/c' },
    { op: 'test', path: '/c', value: 2 },
  ]);
  assert.deepEqual(out, { a: [1], b: { first: 1 }, c: 2 });
});

test('bad operations throw so the client resyncs', () => {
  assert.throws(() => applyPatch({ a: [] }, [{ op: 'remove', path: '/a/0' }]));
  assert.throws(() => applyPatch({}, [{ op: 'replace', path: '/missing', value: 1 }]));
  assert.throws(() => applyPatch({}, [{ op: 'add', path: '/x/y', value: 1 }]));
  assert.throws(() => applyPatch({ a: 1 }, [{ op: 'test', path: '/a', value: 2 }]));
  assert.throws(() => applyPatch({}, [{ op: 'jump', path: '/a' }]));
});
