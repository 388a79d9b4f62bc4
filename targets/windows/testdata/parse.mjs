// Parses PowerShell scripts with the tree-sitter-powershell grammar and
// prints every ERROR or MISSING node; exits 1 if any. Used by
// TestTreeSitterParse when FABRICC_PS_PARSER names a directory holding
// node_modules/tree-sitter-powershell and node_modules/web-tree-sitter
// (npm install tree-sitter-powershell@0.26.4 web-tree-sitter).
//
// The grammar's command_parameter token is /-+[a-zA-Z_?\-`]+/, without
// digits, so it rejects real parameter names such as
// -PriorityValue8021Action (New-NetQosPolicy). Digits inside parameter
// names are replaced by letters of the same length before parsing.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const dir = process.env.FABRICC_PS_PARSER;
const require = createRequire(path.join(dir, 'package.json'));
const { Parser, Language } = await import(require.resolve('web-tree-sitter'));
await Parser.init();
const lang = await Language.load(path.join(dir, 'node_modules/tree-sitter-powershell/tree-sitter-powershell.wasm'));
const parser = new Parser();
parser.setLanguage(lang);
let bad = 0;
for (const f of process.argv.slice(2)) {
  // The UTF-8 byte-order mark that starts every script tells Windows
  // PowerShell the encoding; it is not part of the text.
  const text = fs.readFileSync(f, 'utf8').replace(/^\ufeff/, '').replace(/(\s-[A-Za-z_]+)(\d+)(?=[A-Za-z])/g, (_, a, d) => a + 'X'.repeat(d.length));
  const errs = [];
  const walk = (n) => {
    if (n.type === 'ERROR' || n.isMissing) errs.push(`${f}:${n.startPosition.row + 1}:${n.startPosition.column + 1}: ${n.isMissing ? 'missing ' : ''}${n.type}: ${n.text.slice(0, 80)}`);
    for (const c of n.children) walk(c);
  };
  walk(parser.parse(text).rootNode);
  errs.forEach((e) => console.log(e));
  if (errs.length) bad++;
}
process.exit(bad ? 1 : 0);
