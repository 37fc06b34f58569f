// The player's choices on the Building Cities board as one value, and the pure
// function that changes them: the tool in hand (a road, or a building and its
// rotation), the spot hovered and the spot picked (whose preview waits for a
// confirmation), whose city is shown large, the zoom, and the challenge card,
// target and bid being prepared. The parts dispatch actions; they never change
// the choices themselves.

/**
 * @typedef {import('./types').Rotation} Rotation
 * @typedef {import('./types').Block} Block
 * @typedef {{origin: Block, rotation: Rotation}} Spot
 *
 * @typedef {object} Choices
 * @property {string | null} tool `road`, a building id, or nothing
 * @property {Rotation} rotation
 * @property {Spot | null} hover the spot under the pointer
 * @property {Spot | null} picked the spot chosen, waiting for "build here"
 * @property {number | null} shown the seat whose city is shown large (null: mine, or the first)
 * @property {number} zoom 1 fits the width
 * @property {number | null} card the hand's card chosen to play
 * @property {number | null} target the opponent chosen for it
 * @property {number | null} bid the amount typed for the auction
 *
 * @typedef {{type: 'tool', tool: string | null, minZoom?: number}
 *   | {type: 'rotate', rotations: Rotation[]}
 *   | {type: 'hover', spot: Spot | null}
 *   | {type: 'pick', spot: Spot}
 *   | {type: 'unpick'}
 *   | {type: 'show', seat: number | null}
 *   | {type: 'zoom', by: number}
 *   | {type: 'card', card: number | null}
 *   | {type: 'target', seat: number | null}
 *   | {type: 'bid', amount: number | null}
 *   | {type: 'moved'}} UIAction
 */

export const ZOOM = { min: 1, max: 4 };
/** The zoom at which a block of the map on a phone is about a fingertip wide (at 1 the whole map fits a phone's width and a block is a dozen pixels). */
export const TOUCH_ZOOM = 2.5;

/** @returns {Choices} */
export function initialChoices() {
  return { tool: null, rotation: 'R0', hover: null, picked: null, shown: null, zoom: 1, card: null, target: null, bid: null };
}

/**
 * @param {Spot | null} a
 * @param {Spot | null} b
 */
export const sameSpot = (a, b) => Boolean(a && b && a.rotation === b.rotation && a.origin.x === b.origin.x && a.origin.y === b.origin.y);

/**
 * The choices after `action`.
 * @param {Choices} ui
 * @param {UIAction} action
 * @returns {Choices}
 */
export function reduceChoices(ui, action) {
  switch (action.type) {
    case 'tool': {
      // Choosing the tool in hand again puts it down.
      const tool = action.tool === ui.tool ? null : action.tool;
      // A tool taken on a small screen zooms the map in so its spots can be touched.
      const zoom = tool && action.minZoom ? Math.min(ZOOM.max, Math.max(ui.zoom, action.minZoom)) : ui.zoom;
      return { ...ui, tool, rotation: 'R0', hover: null, picked: null, zoom };
    }
    case 'rotate': {
      // Only to a rotation the building has spots in.
      const i = action.rotations.indexOf(ui.rotation);
      const next = action.rotations[(i + 1) % action.rotations.length] ?? ui.rotation;
      if (next === ui.rotation) return ui;
      return { ...ui, rotation: next, hover: null, picked: null };
    }
    case 'hover':
      return sameSpot(ui.hover, action.spot) || (!ui.hover && !action.spot) ? ui : { ...ui, hover: action.spot };
    case 'pick':
      return { ...ui, picked: action.spot, rotation: action.spot.rotation };
    case 'unpick':
      return { ...ui, picked: null };
    case 'show':
      return { ...ui, shown: action.seat };
    case 'zoom':
      return { ...ui, zoom: Math.min(ZOOM.max, Math.max(ZOOM.min, Math.round(ui.zoom * action.by * 100) / 100)) };
    case 'card':
      return { ...ui, card: action.card };
    case 'target':
      return { ...ui, target: action.seat };
    case 'bid':
      return { ...ui, bid: action.amount };
    case 'moved':
      // A move went through: the building stays in hand for the next one, its
      // spot does not (it is taken now); a road stays in hand block after block.
      return { ...ui, hover: null, picked: null, card: null, target: null, bid: null };
    default:
      return ui;
  }
}
