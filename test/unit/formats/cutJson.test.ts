import { describe, expect, it } from 'vitest';
import { readCutObject } from '../../../electron/core/formats/import/cutJson';

describe('readCutObject: the start of a record cut before its end', () => {
  it('keeps whole fields and the cut one as far as it goes', () => {
    expect(readCutObject('{"prompt": "Hi", "chosen": "Hel')).toEqual({ prompt: 'Hi', chosen: 'Hel' });
    expect(readCutObject('{"prompt":[{"role":"user","content":"Hi"}],"chosen":[{"role":"assis')).toEqual({ prompt: [{ role: 'user', content: 'Hi' }], chosen: [{ role: 'assis' }] });
    expect(readCutObject('{"n": 12, "ok": true, "x": null, "rejected":')).toEqual({ n: 12, ok: true, x: null, rejected: undefined });
  });

  it('drops a cut escape sequence rather than failing', () => {
    expect(readCutObject('{"a":"x\\u00e9y\\u00')).toEqual({ a: 'xéy' });
    expect(readCutObject('{"a":"x\\')).toEqual({ a: 'x' });
    expect(readCutObject('{"a":"say \\"hi\\" now')).toEqual({ a: 'say "hi" now' });
  });

  it('is null for what does not begin an object', () => {
    expect(readCutObject('id,prompt,chosen')).toBeNull();
    expect(readCutObject('["a", "b"')).toBeNull();
  });
});
