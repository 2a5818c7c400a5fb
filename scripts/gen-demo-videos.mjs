#!/usr/bin/env node
// Writes the demo's video project, deterministically, into resources/demo/videos/ (committed, so a user's
// machine needs no ffmpeg: only this script, run by a developer, does):
// - clips/*.webm: tiny VP9 clips (160×90, 12 fps, 2 s, a few KB each) drawn by ffmpeg's lavfi sources;
// - items.jsonl (Arbiter item format): four text-to-video pairs (Compare, rated with the video-generation
//   rubric: VideoAlign's axes) and one robot episode with two cameras on one timeline (Verdict, Shift+F
//   marks its first failure).
// electron/core/service/openApp.ts imports it as the "demo videos" project on a first launch.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'resources', 'demo', 'videos');
const clips = join(dir, 'clips');
rmSync(clips, { recursive: true, force: true });
mkdirSync(clips, { recursive: true });

const SIZE = 's=160x90:r=12';
function clip(name, source, filter = null) {
  const args = ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', `${source}`, '-t', '2', ...(filter ? ['-vf', filter] : []), '-c:v', 'libvpx-vp9', '-crf', '52', '-b:v', '0', '-deadline', 'good', '-cpu-used', '4', '-g', '12', '-row-mt', '0', '-threads', '1', '-pix_fmt', 'yuv420p', '-an', '-fflags', '+bitexact', '-flags:v', '+bitexact', join(clips, name)];
  const run = spawnSync('ffmpeg', args, { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`ffmpeg failed making ${name}: ${run.stderr}`);
  return `clips/${name}`;
}

const video = (path, model) => ({ text: [{ role: 'assistant', content: [{ type: 'video', video: path }] }], model });
const items = [
  { id: 'demo-video-1', prompt: 'A Mandelbrot set, zooming in slowly, in vivid colours.', a: ['mandelbrot-a.webm', `mandelbrot=${SIZE}`], b: ['mandelbrot-b.webm', `mandelbrot=${SIZE}`, 'hue=s=0'] },
  { id: 'demo-video-2', prompt: "Conway's game of life: white cells on black, evolving steadily.", a: ['life-a.webm', `life=${SIZE}:seed=7:ratio=0.08:mold=0:life_color=white:death_color=black`], b: ['life-b.webm', `life=${SIZE}:seed=7:ratio=0.08:mold=10:life_color=white:death_color=0xc03030:mold_color=0x3050c0`] },
  { id: 'demo-video-3', prompt: 'Colour bars, perfectly still, no flicker or noise.', a: ['bars-a.webm', `smptehdbars=${SIZE}`, "eq=brightness='0.12*sin(19*t)':eval=frame"], b: ['bars-b.webm', `smptehdbars=${SIZE}`] },
  { id: 'demo-video-4', prompt: 'A test card with a sweeping hand, drifting to the right.', a: ['card-a.webm', `testsrc2=${SIZE}`], b: ['card-b.webm', `testsrc=${SIZE}`] },
];
const lines = items.map(({ id, prompt, a, b }) => ({ id, prompt, responses: [video(clip(...a), 'gen-a'), video(clip(...b), 'gen-b')], metadata: { source: 'demo', topic: 'text-to-video' } }));
// A robot episode: a red cube slides toward the bowl, then stops short (its first failure, at about 1.2 s).
const cube = (y) => `color=c=0x2b2f36:${SIZE}:d=2,drawbox=x=120:y=${y - 6}:w=28:h=28:color=0xd8d8d8:t=3[bg];color=c=0xd03030:s=16x16:r=12:d=2[cube];[bg][cube]overlay=x='min(14+t*70\\,100)':y=${y}`;
const episode = [
  { type: 'text', text: 'Episode 0 · 24 frames at 12 fps · 2 cameras' },
  { type: 'video', video: clip('episode-top.webm', cube(40)), column: 'observation.images.top' },
  { type: 'video', video: clip('episode-wrist.webm', cube(50), 'hue=h=20,eq=brightness=0.05'), column: 'observation.images.wrist' },
];
lines.push({ id: 'demo-episode-0', prompt: 'Pick up the red cube and place it in the bowl.', responses: [{ text: [{ role: 'assistant', content: episode }], model: 'so101' }], metadata: { source: 'demo', topic: 'robot episode' } });
writeFileSync(join(dir, 'items.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n') + '\n');
console.log(`wrote ${lines.length} items and their clips to ${dir}`);
