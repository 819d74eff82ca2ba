// Opens a predicted study in the OHIF viewer in headless Chromium, as a radiologist would from
// the report's link, and checks what is on the screen: the study browser lists the CT, the SR
// and the captures; the CT is drawn in the viewport; a capture opens and is drawn; the SR is
// opened. Screenshots (ohif-*.png) and the text on the screen (ohif-*.txt) are written to OUT.
// OHIF 3.13 draws an SR's findings only where they hold an image region (SCOORD); ours name
// slices, not regions, so opening the SR draws nothing: the check is that OHIF read one finding
// per slice (its log names each "slice k of N"), and docs/REPORT.md says what a reader sees.
// Usage: node check.mjs URL STUDY_UID SR_DESC SC_DESC SLICES OUT
import fs from 'node:fs';
import puppeteer from 'puppeteer-core';
import pngjs from 'pngjs';

const { PNG } = pngjs;
const [url, study, srDesc, scDesc, slices, out] = process.argv.slice(2);
let failed = 0;
const fail = (m) => { console.error(`FAIL: ${m}`); failed += 1; };
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const browser = await puppeteer.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
    '--ignore-gpu-blocklist', '--window-size=1600,1000', '--disable-dev-shm-usage'],
  defaultViewport: { width: 1600, height: 1000 },
});
try {
  const page = await browser.newPage();
  const logs = [];
  page.on('console', (m) => logs.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => logs.push(`pageerror: ${e.message}`));
  // the viewport: the largest canvas on the page
  const viewport = () => page.evaluate(() => {
    const r = [...document.querySelectorAll('canvas')]
      .map((e) => e.getBoundingClientRect()).filter((b) => b.width > 200 && b.height > 200)
      .sort((a, b) => b.width * b.height - a.width * a.height)[0];
    return r && { x: r.x, y: r.y, width: r.width, height: r.height };
  });
  // the spread of grey levels in the viewport: an empty one is a single colour
  const spread = async () => {
    const box = await viewport();
    if (!box) return 0;
    const png = PNG.sync.read(await page.screenshot({ clip: box }));
    const v = [];
    for (let i = 0; i < png.data.length; i += 4) v.push((png.data[i] + png.data[i + 1] + png.data[i + 2]) / 3);
    const m = v.reduce((a, b) => a + b, 0) / v.length;
    return Math.sqrt(v.reduce((a, b) => a + (b - m) ** 2, 0) / v.length);
  };
  const drawn = async (what) => {
    let s = 0;
    for (let t = 0; t < 30 && s < 10; t++) { await sleep(1000); s = await spread(); }
    console.log(`${what}: grey-level spread in the viewport ${s.toFixed(1)}`);
    if (s < 10) fail(`${what} is not drawn in the viewport (grey-level spread ${s.toFixed(1)})`);
  };
  // a series' thumbnail in the study browser, by its description, opened as a reader does
  const open = async (desc) => {
    const box = await page.evaluate((d) => {
      const el = [...document.querySelectorAll('*')]
        .filter((e) => e.children.length === 0 && e.textContent.includes(d))[0];
      const r = el && el.getBoundingClientRect();
      return r && { x: r.x + r.width / 2, y: r.y + r.height / 2 };
    }, desc);
    if (!box) { fail(`no thumbnail "${desc}"`); return; }
    await page.mouse.click(box.x, box.y, { count: 2 });
  };
  const keep = async (name) => {
    await page.screenshot({ path: `${out}/ohif-${name}.png` });
    fs.writeFileSync(`${out}/ohif-${name}.txt`, await page.evaluate(() => document.body.innerText));
  };

  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60000 });
  if (!(await page.evaluate(() => location.href)).includes(study)) fail('the viewer is not on the study');
  await page.waitForFunction(
    (a, b) => document.body.innerText.includes(a) && document.body.innerText.includes(b),
    { timeout: 90000 }, srDesc, scDesc,
  ).catch(() => fail(`the study browser does not list both "${srDesc}" and "${scDesc}"`));
  // OHIF's first-visit notices
  for (let i = 0; i < 20; i++) {
    const left = await page.evaluate(() => {
      const b = [...document.querySelectorAll('button, span, div, a')]
        .filter((e) => e.children.length === 0 && ['Skip all', 'Confirm and hide'].includes(e.textContent.trim()));
      b.forEach((e) => e.click());
      return b.length;
    });
    if (!left) break;
    await sleep(500);
  }
  // the CT, scrolled to the middle of the head
  const box = await viewport();
  if (box) {
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    for (let i = 0; i < 50; i++) await page.mouse.wheel({ deltaY: 100 });
  }
  await drawn('the CT');
  await keep('ct');
  // a series in the viewport is named in its corner: the capture's description shows twice
  const shown = (d) => page.evaluate((x) => document.body.innerText.split(x).length - 1, d);
  await open(scDesc);
  for (let t = 0; t < 30 && (await shown(scDesc)) < 2; t++) await sleep(1000);
  if ((await shown(scDesc)) < 2) fail('the Secondary Capture did not open in the viewport');
  await drawn('a Secondary Capture');
  await keep('capture');
  await open(srDesc);
  await sleep(5000);
  await keep('sr');
  const read = new Set(logs.map((l) => (l.match(/slice (\d+) of (\d+)/) || [])[0]).filter(Boolean));
  console.log(`the SR: OHIF read ${read.size} slice findings (of ${slices} slices), drew none`);
  if (read.size !== Number(slices)) fail(`OHIF read ${read.size} of the SR's ${slices} slice findings`);
  fs.writeFileSync(`${out}/ohif-console.txt`, logs.join('\n'));
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
