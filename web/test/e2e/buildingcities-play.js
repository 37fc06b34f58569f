// A Building Cities player's steps on the board, shared by the end-to-end
// scenarios: read the seat's figures, wait for the answer to a move, take a
// building from the palette and place it on the best highlighted spot its
// preview shows, lay a road block, end the turn, answer the end-of-turn
// decisions. Everything goes through what the page shows and the clicks a
// person makes.

/** @typedef {import('playwright-core').Page} Page */

/** Pages of people on a touch screen: they tap. */
const touch = new WeakSet();

/**
 * Says that the person on `page` uses a touch screen (a phone context with
 * `hasTouch`): the steps below tap instead of clicking.
 * @param {Page} page
 */
export function usesTouch(page) {
  touch.add(page);
}

/**
 * Clicks, or taps on a touch screen, the first element `selector` finds.
 * @param {Page} page
 * @param {string} selector
 */
export async function press(page, selector) {
  const target = page.locator(selector).first();
  if (touch.has(page)) await target.tap();
  else await target.click();
}

/**
 * An attribute of the first element `selector` finds now (no waiting), or null.
 * @param {Page} page
 * @param {string} selector
 * @param {string} name
 */
export function attrNow(page, selector, name) {
  return page.evaluate(([sel, n]) => document.querySelector(sel)?.getAttribute(n) ?? null, [selector, name]);
}

/**
 * The board's state in a few attributes.
 * @param {Page} page
 */
export async function boardState(page) {
  return page.evaluate(() => {
    const el = /** @type {HTMLElement | null} */ (document.querySelector('.bci'));
    const num = (/** @type {string} */ sel, /** @type {string} */ attr) => {
      const v = document.querySelector(sel)?.getAttribute(attr);
      return v === null || v === undefined || v === '' ? null : Number(v);
    };
    return {
      phase: el?.dataset.phase ?? null,
      mine: el?.dataset.mine === 'yes',
      over: Boolean(document.querySelector('#bci-final')),
      decision: document.querySelector('#bci-decision')?.getAttribute('data-kind') ?? null,
      round: num('#bci-track', 'data-round'),
      bank: num('#bci-bank', 'data-bank'),
      moves: num('#bci-moves', 'data-moves'),
    };
  });
}

/**
 * Waits until the board has the answer to the move just sent (a new version:
 * the next decision, someone else's, or the end).
 * @param {Page} page
 * @param {number} [timeout]
 */
export async function settle(page, timeout = 15_000) {
  await page.waitForSelector('.bci[data-sent=no]', { timeout });
}

/**
 * Waits for the building phase's moves other than tiles (the actions panel
 * stops showing "…").
 * @param {Page} page
 */
export async function waitActions(page) {
  await page.waitForFunction(() => {
    const actions = document.querySelector('#bci-actions');
    return Boolean(actions) && !actions?.querySelector('p.muted.small')?.textContent?.startsWith('…');
  });
}

/**
 * @typedef {{id: string, cost: number, moves: number, can: string, why: string}} PaletteItem
 * `can`: `yes`, `no` or empty (not known); `why`: the rule refusing it.
 */

/**
 * The palette's buildings with their price and moves, in the page's order.
 * @param {Page} page
 * @returns {Promise<PaletteItem[]>}
 */
export async function paletteItems(page) {
  return page.$$eval('#bci-palette [data-building]', (els) =>
    els.map((e) => ({
      id: e.getAttribute('data-building') ?? '',
      cost: Number(e.getAttribute('data-cost')),
      moves: Number(e.getAttribute('data-moves')),
      can: e.getAttribute('data-can') ?? '',
      why: e.getAttribute('data-why') ?? '',
    })),
  );
}

/**
 * Takes `building` from the palette and waits for its legal spots. Returns how
 * many there are (0: none now); the tool stays in hand.
 * @param {Page} page
 * @param {string} building
 */
export async function takeBuilding(page, building) {
  const item = page.locator(`#bci-palette [data-building="${building}"]`);
  if (!(await item.count()) || (await attrNow(page, `#bci-palette [data-building="${building}"]`, 'data-can')) === 'no') return 0;
  if ((await attrNow(page, '#bci-tool', 'data-tool')) !== building) await press(page, `#bci-palette [data-building="${building}"]`);
  const count = page.locator(`#bci-tool[data-tool="${building}"] #bci-spot-count:not([data-spots=""])`);
  await count.waitFor({ timeout: 10_000 });
  return Number(await count.getAttribute('data-spots'));
}

/**
 * Points at up to `tries` highlighted spots of the building in hand, in both
 * rotations when it has them, and reads each preview (with a mouse: on a
 * touch screen a tap chooses the spot instead).
 * @param {Page} page
 * @param {number} tries
 * @returns {Promise<{origin: string, rotation: string, cost: number, moves: number, value: number}[]>}
 */
export async function previewSpots(page, tries) {
  const out = [];
  const rotations = (await page.locator('#bci-rotate:not([disabled])').count()) ? 2 : 1;
  for (let r = 0; r < rotations; r++) {
    if (r > 0) await page.click('#bci-rotate');
    const origins = await page.$$eval('#bci-scroll .bci-spot', (els) => els.map((e) => ({ origin: e.getAttribute('data-origin') ?? '', rotation: e.getAttribute('data-rotation') ?? '' })));
    // Spread the tries over the list: neighbours of a spot often preview alike.
    const step = Math.max(1, Math.floor(origins.length / tries));
    for (let i = 0; i < origins.length && out.length < tries * (r + 1); i += step) {
      const o = origins[i];
      await page.hover(`#bci-scroll .bci-spot[data-origin="${o.origin}"]`);
      const preview = page.locator(`#bci-preview`);
      await page.waitForSelector(`#bci-ghost[data-origin="${o.origin}"]`);
      out.push({
        ...o,
        cost: Number(await preview.getAttribute('data-cost')),
        moves: Number(await preview.getAttribute('data-moves')),
        value: Number(await preview.getAttribute('data-value')),
      });
    }
  }
  return out;
}

/**
 * Builds the building in hand at a spot: picks it, then "Build here".
 * @param {Page} page
 * @param {{origin: string, rotation: string}} spot
 */
export async function buildAt(page, spot) {
  const rotation = await attrNow(page, '#bci-rotate', 'data-rotation');
  if (rotation && rotation !== spot.rotation) await press(page, '#bci-rotate');
  await press(page, `#bci-scroll .bci-spot[data-origin="${spot.origin}"][data-rotation="${spot.rotation}"]`);
  await press(page, '#bci-confirm');
  await settle(page);
}

/**
 * Lays one road block: the lowest of the highlighted ones, nearest the junction's
 * column (a main street going down, side streets from it). False when there is none.
 * @param {Page} page
 */
export async function layRoad(page) {
  if ((await attrNow(page, '#bci-tool', 'data-tool')) !== 'road') await press(page, '#bci-tool-road');
  await page.locator('#bci-tool[data-tool=road] [data-spots]:not([data-spots=""])').waitFor();
  const blocks = await page.$$eval('#bci-scroll .bci-road-spot', (els) => els.map((e) => e.getAttribute('data-block') ?? ''));
  if (!blocks.length) return false;
  const score = (/** @type {string} */ b) => {
    const [x, y] = b.split(',').map(Number);
    return y * 10 - Math.abs(x - 3);
  };
  const best = blocks.reduce((a, b) => (score(b) > score(a) ? b : a));
  await press(page, `#bci-scroll .bci-road-spot[data-block="${best}"]`);
  await settle(page);
  return true;
}

/**
 * Ends the building phase when the rules allow it. False when the button is
 * disabled (B7: the seat must spend more first).
 * @param {Page} page
 */
export async function endTurn(page) {
  await waitActions(page);
  const button = page.locator('#bci-end-turn');
  if (await button.isDisabled()) return false;
  await press(page, '#bci-end-turn');
  await settle(page);
  return true;
}

/**
 * Puts down the tool in hand, if any.
 * @param {Page} page
 */
export async function dropTool(page) {
  if (await page.locator('#bci-drop-tool').count()) await press(page, '#bci-drop-tool');
}

/**
 * Answers the end-of-turn decision awaited from this seat in the plainest way:
 * buys the first district offered, accepts a demand, keeps the challenges (plays
 * the first one on the first mayor with a full hand), answers a challenge with a
 * Task Force when it holds one, passes an auction, trades with the first partner,
 * removes the first building offered.
 * @param {Page} page
 * @param {string} kind `#bci-decision[data-kind]`
 */
export async function answerDecision(page, kind) {
  const d = '#bci-decision.mine';
  const click = async (/** @type {string} */ sel) => {
    await press(page, `${d} ${sel}`);
    await settle(page);
  };
  switch (kind) {
    case 'forced_purchase':
      return click('[data-action=buy_district]');
    case 'demand':
      return click('#bci-accept-demand');
    case 'play_challenge':
      if (await page.locator(`${d} #bci-keep`).count()) return click('#bci-keep');
      await press(page, `${d} [data-play]:not([disabled])`);
      await press(page, `${d} [data-target]`);
      return click('#bci-play');
    case 'task_force_prompt':
      return click((await page.locator(`${d} #bci-use-task-force`).count()) ? '#bci-use-task-force' : '#bci-accept-challenge');
    case 'auction':
      return click('#bci-pass');
    case 'trade_partner':
      return click('button[data-partner]');
    case 'choose_destroyed':
      return click('button[data-destroy]');
    default:
      throw new Error(`no answer for ${kind}`);
  }
}

/**
 * Spends some Maya however it can (B7 asks it before the turn may end): a
 * truck, a ship or a grid upgrade, a road block, else the cheapest building
 * with a spot (but those in `skip`), whatever it brings. False when nothing is left.
 * @param {Page} page
 * @param {PaletteItem[]} items the palette
 * @param {number} bank
 * @param {number} moves
 * @param {Set<string>} skip
 */
export async function spendAnyhow(page, items, bank, moves, skip) {
  await dropTool(page);
  const action = page.locator('#bci-actions button[data-action=truck], #bci-actions button[data-action=ship], #bci-actions button[data-action=upgrade]');
  if (await action.count()) {
    await press(page, '#bci-actions button[data-action=truck], #bci-actions button[data-action=ship], #bci-actions button[data-action=upgrade]');
    await settle(page);
    return true;
  }
  if (await layRoad(page)) {
    await dropTool(page);
    return true;
  }
  for (const item of items.filter((i) => !skip.has(i.id) && i.can !== 'no' && i.cost <= bank && i.moves <= moves).sort((a, b) => a.cost - b.cost)) {
    if (await takeBuilding(page, item.id)) {
      const [spot] = await previewSpots(page, 1);
      await buildAt(page, spot);
      return true;
    }
  }
  return false;
}
