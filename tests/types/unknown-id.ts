// Not in tsconfig.json: tests/node/types.test.js compiles it alone (tsconfig.unknown-id.json) and
// reads tsc's messages, to check that an unknown scheme id is reported on the id, naming the ids the
// call takes.
import { load } from 'relpos';

const rp = await load();
rp.bias('bogus', { n: 8 });
rp.frequencies('llama3', { d: 64 });
