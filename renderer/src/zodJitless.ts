// zod compiles object parsers with `new Function` unless told not to, and it probes for that when the
// first object schema is built: under the app's CSP (no 'unsafe-eval') the probe is refused and reported
// as a `securitypolicyviolation` on every load. Jitless first, before any module builds a schema, so this
// is main.tsx's first import (ES modules run in import order).
import { z } from 'zod';

z.config({ jitless: true });
