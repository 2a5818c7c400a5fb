// A trace format's descriptor (./traces/descriptor.ts) as the registry's (../registry.ts): read, detected
// after the older trajectory formats' own fields and before openai-tools (ranks 251–259, in ./traces
// order), written through the trajectory pass.
import type { FormatDescriptor } from '../descriptor';
import type { TraceDescriptor } from './traces';

export function fromTrace(trace: TraceDescriptor, index: number): FormatDescriptor {
  return {
    name: trace.name,
    family: 'trajectories',
    title: trace.title,
    detect: { rank: 251 + index, why: (record) => trace.detect(record) },
    parse: trace.parse,
    group: trace.group,
    write: (passes) => passes.trajectories((item) => trace.encode(item)),
    carries: 'content',
    doc: trace.doc,
  };
}
