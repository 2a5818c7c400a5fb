// The hub password in the desktop app: kept with Electron's safeStorage (encrypted by the OS keychain:
// Keychain on macOS, DPAPI on Windows, libsecret / kwallet on Linux) in a small file beside the
// database, never in plain text. Where no keychain is there (safeStorage unavailable, or Linux's
// 'basic_text' backend, whose "encryption" is a fixed key), nothing is written: the core holds the
// password in memory for the session and the Team panel asks for it again after a restart.
// The file also says which projects were connected, so the app connects them again when it starts.
import { safeStorage } from 'electron';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { HubKeeper } from '../core/service/team';

interface Entry {
  url: string;
  /** The password encrypted by safeStorage, base64; absent where none was given. */
  secret?: string;
  connected: boolean;
}

interface KeychainFile {
  version: 1;
  projects: Record<string, Entry>;
}

/** Whether safeStorage encrypts with a real keychain here. */
export function keychainAvailable(): boolean {
  try {
    if (!safeStorage.isEncryptionAvailable()) return false;
    if (process.platform === 'linux' && safeStorage.getSelectedStorageBackend() === 'basic_text') return false;
    return true;
  } catch {
    return false;
  }
}

function read(file: string): KeychainFile {
  try {
    if (!existsSync(file)) return { version: 1, projects: {} };
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<KeychainFile>;
    if (parsed.version !== 1 || !parsed.projects || typeof parsed.projects !== 'object') return { version: 1, projects: {} };
    return { version: 1, projects: parsed.projects };
  } catch {
    // A damaged file is as good as none: the panel asks for the password again.
    return { version: 1, projects: {} };
  }
}

function write(file: string, content: KeychainFile): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(content, null, 1)}\n`, { mode: 0o600 });
  renameSync(temp, file);
}

/** A HubKeeper on `file` (e.g. hub-keychain.json beside the database). */
export function keychainHubKeeper(file: string): HubKeeper {
  return {
    persistent: keychainAvailable(),
    password(project, url) {
      const entry = read(file).projects[project];
      if (!entry?.secret || entry.url !== url || !keychainAvailable()) return undefined;
      try {
        return safeStorage.decryptString(Buffer.from(entry.secret, 'base64'));
      } catch {
        return undefined;
      }
    },
    remember(project, url, { password, connected }) {
      const content = read(file);
      const before = content.projects[project];
      const entry: Entry = { url, connected };
      if (password !== undefined) {
        // Only an encryption by the keychain is ever written; otherwise the password stays in memory.
        if (keychainAvailable()) entry.secret = safeStorage.encryptString(password).toString('base64');
      } else if (before?.secret && before.url === url) {
        entry.secret = before.secret;
      }
      content.projects[project] = entry;
      write(file, content);
    },
    connected() {
      return Object.entries(read(file).projects)
        .filter(([, entry]) => entry.connected && typeof entry.url === 'string')
        .map(([project, entry]) => ({ project, url: entry.url }));
    },
  };
}
