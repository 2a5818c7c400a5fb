// The trace formats, one descriptor module each (./descriptor.ts says what one holds and how to add one);
// formats/all.ts registers them through ../traceFormat.ts. Detection asks them in this order (ranks 251…),
// after the older trajectory formats' own fields and before openai-tools.
import { anthropicMessages } from './anthropicMessages';
import { claudeCode } from './claudeCode';
import { codexCli } from './codexCli';
import type { TraceDescriptor } from './descriptor';
import { inspectAi } from './inspectAi';
import { langfuse } from './langfuse';
import { langsmith } from './langsmith';
import { mcp } from './mcp';
import { otelGenai } from './otelGenai';

export type { TraceDescriptor } from './descriptor';

export const TRACE_DESCRIPTORS: readonly TraceDescriptor[] = [inspectAi, claudeCode, codexCli, anthropicMessages, otelGenai, langfuse, langsmith, mcp];
