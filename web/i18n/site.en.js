// English words of the site shell (titles and descriptions of each page, header, footer, colour
// scheme, not-found page, the playground's and the lab's page words). Merged into the page table by
// web/i18n/index.js; keys match site.zh.js (tests/node/site.test.js).
export default {
  'site.title.chapter': 'relpos — 2.1 The mathematical theory of relative positional encoding',
  'site.description.chapter':
    'An interactive chapter on relative positional encoding in transformers: Theorem 1, distance geometry, spectra, kernels, RoPE scaling and extrapolation, every figure computed live by a C++ core in WebAssembly.',
  'site.title.playground': 'relpos playground — compare positional encodings side by side',
  'site.description.playground':
    'Two positional encodings side by side: ALiBi, T5, KERPLE, FIRE, RoPE and its long-context scalings, real-model presets and a pasted config.json, drawn live.',
  'site.title.lab': 'relpos lab — does a relative encoding extrapolate?',
  'site.description.lab':
    'Train a tiny attention model in your browser at length L and test it at 2L, 4L and 8L: loss, gradient norm, accuracy against length and attention maps per positional encoding.',
  'site.title.notfound': 'Page not found — relpos',
  'site.description.notfound': 'This address is not part of the relpos tutorial.',
  'site.previewAlt': 'Two attention-bias heatmaps, ALiBi and RoPE, drawn by relpos',

  'site.skip': 'Skip to the content',
  'site.home': 'relpos, chapter 2.1',
  'site.theme': 'Colour scheme',
  'site.theme.auto': 'Auto colours',
  'site.theme.light': 'Light',
  'site.theme.dark': 'Dark',
  'site.footer.about': 'relpos: positional encodings for transformers, computed by a C++ core in WebAssembly.',
  'site.footer.pages': 'Pages',

  'site.family.absolute-vector': 'Absolute position vectors',
  'site.family.relative-vector': 'Relative position vectors',
  'site.family.relative-bias': 'Relative attention biases',
  'site.family.rotary': 'Rotary',
  'site.family.rotary-scaling': 'Rotary, long-context scaling',
  'site.family.contextual': 'Contextual',
  'site.family.none': 'No positional term',

  'site.pg.load': 'Load a model',
  'site.pg.loadHelp':
    'Pick a real model from a pane’s “Real model” list, or paste a Hugging Face config.json here: relpos.fromConfig reads it and the pane shows that model’s encoding.',

  'site.lab.lead': 'Does a relative encoding really extrapolate? Train one and see.',
  'site.lab.setup': 'Experiment',
  'site.lab.preview':
    'What a run measures: the training loss and the gradient norm at every step, then the accuracy at 1, 2, 4 and 8 times the training length L, one line per scheme. Press Train and the curves fill in as the model learns.',

  'site.notfound.heading': 'Page not found',
  'site.notfound.text': 'Nothing lives at this address. These pages do:',
  'site.notfound.chapter': 'The chapter: 2.1 The mathematical theory of relative positional encoding',
  'site.notfound.playground': 'The playground: two positional encodings side by side',
  'site.notfound.lab': 'The lab: train a tiny model and test how it extrapolates',
};
