// The boardgame.io reference server for side-by-side benchmarks: tic-tac-toe on
// boardgame.io's own Server (Koa + socket.io) with its default storage (in memory).
// Listens on 127.0.0.1 only. Usage: NODE_ENV=production node server.js [port]
// (default port 8000).
const { Server, Origins } = require('boardgame.io/server');
const { TicTacToe } = require('./tictactoe');

const port = Number(process.argv[2] || process.env.PORT || 8000);
const server = Server({ games: [TicTacToe], origins: [Origins.LOCALHOST] });
// Server.run listens on every interface; keep the benchmark on the loopback.
const listen = server.app.listen.bind(server.app);
server.app.listen = (p, callback) => listen(p, '127.0.0.1', callback);
server.run({ port, callback: () => console.log(`boardgame.io tic-tac-toe on 127.0.0.1:${port}`) });
