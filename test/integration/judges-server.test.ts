// The OpenAI-compatible server engine, tested against a hand-written exchange in the OpenAI chat
// completions shape (test/fixtures/judges/openai-chat-exchange.json; no such server installs offline),
// served by an in-process node:http server on 127.0.0.1. Checks the protocol Arbiter speaks (path, key,
// model, sampling, the answer's JSON schema as response_format), that the replies become the same records
// as a local judge's (both orders, the flip), that nothing is sent before the user sets the address, and
// that a reply over its size bound or past its time bound is refused.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerJsonSchema } from '../../shared/judgeAnswers';
import type { ArbiterService } from '../../electron/core/service';
import type { Db } from '../../electron/core/store/db';
import { pairProject } from '../helpers/project';
import { tempDir } from '../helpers/tmp';

interface Exchange {
  path: string;
  model: string;
  apiKey: string;
  exchanges: { request: Record<string, unknown>; response: unknown }[];
}
const recorded = JSON.parse(readFileSync(join(__dirname, '../fixtures/judges/openai-chat-exchange.json'), 'utf8')) as Exchange;

let server: Server;
let base = '';
const seen: { path: string; auth: string | undefined; body: Record<string, unknown> }[] = [];
let mode: 'exchange' | 'huge' | 'stall' = 'exchange';

async function body(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    void body(req).then((b) => {
      seen.push({ path: req.url ?? '', auth: req.headers.authorization, body: b });
      if (mode === 'stall') return; // never answers
      res.setHeader('content-type', 'application/json');
      if (mode === 'huge') return res.end(JSON.stringify({ choices: [{ message: { content: 'x'.repeat(2 << 20) } }] }));
      // The first presentation order shows the item's first response as A.
      const user = (b.messages as { role: string; content: string }[]).find((m) => m.role === 'user')!.content;
      const index = user.indexOf('[Response A]\nleft') >= 0 ? 0 : 1;
      res.end(JSON.stringify(recorded.exchanges[index]!.response));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

function project(): { service: ArbiterService; db: Db; ids: number[] } {
  return pairProject(join(tempDir(), 'a.db'), { items: 1, texts: () => ['left', 'right'], annotator: 'ann' });
}

const params = { seed: 11, temperature: 0, topP: 1, textMax: 200, timeoutMs: 2000 };

describe('the OpenAI-compatible server engine (hand-written exchange, in-process server)', () => {
  it('sends nothing before the address is set, then speaks the protocol and stores the same records', async () => {
    const { service, db, ids } = project();
    seen.length = 0;
    await expect(service.dispatch('startJudging', { project: 'p', kind: 'pairwise', model: 'server', params })).rejects.toThrow(/no server set/);
    expect(seen).toHaveLength(0);
    await service.dispatch('setJudgeEngine', { project: 'p', engine: { baseUrl: base, apiKey: recorded.apiKey, model: recorded.model } });
    await service.dispatch('startJudging', { project: 'p', kind: 'pairwise', model: 'server', params, parallel: 1 });
    await service.jobs.settle();
    expect(seen).toHaveLength(2);
    for (const [i, request] of seen.entries()) {
      expect(request.path).toBe(recorded.path);
      expect(request.auth).toBe(`Bearer ${recorded.apiKey}`);
      expect(request.body).toMatchObject(recorded.exchanges[i]!.request);
      expect((request.body.response_format as { json_schema: { schema: unknown } }).json_schema.schema).toEqual(answerJsonSchema({ kind: 'pairwise', textMax: 200 }));
    }
    const [pre] = await service.dispatch('judgePrelabels', { project: 'p', itemId: ids[0]! });
    // A in the first order; A again in the swapped order is the item's B: the judge flipped.
    expect(pre).toMatchObject({ verdict: 'A', strength: 2, flipped: true, modelName: recorded.model, seed: 11, error: null, critique: 'Response A gives the correct total and shows the steps.' });
    expect(pre!.modelHash).toBe(`127.0.0.1:${new URL(base).port}/${recorded.model}`);
    db.close();
  });

  it('refuses a reply over its size bound and gives up on a server past its time bound', async () => {
    const { service, db, ids } = project();
    await service.dispatch('setJudgeEngine', { project: 'p', engine: { baseUrl: base, apiKey: '', model: recorded.model } });
    mode = 'huge';
    await service.dispatch('startJudging', { project: 'p', kind: 'pairwise', model: 'server', params, parallel: 1 });
    await service.jobs.settle();
    expect((await service.dispatch('judgePrelabels', { project: 'p', itemId: ids[0]! }))[0]).toMatchObject({ verdict: null, error: expect.stringMatching(/larger than/) });
    mode = 'stall';
    await service.dispatch('startJudging', { project: 'p', kind: 'pairwise', model: 'server', params, parallel: 1 });
    await service.jobs.settle();
    expect((await service.dispatch('judgePrelabels', { project: 'p', itemId: ids[0]! }))[0]).toMatchObject({ verdict: null, error: 'no answer within 2000 ms' });
    mode = 'exchange';
    db.close();
  });
});
