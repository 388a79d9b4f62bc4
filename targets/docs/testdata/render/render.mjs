// Renders the Mermaid diagram of fabric.md files in Debian's Chromium
// with the mermaid package, as GitHub and GitLab would show them, and
// reports what each SVG holds. Used by TestMermaidInChromium
// (targets/docs/render_test.go).
//
// node render.mjs FABRIC_MD OUT_DIR [FABRIC_MD OUT_DIR ...]
//
// Writes OUT_DIR/topology.svg and OUT_DIR/topology.png for each pair and
// prints one JSON line per pair, in order:
// {"nodes": [{"id", "label"}], "edges": [{"id"}], "labels": [...], "width", "height"}.
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { tmpdir } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';

const args = process.argv.slice(2);
if (args.length === 0 || args.length % 2 !== 0) {
  console.error('usage: node render.mjs FABRIC_MD OUT_DIR [FABRIC_MD OUT_DIR ...]');
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const mermaidJS = pathToFileURL(join(here, 'node_modules', 'mermaid', 'dist', 'mermaid.min.js')).href;
const profile = mkdtempSync(join(tmpdir(), 'fabricc-chromium-'));
const page_ = join(profile, 'page.html');
writeFileSync(page_, `<!doctype html><html><head><meta charset="utf-8"><script src="${mermaidJS}"></script></head>` +
  `<body style="margin:0;background:#fff"><div id="out"></div></body></html>`);

// A fresh profile folder every run (Playwright passes it to Chromium as
// --user-data-dir); no network: the page and mermaid are local files.
const browser = await chromium.launchPersistentContext(join(profile, 'data'), {
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  viewport: { width: 1400, height: 900 },
});
try {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(pathToFileURL(page_).href);
  for (let i = 0; i < args.length; i += 2) {
    console.log(JSON.stringify(await render(page, errors, args[i], args[i + 1])));
  }
} finally {
  await browser.close();
  rmSync(profile, { recursive: true, force: true });
}

// render draws the diagram of one fabric.md, saves SVG and PNG into
// outDir and returns what the SVG holds.
async function render(page, errors, mdPath, outDir) {
  const m = readFileSync(mdPath, 'utf8').match(/```mermaid\n([\s\S]*?)```/);
  if (!m) {
    throw new Error(`${mdPath}: no mermaid block`);
  }
  // The SVG is as wide as the page allows: measure it on a wide page,
  // then shrink the page to it for the screenshot.
  await page.setViewportSize({ width: 1400, height: 900 });
  const result = await page.evaluate(async (text) => {
    // GitHub renders with Mermaid's defaults and securityLevel strict.
    mermaid.initialize({ startOnLoad: false, securityLevel: 'strict' });
    const { svg } = await mermaid.render('topology', text);
    document.getElementById('out').innerHTML = svg;
    const root = document.querySelector('#out svg');
    const nodes = [...root.querySelectorAll('g.node')].map((n) => ({ id: n.id, label: n.textContent.trim() }));
    const edges = [...root.querySelectorAll('path.flowchart-link')].map((e) => ({ id: e.id }));
    const labels = [...root.querySelectorAll('g.edgeLabel')].map((l) => l.textContent.trim());
    const box = root.getBoundingClientRect();
    return { svg, nodes, edges, labels, width: box.width, height: box.height };
  }, m[1]);
  if (errors.length) {
    throw new Error(errors.join('\n'));
  }
  writeFileSync(join(outDir, 'topology.svg'), result.svg);
  await page.setViewportSize({ width: Math.ceil(result.width) + 20, height: Math.ceil(result.height) + 20 });
  await page.locator('#out svg').screenshot({ path: join(outDir, 'topology.png') });
  delete result.svg;
  return result;
}
