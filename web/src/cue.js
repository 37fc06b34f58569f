// The cues that a table now waits for this player, or that his time to decide
// runs low, while he looks elsewhere: a short sound and, if he opted in, a
// browser notification. Both can be switched off and the choice is remembered.

import { h } from './dom.js';
import { t } from './i18n.js';

const SOUND_KEY = 'citytable.cue.sound';
const NOTIFY_KEY = 'citytable.cue.notify';

/** @param {string} key @param {boolean} fallback */
function read(key, fallback) {
  try {
    const v = localStorage.getItem(key);
    return v === null ? fallback : v === 'on';
  } catch {
    return fallback;
  }
}

/** @param {string} key @param {boolean} on */
function write(key, on) {
  try {
    localStorage.setItem(key, on ? 'on' : 'off');
  } catch {
    // private mode: kept for this page only
  }
}

/** @type {AudioContext | null} */
let audio = null;

function beep() {
  try {
    audio ??= new AudioContext();
    const osc = audio.createOscillator();
    const gain = audio.createGain();
    osc.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    osc.connect(gain).connect(audio.destination);
    osc.start();
    osc.stop(audio.currentTime + 0.25);
  } catch {
    // no audio here
  }
}

/** Time left at which the low-time cue comes, at most: 15 s, or a third of the decision's time. */
const LOW_TIME_MS = 15_000;

/**
 * Watches whose turn it is; cues once each time it becomes this player's, and
 * once per decision when its time runs low, when the page is hidden (a
 * visible page has its banner and its timer).
 * @param {() => string} gameName
 */
export function turnCue(gameName) {
  let sound = read(SOUND_KEY, true);
  let notify = read(NOTIFY_KEY, false) && typeof Notification !== 'undefined' && Notification.permission === 'granted';
  let wasMine = false;
  let cues = 0;
  let lowCues = 0;
  /** The deadline (the page's clock) of the decision whose low time was cued. */
  let lowCuedFor = -Infinity;

  const soundBtn = h('button', { class: 'link small', id: 'cue-sound', onclick: () => toggleSound() });
  const notifyBtn = h('button', { class: 'link small', id: 'cue-notify', onclick: () => toggleNotify() });
  const el = h('span', { class: 'cue-switches' }, soundBtn, ' ', notifyBtn);

  function render() {
    soundBtn.textContent = sound ? t('cue.sound_on') : t('cue.sound_off');
    soundBtn.setAttribute('aria-pressed', String(sound));
    notifyBtn.textContent = notify ? t('cue.notify_on') : t('cue.notify_off');
    notifyBtn.setAttribute('aria-pressed', String(notify));
  }

  function toggleSound() {
    sound = !sound;
    write(SOUND_KEY, sound);
    render();
  }

  async function toggleNotify() {
    if (notify) {
      notify = false;
    } else if (typeof Notification !== 'undefined') {
      const granted = Notification.permission === 'granted' || (await Notification.requestPermission()) === 'granted';
      notify = granted;
    }
    write(NOTIFY_KEY, notify);
    render();
  }

  /** @param {string} title @param {string} body */
  function cue(title, body) {
    if (sound) beep();
    if (notify) {
      try {
        new Notification(title, { body, tag: 'citytable-turn' });
      } catch {
        // notifications refused after all
      }
    }
  }

  /** @param {boolean} mine whether the table now waits for this player */
  function update(mine) {
    if (mine && !wasMine && document.hidden) {
      cues += 1;
      document.body.dataset.turnCues = String(cues);
      cue(t('cue.title'), t('cue.body', { game: gameName() }));
    }
    wasMine = mine;
  }

  /**
   * The clock of this player's decision: cues once when it runs low.
   * @param {number} left milliseconds left
   * @param {number} total milliseconds the decision had when its time arrived
   * @param {number} deadline when it runs out (the page's clock): the same
   *   decision told again (another seat decided meanwhile) keeps its deadline
   */
  function clock(left, total, deadline) {
    if (!wasMine || !document.hidden || Math.abs(deadline - lowCuedFor) < 2000 || left <= 0 || left > Math.min(LOW_TIME_MS, total / 3)) return;
    lowCuedFor = deadline;
    lowCues += 1;
    document.body.dataset.lowTimeCues = String(lowCues);
    cue(t('cue.low_title'), t('cue.low_body', { seconds: Math.ceil(left / 1000), game: gameName() }));
  }

  render();
  return { el, update, clock };
}
