// The chapter page: words from the message files, formulas typeset by KaTeX, a live explorer at the
// top and the demos of each section, each mounted only when it comes near the viewport. Sentences that
// state a measured fact (data-claim) are filled with the numbers their check computes (claims.js).
import { applyI18n, initI18n, onLang, t } from '../i18n/index.js';
import { CLAIMS, claimDefaults } from './claims.js';
import { mountLabs } from './lab.js';
import { createPane, syncHash } from './pane.js';
import { renderAllMath } from './tex.js';

const SECTIONS = {
  s211: () => import('./sections/s211.js'),
  s212: () => import('./sections/s212.js'),
  s213: () => import('./sections/s213.js'),
  s214: () => import('./sections/s214.js'),
  s215: () => import('./sections/s215.js'),
  s216: () => import('./sections/s216.js'),
  s217: () => import('./sections/s217.js'),
  s218: () => import('./sections/s218.js'),
  s219: () => import('./sections/s219.js'),
};

/** Fills the claim sentences under `root` with the numbers measured at the page's defaults. */
export function fillClaims(rp, root) {
  for (const span of root.querySelectorAll('[data-claim]')) {
    const claim = CLAIMS[span.dataset.i18n];
    if (!claim || claim.lab || span.dataset.holds) continue;
    const { holds, values } = claim.measure(rp, claimDefaults(claim));
    span.dataset.i18nValues = JSON.stringify(values);
    span.dataset.holds = String(holds);
    applyI18n(span.parentElement);
  }
}

/** Anchors land below the sticky header: the scroll padding follows the header's height. */
function padAnchors() {
  const header = document.querySelector('.topbar, body > header');
  const set = () => {
    const height = header ? header.getBoundingClientRect().height : 0;
    document.documentElement.style.scrollPaddingTop = `${Math.ceil(height) + 8}px`;
  };
  set();
  if (header && typeof ResizeObserver === 'function') new ResizeObserver(set).observe(header);
}

export async function start(rpReady) {
  initI18n();
  padAnchors();
  let rpLoaded = null;
  // Sections typeset their formulas and math-bearing prose when they come near the viewport.
  const shown = (section) => {
    if (section.dataset.shown) return;
    section.dataset.shown = 'true';
    applyI18n(section);
    renderAllMath(section);
    if (rpLoaded) fillClaims(rpLoaded, section);
  };
  const sectionObserver = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (entry.isIntersecting) {
          sectionObserver.unobserve(entry.target);
          shown(entry.target);
        }
      }
    },
    { rootMargin: '600px 0px' },
  );
  for (const section of document.querySelectorAll('.chapter-section')) sectionObserver.observe(section);
  renderAllMath(document.querySelector('.toc') ?? document);

  const rp = await rpReady;
  rpLoaded = rp;
  for (const section of document.querySelectorAll('.chapter-section[data-shown]')) fillClaims(rp, section);
  const build = document.getElementById('build');
  const buildText = () => {
    build.textContent = t(rp.simd ? 'footer.buildSimd' : 'footer.buildBaseline', { version: rp.version });
  };
  buildText();
  onLang(buildText);

  // The explorer keeps its state in the URL hash (section anchors such as #s212 leave it unchanged).
  let writeHash = () => {};
  const pane = createPane(rp, document.getElementById('explorer'), { onChange: () => writeHash() });
  writeHash = syncHash([pane]);
  if (location.hash.includes('=')) writeHash();
  pane.map.addEventListener(
    'relpos-render',
    () => {
      document.documentElement.dataset.ready = 'true';
    },
    { once: true },
  );

  async function mountSection(container) {
    if (container.dataset.state) return;
    shown(container.closest('.chapter-section'));
    container.dataset.state = 'loading';
    try {
      const { mount } = await SECTIONS[container.dataset.demo]();
      await mount(container, { rp, part: container.dataset.part });
      container.dataset.state = 'ready';
      document.dispatchEvent(new CustomEvent('relpos-demo-mounted'));
    } catch (error) {
      container.dataset.state = 'error';
      const message = document.createElement('p');
      message.className = 'error';
      message.textContent = String(error?.message ?? error);
      container.append(message);
      throw error;
    }
  }

  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer.unobserve(entry.target);
        mountSection(entry.target);
      }
    },
    { rootMargin: '300px 0px' },
  );
  for (const container of document.querySelectorAll('.demo[data-demo]')) observer.observe(container);
  // A link straight to a section (#s215) mounts it at once.
  // A link straight to a section (#s215) mounts its demos at once, and the section stays where the link
  // put it while demos around it mount and change height (until the reader scrolls).
  let anchor = null;
  const release = () => {
    anchor = null;
  };
  for (const type of ['wheel', 'touchstart', 'keydown', 'mousedown']) {
    window.addEventListener(type, release, { passive: true });
  }
  document.addEventListener('relpos-demo-mounted', () => anchor?.scrollIntoView());
  window.addEventListener('hashchange', () => {
    const target = document.getElementById(location.hash.slice(1));
    anchor = target?.classList?.contains('chapter-section') ? target : null;
    setTimeout(release, 3000);
    for (const demo of target?.querySelectorAll?.('.demo[data-demo]') ?? []) mountSection(demo);
  });
  mountLabs(rp);
}
