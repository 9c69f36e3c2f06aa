// Reads TAP on stdin with node-tap's parser and prints what it read, as
// JSON: the plan, each test point (ok, id, name) and the final result.
import { Parser } from 'tap-parser';

const points = [];
const p = new Parser({ strict: true }, (result) => {
  process.stdout.write(JSON.stringify({ result, points }) + '\n');
});
p.on('assert', (a) => points.push({ ok: a.ok, id: a.id, name: a.name, diag: a.diag || null }));
process.stdin.pipe(p);
