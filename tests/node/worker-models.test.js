// The worker's instance loads the core alone (bindings/worker.js) and the models module before its
// first 'presets' or 'fromConfig' call. serve() runs in-process here on a stand-in scope; each Vitest
// file runs in a fresh module context, so the models module is not loaded before the first call.
import { describe, expect, it } from 'vitest';
import { serve } from '../../bindings/worker.js';
import { load } from '../../bindings/index.js';

function served() {
  const replies = [];
  const scope = { postMessage: (message) => replies.push(message), close() {} };
  serve(scope);
  const call = async (id, method, args = []) => {
    scope.onmessage({ data: { id, type: 'call', method, args } });
    while (!replies.some((r) => r.id === id)) await new Promise((wake) => setTimeout(wake, 10));
    return replies.find((r) => r.id === id);
  };
  return call;
}

describe('the worker and the models module', () => {
  it('serves presets and fromConfig, loading the models module for them; modelsReady is not a method', async () => {
    const call = served();
    const bias = await call(1, 'bias', ['alibi', { n: 4 }]);
    expect(bias.type, bias.error?.message).toBe('result');
    // The core alone so far: the page-side instance of the same build cannot read presets yet.
    const direct = await load({ models: false });
    expect(() => direct.presets).toThrow(/^relpos\.presets: the models module/);
    const presets = await call(2, 'presets');
    expect(presets.type, presets.error?.message).toBe('result');
    expect(presets.result.length).toBeGreaterThan(10);
    const reading = await call(3, 'fromConfig', [{ model_type: 'llama', hidden_size: 64, num_attention_heads: 4 }]);
    expect(reading.type, reading.error?.message).toBe('result');
    expect(reading.result.scheme).toBe('rope');
    expect(direct.presets).toEqual(presets.result);
    const bad = await call(4, 'fromConfig', ['{']);
    expect(bad.type).toBe('error');
    expect(bad.error.message).toMatch(/^relpos\.fromConfig: /);
    const refused = await call(5, 'modelsReady');
    expect(refused.type).toBe('error');
    expect(refused.error.message).toMatch(/unknown method 'modelsReady'/);
  });
});
