// English labels for the schemes' parameters and options that the explorer pane and the playground
// show. The core names its parameters as code does (alibiBiasMax) and its options as values
// (keyPosition); a page shows words. Tooltips and descriptions stay the core's own English
// (rp.schemes: params[name].doc, description). Keys as in schemes.zh.js: a parameter's name, or
// "scheme id.name" where one scheme's parameter means something else. tests/node/scheme-words.test.js
// checks that every parameter and option the pane shows has its words here.

/** Parameter labels, keyed by name or "scheme id.name". */
export const PARAM_LABELS_EN = {
  base: 'Frequency base b',
  layout: 'Pair layout',
  factor: 'Extension factor s',
  originalMaxPositionEmbeddings: 'Original training length L₀',
  clip: 'Clip distance k',
  dR: 'Dimension of the sinusoidal R',
  positionBuckets: 'Log buckets',
  maxRelativePositions: 'Largest relative distance P',
  alibiBiasMax: 'Slope exponent range',
  'alibi.form': 'Bias form',
  numBuckets: 'Buckets',
  maxDistance: 'Distance where log buckets end',
  bidirectional: 'Bidirectional buckets',
  r1: 'Scale r₁',
  r2: 'Parameter r₂',
  'kerple-log.r2': 'Coefficient r₂ inside the log',
  'kerple-power.r2': 'Exponent r₂',
  dBar: 'Sinusoid dimension d̄',
  c: 'Log transform coefficient c',
  'fire.L': 'Threshold L',
  lambda: 'Decay rate λ',
  'exp-decay.form': 'Output form',
  alpha: 'Frequency scale α',
  amplitude: 'Amplitude A',
  scaleBase: 'Decay length B',
  gamma: 'Parameter γ',
  betaFast: 'Fast boundary β',
  betaSlow: 'Slow boundary α',
  truncate: 'Round the correction range',
  attentionFactor: 'Magnitude factor',
  mscale: 'DeepSeek magnitude parameter',
  mscaleAllDim: 'DeepSeek all-dimension magnitude parameter',
  lowFreqFactor: 'Low-frequency factor',
  highFreqFactor: 'High-frequency factor',
  nposMax: 'Position embeddings',
  scale: 'Gate logit scale',
  p: 'Rotated fraction p',
  width: 'Grid columns',
};

/** Option words, keyed by parameter name or "scheme id.name", then by option value. */
export const CHOICES_EN = {
  layout: {
    half: 'halves: (x_k, x_{k+d/2})',
    interleaved: 'interleaved: (x_{2k}, x_{2k+1})',
    concat: 'concatenated: [sin… | cos…]',
  },
  'sinusoidal.layout': { interleaved: 'interleaved: [sin, cos] per pair', concat: 'concatenated: [sin… | cos…]' },
  'alibi.form': { symmetric: 'symmetric: −m|j − i|', keyPosition: 'by key position: m·j' },
  'exp-decay.form': { log: 'log: −λ|r|', kernel: 'kernel: exp(−λ|r|)' },
};
