// What a sentence states, as comparable tokens in either language: its numbers (digits, English number
// words, Chinese numerals) and its {placeholders}. tests/node/language-parity.test.js compares them
// key by key between web/i18n/en.js and zh.js.

const EN_WORDS = {
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  sixteen: 16,
  twenty: 20,
  hundred: 100,
  thousand: 1000,
  zero: 0,
  both: 2,
  twice: 2,
  second: 2,
  third: 3,
  quarter: 0.25,
  double: 2,
  doubles: 2,
  million: 1e6,
};
const ZH_DIGITS = { 零: 0, 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9 };
const ZH_UNITS = { 十: 10, 百: 100, 千: 1000 };
const ZH_SECTIONS = { 万: 1e4, 亿: 1e8 };
// 1 and ½ are left out in both languages: "one", "a", 一 (一致, 唯一) and 半 (半正定) say them in passing.
const SKIP = new Set(['1', '0.5']);

/** A run of Chinese numerals (一, 十六, 二十, 一百二十八, 一百万) as a number. */
function zhNumber(run) {
  let total = 0;
  let section = 0;
  let digit = null;
  for (const ch of run) {
    if (ch in ZH_DIGITS) digit = ZH_DIGITS[ch];
    else if (ch in ZH_UNITS) {
      section += (digit ?? 1) * ZH_UNITS[ch];
      digit = null;
    } else {
      total += (section + (digit ?? 0)) * ZH_SECTIONS[ch];
      section = 0;
      digit = null;
    }
  }
  return total + section + (digit ?? 0);
}

/** Placeholders {name} (not TeX groups such as \sqrt{d} or e^{b}). */
const placeholders = (text) => [...text.matchAll(/(?<![A-Za-z^_\\])\{(\w+)\}/g)].map((m) => `{${m[1]}}`);

/** The distinct numbers and placeholders of a message, sorted, as strings. */
export function numbersOf(text, lang) {
  if (typeof text !== 'string') return [];
  const tokens = placeholders(text);
  const plain = text.replace(/(?<![A-Za-z^_\\])\{\w+\}/g, ' ');
  // Digits: thousands separators dropped, decimals kept, a leading minus sign (− or -) kept; a number
  // followed by M (million), 亿 or 万 is scaled.
  const scale = { M: 1e6, 亿: 1e8, 万: 1e4 };
  for (const m of plain.matchAll(/(?<![\w.])([−-]?\d+(?:,\d{3})*(?:\.\d+)?)(?:\s?(M|亿|万)(?![A-Za-z]))?/g)) {
    const value = Number(m[1].replace(/,/g, '').replace('−', '-')) * (scale[m[2]] ?? 1);
    tokens.push(String(Number(value.toPrecision(12))));
  }
  if (lang === 'en') {
    for (const m of plain.toLowerCase().matchAll(/(?<!\w)[a-z]+(?![-\w])/g)) {
      if (m[0] in EN_WORDS) tokens.push(String(EN_WORDS[m[0]]));
    }
  } else {
    if (plain.includes('四分之一')) tokens.push('0.25');
    const words = plain.replace(/四分之一|[\d.]+\s?[亿万]/g, ' ');
    for (const m of words.matchAll(/[零一二两三四五六七八九十百千万亿]+/g)) tokens.push(String(zhNumber(m[0])));
  }
  return [...new Set(tokens)].filter((t) => !SKIP.has(t)).sort();
}

/** The verdict a short readout starts with: yes or no (是 / 否, 不, 没有), else none. */
export function verdictOf(text, lang) {
  if (typeof text !== 'string') return null;
  const t = text.trim();
  if (lang === 'en') return /^yes\b/i.test(t) ? 'yes' : /^(no|not)\b/i.test(t) ? 'no' : null;
  return /^是(?!否)/.test(t) ? 'yes' : /^(否|不|没有|未|并不|并非)/.test(t) ? 'no' : null;
}
