// Entry point: a small app (home at "/", a table at "/t/{code}", "My tables"
// at "/mine") with a language switch in the header.

import { h, mount } from './dom.js';
import { t, currentLang, setLang } from './i18n.js';
import { showHome } from './home.js';
import { showTable } from './table.js';
import { showMyTables } from './mytables.js';
import './games/bigcity.js';

const app = /** @type {HTMLElement} */ (document.getElementById('app'));
const header = /** @type {HTMLElement} */ (document.getElementById('header'));
/** @type {() => void} */
let cleanup = () => {};

/** @param {string} path */
function go(path) {
  if (path !== location.pathname) history.pushState(null, '', path);
  route();
}

function renderHeader() {
  mount(
    header,
    h(
      'a',
      {
        class: 'brand',
        href: '/',
        onclick: (/** @type {MouseEvent} */ e) => {
          e.preventDefault();
          go('/');
        },
      },
      h('img', { src: '/logo.svg', alt: '', width: 28, height: 28 }),
      h('span', null, 'CityTable'),
    ),
    h(
      'button',
      {
        class: 'lang-switch',
        id: 'lang-switch',
        lang: currentLang() === 'en' ? 'fr' : 'en',
        onclick: () => {
          setLang(currentLang() === 'en' ? 'fr' : 'en');
          renderHeader();
          route();
        },
      },
      t('lang.switch'),
    ),
  );
}

function route() {
  cleanup();
  cleanup = () => {};
  document.getElementById('replay')?.remove();
  const match = location.pathname.match(/^\/t\/([^/]+)\/?$/);
  document.documentElement.lang = currentLang();
  if (match) {
    document.body.dataset.page = 'table';
    cleanup = showTable(app, decodeURIComponent(match[1]), go);
  } else if (/^\/mine\/?$/.test(location.pathname)) {
    document.body.dataset.page = 'mine';
    cleanup = showMyTables(app, go);
  } else {
    document.body.dataset.page = 'home';
    document.title = 'CityTable';
    cleanup = showHome(app, go);
  }
}

window.addEventListener('popstate', route);
renderHeader();
route();
