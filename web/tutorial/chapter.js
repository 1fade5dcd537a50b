// The chapter page: words from the message files, formulas typeset by KaTeX, a live explorer at the
// top and the demos of each section, each mounted only when it comes near the viewport. Sentences that
// state a measured fact (data-claim) are filled with the numbers their check computes (claims.js).
import { applyI18n, initI18n } from '../i18n/index.js';
import { createPane, syncHash } from './pane.js';
import { loadMath, releaseMath, renderAllMath } from '../i18n/tex.js';
import { showBuild } from './ui.js';

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

// The claims (and the verdicts they read) and the lab slots are used once the analysis module has
// loaded, after the first heatmap: their modules are fetched then, not before it.
let claimsModule = null;
const laterModules = () =>
  Promise.all([import('./claims.js'), import('./lab.js')]).then(([claims, lab]) => {
    claimsModule = claims;
    return lab;
  });

/**
 * Fills the claim sentences under `root` with the numbers measured at the page's defaults (the
 * settings the sentences state), once the claims module has loaded (start() fills the sections
 * shown before then). A check that fails there says so after its sentence, in the reader's
 * language (markClaim), instead of leaving a false sentence unmarked.
 */
export function fillClaims(rp, root) {
  if (!claimsModule) return;
  const { CLAIMS, claimDefaults } = claimsModule;
  for (const span of root.querySelectorAll('[data-claim]')) {
    const claim = CLAIMS[span.dataset.i18n];
    if (!claim || claim.lab || span.dataset.holds) continue;
    const { holds, values } = claim.measure(rp, claimDefaults(claim));
    span.dataset.i18nValues = JSON.stringify(values);
    markClaim(span, holds);
    applyI18n(span.parentElement);
  }
}

/**
 * Marks a claim sentence as holding or not at the current setting. A failing one shows the note
 * claim.fails after it (web/styles/chapter.css: [data-holds="false"]::after), which follows the
 * reader's language through data-i18n-attr.
 */
export function markClaim(span, holds) {
  span.dataset.holds = String(holds);
  span.dataset.i18nAttr = 'data-fails-note:claim.fails';
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

/** Calls `show(element)` once for each of `elements` as it comes within `margin` of the viewport. */
function whenNear(elements, margin, show) {
  const observer = new IntersectionObserver(
    (entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        observer.unobserve(entry.target);
        show(entry.target);
      }
    },
    { rootMargin: `${margin} 0px` },
  );
  for (const element of elements) observer.observe(element);
}

/**
 * Mounts the demo of slot `container` (data-demo, data-part) once `analysisReady` (the demos read
 * rp.analysis / rp.lab); a failure shows its message there.
 */
async function mountDemo(container, rp, analysisReady) {
  container.dataset.state = 'loading';
  try {
    const [{ mount }] = await Promise.all([SECTIONS[container.dataset.demo](), analysisReady]);
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

/**
 * A link straight to a section (#s215) mounts its demos at once (`mount`), and the section stays where
 * the link put it while the chapter around it changes height (demos mounting, formulas typeset), until
 * the reader scrolls or nothing has moved for three seconds (counted once `analysisReady` has resolved
 * and no demo is still mounting).
 */
function followSectionLinks(mount, analysisReady) {
  let anchor = null;
  let settled = null;
  // The demos mount once the analysis module is here: the three quiet seconds count from then.
  let arrived = false;
  const release = () => {
    anchor = null;
  };
  const hold = () => {
    if (!anchor) return;
    anchor.scrollIntoView();
    clearTimeout(settled);
    const mounting = document.querySelector('.demo[data-state="loading"]');
    if (arrived && !mounting) settled = setTimeout(release, 3000);
  };
  document.addEventListener('relpos-demo-mounted', hold);
  const arrive = () => {
    arrived = true;
    hold();
  };
  analysisReady.then(arrive, arrive);
  for (const type of ['wheel', 'touchstart', 'keydown', 'mousedown']) {
    window.addEventListener(type, release, { passive: true });
  }
  new ResizeObserver(hold).observe(document.getElementById('chapter'));
  window.addEventListener('hashchange', () => {
    const target = document.getElementById(location.hash.slice(1));
    anchor = target?.classList?.contains('chapter-section') ? target : null;
    hold();
    for (const demo of target?.querySelectorAll?.('.demo[data-demo]') ?? []) mount(demo);
  });
}

/**
 * The explorer at the top; it keeps its state in the URL hash (section anchors such as #s212 leave
 * it). Resolves once its heatmap has drawn (or failed to).
 */
function startExplorer(rp) {
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
  return new Promise((resolve) => {
    for (const type of ['relpos-render', 'relpos-error']) pane.map.addEventListener(type, resolve, { once: true });
  });
}

export async function start(rpReady) {
  // KaTeX (script, CSS, fonts) waits for the explorer's first heatmap (index.html marks the page), or
  // for a core that failed to load.
  rpReady.catch(releaseMath);
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
  whenNear(document.querySelectorAll('.chapter-section'), '600px', shown);
  renderAllMath(document.querySelector('.toc') ?? document);

  const rp = await rpReady;
  showBuild(rp);
  // The explorer's heatmap needs only the core. The claims, the section demos and the labs read
  // rp.analysis / rp.lab and rp.presets, which arrive as modules of their own (the analysis and the
  // models module): fetched once the explorer has drawn (or failed to), so the first view does not
  // wait for them (docs/build.md).
  // The demos mount once formulas can be typeset too, so a mounted section is a finished one.
  const analysisReady = startExplorer(rp).then(() => {
    releaseMath();
    return Promise.all([rp.analysis.ready, loadMath(), laterModules(), rp.modelsReady]);
  });
  analysisReady.then(([, , lab]) => {
    rpLoaded = rp;
    for (const section of document.querySelectorAll('.chapter-section[data-shown]')) fillClaims(rp, section);
    lab.mountLabs(rp);
  });
  const mount = (container) => {
    if (container.dataset.state) return;
    shown(container.closest('.chapter-section'));
    mountDemo(container, rp, analysisReady);
  };
  whenNear(document.querySelectorAll('.demo[data-demo]'), '300px', mount);
  followSectionLinks(mount, analysisReady);
}
