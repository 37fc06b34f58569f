// The games this page can show. Each game module draws its board and describes
// its moves and events in words; the table page does everything else.

import { ticTacToe } from './tictactoe.js';
import { myCity } from './mycity.js';
import { bigCityz } from './bigcityz.js';
import { buildingCities } from './buildingcities.js';

/**
 * @typedef {import('../wire').AwaitingInfo} AwaitingInfo
 * @typedef {import('../wire').Outcome} Outcome
 *
 * @typedef {object} SeatLook
 * @property {number} seat
 * @property {string} name
 * @property {string} color CSS color of the seat
 *
 * @typedef {object} BoardState
 * @property {any} view the game's view for this viewer
 * @property {number} version
 * @property {AwaitingInfo} awaiting
 * @property {Outcome | undefined} outcome
 * @property {number | undefined} mySeat the viewer's seat, none for spectators
 * @property {{version: number, moves: any[], of?: string | null} | null} legal legal moves at `version` when
 *   it is my decision: all of them, or the part `of` names when the board asked for one
 * @property {SeatLook[]} seats
 * @property {boolean} replay true when showing a past position (no interaction)
 * @property {boolean} [moving] false once the server refused my move sent at `version` (the board may
 *   take another), true while it is on its way or accepted; absent outside a live table
 * @property {any} [options] the table's game options (a game whose prices depend on them)
 *
 * @typedef {object} BoardCtx
 * @property {(mv: unknown) => void} send plays a move
 * @property {(of?: string) => void} askLegal asks the server for my legal moves, or only the part a
 *   game names (`of`, Building Cities: `other` or a building's tiles)
 * @property {(text: string) => void} warn shows a message to the player
 *
 * @typedef {object} Board
 * @property {HTMLElement} el
 * @property {(state: BoardState) => void} render
 * @property {() => void} [destroy]
 *
 * @typedef {object} OptionField
 * @property {string} key
 * @property {string} label
 * @property {'bool' | 'number' | 'choice'} kind
 * @property {{value: string, label: string}[]} [choices]
 * @property {number} [min] a number's range and step, as the rules accept it
 * @property {number} [max]
 * @property {number} [step]
 * @property {(options: any) => any} [get] the value shown, when it is not `options[key]`
 * @property {(options: any, value: any) => void} [set] stores a value typed, when not at `options[key]`
 * @property {string} [hint] a line under the field
 *
 * @typedef {object} GameUI
 * @property {string} id
 * @property {() => string} name
 * @property {() => string} [blurb] one line about the game, for the lobby
 * @property {(ctx: BoardCtx) => Board} createBoard
 * @property {(event: any, seats: SeatLook[]) => string | null} describeEvent
 * @property {(mv: any, seat: number, seats: SeatLook[]) => string} describeMove
 * @property {(options: any) => OptionField[]} [optionFields]
 * @property {() => Promise<unknown>} [prepare] fetches what the option fields need (the lobby waits for it)
 * @property {(view: any) => number[] | null} [scores] running scores by seat, if the view has them
 * @property {(score: number) => string} [scoreText] a score in words ("12 points" otherwise)
 * @property {(options: any) => {min: number, max: number}} [seats] the seat counts these options allow,
 *   when they narrow the game's range (a solo mode)
 * @property {(view: any, mine: boolean, seats: SeatLook[]) => string | null} [banner] what the
 *   table waits for, when "your turn" / "Ana's turn" would not say it (an objection window)
 * @property {boolean} [replaySeats] the board shows, in a replay seen by a seat (`mySeat`), what
 *   that seat held (its hand): the replay then offers to be seen by each player
 */

/** @type {Record<string, GameUI>} */
const GAMES = { [ticTacToe.id]: ticTacToe, [myCity.id]: myCity, [bigCityz.id]: bigCityz, [buildingCities.id]: buildingCities };

/** @param {GameUI} game */
export function registerGame(game) {
  GAMES[game.id] = game;
}

/**
 * @param {string} id
 * @returns {GameUI | undefined}
 */
export function gameUI(id) {
  return GAMES[id];
}

/** Player colors, by seat (one for each of the six seats a table may have): the pieces' colors on the board. */
export const SEAT_COLORS = ['#d23c3c', '#2d6fd2', '#e3a712', '#2b9a4c', '#8a4fc4', '#159a9c'];
export const SEAT_COLOR_NAMES = {
  en: ['red', 'blue', 'yellow', 'green', 'purple', 'teal'],
  fr: ['rouge', 'bleu', 'jaune', 'vert', 'violet', 'turquoise'],
};
