// Every field rp.fromConfig reads, read as Hugging Face reads it: tests/fixtures/config-fields.json
// lists each with its type and its absent / null / empty meaning in Hugging Face, and the checks
// below run each row against fromConfig. The table must name every key models.cpp reads.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { load } from '../../bindings/index.js';

const table = JSON.parse(readFileSync(new URL('../fixtures/config-fields.json', import.meta.url), 'utf8'));
const source = readFileSync(new URL('../../src/relpos/models/models.cpp', import.meta.url), 'utf8');
let rp;

beforeAll(async () => {
  rp = await load();
});

// The config keys models.cpp reads: arguments of the Section readers, the key lists it walks, the
// {config key, parameter} pairs and the class defaults.
function keysRead(text) {
  const keys = new Set();
  const readers =
    /(?:\.|->)(?:positiveInteger|integer|number|positive|text|flag|numbers|child|raw|has|isNull|layerCount)\("([a-z][a-z0-9_]*)"\)/g;
  for (const [, key] of text.matchAll(readers)) keys.add(key);
  for (const [, list] of text.matchAll(/for \(const char\* key : \{([^}]*)\}\)/g)) {
    for (const [, key] of list.matchAll(/"([a-z][a-z0-9_]*)"/g)) keys.add(key);
  }
  for (const [, key] of text.matchAll(/\{"([a-z][a-z0-9_]*)", "[a-z]+[A-Z][A-Za-z]*"\}/g)) keys.add(key);
  const defaults = text.slice(text.indexOf('JsonValue withClassDefaults('), text.indexOf('std::string rotaryLayout('));
  for (const [, key] of defaults.matchAll(/\{"([a-z][a-z0-9_]*)",\s*(?:num\(|JsonValue::makeBoolean)/g)) keys.add(key);
  return keys;
}

function baseConfig(name) {
  const base = table.bases[name];
  if (base.file) return JSON.parse(readFileSync(new URL(`../fixtures/configs/${base.file}`, import.meta.url), 'utf8'));
  return structuredClone(base);
}

// The base config with the row's field set to `value` (undefined: removed).
function configWith(row, value) {
  const config = baseConfig(row.base);
  const holder = row.at ? config[row.at] : config;
  if (value === undefined) delete holder[row.field];
  else holder[row.field] = value;
  return config;
}

function read(config) {
  try {
    return { reading: rp.fromConfig(config) };
  } catch (error) {
    return { error };
  }
}

// A value of the reading at a dotted path; '*' maps over an array.
function at(value, path) {
  const [head, ...rest] = path.split('.');
  if (head === undefined || head === '') return value;
  if (head === '*') return value.map((item) => at(item, rest.join('.')));
  if (value === undefined || value === null) return undefined;
  return at(value[head], rest.join('.'));
}

function without(reading) {
  const { warnings: _warnings, ...rest } = reading;
  return rest;
}

const mentions = (warnings, field) => warnings.filter((w) => new RegExp(`(^|[^a-z_])${field}([^a-z_]|$)`).test(w));

// Checks one case ({ reads, warns, refused, as }) of a row on its outcome.
function check(label, row, outcome, expected, absent) {
  if (expected.refused) {
    expect(outcome.error, `${label}: refused`).toBeInstanceOf(Error);
    expect(outcome.error.message, label).toMatch(/^relpos\.fromConfig: /);
    expect(outcome.error.message, label).toContain(expected.refused);
    return;
  }
  if (expected.as === 'absent' && absent.error) {
    expect(outcome.error?.message, `${label}: refused as when absent`).toBe(absent.error.message);
    return;
  }
  expect(outcome.error, `${label}: ${outcome.error?.message}`).toBeUndefined();
  const { reading } = outcome;
  if (expected.as === 'absent') expect(without(reading), label).toEqual(without(absent.reading));
  for (const [path, value] of Object.entries(expected.reads ?? {})) {
    const got = at(reading, path);
    const all = path.includes('*') ? got : [got];
    for (const item of all) {
      if (value === null) expect(item ?? null, `${label}: ${path}`).toBeNull();
      else if (typeof value === 'number') expect(item, `${label}: ${path}`).toBeCloseTo(value, 12);
      else expect(item, `${label}: ${path}`).toEqual(value);
    }
  }
  if (typeof expected.warns === 'string') {
    expect(reading.warnings.join('\n'), label).toContain(expected.warns);
  } else if (expected.warns === true) {
    expect(mentions(reading.warnings, row.field), `${label}: a warning names ${row.field}`).not.toEqual([]);
  } else {
    expect(mentions(reading.warnings, row.field), `${label}: no warning names ${row.field}`).toEqual([]);
  }
}

describe('rp.fromConfig reads every field as Hugging Face does (tests/fixtures/config-fields.json)', () => {
  it('the table lists every key models.cpp reads, and only those', () => {
    const read = [...keysRead(source)].sort();
    const listed = [...new Set(table.fields.map((row) => row.field))].sort();
    expect(read.length).toBeGreaterThan(60);
    expect(listed).toEqual(read);
  });

  it('every row says the type and the absent and null meaning in Hugging Face', () => {
    for (const row of table.fields) {
      expect(typeof row.type, row.field).toBe('string');
      expect(typeof row.hf.absent, row.field).toBe('string');
      expect(typeof row.hf.null, row.field).toBe('string');
      if (row.empty) expect(typeof (row.hf.empty ?? row.hf.int), row.field).toBe('string');
      expect(table.bases[row.base], `${row.field}: base ${row.base}`).toBeDefined();
    }
  });

  for (const row of table.fields) {
    const name = `${row.field} (${row.base}${row.at ? `, in ${row.at}` : ''})`;
    it(name, () => {
      const absent = read(configWith(row, undefined));
      check(`${name} absent`, row, absent, row.absent, absent);
      // The field given a value (where the row has one), null, and empty (where the row has one).
      const variants = [
        ...(row.given ? [[`= ${JSON.stringify(row.given.value)}`, row.given.value, row.given]] : []),
        ['null', null, row.null],
        ...(row.empty ? [[`= ${JSON.stringify(row.empty.value)}`, row.empty.value, row.empty]] : []),
      ];
      for (const [label, value, expected] of variants) {
        check(`${name} ${label}`, row, read(configWith(row, value)), expected, absent);
      }
    });
  }
});
