// A damaged LeRobot dataset folder (issue 24, item 3) is refused, or reported line by line, with a sentence,
// never a stack trace: no meta/info.json; an episode's Parquet file with a broken footer; a camera's mp4
// missing; data_path, video_path or a camera key that leads out of the folder (`..`, an absolute path).
// Each folder is a good one (test/helpers/leRobotFolder.ts) with one thing broken.
import { cpSync, mkdtempSync, readFileSync, rmSync, truncateSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ArbiterError } from '../../electron/core/base/errors';
import { importFile } from '../../electron/core/formats';
import { openDb, type Db } from '../../electron/core/store/db';
import { listProjects } from '../../electron/core/store/projects';
import { damageBytes, hostileValue, paths, setAt, toJsonText } from '../helpers/hostile';
import { CAMERAS, episodeName, makeLeRobotFolder } from '../helpers/leRobotFolder';
import { seededRng, seedFrom } from '../helpers/seeded';
import { skipOrFail } from '../helpers/required';
import { ffmpegMissing } from '../helpers/videoClips';

const skip = skipOrFail('lerobot-damaged', ffmpegMissing());
let dir: string;
let good: string;
let db: Db;
let made = 0;

beforeAll(() => {
  if (skip) return;
  dir = mkdtempSync(join(tmpdir(), 'arbiter-lerobot-damaged-'));
  good = makeLeRobotFolder(join(dir, 'good'), [true, false, true]);
  db = openDb(join(dir, 'arbiter.db'));
});

afterAll(() => {
  db?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the good folder, broken by `harm`. */
function damaged(harm: (root: string) => void): string {
  const root = join(dir, `bad-${++made}`);
  cpSync(good, root, { recursive: true });
  harm(root);
  return root;
}

interface Refusal {
  message: string;
  stack?: string;
  details?: { line: number; reason: string }[];
}

async function refusal(root: string, skipInvalid = false): Promise<Refusal> {
  const project = `p${made}`;
  const error = (await importFile(db, { path: root, project, createProject: true, skipInvalid }).catch((e: unknown) => e)) as Refusal;
  expect(error).toBeInstanceOf(Error);
  // A sentence: the engine's own errors (TypeError, ENOENT, hyparquet's) never reach the user as they are.
  expect(error.message).not.toMatch(/TypeError|Cannot read properties|ENOENT|EISDIR|\n\s+at /);
  expect(listProjects(db).map((p) => p.name)).not.toContain(project);
  return error;
}

const setInfo = (root: string, change: (info: Record<string, unknown>) => void) => {
  const info = JSON.parse(readFileSync(join(root, 'meta', 'info.json'), 'utf8')) as Record<string, unknown>;
  change(info);
  writeFileSync(join(root, 'meta', 'info.json'), JSON.stringify(info));
};

describe.skipIf(skip)('a damaged LeRobot dataset folder', () => {
  it('without meta/info.json: refused with a sentence naming the file', async () => {
    const root = damaged((r) => unlinkSync(join(r, 'meta', 'info.json')));
    expect((await refusal(root)).message).toBe(`${root}: meta/info.json is missing: a LeRobot v2 dataset folder holds it (fps, features, the data and video path templates). Import a dataset folder, or a file.`);
  });

  it('an episode whose Parquet footer is broken: that line refused with a sentence; --skip-invalid imports the others', async () => {
    const root = damaged((r) => {
      const file = join(r, 'data', 'chunk-000', `${episodeName(1)}.parquet`);
      truncateSync(file, statSync(file).size - 6);
    });
    const error = await refusal(root);
    expect(error.details).toHaveLength(1);
    expect(error.details![0]!.line).toBe(2);
    expect(error.details![0]!.reason).toMatch(/^episode 1: data\/chunk-000\/episode_000001\.parquet is not a readable Parquet file \(.+\)$/);
    const summary = await importFile(db, { path: root, project: 'lenient', createProject: true, skipInvalid: true });
    expect(summary).toMatchObject({ items: 2, rejected: 1 });
  });

  it('an episode whose camera video is missing: that line refused, naming the path', async () => {
    const root = damaged((r) => unlinkSync(join(r, 'videos', 'chunk-000', CAMERAS[1], `${episodeName(2)}.mp4`)));
    const error = await refusal(root);
    expect(error.details).toHaveLength(1);
    expect(error.details![0]).toMatchObject({ line: 3, reason: expect.stringContaining(`videos/chunk-000/${CAMERAS[1]}/${episodeName(2)}.mp4`) });
  });

  it('templates and camera keys that lead out of the folder: refused before anything is read', async () => {
    const cases: [(info: Record<string, unknown>) => void, string][] = [
      [(i) => (i.video_path = '../outside/{video_key}/episode_{episode_index:06d}.mp4'), 'meta/info.json: video_path "../outside/{video_key}/episode_{episode_index:06d}.mp4" leads out of the dataset folder (..); its files must be inside the dataset folder.'],
      [(i) => (i.data_path = 'data/../../secret/episode_{episode_index:06d}.parquet'), 'meta/info.json: data_path "data/../../secret/episode_{episode_index:06d}.parquet" leads out of the dataset folder (..); its files must be inside the dataset folder.'],
      [(i) => (i.data_path = '/etc/episode_{episode_index:06d}.parquet'), 'meta/info.json: data_path "/etc/episode_{episode_index:06d}.parquet" is an absolute path; its files must be inside the dataset folder.'],
      [(i) => ((i.features as Record<string, unknown>)['../../cam'] = { dtype: 'video', shape: [1, 1, 3] }), 'meta/info.json: the camera feature "../../cam" leads out of the dataset folder (..); a camera key names a folder inside videos/.'],
      [(i) => (i.features = { ...(i.features as object), 'a/b': { dtype: 'video' } }), 'meta/info.json: the camera feature "a/b" holds a path separator; a camera key names a folder inside videos/.'],
    ];
    for (const [change, said] of cases) {
      const root = damaged((r) => setInfo(r, change));
      expect((await refusal(root)).message).toBe(`${root}: ${said}`);
    }
  });

  it('meta files that are not what they say: info.json not an object, an episode line that is not an object', async () => {
    const notObject = damaged((r) => writeFileSync(join(r, 'meta', 'info.json'), '[1, 2]'));
    expect((await refusal(notObject)).message).toBe(`${notObject}: meta/info.json is not a JSON object.`);
    const badLine = damaged((r) => writeFileSync(join(r, 'meta', 'episodes.jsonl'), `${readFileSync(join(r, 'meta', 'episodes.jsonl'), 'utf8')}null\n`));
    const error = await refusal(badLine);
    expect(error.details?.map((d) => d.line)).toEqual([4]);
  });

  // fuzz-import reads JSON Lines files and leaves the folder format out: this is its fuzz. Seeded: a failure's
  // FUZZ_SEED reproduces it. A hostile value at any place of meta/info.json or of one episode's line, or a
  // meta file's bytes damaged; the import either takes the folder or refuses with a sentence, whole or by line.
  it('seeded hostile values and damaged bytes in the meta files: an import or a sentence, never an engine error', async () => {
    const seed = seedFrom('FUZZ_SEED');
    const rng = seededRng(seed);
    const info = JSON.parse(readFileSync(join(good, 'meta', 'info.json'), 'utf8')) as Record<string, unknown>;
    const episodes = readFileSync(join(good, 'meta', 'episodes.jsonl'), 'utf8').trim().split('\n');
    const failures: string[] = [];
    for (let n = 0; n < 24; n++) {
      let what = '';
      const root = damaged((r) => {
        const which = rng.int(3);
        if (which === 0) {
          const place = rng.pick(paths(info).filter((p) => p.length > 0));
          const hostile = hostileValue(rng, 500);
          what = `info.json ${place.join('.')} = ${hostile.name}`;
          writeFileSync(join(r, 'meta', 'info.json'), toJsonText(setAt(info, place, hostile)));
        } else if (which === 1) {
          const line = rng.int(episodes.length);
          const episode = JSON.parse(episodes[line]!) as Record<string, unknown>;
          const place = rng.pick(paths(episode).filter((p) => p.length > 0));
          const hostile = hostileValue(rng, 500);
          what = `episodes.jsonl line ${line + 1} ${place.join('.')} = ${hostile.name}`;
          const lines = [...episodes];
          lines[line] = toJsonText(setAt(episode, place, hostile));
          writeFileSync(join(r, 'meta', 'episodes.jsonl'), `${lines.join('\n')}\n`);
        } else {
          const file = rng.pick(['info.json', 'episodes.jsonl']);
          const damage = damageBytes(rng, readFileSync(join(r, 'meta', file)), 4096);
          what = `${file}: ${damage.name}`;
          writeFileSync(join(r, 'meta', file), damage.bytes);
        }
      });
      const outcome = await importFile(db, { path: root, project: `fuzz${n}`, createProject: true, skipInvalid: rng.chance(0.5) }).catch((e: unknown) => e);
      if (outcome instanceof Error) {
        const details = (outcome as ArbiterError).details;
        const said = [outcome.message, ...(Array.isArray(details) ? details.map((d: { reason?: unknown }) => String(d.reason ?? '')) : [])].join(' | ');
        if (!(outcome instanceof ArbiterError) || /TypeError|RangeError|Cannot read properties|Cannot convert|Maximum call stack|ENOENT|EISDIR|\n\s+at /.test(said))
          failures.push(`FUZZ_SEED=${seed} case ${n} (${what}): ${outcome.name}: ${said.slice(0, 300)}`);
      }
      rmSync(root, { recursive: true, force: true });
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
