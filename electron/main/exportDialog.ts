// Exports in the desktop app: the service writes the file into the exports folder, then the user
// chooses where it goes in a native save dialog. The chosen path stays in this process: the page only
// learns the file's name and whether it was saved (docs/architecture.md, "What the API may touch"). An export with
// its images in a folder beside it (trl-vision: `x.jsonl` and `x_images/`) is moved with its folder, which
// takes the chosen name's stem (`y.jsonl` and `y_images/`), the rows' image paths rewritten to match.
import { app, BrowserWindow, dialog, type IpcMainInvokeEvent } from 'electron';
import { copyFile, cp, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { ApiOutputs } from '../../shared/api';
import { ArbiterError } from '../core/base/errors';
import { imagesFolderOf, moveImagesBeside } from '../core/service/direct';
import { exportsDir } from '../core/base/paths';
import type { ArbiterService } from '../core/service';

export async function exportWithSaveDialog(service: ArbiterService, event: IpcMainInvokeEvent, input: unknown): Promise<ApiOutputs['exportProject']> {
  const summary = await service.dispatch('exportProject', input);
  const written = join(exportsDir(service.options.dbPath), summary.out);
  const folder = imagesFolderOf(written);
  const withImages = await stat(folder).then(
    (s) => s.isDirectory(),
    () => false,
  );
  const parquet = summary.out.endsWith('.parquet');
  // A LeRobot export is a dataset folder (no extension), videoalign a CSV.
  const kind = parquet ? { name: 'Parquet', extensions: ['parquet'] } : summary.out.endsWith('.csv') ? { name: 'CSV', extensions: ['csv'] } : /\.\w+$/.test(summary.out) ? { name: 'JSON Lines', extensions: ['jsonl'] } : null;
  const options = {
    title: withImages ? 'Save the export (its images go in a folder beside it)' : 'Save the export',
    defaultPath: join(app.getPath('downloads'), summary.out),
    filters: kind ? [kind] : [],
  };
  const window = BrowserWindow.fromWebContents(event.sender);
  const choice = window ? await dialog.showSaveDialog(window, options) : await dialog.showSaveDialog(options);
  if (choice.canceled || !choice.filePath) {
    // Nothing was asked for: leave no stray copy in the exports folder.
    await rm(written, { recursive: true, force: true });
    await rm(folder, { recursive: true, force: true });
    return { ...summary, saved: false };
  }
  try {
    if (withImages) await moveImagesBeside(written, choice.filePath);
    else await moveFile(written, choice.filePath);
  } catch (error) {
    // The system's message names both paths; the page may not see them.
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    throw new ArbiterError('internal', `The export could not be saved where you chose (${code}). Choose another folder, or check that you may write there, and export again.`);
  }
  return { ...summary, saved: true };
}

async function moveFile(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    // Another disk: rename cannot cross it.
    if ((await stat(from)).isDirectory()) await cp(from, to, { recursive: true });
    else await copyFile(from, to);
    await rm(from, { recursive: true, force: true });
  }
}
