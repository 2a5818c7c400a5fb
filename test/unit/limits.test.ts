// The one table of bounds: defaults, the environment variable that changes each, and the sentence a
// mistyped value gets.
import { describe, expect, it } from 'vitest';
import { bodyLimitFor, checkLimits, formatBytes, limit, limitEnvName, LIMITS, type LimitName } from '../../electron/core/base/limits';

describe('limits', () => {
  it('names each variable after its limit and reads units', () => {
    expect(limitEnvName('uploadMaxBytes')).toBe('ARBITER_UPLOAD_MAX_BYTES');
    expect(limitEnvName('uploadIdleMs')).toBe('ARBITER_UPLOAD_IDLE_MS');
    expect(limit('uploadMaxBytes', {})).toBe(LIMITS.uploadMaxBytes.value);
    expect(limit('uploadMaxBytes', { ARBITER_UPLOAD_MAX_BYTES: '2GiB' })).toBe(2 * 1024 ** 3);
    expect(limit('uploadMaxBytes', { ARBITER_UPLOAD_MAX_BYTES: '1.5 MB' })).toBe(1_500_000);
    expect(limit('uploadMaxBytes', { ARBITER_UPLOAD_MAX_BYTES: '12345' })).toBe(12345);
    expect(limit('uploadIdleMs', { ARBITER_UPLOAD_IDLE_MS: '15m' })).toBe(900_000);
    expect(limit('uploadIdleMs', { ARBITER_UPLOAD_IDLE_MS: '90s' })).toBe(90_000);
    expect(limit('uploadsMaxOpen', { ARBITER_UPLOADS_MAX_OPEN: '3' })).toBe(3);
  });

  it('refuses a mistyped or too small value with a sentence naming the variable', () => {
    expect(() => limit('uploadsMaxOpen', { ARBITER_UPLOADS_MAX_OPEN: '3GiB' })).toThrow(/ARBITER_UPLOADS_MAX_OPEN is "3GiB", which is not a whole number/);
    expect(() => limit('uploadMaxBytes', { ARBITER_UPLOAD_MAX_BYTES: 'lots' })).toThrow(/not a size such as 512MiB/);
    expect(() => limit('uploadIdleMs', { ARBITER_UPLOAD_IDLE_MS: '5ms' })).toThrow(/below its smallest useful value \(1 s\)/);
    expect(() => checkLimits({ ARBITER_BODY_MAX_BYTES: '-1' })).toThrow(/ARBITER_BODY_MAX_BYTES/);
    expect(() => checkLimits({})).not.toThrow();
  });

  it('every default is at least its minimum', () => {
    for (const [name, spec] of Object.entries(LIMITS)) expect(spec.value, name).toBeGreaterThanOrEqual(spec.min);
    for (const name of Object.keys(LIMITS) as LimitName[]) expect(limitEnvName(name)).toMatch(/^ARBITER_[A-Z_]+$/);
  });

  it('gives uploadChunk room for a base64 piece, long-text operations more, the rest the small limit', () => {
    expect(bodyLimitFor('uploadChunk', {}).bytes).toBeGreaterThan(Math.ceil((4 * 1024 ** 2 * 4) / 3) + 200);
    expect(bodyLimitFor('saveRubric', {}).name).toBe('largeBodyMaxBytes');
    expect(bodyLimitFor('listProjects', {})).toEqual({ bytes: 1024 ** 2, name: 'bodyMaxBytes' });
    expect(formatBytes(16 * 1024 ** 3)).toBe('16 GiB');
    expect(formatBytes(1536)).toBe('1.5 KiB');
  });
});
