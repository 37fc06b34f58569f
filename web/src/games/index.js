// The games this page can show. Each game module draws its board and describes
// its moves and events in words; the table page does everything else.

import { ticTacToe } from './tictactoe.js';
import { myCity } from './mycity.js';
import { bigCityz } from './bigcityz.js';

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
 * @property {{version: number, moves: any[]} | null} legal legal moves at `version` when it is my decision
 * @property {SeatLook[]} seats
 * @property {boolean} replay true when showing a past position (no interaction)
 *
 * @typedef {object} BoardCtx
 * @property {(mv: unknown) => void} send plays a move
 * @property {() => void} askLegal asks the server for my legal moves
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
 *
 * @typedef {object} GameUI
 * @property {string} id
 * @property {() => string} name
 * @property {() => string} [blurb] one line about the game, for the lobby
 * @property {(ctx: BoardCtx) => Board} createBoard
 * @property {(event: any, seats: SeatLook[]) => string | null} describeEvent
 * @property {(mv: any, seat: number, seats: SeatLook[]) => string} describeMove
 * @property {(options: any) => OptionField[]} [optionFields]
 * @property {(view: any) => number[] | null} [scores] running scores by seat, if the view has them
 * @property {(view: any, mine: boolean, seats: SeatLook[]) => string | null} [banner] what the
 *   table waits for, when "your turn" / "Ana's turn" would not say it (an objection window)
 */

/** @type {Record<string, GameUI>} */
const GAMES = { [ticTacToe.id]: ticTacToe, [myCity.id]: myCity, [bigCityz.id]: bigCityz };

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
