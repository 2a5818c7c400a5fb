// What every stored image must come with, through the browser host's route and Electron's app://
// protocol alike: the bytes as stored, its type, and headers that keep it a picture and cache it for good.
import { expect } from 'vitest';

export async function expectStoredImage(response: Response, type: string, bytes: Buffer): Promise<void> {
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe(type);
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
  expect(response.headers.get('cache-control')).toBe('private, max-age=31536000, immutable');
  expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
}
