// The portal bundle: fills the header's account area, then runs the script of the page the server named in <body data-page>.
import { renderAccountNav } from './layout.js';
import { h, mount } from './lib/dom.js';
import { showWelcome } from './lib/welcome.js';
import { accountPage } from './pages/account.js';
import {
  forgotPasswordPage,
  loginPage,
  logoutPage,
  registerPage,
  resetPasswordPage,
  verifyEmailPage,
} from './pages/auth.js';
import { cataloguePage } from './pages/catalogue.js';
import { confirmEmailPage } from './pages/confirm-email.js';
import { gamePage } from './pages/game.js';
import { adminPage } from './pages/admin.js';
import { studioPage } from './pages/studio/index.js';
import { playtimePage } from './pages/playtime.js';
import { profilePage } from './pages/profile.js';
import { previewShell } from './shell/preview.js';
import { playShell } from './shell/shell.js';

type Page = (main: HTMLElement, data: DOMStringMap) => Promise<void> | void;

const PAGES: Record<string, Page> = {
  catalogue: cataloguePage,
  game: gamePage,
  play: playShell,
  preview: previewShell,
  register: registerPage,
  login: loginPage,
  logout: logoutPage,
  'forgot-password': forgotPasswordPage,
  'reset-password': resetPasswordPage,
  'verify-email': verifyEmailPage,
  'confirm-email': confirmEmailPage,
  account: accountPage,
  profile: profilePage,
  playtime: playtimePage,
  admin: adminPage,
  studio: studioPage,
};

async function start(): Promise<void> {
  const main = document.getElementById('main')!;
  const data = document.body.dataset;
  void renderAccountNav();
  const page = PAGES[data.page ?? ''];
  if (!page) return; // server-rendered pages (404, SDK guide) need no script
  try {
    await page(main, data);
    showWelcome(main, data.page);
  } catch (error) {
    console.error(error);
    mount(
      main,
      h(
        'section',
        { class: 'panel' },
        h('h1', null, 'Something went wrong'),
        h('p', { role: 'alert' }, (error as Error).message || 'The page could not be shown.'),
        h('p', null, h('a', { href: location.pathname + location.search }, 'Try again')),
      ),
    );
  }
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => void start());
else void start();
