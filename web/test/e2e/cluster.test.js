// Several nodes behind a load balancer, as `docker compose --profile cluster` runs
// them: three servers on one Postgres and NATS. Two players and a spectator play a
// game of tic-tac-toe while the node running their table is killed, and then every
// node is restarted in turn (a rolling deploy). Every page comes back by itself to
// the same game, no page shows an error, and the game ends as it was played.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { startServer, startBalancer, launchBrowser, shot } from '../harness.js';
import { giveName, createTable, waitPlaying } from './helpers.js';

const BASE_DB = process.env.TEST_DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
/** Short leases: a dead node's tables move within about two seconds. */
const LEASE_TTL_MS = '1500';
/** Cells that make no line until the seventh move, which wins. */
const CELLS = [0, 4, 8, 2, 6, 3, 7];

const database = `citytable_e2e_${process.pid}_${Date.now()}`;
/** @type {Awaited<ReturnType<typeof startServer>>[]} */
let nodes = [];
/** @type {Awaited<ReturnType<typeof startBalancer>>} */
let balancer;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */
let browser;

/** @param {string} sql */
function psql(sql) {
  execFileSync('psql', [BASE_DB, '-qAtc', sql], { stdio: ['ignore', 'pipe', 'pipe'] });
}

before(async () => {
  psql(`create database ${database}`);
  const url = new URL(BASE_DB);
  url.pathname = `/${database}`;
  const env = { DATABASE_URL: url.toString(), NATS_URL, LEASE_TTL_MS };
  // One after the other: the first applies the migrations.
  for (let i = 0; i < 3; i++) nodes.push(await startServer(env));
  balancer = await startBalancer(nodes.map((n) => n.url));
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await balancer?.stop();
  for (const node of nodes) await node.stop();
  try {
    psql(`drop database if exists ${database} with (force)`);
  } catch {
    // Left for the next cleanup of the test database.
  }
});

/** The node whose lease runs the table now (each node runs none or it). */
async function owner() {
  for (;;) {
    for (const node of nodes) {
      const metrics = await fetch(`${node.url}/metrics`).then((r) => r.text(), () => '');
      if (/^citytable_tables_owned 1$/m.test(metrics)) return node;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * A person whose page records every error message it shows.
 */
async function person() {
  const p = await browser.person();
  await p.page.addInitScript(() => {
    /** @type {string[]} */
    const shown = [];
    Object.assign(window, { errorsShown: shown });
    new MutationObserver((changes) => {
      for (const change of changes) {
        for (const node of change.addedNodes) {
          if (node instanceof HTMLElement && node.matches('.toast.error')) shown.push(node.textContent ?? '');
        }
      }
    }).observe(document, { childList: true, subtree: true });
  });
  return p;
}

/** @param {import('playwright-core').Page} page */
const marks = (page) => page.locator('.ttt-cell:not([data-owner=""])').count();

test('a game goes on through the loss of its node and a rolling restart of all three', async () => {
  const ana = await person();
  const bruno = await person();
  const cleo = await person();
  const everyone = [ana.page, bruno.page, cleo.page];

  await ana.page.goto(balancer.url);
  await giveName(ana.page, 'Ana');
  const links = await createTable(ana.page, { game: 'tic-tac-toe' });
  assert.ok(links.invite.startsWith(balancer.url), 'links point at the balancer');
  await bruno.page.goto(links.invite);
  await giveName(bruno.page, 'Bruno');
  await bruno.page.click('[data-action="take-seat"]');
  await bruno.page.waitForSelector('.seat.me[data-seat="1"]');
  await cleo.page.goto(/** @type {string} */ (links.spectate));
  await cleo.page.waitForSelector('#lobby');
  await ana.page.waitForSelector('.seat[data-seat="1"] .presence.online');
  await ana.page.click('#start-button');
  for (const p of everyone) await waitPlaying(p);

  let played = 0;
  // The player on turn marks the next cell, once: a click made while its page is
  // reconnecting, or lost with the node that had the table, is sent again by the
  // page itself. Every page then shows it.
  const playNext = async () => {
    const page = await onTurn(Date.now() + 30_000);
    await page.click(`.ttt-cell[data-cell="${CELLS[played]}"]`);
    played++;
    for (const p of everyone) {
      await p.waitForFunction((n) => document.querySelectorAll('.ttt-cell:not([data-owner=""])').length === n, played, { timeout: 30_000 });
    }
  };
  /** The players' page whose turn it is, once it is connected. */
  const onTurn = async (/** @type {number} */ deadline) => {
    while (Date.now() < deadline) {
      for (const page of [ana.page, bruno.page]) {
        const mine = await page.locator('#turn-banner.mine').count();
        const open = await page.locator('#conn-status[data-state="open"]').count();
        if (mine && open && (await marks(page)) === played) return page;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('nobody has the turn');
  };

  await playNext();
  await playNext();

  // The node running the table dies.
  const lost = await owner();
  await lost.kill();
  const killed = Date.now();
  await playNext();
  const resumedMs = Date.now() - killed;
  assert.notEqual(await owner(), lost, 'another node runs the table');

  // A rolling deploy: each node in turn stops (handing its tables over) and starts
  // again; the killed one comes back too.
  for (const node of nodes) {
    if (node === lost) await node.start();
    else await node.restart();
    if (played < CELLS.length - 1) await playNext();
  }
  await playNext();
  assert.equal(played, CELLS.length);

  for (const p of everyone) await p.waitForSelector('#game-result');
  const results = await Promise.all(everyone.map((p) => p.textContent('#game-result h2')));
  assert.ok(results.every((r) => /wins/.test(r ?? '') && r === results[0]), `one result for all: ${results}`);
  for (const p of everyone) assert.equal(await marks(p), CELLS.length);
  await shot(cleo.page, 'cluster-end');

  for (const [name, p] of [['Ana', ana], ['Bruno', bruno], ['Cleo', cleo]]) {
    const page = /** @type {typeof ana} */ (p);
    const shown = await page.page.evaluate(() => /** @type {any} */ (window).errorsShown);
    assert.deepEqual(shown, [], `${name} saw no error`);
    // The browser logs each socket its server dropped; anything else is the page's.
    const scriptErrors = page.errors.filter((e) => !/WebSocket connection|Failed to load resource/.test(e));
    assert.deepEqual(scriptErrors, [], `${name}: no script errors`);
  }
  console.log(`the move after the kill was shown everywhere ${resumedMs} ms after it`);
  for (const p of [ana, bruno, cleo]) await p.ctx.close();
});
