// Whether the seat may build each building of the palette now, from its private
// overlay (`palette`, in its own building phase): nothing when it may, else the
// rules' refusal (`BuildingCitiesRule`) saying why not.

/**
 * @typedef {import('./types').View} View
 * @typedef {import('./palette.js').Status} Status
 */

/**
 * @param {View} view
 * @returns {(id: string) => Status | null} null for a building the overlay does not name
 */
export function paletteStatus(view) {
  const palette = view.palette;
  if (!palette) return () => null;
  return (id) => (id in palette ? { can: palette[id] === null, rule: palette[id] ?? null } : null);
}
