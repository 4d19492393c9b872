import type { Locator } from 'playwright-core';
import sharp from 'sharp';

/** How many of the viewer's pixels are not its background (#eef1f5): the model drawn. */
export async function drawnPixels(viewer: Locator): Promise<number> {
  const { data, info } = await sharp(await viewer.screenshot())
    .raw()
    .toBuffer({ resolveWithObject: true });
  let drawn = 0;
  for (let i = 0; i < data.length; i += info.channels) {
    const off =
      Math.abs((data[i] ?? 0) - 0xee) +
      Math.abs((data[i + 1] ?? 0) - 0xf1) +
      Math.abs((data[i + 2] ?? 0) - 0xf5);
    if (off > 40) drawn += 1;
  }
  return drawn;
}
