// One clock for every video on the screen (two to four clips side by side, a robot episode's cameras):
// the first video to join leads (the next if it failed); play, pause, seek, frame step, speed, loop and mute
// act on all of them. While they play, each animation frame: one with no next frame to show (seeking, or its
// decoder behind) holds the others, paused up to HOLD_MAX_MS until all can go on together; a follower that
// drifted is nudged up to 25 % faster or slower, and seeked only past SEEK_PAST (a seek decodes again from
// the key frame before: seeking each drift past two frames, 1080p on a busy machine came back further off
// each time, bench/video-loop.mjs). Muted by default. Screens subscribe through useVideoSync.
import { useSyncExternalStore } from 'react';
import { pointAt } from '../mediaFocus';

export interface SyncState {
  playing: boolean;
  /** The leader's time, seconds. */
  time: number;
  /** The longest member's duration, seconds (0 until one knows it). */
  duration: number;
  /** Frames per second for frame numbers and steps (the leader's probed rate, else 30). */
  fps: number;
  rate: number;
  /** A range that plays over and over, seconds; null: the whole clip. */
  loop: { from: number; to: number } | null;
  muted: boolean;
  zoomed: boolean;
  members: number;
  /** Greatest distance between a follower and the leader at the last frame, seconds (the bench reads it). */
  drift: number;
  /** The response (source-order index) whose video was last pointed at: Shift+F marks its first failure. */
  focus: number;
  /** The first failure marked on this item, and what became of it (failureMark.ts). */
  failure: { letter: string; at: number; note: string } | null;
}

interface Member {
  id: number;
  el: HTMLVideoElement;
  fps: number | null;
  /** The response's source-order index, or 'prompt' for a prompt's clip (which takes no marks in time). */
  place: number | 'prompt';
}

export const RATES = [0.25, 0.5, 1, 1.5, 2] as const;

/** A follower further than this from the leader (seconds) is seeked; nearer, its rate is nudged. */
export const SEEK_PAST = 0.5;
/** The largest nudge of a follower's rate, either way. */
const NUDGE = 0.25;
/** How long a nudge takes to close a drift (seconds): the rate goes 1 + drift / CATCH_UP, within NUDGE. */
const CATCH_UP = 0.25;
/** The longest the others wait for one that cannot play (ms); then they play on without it. */
export const HOLD_MAX_MS = 2000;

class SyncGroup {
  private members: Member[] = [];
  /** Members paused by the clock while another could not play (they play again with it). */
  private held = new Set<Member>();
  /** When the present wait began (performance.now()), 0: none. */
  private holdingSince = 0;
  private listeners = new Set<() => void>();
  private frame = 0;
  private nextId = 1;
  state: SyncState = { playing: false, time: 0, duration: 0, fps: 30, rate: 1, loop: null, muted: true, zoomed: false, members: 0, drift: 0, focus: 0, failure: null };

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(patch: Partial<SyncState>) {
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners) l();
  }

  /** The first to join leads, unless it failed (a file this browser cannot decode): then the next one. */
  private get leader(): Member | undefined {
    return this.members.find((m) => !m.el.error) ?? this.members[0];
  }

  private get followers(): Member[] {
    const leader = this.leader;
    return this.members.filter((m) => m !== leader);
  }

  /** Adds a video; returns its id (leave with it). A new item's videos start paused at 0. */
  join(el: HTMLVideoElement, fps: number | null, place: number | 'prompt' = 0): number {
    const id = this.nextId++;
    el.muted = this.state.muted;
    el.playbackRate = this.state.rate;
    this.members.push({ id, el, fps, place });
    el.addEventListener('loadedmetadata', this.measure);
    // A failed leader hands the bar on (measure tells the screens).
    el.addEventListener('error', this.measure);
    this.measure();
    // A seek only where the time differs: a seek drops the decoded frame (readyState) until it is done, so a
    // video prepared ahead at 0 would show nothing for a moment (e2e video-speed).
    const t = this.members.length > 1 && this.leader ? this.leader.el.currentTime || 0 : null;
    if (t !== null && Math.abs(el.currentTime - t) > 1e-3) el.currentTime = t;
    if (this.state.playing) void el.play().catch(() => undefined);
    return id;
  }

  leave(id: number): void {
    const member = this.members.find((m) => m.id === id);
    member?.el.removeEventListener('loadedmetadata', this.measure);
    member?.el.removeEventListener('error', this.measure);
    this.members = this.members.filter((m) => m.id !== id);
    if (member) this.held.delete(member);
    if (!this.members.length) {
      cancelAnimationFrame(this.frame);
      this.set({ playing: false, time: 0, duration: 0, loop: null, zoomed: false, members: 0, drift: 0, focus: 0, failure: null });
    } else this.measure();
  }

  /** Where `id` stands among the videos (0 leads), for the zoomed layout. */
  indexOf(id: number): number {
    return this.members.findIndex((m) => m.id === id);
  }

  /**
   * The video the marks in time go under: the first response's on the screen (the leader, unless a
   * prompt's clip leads: then the prompt keeps the bar and the marks go on the responses'); null: none.
   */
  marksHolder(): { id: number; place: number } | null {
    const m = this.members.find((x) => x.place !== 'prompt');
    return m && typeof m.place === 'number' ? { id: m.id, place: m.place } : null;
  }

  /** How many of the screen's videos are responses' (the marks' letters). */
  responseVideos(): number {
    return this.members.filter((m) => m.place !== 'prompt').length;
  }

  /** Whether `id` leads (the one whose bar the screen shows). */
  leads(id: number): boolean {
    return this.leader?.id === id;
  }

  private measure = () => {
    const durations = this.members.map((m) => m.el.duration).filter((d) => Number.isFinite(d) && d > 0);
    this.set({ members: this.members.length, duration: durations.length ? Math.max(...durations) : 0, fps: this.leader?.fps ?? 30, time: this.leader?.el.currentTime ?? 0 });
  };

  play(): void {
    if (!this.members.length) return;
    const { loop } = this.state;
    const at = this.leader!.el.currentTime;
    if ((loop && (at < loop.from || at >= loop.to)) || (!loop && this.state.duration && at >= this.state.duration - 0.01)) this.seek(loop?.from ?? 0);
    this.held.clear();
    this.holdingSince = 0;
    for (const m of this.members) void m.el.play().catch(() => undefined);
    this.set({ playing: true });
    cancelAnimationFrame(this.frame);
    this.frame = requestAnimationFrame(this.tick);
  }

  pause(): void {
    this.held.clear();
    this.holdingSince = 0;
    for (const m of this.members) {
      m.el.pause();
      m.el.playbackRate = this.state.rate;
    }
    cancelAnimationFrame(this.frame);
    const t = this.leader?.el.currentTime ?? 0;
    // Paused, every video shows the leader's frame.
    for (const m of this.followers) m.el.currentTime = t;
    this.set({ playing: false, time: t });
  }

  toggle(): void {
    if (this.state.playing) this.pause();
    else this.play();
  }

  seek(time: number): void {
    const t = Math.max(0, Math.min(time, this.state.duration || time));
    for (const m of this.members) m.el.currentTime = Math.min(t, Number.isFinite(m.el.duration) ? m.el.duration : t);
    this.set({ time: t });
  }

  /** One frame forward (1) or back (-1), paused. */
  step(frames: number): void {
    if (this.state.playing) this.pause();
    const fps = this.state.fps;
    // Half a frame in, so a decoder's rounding never shows the frame before.
    const frame = Math.max(0, Math.round((this.leader?.el.currentTime ?? 0) * fps - 0.5) + frames);
    this.seek((frame + 0.5) / fps);
  }

  setRate(rate: number): void {
    for (const m of this.members) m.el.playbackRate = rate;
    this.set({ rate });
  }

  /** One step slower (-1) or faster (1) along RATES. */
  nudgeRate(direction: 1 | -1): void {
    const at = RATES.indexOf(this.state.rate as (typeof RATES)[number]);
    const next = RATES[Math.max(0, Math.min(RATES.length - 1, (at < 0 ? 2 : at) + direction))]!;
    this.setRate(next);
  }

  setLoop(edge: 'from' | 'to' | 'clear'): void {
    if (edge === 'clear') return this.set({ loop: null });
    const t = this.leader?.el.currentTime ?? 0;
    const current = this.state.loop ?? { from: 0, to: this.state.duration || t };
    const loop = edge === 'from' ? { from: t, to: Math.max(current.to, t + 1 / this.state.fps) } : { from: Math.min(current.from, t - 1 / this.state.fps), to: t };
    this.set({ loop: { from: Math.max(0, loop.from), to: loop.to } });
  }

  toggleMute(): void {
    const muted = !this.state.muted;
    for (const m of this.members) m.el.muted = muted;
    this.set({ muted });
  }

  /** `place`'s video takes the marks; `pointed`: the mouse went to it (it takes `.` from the images too). */
  setFocus(place: number, pointed = true): void {
    if (pointed) pointAt('video');
    if (this.state.focus !== place) this.set({ focus: place });
  }

  setFailure(failure: SyncState['failure']): void {
    this.set({ failure });
  }

  toggleZoom(): void {
    this.set({ zoomed: !this.state.zoomed });
  }

  /** Whether `m` has played to its end (a shorter clip neither holds the others nor is held). */
  private done(m: Member): boolean {
    return m.el.ended || (Number.isFinite(m.el.duration) && m.el.currentTime >= m.el.duration - 0.05);
  }

  /**
   * Pauses every member while one cannot play (seeking, or no next frame decoded), for HOLD_MAX_MS at most
   * (a file whose bytes never come plays no one's clock), and plays the held ones again once none waits.
   * True while one cannot play (the followers are left as they are).
   */
  private hold(): boolean {
    // One that failed (a file this browser cannot decode: its box says so) will never play: it holds no one.
    const stuck = (m: Member) => !m.el.error && !this.done(m) && (m.el.seeking || m.el.readyState < 3);
    const waiting = this.members.some(stuck);
    const now = performance.now();
    if (waiting && !this.holdingSince) this.holdingSince = now;
    if (waiting && now - this.holdingSince < HOLD_MAX_MS) {
      for (const m of this.members) {
        if (m.el.paused || m.el.error || this.done(m) || stuck(m)) continue;
        m.el.pause();
        this.held.add(m);
      }
      return true;
    }
    if (!waiting) this.holdingSince = 0;
    for (const m of this.held) void m.el.play().catch(() => undefined);
    this.held.clear();
    return waiting;
  }

  private drift(t: number): number {
    return Math.max(0, ...this.followers.flatMap((m) => (m.el.error ? [] : [Math.abs(t - m.el.currentTime)])));
  }

  /** Brings each follower to the leader's time `t`; returns the largest drift. */
  private follow(t: number): number {
    const frame = 1 / this.state.fps;
    const base = this.state.rate;
    for (const m of this.followers) {
      const behind = t - m.el.currentTime;
      if (m.el.error || t >= (m.el.duration || Infinity)) continue;
      if (Math.abs(behind) > SEEK_PAST * Math.max(1, base)) {
        m.el.currentTime = t + frame / 2;
        m.el.playbackRate = base;
      } else if (Math.abs(behind) > frame / 4) {
        m.el.playbackRate = base * Math.max(1 - NUDGE, Math.min(1 + NUDGE, 1 + behind / CATCH_UP));
      } else if (m.el.playbackRate !== base) m.el.playbackRate = base;
    }
    return this.drift(t);
  }

  private tick = () => {
    const leader = this.leader;
    if (!leader || !this.state.playing) return;
    const t = leader.el.currentTime;
    const { loop } = this.state;
    if (loop && t >= loop.to) {
      this.seek(loop.from);
    } else if (leader.el.ended || (this.state.duration && t >= this.state.duration)) {
      this.pause();
      return;
    }
    const drift = this.hold() ? this.drift(t) : this.follow(t);
    this.set({ time: t, drift });
    this.frame = requestAnimationFrame(this.tick);
  };
}

/** The screen's one clock. */
export const videoSync = new SyncGroup();

export function useVideoSync(): SyncState {
  return useSyncExternalStore(videoSync.subscribe, () => videoSync.state);
}

/** The frame shown at `seconds` (1-based, as people count frames). */
export function frameAt(seconds: number, fps: number): number {
  return Math.floor(seconds * fps + 1e-6) + 1;
}
