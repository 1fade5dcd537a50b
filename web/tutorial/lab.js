// Embeds the training lab's <relpos-lab> in the chapter's lab slots when that component exists in
// this build (import.meta.glob resolves at build time to the files that exist, so a missing lab makes
// no request at all). Each slot runs the experiment its section's text describes, with the budget the
// text states (verdicts.js), and speaks the page's language. 2.1.8's slot adds one button per
// strategy that runs that strategy's comparison.
import { lang, onLang } from '../i18n/index.js';
import { labMessagesFor } from '../lab/messages.js';
import { button, el, localize } from './ui.js';
import { COPY_BUDGET, LAB_BUDGET, STRATEGIES } from './verdicts.js';

const modules = import.meta.glob('../components/relpos-lab.js');

/** The attributes each section's lab starts with. */
export const SLOT_SETTINGS = {
  s212: {
    task: COPY_BUDGET.task,
    schemes: COPY_BUDGET.schemes.join(','),
    length: COPY_BUDGET.length,
    steps: COPY_BUDGET.steps,
    seed: COPY_BUDGET.seed,
  },
  s217: { task: 'copy', schemes: 'rope,rope-linear,xpos', length: 16, steps: 300, seed: 1 },
  s218: {
    task: LAB_BUDGET.task,
    schemes: LAB_BUDGET.scheme,
    length: LAB_BUDGET.length,
    steps: LAB_BUDGET.steps,
    seed: LAB_BUDGET.seed,
    ...STRATEGIES.normalisation[0],
  },
};

function configure(lab, settings) {
  for (const [name, value] of Object.entries(settings)) lab.setAttribute(name, String(value));
  lab.messages = labMessagesFor(lang()); // rebuilds the form from the attributes
}

/** Runs one strategy's comparison: clears the results, then trains each configuration in turn. */
async function runComparison(lab, name) {
  lab.shadowRoot?.querySelector('.clear')?.click();
  for (const config of STRATEGIES[name]) {
    configure(lab, { ...SLOT_SETTINGS.s218, ...config });
    await lab.train();
  }
}

export async function mountLabs() {
  const loader = Object.values(modules)[0];
  const slots = document.querySelectorAll('.lab-slot');
  if (!loader || !slots.length) return false;
  try {
    await loader();
  } catch {
    return false;
  }
  if (!customElements.get('relpos-lab')) return false;
  for (const slot of slots) {
    const lab = document.createElement('relpos-lab');
    lab.dataset.section = slot.dataset.lab;
    for (const [name, value] of Object.entries(SLOT_SETTINGS[slot.dataset.lab] ?? {})) {
      lab.setAttribute(name, String(value));
    }
    lab.messages = labMessagesFor(lang());
    onLang((language) => {
      lab.messages = labMessagesFor(language);
    });
    if (slot.dataset.lab === 's218') {
      const buttons = Object.keys(STRATEGIES).map((name) => {
        const b = button(`s218.run.${name}`, () => runComparison(lab, name));
        b.dataset.strategy = name;
        return b;
      });
      const bar = el('div', { className: 'controls lab-comparisons' }, ...buttons);
      slot.append(bar);
      localize(bar);
    }
    slot.append(lab);
  }
  return true;
}
