// check.mjs FILE.mmd...: parse each file with Mermaid's own parser (the
// mermaid package's mermaid.parse, what mermaid.live and GitHub run before
// drawing) and print, as JSON on stdout, what it read: the participants
// and every message and note, with Mermaid's entity codes (#59;) decoded.
// A parse error goes to stderr and the exit status is 1.
//
// Run it from the timeline package's tests (TestMermaidParses), after
// `npm ci` here.
import { readFileSync } from 'node:fs';
import mermaid from 'mermaid';

mermaid.initialize({ startOnLoad: false });

// Mermaid swaps #NN; and #name; for placeholders before parsing and back
// to HTML entities when it draws; undo them to get the text a reader sees.
const decode = (s) =>
  String(s ?? '')
    .replace(/\uFB02\u00B0\u00B0(\d+)\u00B6\u00DF/g, (_, n) => String.fromCodePoint(Number(n)))
    .replace(/\uFB02\u00B0(\w+)\u00B6\u00DF/g, '&$1;');

let failed = false;
const out = [];
for (const file of process.argv.slice(2)) {
  const text = readFileSync(file, 'utf8');
  try {
    await mermaid.parse(text); // throws on a syntax error
    const diagram = await mermaid.mermaidAPI.getDiagramFromText(text);
    if (diagram.type !== 'sequence') {
      throw new Error(`a ${diagram.type} diagram, not a sequenceDiagram`);
    }
    const db = diagram.db;
    const kinds = Object.fromEntries(Object.entries(db.LINETYPE).map(([k, v]) => [v, k]));
    out.push({
      file,
      participants: [...db.getActors().values()].map((a) => ({ id: a.name, name: decode(a.description) })),
      messages: db.getMessages().map((m) => ({ from: m.from, to: m.to, kind: kinds[m.type] ?? String(m.type), text: decode(m.message) })),
    });
  } catch (e) {
    failed = true;
    console.error(`${file}: ${e.message ?? e}`);
  }
}
console.log(JSON.stringify(out, null, 1));
process.exit(failed ? 1 : 0);
