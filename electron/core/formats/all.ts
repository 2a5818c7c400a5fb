// Every dataset format, one descriptor module each (./registry.ts says how to add one). The order here is
// the order the export dialog (within a family), the CLI's --help and docs/formats.md list them in;
// detection goes by each descriptor's detect.rank.
import type { FormatDescriptor } from './registry';

export const ALL_FORMATS: readonly FormatDescriptor[] = [];
