// Test harness: starts the real server binary (or a static file server for
// fixture pages) and a headless Chromium from the system, driven by playwright-core.

import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, extname, resolve, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import net from 'node:net';
import { chromium } from 'playwright-core';

export const WEB_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const SHOTS_DIR = join(WEB_DIR, 'screenshots');
const CHROMIUM = process.env.CHROMIUM_BIN ?? '/usr/bin/chromium';

/** @returns {Promise<number>} */
export function freePort() {
  return new Promise((ok, fail) => {
    const srv = net.createServer();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => ok(port));
    });
  });
}

/** The server binary under test. */
export function serverBin() {
  return process.env.CITYTABLE_BIN ?? resolve(WEB_DIR, '../target/debug/citytable');
}

export function haveServer() {
  return existsSync(serverBin());
}

/**
 * Starts the server on a free port with a fresh data dir; resolves once /healthz answers.
 * The embedded store unless `extraEnv` gives a `DATABASE_URL`.
 * @param {Record<string, string>} [extraEnv] more environment (e.g. BOT_DELAY_MS)
 */
export async function startServer(extraEnv = {}) {
  if (!haveServer()) {
    throw new Error(`server binary not found at ${serverBin()}: build it with \`cargo build -p server\` or set CITYTABLE_BIN`);
  }
  let port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'citytable-e2e-'));
  let output = '';
  // Test files create many tables and fetch many records from one address; the
  // server's own tests check those budgets.
  const env = { ...process.env, PORT: String(port), DATA_DIR: dataDir, RUST_LOG: process.env.RUST_LOG ?? 'warn', TABLES_PER_MINUTE: '0', RECORDS_PER_MINUTE: '0', ...extraEnv };
  if (!('DATABASE_URL' in extraEnv)) delete env.DATABASE_URL;
  let url = `http://127.0.0.1:${port}`;
  /** @type {import('node:child_process').ChildProcess} */
  let child;
  let exited = false;

  const launch = async () => {
    exited = false;
    child = spawn(serverBin(), [], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    child.on('exit', () => (exited = true));
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (exited) throw new Error(`server exited early:\n${output}`);
      try {
        const res = await fetch(`${url}/healthz`);
        if (res.ok) return;
      } catch {
        // not up yet
      }
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`server did not answer /healthz within 30 s:\n${output}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const halt = async () => {
    if (exited) return;
    child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await new Promise((r) => (exited ? r(null) : child.once('exit', r)));
    clearTimeout(killer);
  };

  // Another process may take the free port before the server binds it: try another.
  for (let attempt = 1; ; attempt++) {
    try {
      await launch();
      break;
    } catch (err) {
      if (attempt >= 5 || !/Address already in use/i.test(String(err))) throw err;
      port = await freePort();
      env.PORT = String(port);
      url = `http://127.0.0.1:${port}`;
      output = '';
    }
  }
  return {
    url,
    log: () => output,
    /** Stops the process and starts it again on the same port and data. */
    async restart() {
      await halt();
      await launch();
    },
    /** Kills the process at once (SIGKILL), as when its machine is lost. */
    async kill() {
      if (exited) return;
      child.kill('SIGKILL');
      await new Promise((r) => (exited ? r(null) : child.once('exit', r)));
    },
    /** Starts the process again after `kill`, on the same port and data. */
    async start() {
      await launch();
    },
    async stop() {
      await halt();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A TCP load balancer in front of several servers, as a deployment puts one in
 * front of its nodes: each connection goes to the next server in turn, and to
 * the one after when that one does not accept it.
 * @param {string[]} backends the servers' base URLs
 * @returns {Promise<{url: string, stop: () => Promise<void>}>}
 */
export async function startBalancer(backends) {
  let next = 0;
  /** @returns {Promise<net.Socket>} */
  const upstream = (tries = backends.length) =>
    new Promise((ok, fail) => {
      const target = new URL(backends[next++ % backends.length]);
      const socket = net.connect(Number(target.port), target.hostname);
      socket.once('connect', () => ok(socket));
      socket.once('error', (err) => (tries > 1 ? upstream(tries - 1).then(ok, fail) : fail(err)));
    });
  /** @type {Set<net.Socket>} */
  const open = new Set();
  const balancer = net.createServer((client) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => client.destroy());
    upstream().then(
      (server) => {
        const end = () => {
          client.destroy();
          server.destroy();
        };
        server.on('error', end);
        server.on('close', end);
        client.on('close', end);
        client.pipe(server).pipe(client);
      },
      () => client.destroy(),
    );
  });
  await new Promise((r) => balancer.listen(0, '127.0.0.1', () => r(null)));
  const addr = balancer.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise((r) => {
        for (const socket of open) socket.destroy();
        balancer.close(() => r(undefined));
      }),
  };
}

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

/**
 * Serves web/ as files (for fixture pages that need no game server).
 * @returns {Promise<{url: string, stop: () => Promise<void>}>}
 */
export async function startStatic() {
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
    const file = join(WEB_DIR, path === '/' ? 'index.html' : path);
    if (!file.startsWith(WEB_DIR) || !existsSync(file) || statSync(file).isDirectory()) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[/** @type {keyof TYPES} */ (extname(file))] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', () => r(null)));
  const addr = server.address();
  const port = typeof addr === 'object' && addr ? addr.port : 0;
  return { url: `http://127.0.0.1:${port}`, stop: () => new Promise((r) => server.close(() => r(undefined))) };
}

/**
 * Launches the system Chromium, headless, with a fresh profile.
 */
export async function launchBrowser() {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  const profile = mkdtempSync(join(tmpdir(), 'citytable-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const browser = context.browser();
  return {
    /** A separate browser context (its own storage): one per person at the table. */
    async person(options = {}) {
      if (!browser) throw new Error('no browser');
      const ctx = await browser.newContext({ viewport: { width: 1400, height: 950 }, locale: 'en-US', ...options });
      const page = await ctx.newPage();
      /** @type {string[]} */
      const errors = [];
      page.on('pageerror', (err) => errors.push(String(err)));
      page.on('console', (msg) => {
        if (msg.type() === 'error') errors.push(msg.text());
      });
      return { ctx, page, errors };
    },
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * Saves a screenshot to web/screenshots/NAME.png.
 * @param {import('playwright-core').Page} page
 * @param {string} name
 * @param {boolean} [fullPage]
 */
export async function shot(page, name, fullPage = true) {
  mkdirSync(SHOTS_DIR, { recursive: true });
  await page.screenshot({ path: join(SHOTS_DIR, `${name}.png`), fullPage });
}
