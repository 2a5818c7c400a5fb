// Execution providers: which ones this machine and this onnxruntime-node install can offer, and in
// which order 'auto' tries them. Whether one really starts is only known when a session is created
// (session.ts), so "available" here means "worth trying".
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { onnxRuntime } from '../base/native';
import { currentModuleFile } from './modulePath';
import type { ProviderName, ProviderRequest, ProviderStatus } from './types';

const CUDA_HINT = 'see docs/models.md, "NVIDIA GPU"';

/** onnxruntime-node's native folder for this platform (bin/napi-v6/<platform>/<arch>), if found. */
export function ortBinDir(): string | null {
  try {
    const entry = createRequire(currentModuleFile()).resolve('onnxruntime-node');
    const dir = join(dirname(entry), '..', 'bin', 'napi-v6', process.platform, process.arch);
    // In a packaged app native files live outside the asar archive.
    const unpacked = dir.replace(/app\.asar([\\/])/, 'app.asar.unpacked$1');
    return existsSync(unpacked) ? unpacked : existsSync(dir) ? dir : null;
  } catch {
    return null;
  }
}

function backendNames(): Set<string> {
  try {
    return new Set(onnxRuntime().listSupportedBackends().map((b) => b.name));
  } catch {
    return new Set(['cpu']);
  }
}

function cudaStatus(backends: Set<string>): ProviderStatus {
  const name = 'cuda';
  if (process.platform === 'darwin') return { name, available: false, reason: 'CUDA is not available on macOS' };
  if (process.platform === 'win32') {
    return { name, available: false, reason: "onnxruntime-node's Windows build ships no CUDA binaries; DirectML (dml) drives GPUs on Windows" };
  }
  if (process.arch !== 'x64') return { name, available: false, reason: `onnxruntime-node has CUDA binaries for Linux x64 only, not ${process.arch}` };
  if (!backends.has('cuda')) return { name, available: false, reason: 'this onnxruntime-node build has no CUDA support' };
  const bin = ortBinDir();
  if (!bin || !existsSync(join(bin, 'libonnxruntime_providers_cuda.so'))) {
    return { name, available: false, reason: `onnxruntime-node was installed without CUDA binaries (${CUDA_HINT})` };
  }
  return { name, available: true, reason: 'CUDA binaries installed; needs an NVIDIA driver with CUDA 12 and cuDNN 9 libraries when a session starts' };
}

export function availableProviders(): ProviderStatus[] {
  const backends = backendNames();
  return [
    cudaStatus(backends),
    process.platform === 'win32' && backends.has('dml')
      ? { name: 'dml', available: true, reason: 'DirectML ships with onnxruntime-node on Windows' }
      : { name: 'dml', available: false, reason: process.platform === 'win32' ? 'this onnxruntime-node build has no DirectML' : 'DirectML is Windows only' },
    process.platform === 'darwin' && backends.has('coreml')
      ? { name: 'coreml', available: true, reason: 'CoreML ships with onnxruntime-node on macOS' }
      : { name: 'coreml', available: false, reason: process.platform === 'darwin' ? 'this onnxruntime-node build has no CoreML' : 'CoreML is macOS only' },
    { name: 'cpu', available: true, reason: 'always available' },
  ];
}

/** The providers to try, best first; CPU is always last, as the fallback. */
export function providerOrder(request: ProviderRequest): ProviderName[] {
  if (request === 'auto') return ['cuda', 'dml', 'coreml', 'cpu'];
  return request === 'cpu' ? ['cpu'] : [request, 'cpu'];
}
