// Prints the command shape of PowerShell scripts, one line per file:
// "FILE<TAB>SHA-256 of the shape<TAB>number of ERROR/MISSING nodes".
// The shape is the syntax tree's node types, with the text of command
// names, parameters, variables and operators, and with every verbatim
// (single-quoted) string and comment as one opaque leaf: two scripts that
// differ only inside quoted strings and comments have the same shape, and
// a string that broke out of its quotes changes it. PowerShell treats
// U+2018-U+201B as single and U+201C-U+201E as double quotes (PowerShell
// Language Specification 3.0, 2.3.5.2); tree-sitter-powershell knows only
// the ASCII ones, so they are mapped to ASCII before parsing.
// Used by TestHostileInputs with FABRICC_PS_PARSER naming a directory with
// npm-installed tree-sitter-powershell and web-tree-sitter.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { createRequire } from 'node:module';

const dir = process.env.FABRICC_PS_PARSER;
const require = createRequire(path.join(dir, 'package.json'));
const { Parser, Language } = await import(require.resolve('web-tree-sitter'));
await Parser.init();
const lang = await Language.load(path.join(dir, 'node_modules/tree-sitter-powershell/tree-sitter-powershell.wasm'));
const parser = new Parser();
parser.setLanguage(lang);
const opaque = new Set(['verbatim_string_characters', 'comment']);
const named = new Set(['command_name', 'command_parameter', 'variable']);
for (const f of process.argv.slice(2)) {
  const text = fs.readFileSync(f, 'utf8')
    .replace(/[\u2018-\u201b]/g, "'")
    .replace(/[\u201c-\u201e]/g, '"')
    .replace(/(\s-[A-Za-z_]+)(\d+)(?=[A-Za-z])/g, (_, a, d) => a + 'X'.repeat(d.length));
  const out = [];
  let errors = 0;
  const walk = (n) => {
    if (n.type === 'ERROR' || n.isMissing) errors++;
    if (opaque.has(n.type)) { out.push(n.type); return; }
    out.push(named.has(n.type) || n.childCount === 0 ? n.type + ':' + n.text : n.type);
    out.push('(');
    for (const c of n.children) walk(c);
    out.push(')');
  };
  walk(parser.parse(text).rootNode);
  const sum = crypto.createHash('sha256').update(out.join(' ')).digest('hex');
  console.log(`${f}\t${sum}\t${errors}`);
}
