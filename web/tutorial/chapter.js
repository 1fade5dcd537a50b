// The chapter page: words from the message files, formulas typeset by KaTeX, a live explorer at the
// top and one demo per section, each mounted only when it comes near the viewport.
import { applyI18n, initI18n, onLang, t } from '../i18n/index.js';
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

export async function start(rpReady) {
  initI18n();
  // Sections typeset their formulas and math-bearing prose when they come near the viewport.
  const shown = (section) => {
    if (section.dataset.shown) return;
    section.dataset.shown = 'true';
    applyI18n(section);
    renderAllMath(section);
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
      await mount(container, { rp });
      container.dataset.state = 'ready';
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
  window.addEventListener('hashchange', () => {
    const target = document.getElementById(location.hash.slice(1));
    const demo = target?.querySelector?.('.demo[data-demo]');
    if (demo) mountSection(demo);
  });
  mountLabs();
}
