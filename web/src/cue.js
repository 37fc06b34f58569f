// The cue that a table now waits for this player while he looks elsewhere: a
// short sound and, if he opted in, a browser notification. Both can be switched
// off and the choice is remembered.

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

/**
 * Watches whose turn it is; cues once each time it becomes this player's, when
 * the page is hidden (a visible page has its banner).
 * @param {() => string} gameName
 */
export function turnCue(gameName) {
  let sound = read(SOUND_KEY, true);
  let notify = read(NOTIFY_KEY, false) && typeof Notification !== 'undefined' && Notification.permission === 'granted';
  let wasMine = false;
  let cues = 0;

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

  /** @param {boolean} mine whether the table now waits for this player */
  function update(mine) {
    if (mine && !wasMine && document.hidden) {
      cues += 1;
      document.body.dataset.turnCues = String(cues);
      if (sound) beep();
      if (notify) {
        try {
          new Notification(t('cue.title'), { body: t('cue.body', { game: gameName() }), tag: 'citytable-turn' });
        } catch {
          // notifications refused after all
        }
      }
    }
    wasMine = mine;
  }

  render();
  return { el, update };
}
