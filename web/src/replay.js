// The views of a finished game's record: its first public view and, per log
// entry, the JSON Patch to the next. Views are rebuilt on demand from a
// checkpoint every CHECKPOINT steps, so a long game's replay keeps a few dozen
// views in memory, not one per step.

import { applyPatch } from './patch.js';

const CHECKPOINT = 64;

/**
 * @param {{ first_view: unknown, patches: unknown[][] }} record
 * @returns {(step: number) => any} the view after `step` entries (0: the first view)
 */
export function replayViews(record) {
  const checkpoints = [structuredClone(record.first_view)];
  /** @param {number} from @param {number} to */
  const walk = (from, to) => {
    let view = structuredClone(checkpoints[Math.floor(from / CHECKPOINT)]);
    for (let i = from; i < to; i++) view = applyPatch(view, /** @type {any[]} */ (record.patches[i]));
    return view;
  };
  return (step) => {
    const at = Math.floor(step / CHECKPOINT);
    while (checkpoints.length <= at) {
      const from = (checkpoints.length - 1) * CHECKPOINT;
      checkpoints.push(walk(from, from + CHECKPOINT));
    }
    return walk(at * CHECKPOINT, step);
  };
}

/**
 * Each seat's views in a record: the public view with the seat's private
 * overlay laid over it (PROTOCOL.md, `GET /api/tables/{code}/record`).
 * @param {{ seat_views?: { first: unknown, patches: unknown[][] }[] }} record
 * @returns {((seat: number, publicView: any, step: number) => any) | null} the
 *   view of `seat` after `step` entries, given the public view after them
 *   (null for a record without seat views)
 */
export function seatViews(record) {
  const views = record.seat_views;
  if (!views) return null;
  const overlays = views.map((v) => replayViews({ first_view: v.first, patches: v.patches }));
  return (seat, publicView, step) => layOver(structuredClone(publicView), overlays[seat](step));
}

/**
 * `overlay` laid over `base` as a game's private overlay is on its public view
 * (`engine::Game::Private`): an object over the object, or the array by
 * indices, at the same place; any other value replaces what is there.
 * @param {any} base changed in place where it is an object or array
 * @param {any} overlay
 * @returns {any} the view
 */
export function layOver(base, overlay) {
  const isObject = (/** @type {any} */ v) => v !== null && typeof v === 'object';
  if (!isObject(overlay) || Array.isArray(overlay) || !isObject(base)) return overlay;
  for (const [key, value] of Object.entries(overlay)) {
    const at = Array.isArray(base) ? Number(key) : key;
    base[at] = layOver(base[at], value);
  }
  return base;
}
