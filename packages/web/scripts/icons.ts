// Renders public/icons/icon.svg to the PNG icons the manifest lists, with the e2e Chromium.
// Run after changing the SVG: node --import tsx packages/web/scripts/icons.ts
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { chromium } from "playwright-core";

const ICONS = resolve(import.meta.dirname, "../public/icons");
const svg = await readFile(`${ICONS}/icon.svg`, "utf8");

/** A maskable icon is cropped to a circle or squircle by the launcher: keep the drawing in the
 * middle 80 % (the safe zone) on a full-bleed background. */
function page(size: number, maskable: boolean): string {
  const inner = maskable ? Math.round(size * 0.8) : size;
  const background = maskable ? "#1d5fc2" : "transparent";
  return `<!doctype html><html><body style="margin:0;width:${size}px;height:${size}px;display:grid;place-items:center;background:${background}">
    <div style="width:${inner}px;height:${inner}px">${svg.replace("<svg ", `<svg width="${inner}" height="${inner}" `)}</div>
  </body></html>`;
}

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"],
});
try {
  const outputs = [
    { file: "icon-192.png", size: 192, maskable: false },
    { file: "icon-512.png", size: 512, maskable: false },
    { file: "icon-maskable-512.png", size: 512, maskable: true },
    { file: "apple-touch-icon.png", size: 180, maskable: true },
  ];
  for (const { file, size, maskable } of outputs) {
    const context = await browser.newContext({ viewport: { width: size, height: size } });
    const tab = await context.newPage();
    await tab.setContent(page(size, maskable));
    await tab.screenshot({ path: `${ICONS}/${file}`, omitBackground: !maskable });
    await context.close();
    console.log(`${ICONS}/${file}`);
  }
} finally {
  await browser.close();
}
