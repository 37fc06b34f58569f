// Tic-tac-toe for boardgame.io: the game of boardgame.io's own tutorial, with the
// same rules as CityTable's games/tic-tac-toe (cells 0..8 row by row, three in a
// row wins, a full board is a draw).
const { INVALID_MOVE } = require('boardgame.io/core');

const LINES = [
  [0, 1, 2], [3, 4, 5], [6, 7, 8],
  [0, 3, 6], [1, 4, 7], [2, 5, 8],
  [0, 4, 8], [2, 4, 6],
];

function isVictory(cells) {
  return LINES.some(([a, b, c]) => cells[a] !== null && cells[a] === cells[b] && cells[a] === cells[c]);
}

function isDraw(cells) {
  return cells.every((c) => c !== null);
}

const TicTacToe = {
  name: 'tic-tac-toe',
  setup: () => ({ cells: Array(9).fill(null) }),
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    clickCell: ({ G, playerID }, id) => {
      if (!Number.isInteger(id) || id < 0 || id > 8 || G.cells[id] !== null) {
        return INVALID_MOVE;
      }
      G.cells[id] = playerID;
    },
  },
  endIf: ({ G, ctx }) => {
    if (isVictory(G.cells)) {
      return { winner: ctx.currentPlayer };
    }
    if (isDraw(G.cells)) {
      return { draw: true };
    }
  },
};

module.exports = { TicTacToe };
